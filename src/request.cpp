#include <oompi/rt/request.hpp>

#include "detail/reclaim.hpp"

namespace oompi::rt {

struct request::state {
  oompi::request r;
  bool closed = false;
  explicit state(oompi::request&& req) noexcept : r(std::move(req)) {}
  ~state() {
    // Possibly a finalizer thread: never an MPI call here. A pending operation keeps its
    // memory alive on the reclaim list until the MPI thread completes it.
    if (r.pending()) detail::orphan(std::move(r));
  }
};

request::request(oompi::request r) : st_(std::make_shared<state>(std::move(r))) {}

request::state& request::live(const char* what) {
  if (!st_) detail::throw_null(what, "request");
  if (st_->closed) detail::throw_closed(what, "request");
  return *st_;
}

status request::wait() { return status(live("request.wait").r.wait()); }

status* request::test() {
  auto done = live("request.test").r.test();
  if (!done) return nullptr;
  return new status(*done);
}

void request::cancel() { live("request.cancel").r.cancel(); }

bool request::is_pending() const noexcept { return st_ && !st_->closed && st_->r.pending(); }

void request::close() {
  if (!st_ || st_->closed) return;
  if (st_->r.pending()) {
    // On the caller's (MPI) thread: the core's policy, cancel a receive and wait.
    oompi::request gone = std::move(st_->r);
    (void)gone;  // its destructor cancels and completes the operation, then drops the keep
  }
  st_->closed = true;
}

}  // namespace oompi::rt
