#include <oompi/rt/request.hpp>

#include "detail/reclaim.hpp"

#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

namespace oompi::rt {

struct request::state {
  oompi::request r;
  // A persistent request: the core's prequest and the keep-alive of its buffer, which lives as
  // long as the persistent request (not just one operation).
  oompi::prequest p;
  std::unique_ptr<keep_alive> pkeep;
  bool persistent = false;
  bool closed = false;
  std::optional<oompi::status> last;
  explicit state(oompi::request&& req) noexcept : r(std::move(req)) {}
  state(oompi::prequest&& pr, std::unique_ptr<keep_alive> k) noexcept
      : p(std::move(pr)), pkeep(std::move(k)), persistent(true) {}
  ~state() {
    // Possibly a finalizer thread: never an MPI call here. A pending operation keeps its
    // memory alive on the reclaim list until the MPI thread completes it.
    if (r.pending()) detail::orphan(std::move(r));
    if (persistent && !p.is_null()) {
      // Not closed: the handle is not freed (MPI_Request_free is an MPI call); an active one
      // goes to the reclaim list with the buffer's keep-alive, an inactive one is leaked.
      MPI_Request h = p.native();
      const bool active = p.active();
      p.native_handle() = MPI_REQUEST_NULL;
      p.set_active(false);
      if (active) detail::orphan(oompi::request(h, std::move(pkeep)));
      else (void)pkeep.release();  // MPI may hold the address until the handle is freed
    }
  }
};

struct request_access {
  static request::state* get(const request& r, const char* what) {
    if (!r.st_) return nullptr;
    if (r.st_->closed) detail::throw_closed(what, "request");
    return r.st_.get();
  }
};

request::request(oompi::request r) : st_(std::make_shared<state>(std::move(r))) {}

request::request(oompi::prequest p, std::unique_ptr<keep_alive> keep)
    : st_(std::make_shared<state>(std::move(p), std::move(keep))) {}

status request::wait_native(MPI_Request& h) {
  // oompi::request::wait's steps on the bare handle (no request object built and destroyed
  // around them: this completes every light request of the bindings).
  oompi::status s;
  if (h == MPI_REQUEST_NULL) return status(s);
  oompi::detail::require_running("MPI_Wait");
  if (const int rc = MPI_Wait(&h, &s.native()); rc != MPI_SUCCESS) {
    oompi::detail::free_failed(h);  // complete (failed): MPI is done with the buffer
    oompi::detail::throw_mpi_error("MPI_Wait", rc);
  }
  return status(s);
}

bool request::test_native(MPI_Request& h, status& out) {
  oompi::request r(std::exchange(h, MPI_REQUEST_NULL));
  std::optional<oompi::status> done;
  try {
    done = r.test();
  } catch (...) {
    (void)r.release_handle();  // complete (failed): MPI freed the handle
    throw;
  }
  h = r.release_handle();
  if (!done) return false;
  out = status(*done);
  return true;
}

request request::adopt(MPI_Request h, std::unique_ptr<keep_alive> keep, bool receive) {
  return request(oompi::request(h, std::move(keep),
                                receive ? on_destroy::cancel_and_wait : on_destroy::wait));
}

request::state& request::live(const char* what) {
  return *detail::live_state(st_, what, "request");
}

status request::wait() {
  auto& s = live("request.wait");
  s.last = s.persistent ? s.p.wait() : s.r.wait();
  return status(*s.last);
}

status* request::test() {
  auto& s = live("request.test");
  auto done = s.persistent ? s.p.test() : s.r.test();
  if (!done) return nullptr;
  s.last = *done;
  return new status(*done);
}

void request::cancel() {
  auto& s = live("request.cancel");
  if (s.persistent) s.p.cancel();
  else s.r.cancel();
}

bool request::is_pending() const noexcept {
  if (!st_ || st_->closed) return false;
  return st_->persistent ? st_->p.active() : st_->r.pending();
}

bool request::is_persistent() const noexcept { return st_ && st_->persistent; }

status* request::last_status() const {
  if (!st_ || !st_->last) return nullptr;
  return new status(*st_->last);
}

void request::close() {
  if (!st_ || st_->closed) return;
  if (st_->persistent) {
    // On the caller's (MPI) thread: the core completes an active one (cancelling a receive)
    // and frees the handle; then the buffer may go.
    oompi::prequest gone = std::move(st_->p);
    (void)gone;
  } else if (st_->r.pending()) {
    // On the caller's (MPI) thread: the core's policy, cancel a receive and wait.
    oompi::request gone = std::move(st_->r);
    (void)gone;  // its destructor cancels and completes the operation, then drops the keep
  }
  st_->pkeep.reset();
  st_->closed = true;
}

void request::start() {
  auto& s = live("request.start");
  if (!s.persistent) throw std::logic_error("request.start: not a persistent request");
  if (s.p.active()) throw std::logic_error("request.start: already started and not completed");
  detail::drain();
  s.p.start();
}

// --- sets --------------------------------------------------------------------------------

namespace {

// Moves the core requests (member `core` of each state: the persistent or the plain one) out
// of the facade's, runs fn on them, and moves them back whatever happens.
template <class Core, class Fn, class Record>
auto moved_out(std::vector<request::state*>& st, Core request::state::*core, Fn& fn,
               Record& record) {
  std::vector<Core> v(st.size());
  for (std::size_t i = 0; i < v.size(); ++i)
    if (st[i]) v[i] = std::move(st[i]->*core);
  struct back {
    std::vector<Core>& v;
    std::vector<request::state*>& st;
    Core request::state::*core;
    ~back() {
      for (std::size_t i = 0; i < v.size(); ++i)
        if (st[i]) st[i]->*core = std::move(v[i]);
    }
  } guard{v, st, core};
  return fn(v, record);
}

// Checks the requests (persistent and plain ones do not mix) and runs the core's set function
// on their core requests (moved_out).
template <class Fn>
auto on_core(std::vector<request>& reqs, const char* what, Fn fn) {
  std::vector<request::state*> st(reqs.size());
  bool any_p = false, any_n = false;
  for (std::size_t i = 0; i < reqs.size(); ++i) {
    st[i] = request_access::get(reqs[i], what);
    if (st[i]) (st[i]->persistent ? any_p : any_n) = true;
  }
  if (any_p && any_n)
    throw std::invalid_argument(std::string(what) +
                                ": mixes persistent and non-persistent requests");
  auto record = [&](std::size_t i, const oompi::status& s) {
    if (st[i]) st[i]->last = s;
  };
  return any_p ? moved_out(st, &request::state::p, fn, record)
               : moved_out(st, &request::state::r, fn, record);
}

// The index of a *_any call's completed request (its status recorded), or -1 for none.
template <class Completed, class Record>
int any_index(const Completed& c, Record& record) {
  if (!c) return -1;
  record(c->index, c->status);
  return static_cast<int>(c->index);
}

// The indices of a *_some call's completed requests (their statuses recorded).
template <class Completed, class Record>
std::vector<int> some_indices(const Completed& done, Record& record) {
  std::vector<int> out;
  for (auto& c : done) {
    record(c.index, c.status);
    out.push_back(static_cast<int>(c.index));
  }
  return out;
}

}  // namespace

void request::wait_all(std::vector<request>& reqs) {
  detail::drain();
  on_core(reqs, "request.wait_all", [](auto& v, auto& record) {
    auto sts = oompi::wait_all(v);
    for (std::size_t i = 0; i < sts.size(); ++i) record(i, sts[i]);
  });
}

int request::wait_any(std::vector<request>& reqs) {
  return on_core(reqs, "request.wait_any", [](auto& v, auto& record) {
    return any_index(oompi::wait_any(v), record);
  });
}

std::vector<int> request::wait_some(std::vector<request>& reqs) {
  return on_core(reqs, "request.wait_some", [](auto& v, auto& record) {
    return some_indices(oompi::wait_some(v), record);
  });
}

bool request::test_all(std::vector<request>& reqs) {
  // The core's test_all gives no statuses back: last_status() is not set by test_all.
  return on_core(reqs, "request.test_all", [](auto& v, auto&) { return oompi::test_all(v); });
}

int request::test_any(std::vector<request>& reqs) {
  return on_core(reqs, "request.test_any", [](auto& v, auto& record) {
    return any_index(oompi::test_any(v), record);
  });
}

std::vector<int> request::test_some(std::vector<request>& reqs) {
  return on_core(reqs, "request.test_some", [](auto& v, auto& record) {
    return some_indices(oompi::test_some(v), record);
  });
}

void request::start_all(std::vector<request>& reqs) {
  for (auto& r : reqs) {
    auto* s = request_access::get(r, "request.start_all");
    if (!s || !s->persistent)
      throw std::logic_error("request.start_all: every request must be a persistent request");
    if (s->p.active()) throw std::logic_error("request.start_all: a request is already started");
  }
  detail::drain();
  on_core(reqs, "request.start_all", [](auto& v, auto&) {
    if constexpr (std::is_same_v<std::decay_t<decltype(v)>, std::vector<oompi::prequest>>)
      oompi::start_all(v);
  });
}

}  // namespace oompi::rt
