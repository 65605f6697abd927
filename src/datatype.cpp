#include <oompi/rt/datatype.hpp>

#include "detail/reclaim.hpp"

namespace oompi::rt {

struct datatype::state {
  MPI_Datatype handle = MPI_DATATYPE_NULL;
  bool owned = false;
  bool closed = false;
  state() = default;
  state(const state&) = delete;  // one state per handle: its destructor may free the handle
  state& operator=(const state&) = delete;
  ~state() {
    // Possibly a finalizer thread: no MPI call here, free it on the MPI thread later.
    if (owned && !closed) detail::defer_type_free(handle);
  }
};

namespace {
datatype::state* checked(const std::shared_ptr<datatype::state>& st, const char* what) {
  if (!st) detail::throw_null(what, "datatype");
  if (st->closed) detail::throw_closed(what, "datatype");
  return st.get();
}
}  // namespace

datatype datatype::of(type_kind kind) {
  auto s = std::make_shared<state>();
  s->handle = detail::builtin_type(kind);
  return datatype(std::move(s));
}

MPI_Datatype datatype::native(const char* what) const { return checked(st_, what)->handle; }

namespace {
// Builds and commits a derived type; the caller wraps the handle in a state (no temporary
// state may exist: its destructor would schedule the handle to be freed).
template <class F>
std::shared_ptr<datatype::state> make_derived(const char* routine, F&& make) {
  oompi::detail::require_running(routine);
  detail::drain();
  MPI_Datatype t = MPI_DATATYPE_NULL;
  if (const int rc = make(&t); rc != MPI_SUCCESS) oompi::detail::throw_mpi_error(routine, rc);
  if (const int rc = MPI_Type_commit(&t); rc != MPI_SUCCESS) {
    MPI_Type_free(&t);
    oompi::detail::throw_mpi_error("MPI_Type_commit", rc);
  }
  auto s = std::make_shared<datatype::state>();
  s->handle = t;
  s->owned = true;
  return s;
}
}  // namespace

datatype datatype::contiguous(int count, const datatype& base) {
  const MPI_Datatype b = base.native("datatype.contiguous");
  if (count < 0) throw std::invalid_argument("datatype.contiguous: negative count");
  return datatype(make_derived("MPI_Type_contiguous", [&](MPI_Datatype* t) {
    return MPI_Type_contiguous(count, b, t);
  }));
}

datatype datatype::vector(int count, int blocklength, int stride, const datatype& base) {
  const MPI_Datatype b = base.native("datatype.vector");
  if (count < 0 || blocklength < 0)
    throw std::invalid_argument("datatype.vector: negative count or block length");
  return datatype(make_derived("MPI_Type_vector", [&](MPI_Datatype* t) {
    return MPI_Type_vector(count, blocklength, stride, b, t);
  }));
}

std::int64_t datatype::size() const {
  const MPI_Datatype t = native("datatype.size");
  MPI_Count n = 0;
  OOMPI_CHECK(MPI_Type_size_x, (t, &n));
  return static_cast<std::int64_t>(n);
}

std::int64_t datatype::extent() const {
  const MPI_Datatype t = native("datatype.extent");
  MPI_Count lb = 0, ext = 0;
  OOMPI_CHECK(MPI_Type_get_extent_x, (t, &lb, &ext));
  return static_cast<std::int64_t>(ext);
}

std::string datatype::name() const {
  const MPI_Datatype t = native("datatype.name");
  oompi::detail::require_running("MPI_Type_get_name");
  char text[MPI_MAX_OBJECT_NAME];
  int len = 0;
  OOMPI_CHECK(MPI_Type_get_name, (t, text, &len));
  return std::string(text, static_cast<std::size_t>(len));
}

bool datatype::is_builtin() const { return !checked(st_, "datatype.is_builtin")->owned; }

bool datatype::is_null() const noexcept { return !st_ || st_->closed; }

void datatype::close() {
  if (!st_ || st_->closed || !st_->owned) return;  // builtins are never closed
  if (oompi::detail::mpi_usable()) MPI_Type_free(&st_->handle);
  st_->closed = true;
  st_->handle = MPI_DATATYPE_NULL;
}

}  // namespace oompi::rt
