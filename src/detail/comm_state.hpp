#ifndef OOMPI_RT_DETAIL_COMM_STATE_HPP
#define OOMPI_RT_DETAIL_COMM_STATE_HPP

// What the facade's comm.cpp and collectives.cpp share: the communicator's state, the
// conversion of run-time buffers to the core's raw buffers, and requests that own the
// keep-alives of their buffers.

#include <oompi/rt/buffer.hpp>
#include <oompi/rt/comm.hpp>

#include <oompi/communicator.hpp>
#include <oompi/topology.hpp>

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace oompi::rt {

struct comm::state {
  // Views of one handle, none owning: this state decides when to free it.
  oompi::intracommunicator c;   // an intracommunicator (also one with a topology)
  oompi::intercommunicator ic;  // or an intercommunicator
  const oompi::communicator* pt = &c;  // point-to-point: &c or &ic
  std::unique_ptr<oompi::cartesian_communicator> cart;  // set when the handle has that topology
  std::unique_ptr<oompi::dist_graph_communicator> dgraph;
  std::unique_ptr<oompi::graph_communicator> graph;
  bool owned = false;
  bool closed = false;
  explicit state(oompi::intracommunicator&& ic, bool own) : c(std::move(ic)), owned(own) {}
  state(const state&) = delete;
  state& operator=(const state&) = delete;
  // Not freed here: MPI_Comm_free is collective and this may be a finalizer thread.

  /// The state of a handle of any kind (inter, topologies), tested once here.
  static std::shared_ptr<state> adopt(MPI_Comm h, bool own);
  bool inter() const noexcept { return pt == &ic; }
  MPI_Comm handle() const noexcept { return pt->native(); }
};

// Inline: two compares on every call of every binding (the throws are out of line).
inline const comm::state& comm::live(const char* what) const {
  if (__builtin_expect(!st_, 0)) detail::throw_null(what, "comm");
  if (__builtin_expect(st_->closed, 0)) detail::throw_closed(what, "comm");
  return *st_;
}

namespace detail {

[[noreturn]] void throw_bad_buffer(const buffer& b, const char* what);

inline oompi::raw_buffer raw(const buffer& b) {
  return oompi::raw_buffer(b.data, static_cast<std::size_t>(b.count), b.type);
}

/// The handles of a list of datatypes (alltoallw); closed_error / logic_error for a closed or
/// null one.
inline std::vector<MPI_Datatype> natives(const std::vector<datatype>& types, const char* what) {
  std::vector<MPI_Datatype> out;
  out.reserve(types.size());
  for (const auto& t : types) out.push_back(t.native(what));
  return out;
}

inline void check_buffer(const buffer& b, const char* what) {
  if (__builtin_expect(b.count < 0 || b.type == MPI_DATATYPE_NULL, 0)) throw_bad_buffer(b, what);
}

// Everything a facade request keeps until its operation completes: the core request's own
// keep (copies of count vectors, the check that rethrows a user op's exception), the
// buffers' keep-alives (pins, global references, Py_buffers) and anything else (the op).
struct request_keeps final : oompi::detail::keep_alive {
  std::unique_ptr<oompi::detail::keep_alive> core, first, second;
  std::shared_ptr<void> extra;
  void completed() override {
    if (core) core->completed();
  }
  void arrived(const MPI_Status& s) override {  // a binding's copy of a receive's array
    for (auto* k : {core.get(), first.get(), second.get()})
      if (k) k->arrived(s);
  }
};

// The core's request for borrowed buffers, re-made to own what keeps them valid.
inline oompi::request owning(oompi::request&& r, const buffer* a, const buffer* b = nullptr,
                             std::shared_ptr<void> extra = nullptr) {
  auto k = std::make_unique<request_keeps>();
  k->core = r.release_keep();
  if (a) k->first = std::move(a->keep);
  if (b) k->second = std::move(b->keep);
  k->extra = std::move(extra);
  MPI_Request h = r.native();
  r.native_handle() = MPI_REQUEST_NULL;
  // The core's policy kept: a receive closed or dropped while pending is cancelled, not
  // waited for (a receive nobody sends to would never complete).
  return oompi::request(h, std::move(k), r.policy());
}

}  // namespace detail
}  // namespace oompi::rt

#endif  // OOMPI_RT_DETAIL_COMM_STATE_HPP
