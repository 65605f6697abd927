// Info objects, communicator hints, nonblocking dup and attributes (keyvals) of the facade.
// States hold raw handles (the core's oompi::info frees in its destructor, which may run on a
// finalizer thread here): operations go through non-owning core views, frees are deferred.
#include <oompi/rt/attribute.hpp>
#include <oompi/rt/info.hpp>

#include "detail/comm_state.hpp"
#include "detail/reclaim.hpp"

#include <oompi/attribute.hpp>
#include <oompi/info.hpp>

#include <stdexcept>
#include <string>
#include <utility>

namespace oompi::rt {

// --- info ------------------------------------------------------------------------------------

struct info::state {
  MPI_Info handle = MPI_INFO_NULL;
  bool owned = false;
  bool closed = false;
  state(MPI_Info h, bool own) noexcept : handle(h), owned(own) {}
  state(const state&) = delete;
  state& operator=(const state&) = delete;
  ~state() {
    if (owned && !closed) detail::defer_info_free(handle);  // no MPI call on this thread
  }
  oompi::info view() const noexcept { return oompi::info(handle, false); }
};

const info::state& info::live(const char* what) const {
  return *detail::live_state(st_, what, "info", "info.create");
}

info info::create() {
  oompi::detail::require_running("MPI_Info_create");
  detail::drain();
  MPI_Info h = MPI_INFO_NULL;
  OOMPI_CHECK(MPI_Info_create, (&h));
  return adopt(h);
}

info info::env() {
  oompi::detail::require_running("MPI_INFO_ENV");
  info i;
  i.st_ = std::make_shared<state>(MPI_INFO_ENV, false);
  return i;
}

info info::adopt(MPI_Info handle) {
  info i;
  if (handle == MPI_INFO_NULL) return i;
  try {
    i.st_ = std::make_shared<state>(handle, true);
  } catch (...) {
    MPI_Info_free(&handle);
    throw;
  }
  return i;
}

MPI_Info info::native(const char* what) const {
  if (!st_) return MPI_INFO_NULL;
  return live(what).handle;
}

void info::set(const std::string& key, const std::string& value) {
  live("info.set").view().set(key, value);
}
std::string info::get(const std::string& key) const {
  auto v = live("info.get").view().get(key);
  if (!v) throw std::out_of_range("info.get: no key \"" + key + "\"");
  return *v;
}
bool info::contains(const std::string& key) const {
  return live("info.contains").view().contains(key);
}
bool info::remove(const std::string& key) { return live("info.remove").view().erase(key); }
int info::size() const { return live("info.size").view().size(); }
std::vector<std::string> info::keys() const { return live("info.keys").view().keys(); }
info info::dup() const {
  const auto& s = live("info.dup");
  detail::drain();
  MPI_Info h = MPI_INFO_NULL;
  OOMPI_CHECK(MPI_Info_dup, (s.handle, &h));
  return adopt(h);
}
void info::close() {
  if (!st_ || st_->closed) return;
  st_->closed = true;
  if (st_->owned && oompi::detail::mpi_usable()) OOMPI_CHECK(MPI_Info_free, (&st_->handle));
}
bool info::is_null() const noexcept { return !st_ || st_->closed; }

// --- communicator hints, idup, predefined attributes ----------------------------------------

comm comm::dup_with_info(const info& hints) const {
  const auto& s = live("comm.dup_with_info");
  const MPI_Info i = hints.native("comm.dup_with_info");
  if (i == MPI_INFO_NULL) return dup();
  oompi::detail::require_running("MPI_Comm_dup_with_info");
  detail::drain();
  MPI_Comm h = MPI_COMM_NULL;
  OOMPI_CHECK(MPI_Comm_dup_with_info, (s.handle(), i, &h));
  return comm(state::adopt(h, true));
}

void comm::set_info(const info& hints) const {
  const auto& s = live("comm.set_info");
  const MPI_Info i = hints.native("comm.set_info");
  if (i == MPI_INFO_NULL)
    throw std::invalid_argument("comm.set_info: null info (info.create() makes one)");
  oompi::detail::require_running("MPI_Comm_set_info");
  OOMPI_CHECK(MPI_Comm_set_info, (s.handle(), i));
}

info comm::get_info() const {
  const auto& s = live("comm.get_info");
  oompi::detail::require_running("MPI_Comm_get_info");
  detail::drain();
  MPI_Info i = MPI_INFO_NULL;
  OOMPI_CHECK(MPI_Comm_get_info, (s.handle(), &i));
  return info::adopt(i);
}

// The new handle's slot is shared with the request's keep-alive: MPI writes it at completion,
// even when the future is collected first.
struct comm_future::state {
  std::shared_ptr<MPI_Comm> slot = std::make_shared<MPI_Comm>(MPI_COMM_NULL);
  request req;
  comm result;
  bool done = false;
};

comm_future comm::idup() const {
  const auto& s = live("comm.idup");
  oompi::detail::require_running("MPI_Comm_idup");
  detail::drain();
  auto f = std::make_shared<comm_future::state>();
  MPI_Request r = MPI_REQUEST_NULL;
  OOMPI_CHECK(MPI_Comm_idup, (s.handle(), f->slot.get(), &r));
  f->req = request(oompi::request(
      r, std::make_unique<oompi::detail::kept<std::shared_ptr<MPI_Comm>>>(f->slot)));
  return comm_future(std::move(f));
}

request comm_future::get_request() const {
  if (!st_) detail::throw_null("comm_future.get_request", "comm_future");
  return st_->req;
}

comm comm_future::get() {
  if (!st_) detail::throw_null("comm_future.get", "comm_future");
  if (!st_->done) {
    if (st_->req.is_pending()) st_->req.wait();
    // Taken out of the slot first: adopt frees the handle when it fails, and a second get()
    // must not wrap a freed handle.
    const MPI_Comm h = std::exchange(*st_->slot, MPI_COMM_NULL);
    if (h == MPI_COMM_NULL)
      throw std::logic_error("comm_future.get: the duplication failed; there is no communicator");
    st_->result = comm(comm::state::adopt(h, true));
    st_->done = true;
  }
  return st_->result;
}

int comm::tag_ub() { return oompi::tag_ub(); }
bool comm::wtime_is_global() { return oompi::wtime_is_global(); }
int comm::universe_size() { return oompi::universe_size().value_or(-1); }
int comm::appnum() { return oompi::appnum().value_or(-1); }

// --- keyvals ---------------------------------------------------------------------------------

struct keyval::state {
  int key = MPI_KEYVAL_INVALID;
  bool closed = false;
  explicit state(int k) noexcept : key(k) {}
  state(const state&) = delete;
  state& operator=(const state&) = delete;
  ~state() {
    if (!closed) detail::defer_keyval_free(key);
  }
};

namespace {
// Values are heap int64s owned by MPI's attribute table: copied on dup (when the keyval says
// so), deleted with their communicator or when replaced/removed. Never throw into MPI.
int copy_value(MPI_Comm, int, void*, void* in, void* out, int* flag) {
  auto* v = new (std::nothrow) std::int64_t(*static_cast<std::int64_t*>(in));
  if (!v) return MPI_ERR_NO_MEM;
  *static_cast<void**>(out) = v;
  *flag = 1;
  return MPI_SUCCESS;
}
int delete_value(MPI_Comm, int, void* value, void*) {
  delete static_cast<std::int64_t*>(value);
  return MPI_SUCCESS;
}
}  // namespace

keyval keyval::create(bool copy_on_dup) {
  oompi::detail::require_running("MPI_Comm_create_keyval");
  detail::drain();
  int k = MPI_KEYVAL_INVALID;
  OOMPI_CHECK(MPI_Comm_create_keyval,
              (copy_on_dup ? &copy_value : MPI_COMM_NULL_COPY_FN, &delete_value, &k, nullptr));
  keyval kv;
  try {
    kv.st_ = std::make_shared<state>(k);
  } catch (...) {
    MPI_Comm_free_keyval(&k);
    throw;
  }
  return kv;
}

const keyval::state& keyval::live(const char* what) const {
  return *detail::live_state(st_, what, "keyval", "keyval.create");
}

void keyval::set(const comm& c, std::int64_t value) const {
  const int k = live("keyval.set").key;
  const MPI_Comm h = c.native("keyval.set");
  auto v = std::make_unique<std::int64_t>(value);
  OOMPI_CHECK(MPI_Comm_set_attr, (h, k, v.get()));
  (void)v.release();  // MPI's now (delete_value frees it)
}

bool keyval::has(const comm& c) const {
  const int k = live("keyval.has").key;
  void* p = nullptr;
  int flag = 0;
  OOMPI_CHECK(MPI_Comm_get_attr, (c.native("keyval.has"), k, &p, &flag));
  return flag != 0;
}

std::int64_t keyval::get(const comm& c) const {
  const int k = live("keyval.get").key;
  void* p = nullptr;
  int flag = 0;
  OOMPI_CHECK(MPI_Comm_get_attr, (c.native("keyval.get"), k, &p, &flag));
  if (!flag) throw std::out_of_range("keyval.get: the communicator has no value for this keyval");
  return *static_cast<std::int64_t*>(p);
}

bool keyval::remove(const comm& c) const {
  if (!has(c)) return false;
  OOMPI_CHECK(MPI_Comm_delete_attr, (c.native("keyval.remove"), st_->key));
  return true;
}

void keyval::close() {
  if (!st_ || st_->closed) return;
  st_->closed = true;
  if (oompi::detail::mpi_usable()) OOMPI_CHECK(MPI_Comm_free_keyval, (&st_->key));
}

bool keyval::is_null() const noexcept { return !st_ || st_->closed; }

}  // namespace oompi::rt
