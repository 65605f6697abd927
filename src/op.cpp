#include <oompi/rt/datatype.hpp>
#include <oompi/rt/op.hpp>

#include <oompi/op.hpp>

#include "detail/comm_state.hpp"
#include "detail/reclaim.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

namespace oompi::rt {

user_function::~user_function() = default;

void user_function::fail(const std::string& message) {
  failed_ = true;
  message_ = message;
}

bool user_function::take_failure(std::string& message) {
  if (!failed_) return false;
  failed_ = false;
  message = std::move(message_);
  message_.clear();
  return true;
}

struct op::state {
  oompi::op core;
  op_kind kind = op_kind::no_op;
  bool user = false;
  bool closed = false;
};

namespace {
op::state* checked(const std::shared_ptr<op::state>& st, const char* what) {
  return detail::live_state(st, what, "op");
}
}  // namespace

op op::of(op_kind kind) {
  auto s = std::make_shared<state>();
  s->core = oompi::op(detail::builtin_op(kind));  // validates the kind; borrowed, never freed
  s->kind = kind;
  return op(std::move(s));
}

op op::create(user_function* fn, bool commutative) {
  if (fn == nullptr) throw std::invalid_argument("op.create: null user function");
  detail::drain();
  auto s = std::make_shared<state>();
  // The core's run-time user op: a trampoline slot that catches whatever the function throws
  // and rethrows it from the collective. The datatype handed to the function is a borrowed
  // facade handle made per call (no MPI call, never freed).
  s->core = oompi::op(
      [fn](const void* in, void* inout, int len, MPI_Datatype type) {
        MPI_Aint lb = 0, extent = 0, true_lb = 0, true_extent = 0;
        MPI_Type_get_extent(type, &lb, &extent);
        MPI_Type_get_true_extent(type, &true_lb, &true_extent);
        auto call = [&](const void* a, void* b) {
          fn->call(static_cast<std::int64_t>(reinterpret_cast<std::intptr_t>(a)),
                   static_cast<std::int64_t>(reinterpret_cast<std::intptr_t>(b)), len,
                   static_cast<std::int64_t>(extent), datatype::borrow(type));
        };
        if (true_lb == 0 && true_extent == extent) {
          call(in, inout);
        } else {
          // The function sees len * extent bytes, but MPI's buffers hold only the data span of
          // the elements (a struct with tail padding: 20 of 24 bytes for the last one). Hand it
          // copies as big as it reads, and copy back only the data span.
          const MPI_Aint span_end = (len - 1) * extent + true_lb + true_extent;
          const MPI_Aint lo = std::min<MPI_Aint>(0, true_lb);
          const MPI_Aint hi = std::max<MPI_Aint>(len * extent, span_end);
          std::vector<char> a(static_cast<std::size_t>(hi - lo)), b(a.size());
          const auto span = static_cast<std::size_t>(span_end - true_lb);
          std::memcpy(a.data() + (true_lb - lo), static_cast<const char*>(in) + true_lb, span);
          std::memcpy(b.data() + (true_lb - lo), static_cast<char*>(inout) + true_lb, span);
          call(a.data() - lo, b.data() - lo);
          std::memcpy(static_cast<char*>(inout) + true_lb, b.data() + (true_lb - lo), span);
        }
        std::string message;
        if (fn->take_failure(message)) throw user_function_error(message);
      },
      commutative);
  s->user = true;
  return op(std::move(s));
}

op_kind op::kind() const { return checked(st_, "op.kind")->kind; }
bool op::is_user() const { return checked(st_, "op.is_user")->user; }
bool op::is_commutative() const { return checked(st_, "op.is_commutative")->core.commutative(); }
bool op::is_null() const noexcept { return !st_ || st_->closed; }

void op::close() {
  if (!st_ || st_->closed || !st_->user) return;  // predefined ops stay usable
  st_->core = oompi::op();  // releases the trampoline slot (no MPI call)
  st_->closed = true;
}

const oompi::op& op::core(const char* what) const { return checked(st_, what)->core; }

void op::reduce_local(const buffer& in, buffer& inout) const {
  const auto& o = core("op.reduce_local");
  detail::check_buffer(in, "op.reduce_local");
  detail::check_buffer(inout, "op.reduce_local");
  auto r = detail::raw(inout);
  oompi::reduce_local(detail::raw(in), r, o);
}

}  // namespace oompi::rt
