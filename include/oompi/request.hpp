#ifndef OOMPI_REQUEST_HPP
#define OOMPI_REQUEST_HPP

// Requests of nonblocking operations.
//
// A request may own what its operation reads or writes (a buffer given by move, the result of
// a nonblocking collective): that is kept alive until the operation completes.
//
// Policy for a request destroyed while its operation is pending: the destructor cancels the
// operation and waits for it to complete, so MPI never writes into or reads from memory that
// has been freed. A pending receive is cancelled at once; a send that MPI cannot cancel (most
// libraries complete or refuse to cancel matched or eager sends) is waited for, exactly like a
// blocking send. After MPI_Finalize the destructor does nothing.

#include "error.hpp"
#include "status.hpp"

#include <mpi.h>

#include <exception>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace oompi {

namespace detail {
/// Type-erased ownership of whatever a pending operation uses.
struct keep_alive {
  virtual ~keep_alive() = default;
  /// Runs once when the operation has completed, before what is kept is released. May throw:
  /// a nonblocking reduction rethrows here what a user op threw while MPI ran it.
  virtual void completed() {}
};
template <class T>
struct kept final : keep_alive {
  template <class... A>
  explicit kept(A&&... a) : value(std::forward<A>(a)...) {}
  T value;
};

inline void cancel_and_wait(MPI_Request& r) noexcept {
  if (r == MPI_REQUEST_NULL || !mpi_usable()) return;
  MPI_Cancel(&r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
}
}  // namespace detail

/// The request of a nonblocking operation (MPI_Request), completed by wait() or test().
class request {
public:
  request() noexcept = default;
  explicit request(MPI_Request r, std::unique_ptr<detail::keep_alive> keep = nullptr) noexcept
      : req_(r), keep_(std::move(keep)) {}
  request(request&& o) noexcept
      : req_(std::exchange(o.req_, MPI_REQUEST_NULL)), keep_(std::move(o.keep_)) {}
  request& operator=(request&& o) noexcept {
    if (this != &o) {
      detail::cancel_and_wait(req_);
      req_ = std::exchange(o.req_, MPI_REQUEST_NULL);
      keep_ = std::move(o.keep_);
    }
    return *this;
  }
  request(const request&) = delete;
  request& operator=(const request&) = delete;
  ~request() { detail::cancel_and_wait(req_); }

  /// Blocks until the operation completes.
  status wait() {
    status s;
    if (req_ != MPI_REQUEST_NULL) {
      detail::require_running("MPI_Wait");
      OOMPI_CHECK(MPI_Wait, (&req_, &s.native()));
    }
    on_complete();
    return s;
  }
  /// Completes the operation if it is done; returns its status then, nothing otherwise.
  std::optional<status> test() {
    status s;
    if (req_ == MPI_REQUEST_NULL) return s;
    detail::require_running("MPI_Test");
    int flag = 0;
    OOMPI_CHECK(MPI_Test, (&req_, &flag, &s.native()));
    if (!flag) return std::nullopt;
    on_complete();
    return s;
  }
  /// Asks MPI to cancel the operation; wait() still has to complete it.
  void cancel() {
    if (req_ == MPI_REQUEST_NULL) return;
    detail::require_running("MPI_Cancel");
    OOMPI_CHECK(MPI_Cancel, (&req_));
  }
  /// The status of a completed operation without freeing the request (MPI_Request_get_status).
  std::optional<status> get_status() const {
    status s;
    if (req_ == MPI_REQUEST_NULL) return s;
    int flag = 0;
    OOMPI_CHECK(MPI_Request_get_status, (req_, &flag, &s.native()));
    return flag ? std::optional<status>(s) : std::nullopt;
  }

  /// True until the operation has been completed by wait/test.
  bool pending() const noexcept { return req_ != MPI_REQUEST_NULL; }
  MPI_Request native() const noexcept { return req_; }
  MPI_Request& native_handle() noexcept { return req_; }

  /// Called once MPI has completed the operation (also by the request sets). Releases what
  /// the request kept; rethrows an exception a user reduction op threw during the operation.
  void on_complete() {
    if (!keep_) return;
    std::unique_ptr<detail::keep_alive> k = std::move(keep_);
    k->completed();
  }
  std::unique_ptr<detail::keep_alive> release_keep() noexcept { return std::move(keep_); }

private:
  MPI_Request req_ = MPI_REQUEST_NULL;
  std::unique_ptr<detail::keep_alive> keep_;
};

/// A request whose operation produces a value the request owns (a receive into a buffer
/// given by move, a nonblocking collective's result). get() waits and hands the value over.
template <class T>
class future {
public:
  future(std::unique_ptr<detail::kept<T>> value, request r) noexcept
      : value_(std::move(value)), req_(std::move(r)) {}

  status wait() { return req_.wait(); }
  bool test() { return req_.test().has_value(); }
  /// Waits, then moves the value out.
  T get() {
    req_.wait();
    return std::move(value_->value);
  }
  request& as_request() noexcept { return req_; }

private:
  std::unique_ptr<detail::kept<T>> value_;  // declared first: destroyed after req_ completes
  request req_;
};

/// A persistent request (send_init/recv_init ...): start() it any number of times.
class prequest {
public:
  prequest() noexcept = default;
  explicit prequest(MPI_Request r) noexcept : req_(r) {}
  prequest(prequest&& o) noexcept : req_(std::exchange(o.req_, MPI_REQUEST_NULL)), active_(o.active_) {}
  prequest& operator=(prequest&& o) noexcept {
    if (this != &o) {
      reset();
      req_ = std::exchange(o.req_, MPI_REQUEST_NULL);
      active_ = o.active_;
    }
    return *this;
  }
  prequest(const prequest&) = delete;
  prequest& operator=(const prequest&) = delete;
  ~prequest() { reset(); }

  void start() {
    detail::require_running("MPI_Start");
    OOMPI_CHECK(MPI_Start, (&req_));
    active_ = true;
  }
  status wait() {
    status s;
    detail::require_running("MPI_Wait");
    OOMPI_CHECK(MPI_Wait, (&req_, &s.native()));
    active_ = false;
    return s;
  }
  std::optional<status> test() {
    status s;
    detail::require_running("MPI_Test");
    int flag = 0;
    OOMPI_CHECK(MPI_Test, (&req_, &flag, &s.native()));
    if (!flag) return std::nullopt;
    active_ = false;
    return s;
  }
  void cancel() {
    detail::require_running("MPI_Cancel");
    OOMPI_CHECK(MPI_Cancel, (&req_));
  }
  bool active() const noexcept { return active_; }
  MPI_Request native() const noexcept { return req_; }
  MPI_Request& native_handle() noexcept { return req_; }
  void set_active(bool a) noexcept { active_ = a; }

private:
  void reset() noexcept {
    if (req_ == MPI_REQUEST_NULL || !detail::mpi_usable()) return;
    if (active_) {
      MPI_Cancel(&req_);
      MPI_Wait(&req_, MPI_STATUS_IGNORE);
    }
    MPI_Request_free(&req_);
  }
  MPI_Request req_ = MPI_REQUEST_NULL;
  bool active_ = false;
};

/// Result of wait_any / test_any: which request completed, and its status.
struct completed {
  std::size_t index;
  oompi::status status;
};

namespace detail {
template <class R>
std::vector<MPI_Request> handles_of(std::vector<R>& reqs) {
  std::vector<MPI_Request> h;
  h.reserve(reqs.size());
  for (auto& r : reqs) h.push_back(r.native());
  return h;
}
// MPI set completed requests to MPI_REQUEST_NULL (or left persistent ones inactive): copy back.
// Completes requests MPI has completed; every one is completed before the first exception a
// completion hook threw (a user op's) is rethrown.
class completion_errors {
public:
  void complete(request& r) {
    r.native_handle() = MPI_REQUEST_NULL;
    try {
      r.on_complete();
    } catch (...) {
      if (!first_) first_ = std::current_exception();
    }
  }
  void rethrow() {
    if (first_) std::rethrow_exception(first_);
  }

private:
  std::exception_ptr first_;
};
inline void sync_back(std::vector<request>& reqs, const std::vector<MPI_Request>& h,
                      const std::vector<MPI_Status>* st = nullptr) {
  (void)st;
  completion_errors errors;
  for (std::size_t i = 0; i < reqs.size(); ++i) {
    if (reqs[i].native() != MPI_REQUEST_NULL && h[i] == MPI_REQUEST_NULL) errors.complete(reqs[i]);
  }
  errors.rethrow();
}
inline void sync_back(std::vector<prequest>& reqs, const std::vector<MPI_Request>&,
                      const std::vector<MPI_Status>* = nullptr) {
  (void)reqs;
}
inline void throw_in_status(const char* routine, int rc, const std::vector<MPI_Status>& st) {
  if (rc == MPI_ERR_IN_STATUS) {
    for (const auto& s : st)
      if (s.MPI_ERROR != MPI_SUCCESS && s.MPI_ERROR != MPI_ERR_PENDING)
        throw_mpi_error(routine, s.MPI_ERROR);
  }
  throw_mpi_error(routine, rc);
}
}  // namespace detail

/// Waits for all requests; returns their statuses in order.
template <class R>
std::vector<status> wait_all(std::vector<R>& reqs) {
  detail::require_running("MPI_Waitall");
  auto h = detail::handles_of(reqs);
  std::vector<MPI_Status> st(reqs.size());
  const int rc = MPI_Waitall(static_cast<int>(h.size()), h.data(), st.data());
  detail::sync_back(reqs, h);
  if constexpr (std::is_same_v<R, prequest>)
    for (auto& r : reqs) r.set_active(false);
  if (rc != MPI_SUCCESS) detail::throw_in_status("MPI_Waitall", rc, st);
  return std::vector<status>(st.begin(), st.end());
}

/// Waits for all of the given requests.
template <class... R>
void wait_all(R&... reqs) {
  (reqs.wait(), ...);
}

/// Waits until one request completes; nothing when none was pending.
inline std::optional<completed> wait_any(std::vector<request>& reqs) {
  detail::require_running("MPI_Waitany");
  auto h = detail::handles_of(reqs);
  int index = MPI_UNDEFINED;
  MPI_Status st;
  OOMPI_CHECK(MPI_Waitany, (static_cast<int>(h.size()), h.data(), &index, &st));
  if (index == MPI_UNDEFINED) return std::nullopt;
  reqs[index].native_handle() = MPI_REQUEST_NULL;
  reqs[index].on_complete();
  return completed{static_cast<std::size_t>(index), status(st)};
}

/// Waits until at least one request completes; returns all that did.
inline std::vector<completed> wait_some(std::vector<request>& reqs) {
  detail::require_running("MPI_Waitsome");
  auto h = detail::handles_of(reqs);
  std::vector<int> idx(reqs.size());
  std::vector<MPI_Status> st(reqs.size());
  int n = 0;
  const int rc = MPI_Waitsome(static_cast<int>(h.size()), h.data(), &n, idx.data(), st.data());
  if (rc != MPI_SUCCESS) detail::throw_in_status("MPI_Waitsome", rc, st);
  std::vector<completed> out;
  if (n == MPI_UNDEFINED) return out;
  detail::completion_errors errors;
  for (int i = 0; i < n; ++i) {
    errors.complete(reqs[idx[i]]);
    out.push_back({static_cast<std::size_t>(idx[i]), status(st[i])});
  }
  errors.rethrow();
  return out;
}

/// Completes all requests if all are done (true), else completes none (false).
template <class R>
bool test_all(std::vector<R>& reqs) {
  detail::require_running("MPI_Testall");
  auto h = detail::handles_of(reqs);
  std::vector<MPI_Status> st(reqs.size());
  int flag = 0;
  const int rc = MPI_Testall(static_cast<int>(h.size()), h.data(), &flag, st.data());
  if (rc != MPI_SUCCESS) detail::throw_in_status("MPI_Testall", rc, st);
  if (flag) {
    detail::sync_back(reqs, h);
    if constexpr (std::is_same_v<R, prequest>)
      for (auto& r : reqs) r.set_active(false);
  }
  return flag != 0;
}

/// Completes one finished request if there is one.
inline std::optional<completed> test_any(std::vector<request>& reqs) {
  detail::require_running("MPI_Testany");
  auto h = detail::handles_of(reqs);
  int index = MPI_UNDEFINED, flag = 0;
  MPI_Status st;
  OOMPI_CHECK(MPI_Testany, (static_cast<int>(h.size()), h.data(), &index, &flag, &st));
  if (!flag || index == MPI_UNDEFINED) return std::nullopt;
  reqs[index].native_handle() = MPI_REQUEST_NULL;
  reqs[index].on_complete();
  return completed{static_cast<std::size_t>(index), status(st)};
}

/// Completes every finished request (possibly none).
inline std::vector<completed> test_some(std::vector<request>& reqs) {
  detail::require_running("MPI_Testsome");
  auto h = detail::handles_of(reqs);
  std::vector<int> idx(reqs.size());
  std::vector<MPI_Status> st(reqs.size());
  int n = 0;
  const int rc = MPI_Testsome(static_cast<int>(h.size()), h.data(), &n, idx.data(), st.data());
  if (rc != MPI_SUCCESS) detail::throw_in_status("MPI_Testsome", rc, st);
  std::vector<completed> out;
  if (n == MPI_UNDEFINED) return out;
  detail::completion_errors errors;
  for (int i = 0; i < n; ++i) {
    errors.complete(reqs[idx[i]]);
    out.push_back({static_cast<std::size_t>(idx[i]), status(st[i])});
  }
  errors.rethrow();
  return out;
}

/// Starts all persistent requests at once (MPI_Startall).
inline void start_all(std::vector<prequest>& reqs) {
  detail::require_running("MPI_Startall");
  auto h = detail::handles_of(reqs);
  OOMPI_CHECK(MPI_Startall, (static_cast<int>(h.size()), h.data()));
  for (auto& r : reqs) r.set_active(true);
}

}  // namespace oompi

#endif  // OOMPI_REQUEST_HPP
