#ifndef OOMPI_REQUEST_HPP
#define OOMPI_REQUEST_HPP

// Requests of nonblocking operations.
//
// A request may own what its operation reads or writes (a buffer given by move, the result of
// a nonblocking collective): that is kept alive until the operation completes.
//
// Policy for a request destroyed (or assigned over) while its operation is pending: it is
// completed before the request (and whatever it owns) goes away, so MPI never writes into or
// reads from memory that has been freed.
//   - A receive is cancelled (MPI_Cancel) and waited for: it returns at once if no message
//     had matched it, and no later message lands in it; a message that had already matched
//     is received in full.
//   - A send (and any other operation: collectives, user requests) is waited for, exactly like
//     a blocking send: MPI-4 deprecates cancelling sends and most libraries cannot do it. A
//     destroyed send whose receive is never posted therefore blocks, as MPI_Send would.
// A borrowed buffer must outlive its request (declare it first). After MPI_Finalize the
// destructor does nothing.

#include "error.hpp"
#include "status.hpp"

#include <mpi.h>

#include <climits>
#include <cstddef>
#include <exception>
#include <memory>
#include <optional>
#include <stdexcept>
#include <type_traits>
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
  /// Runs before completed() when the operation succeeded and its status is known (wait, test
  /// and the set functions; not for a request destroyed or reclaimed while pending): a receive
  /// whose data goes on elsewhere (a binding's copy of a managed array) moves only what arrived.
  virtual void arrived(const MPI_Status&) {}
};
template <class T>
struct kept final : keep_alive {
  template <class... A>
  explicit kept(A&&... a) : value(std::forward<A>(a)...) {}
  T value;
};

// Completes a pending operation whose request is going away (the policy above).
inline void complete_abandoned(MPI_Request& r, bool cancel) noexcept {
  if (r == MPI_REQUEST_NULL || !mpi_usable()) return;
  if (cancel) MPI_Cancel(&r);
  if (MPI_Wait(&r, MPI_STATUS_IGNORE) != MPI_SUCCESS && r != MPI_REQUEST_NULL)
    MPI_Request_free(&r);
}

// A completed operation whose wait/test reported an error may still hold its handle (Open MPI
// keeps it): free it, MPI is done with the buffer.
inline void free_failed(MPI_Request& r) noexcept {
  if (r != MPI_REQUEST_NULL) MPI_Request_free(&r);
}

inline int count_of(std::size_t n, const char* routine) {
  if (n > static_cast<std::size_t>(INT_MAX))
    throw std::length_error(std::string(routine) + ": more than INT_MAX requests");
  return static_cast<int>(n);
}
}  // namespace detail

/// What a request's destructor does with a pending operation (see the policy above).
enum class on_destroy : unsigned char { wait, cancel_and_wait };

/// The request of a nonblocking operation (MPI_Request), completed by wait() or test().
class request {
public:
  request() noexcept = default;
  /// Takes over `r`; `keep` is owned until the operation completes. `policy` says whether a
  /// pending operation is cancelled (receives) or only waited for (everything else) when the
  /// request is destroyed early.
  explicit request(MPI_Request r, std::unique_ptr<detail::keep_alive> keep = nullptr,
                   on_destroy policy = on_destroy::wait) noexcept
      : req_(r), keep_(std::move(keep)), cancel_(policy == on_destroy::cancel_and_wait) {}
  request(request&& o) noexcept
      : req_(std::exchange(o.req_, MPI_REQUEST_NULL)), keep_(std::move(o.keep_)),
        cancel_(o.cancel_) {}
  /// Completes this request's pending operation first (see the policy above).
  request& operator=(request&& o) noexcept {
    if (this != &o) {
      detail::complete_abandoned(req_, cancel_);
      req_ = std::exchange(o.req_, MPI_REQUEST_NULL);
      keep_ = std::move(o.keep_);
      cancel_ = o.cancel_;
    }
    return *this;
  }
  request(const request&) = delete;
  request& operator=(const request&) = delete;
  ~request() { detail::complete_abandoned(req_, cancel_); }

  /// Blocks until the operation completes. Throws oompi::error if it failed (e.g. a receive
  /// was truncated); the request is complete either way.
  status wait() {
    status s;
    if (req_ != MPI_REQUEST_NULL) {
      detail::require_running("MPI_Wait");
      if (const int rc = MPI_Wait(&req_, &s.native()); rc != MPI_SUCCESS) {
        detail::free_failed(req_);
        on_complete();
        detail::throw_mpi_error("MPI_Wait", rc);
      }
    }
    on_complete(&s.native());
    return s;
  }
  /// Completes the operation if it is done and returns its status; nothing otherwise.
  std::optional<status> test() {
    status s;
    if (req_ == MPI_REQUEST_NULL) return s;
    detail::require_running("MPI_Test");
    int flag = 0;
    if (const int rc = MPI_Test(&req_, &flag, &s.native()); rc != MPI_SUCCESS) {
      detail::free_failed(req_);
      on_complete();
      detail::throw_mpi_error("MPI_Test", rc);
    }
    if (!flag) return std::nullopt;
    on_complete(&s.native());
    return s;
  }
  /// Asks MPI to cancel the operation; wait() still has to complete it, and its status tells
  /// whether the cancellation succeeded (status::cancelled()).
  void cancel() {
    if (req_ == MPI_REQUEST_NULL) return;
    detail::require_running("MPI_Cancel");
    OOMPI_CHECK(MPI_Cancel, (&req_));
  }
  /// The status of a completed operation without completing the request
  /// (MPI_Request_get_status); nothing while it is still running.
  std::optional<status> get_status() const {
    status s;
    if (req_ == MPI_REQUEST_NULL) return s;
    detail::require_running("MPI_Request_get_status");
    int flag = 0;
    OOMPI_CHECK(MPI_Request_get_status, (req_, &flag, &s.native()));
    return flag ? std::optional<status>(s) : std::nullopt;
  }

  /// True until the operation has been completed by wait/test.
  bool pending() const noexcept { return req_ != MPI_REQUEST_NULL; }
  /// Does the request own (keep alive) what its operation uses?
  bool owns_data() const noexcept { return keep_ != nullptr; }
  /// What destroying it while pending does (a receive is cancelled first).
  on_destroy policy() const noexcept { return cancel_ ? on_destroy::cancel_and_wait : on_destroy::wait; }
  MPI_Request native() const noexcept { return req_; }
  MPI_Request& native_handle() noexcept { return req_; }

  /// Called once MPI has completed the operation (also by the request sets), with its status
  /// if it succeeded and the status is known (keep_alive::arrived). Releases what the request
  /// kept; rethrows an exception a user reduction op threw during the operation.
  void on_complete(const MPI_Status* succeeded = nullptr) {
    if (!keep_) return;
    std::unique_ptr<detail::keep_alive> k = std::move(keep_);
    if (succeeded) k->arrived(*succeeded);
    k->completed();
  }
  std::unique_ptr<detail::keep_alive> release_keep() noexcept { return std::move(keep_); }
  /// Gives up the handle (the caller completes it) and leaves this request null.
  MPI_Request release_handle() noexcept { return std::exchange(req_, MPI_REQUEST_NULL); }

private:
  MPI_Request req_ = MPI_REQUEST_NULL;
  std::unique_ptr<detail::keep_alive> keep_;
  bool cancel_ = false;
};

/// A request whose operation produces a value the request owns (a receive into a buffer
/// given by move, a nonblocking collective's result). get() waits and hands the value over.
template <class T>
class future {
public:
  future(std::unique_ptr<detail::kept<T>> value, request r) noexcept
      : value_(std::move(value)), req_(std::move(r)) {}
  future(future&&) noexcept = default;
  /// Completes this future's pending operation before its value is released.
  future& operator=(future&& o) noexcept {
    if (this != &o) {
      req_ = std::move(o.req_);  // cancels and waits for the old operation first
      value_ = std::move(o.value_);
    }
    return *this;
  }
  future(const future&) = delete;
  future& operator=(const future&) = delete;

  status wait() { return req_.wait(); }
  /// True (and completed) when the operation is done.
  bool test() { return req_.test().has_value(); }
  void cancel() { req_.cancel(); }
  bool pending() const noexcept { return req_.pending(); }
  /// Waits, then moves the value out (once).
  T get() {
    if (!value_) throw std::logic_error("oompi::future::get: the value was already taken");
    req_.wait();
    T out = std::move(value_->value);
    value_.reset();
    return out;
  }
  request& as_request() noexcept { return req_; }

private:
  std::unique_ptr<detail::kept<T>> value_;  // declared first: destroyed after req_ completes
  request req_;
};

/// A persistent request (send_init/recv_init ...): start() it any number of times, complete
/// each start with wait()/test(). Destroyed while active, it is completed first as a request
/// is (a receive is cancelled, a send waited for), then freed.
class prequest {
public:
  prequest() noexcept = default;
  explicit prequest(MPI_Request r, on_destroy policy = on_destroy::wait) noexcept
      : req_(r), cancel_(policy == on_destroy::cancel_and_wait) {}
  prequest(prequest&& o) noexcept
      : req_(std::exchange(o.req_, MPI_REQUEST_NULL)), active_(std::exchange(o.active_, false)),
        cancel_(o.cancel_) {}
  prequest& operator=(prequest&& o) noexcept {
    if (this != &o) {
      reset();
      req_ = std::exchange(o.req_, MPI_REQUEST_NULL);
      active_ = std::exchange(o.active_, false);
      cancel_ = o.cancel_;
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
    const int rc = MPI_Wait(&req_, &s.native());
    active_ = false;
    if (rc != MPI_SUCCESS) detail::throw_mpi_error("MPI_Wait", rc);
    return s;
  }
  std::optional<status> test() {
    status s;
    detail::require_running("MPI_Test");
    int flag = 0;
    const int rc = MPI_Test(&req_, &flag, &s.native());
    if (rc != MPI_SUCCESS) {
      active_ = false;
      detail::throw_mpi_error("MPI_Test", rc);
    }
    if (!flag) return std::nullopt;
    active_ = false;
    return s;
  }
  void cancel() {
    detail::require_running("MPI_Cancel");
    OOMPI_CHECK(MPI_Cancel, (&req_));
  }
  /// Started and not yet completed.
  bool active() const noexcept { return active_; }
  bool is_null() const noexcept { return req_ == MPI_REQUEST_NULL; }
  MPI_Request native() const noexcept { return req_; }
  MPI_Request& native_handle() noexcept { return req_; }
  void set_active(bool a) noexcept { active_ = a; }

private:
  void reset() noexcept {
    if (req_ == MPI_REQUEST_NULL || !detail::mpi_usable()) return;
    if (active_) {
      if (cancel_) MPI_Cancel(&req_);
      MPI_Wait(&req_, MPI_STATUS_IGNORE);
    }
    MPI_Request_free(&req_);
    active_ = false;
  }
  MPI_Request req_ = MPI_REQUEST_NULL;
  bool active_ = false;
  bool cancel_ = false;
};

/// Result of wait_any / test_any / wait_some / test_some: which request completed, and its
/// status.
struct completed {
  std::size_t index;
  oompi::status status;
};

namespace detail {
template <class R>
inline constexpr bool is_request_v = std::is_same_v<R, request> || std::is_same_v<R, prequest>;

template <class R>
std::vector<MPI_Request> handles_of(std::vector<R>& reqs) {
  std::vector<MPI_Request> h;
  h.reserve(reqs.size());
  for (auto& r : reqs) h.push_back(r.native());
  return h;
}

// Completion hooks may throw (a nonblocking reduction rethrows what a user op threw): every
// request MPI completed is brought up to date first, then the first such exception is rethrown.
class completion_errors {
public:
  void run(request& r, const MPI_Status* succeeded = nullptr) noexcept {
    try {
      r.on_complete(succeeded);
    } catch (...) {
      if (!first_) first_ = std::current_exception();
    }
  }
  void rethrow() {
    if (first_) std::rethrow_exception(std::exchange(first_, nullptr));
  }

private:
  std::exception_ptr first_;
};

// MPI completed request i (it set the handle to MPI_REQUEST_NULL, or left a persistent one
// inactive): bring the C++ object up to date.
// `st`: its status (passed on only when err is MPI_SUCCESS).
inline void mark_complete(request& r, MPI_Request& h, int err, completion_errors& errors,
                          const MPI_Status* st = nullptr) noexcept {
  if (err != MPI_SUCCESS && err != MPI_ERR_PENDING) free_failed(h);
  r.native_handle() = h;
  if (h == MPI_REQUEST_NULL) errors.run(r, err == MPI_SUCCESS ? st : nullptr);
}
inline void mark_complete(prequest& r, MPI_Request&, int, completion_errors&,
                          const MPI_Status* = nullptr) noexcept {
  r.set_active(false);
}

// After Waitall/Testall: every request whose handle changed, or that failed, is complete.
template <class R>
void sync_all(std::vector<R>& reqs, std::vector<MPI_Request>& h, const std::vector<MPI_Status>& st,
              int rc, completion_errors& errors) {
  for (std::size_t i = 0; i < reqs.size(); ++i) {
    const int err = rc == MPI_ERR_IN_STATUS ? st[i].MPI_ERROR : MPI_SUCCESS;
    if (err == MPI_ERR_PENDING) continue;
    if constexpr (std::is_same_v<R, request>) {
      if (reqs[i].native() == MPI_REQUEST_NULL) continue;
    } else {
      if (!reqs[i].active()) continue;
    }
    mark_complete(reqs[i], h[i], err, errors, &st[i]);
  }
}

[[noreturn]] inline void throw_in_status(const char* routine, int rc,
                                         const std::vector<MPI_Status>& st, std::size_t n) {
  if (rc == MPI_ERR_IN_STATUS) {
    for (std::size_t i = 0; i < n && i < st.size(); ++i)
      if (st[i].MPI_ERROR != MPI_SUCCESS && st[i].MPI_ERROR != MPI_ERR_PENDING)
        throw_mpi_error(routine, st[i].MPI_ERROR);
  }
  throw_mpi_error(routine, rc);
}
}  // namespace detail

/// Waits for all requests; returns their statuses in order. If some failed, the others are
/// still completed and the first failure is thrown.
///
/// Built on MPI_Waitsome: Open MPI 4.1's MPI_Waitall can hang under MPI_THREAD_MULTIPLE when
/// one of the requests fails (e.g. a truncated receive), and a failure must never hang.
template <class R>
std::vector<status> wait_all(std::vector<R>& reqs) {
  static_assert(detail::is_request_v<R>, "oompi::wait_all: a vector of request or prequest");
  detail::require_running("MPI_Waitsome");
  auto h = detail::handles_of(reqs);
  const int n = detail::count_of(h.size(), "MPI_Waitsome");
  std::vector<status> out(h.size());
  std::vector<int> idx(h.size());
  std::vector<MPI_Status> st(h.size());
  int first_error = MPI_SUCCESS;
  detail::completion_errors errors;
  for (;;) {
    int done = 0;
    const int rc = MPI_Waitsome(n, h.data(), &done, idx.data(), st.data());
    if (rc != MPI_SUCCESS && rc != MPI_ERR_IN_STATUS) detail::throw_mpi_error("MPI_Waitsome", rc);
    if (done == MPI_UNDEFINED) break;  // nothing left pending
    for (int i = 0; i < done; ++i) {
      const int err = rc == MPI_ERR_IN_STATUS ? st[i].MPI_ERROR : MPI_SUCCESS;
      st[i].MPI_ERROR = err;
      out[idx[i]] = status(st[i]);
      detail::mark_complete(reqs[idx[i]], h[idx[i]], err, errors, &st[i]);
      if (err != MPI_SUCCESS && first_error == MPI_SUCCESS) first_error = err;
    }
  }
  if (first_error != MPI_SUCCESS) detail::throw_mpi_error("MPI_Waitsome", first_error);
  errors.rethrow();
  return out;
}

/// Waits for each of the given requests (or futures).
template <class... R>
void wait_all(R&... reqs) {
  (reqs.wait(), ...);
}

/// Waits until one request completes; nothing when none was pending.
template <class R>
std::optional<completed> wait_any(std::vector<R>& reqs) {
  static_assert(detail::is_request_v<R>, "oompi::wait_any: a vector of request or prequest");
  detail::require_running("MPI_Waitany");
  auto h = detail::handles_of(reqs);
  int index = MPI_UNDEFINED;
  MPI_Status st;
  const int rc =
      MPI_Waitany(detail::count_of(h.size(), "MPI_Waitany"), h.data(), &index, &st);
  st.MPI_ERROR = rc;
  detail::completion_errors errors;
  if (index != MPI_UNDEFINED) detail::mark_complete(reqs[index], h[index], rc, errors, &st);
  if (rc != MPI_SUCCESS) detail::throw_mpi_error("MPI_Waitany", rc);
  errors.rethrow();
  if (index == MPI_UNDEFINED) return std::nullopt;
  return completed{static_cast<std::size_t>(index), status(st)};
}

namespace detail {
using some_fn = int (*)(int, MPI_Request*, int*, int*, MPI_Status*);

// wait_some and test_some: MPI_Waitsome / MPI_Testsome, then each completed request updated.
template <some_fn Fn, class R>
std::vector<completed> complete_some(std::vector<R>& reqs, const char* routine) {
  require_running(routine);
  auto h = handles_of(reqs);
  std::vector<int> idx(reqs.size());
  std::vector<MPI_Status> st(reqs.size());
  int n = 0;
  const int rc = Fn(count_of(h.size(), routine), h.data(), &n, idx.data(), st.data());
  if (rc != MPI_SUCCESS && rc != MPI_ERR_IN_STATUS) throw_mpi_error(routine, rc);
  std::vector<completed> out;
  if (n == MPI_UNDEFINED) return out;
  completion_errors errors;
  for (int i = 0; i < n; ++i) {
    const int err = rc == MPI_ERR_IN_STATUS ? st[i].MPI_ERROR : MPI_SUCCESS;
    st[i].MPI_ERROR = err;
    mark_complete(reqs[idx[i]], h[idx[i]], err, errors, &st[i]);
    out.push_back({static_cast<std::size_t>(idx[i]), status(st[i])});
  }
  if (rc != MPI_SUCCESS) throw_in_status(routine, rc, st, static_cast<std::size_t>(n));
  errors.rethrow();
  return out;
}
}  // namespace detail

/// Waits until at least one request completes; returns all that did (none when none was
/// pending).
template <class R>
std::vector<completed> wait_some(std::vector<R>& reqs) {
  static_assert(detail::is_request_v<R>, "oompi::wait_some: a vector of request or prequest");
  return detail::complete_some<MPI_Waitsome>(reqs, "MPI_Waitsome");
}

/// Completes all requests if all are done (true), else completes none (false).
template <class R>
bool test_all(std::vector<R>& reqs) {
  static_assert(detail::is_request_v<R>, "oompi::test_all: a vector of request or prequest");
  detail::require_running("MPI_Testall");
  auto h = detail::handles_of(reqs);
  std::vector<MPI_Status> st(reqs.size());
  int flag = 0;
  const int rc =
      MPI_Testall(detail::count_of(h.size(), "MPI_Testall"), h.data(), &flag, st.data());
  if (rc != MPI_SUCCESS && rc != MPI_ERR_IN_STATUS) detail::throw_mpi_error("MPI_Testall", rc);
  detail::completion_errors errors;
  if (flag || rc == MPI_ERR_IN_STATUS) detail::sync_all(reqs, h, st, rc, errors);
  if (rc != MPI_SUCCESS) detail::throw_in_status("MPI_Testall", rc, st, st.size());
  errors.rethrow();
  return flag != 0;
}

/// Completes one finished request if there is one.
template <class R>
std::optional<completed> test_any(std::vector<R>& reqs) {
  static_assert(detail::is_request_v<R>, "oompi::test_any: a vector of request or prequest");
  detail::require_running("MPI_Testany");
  auto h = detail::handles_of(reqs);
  int index = MPI_UNDEFINED, flag = 0;
  MPI_Status st;
  const int rc =
      MPI_Testany(detail::count_of(h.size(), "MPI_Testany"), h.data(), &index, &flag, &st);
  st.MPI_ERROR = rc;
  detail::completion_errors errors;
  if (index != MPI_UNDEFINED) detail::mark_complete(reqs[index], h[index], rc, errors, &st);
  if (rc != MPI_SUCCESS) detail::throw_mpi_error("MPI_Testany", rc);
  errors.rethrow();
  if (!flag || index == MPI_UNDEFINED) return std::nullopt;
  return completed{static_cast<std::size_t>(index), status(st)};
}

/// Completes every finished request (possibly none).
template <class R>
std::vector<completed> test_some(std::vector<R>& reqs) {
  static_assert(detail::is_request_v<R>, "oompi::test_some: a vector of request or prequest");
  return detail::complete_some<MPI_Testsome>(reqs, "MPI_Testsome");
}

/// Starts all persistent requests at once (MPI_Startall).
inline void start_all(std::vector<prequest>& reqs) {
  detail::require_running("MPI_Startall");
  auto h = detail::handles_of(reqs);
  OOMPI_CHECK(MPI_Startall, (detail::count_of(h.size(), "MPI_Startall"), h.data()));
  for (auto& r : reqs) r.set_active(true);
}

}  // namespace oompi

#endif  // OOMPI_REQUEST_HPP
