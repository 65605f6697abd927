#ifndef OOMPI_RT_REQUEST_HPP
#define OOMPI_RT_REQUEST_HPP

// The request of a nonblocking operation. It owns what keeps the operation's memory valid
// (pins, global references, held Py_buffers) and drops it the moment the operation completes.
//
// Copies share one request. When the last copy goes away with the operation still pending
// (a managed object collected without wait()), nothing is freed and no MPI call is made on
// the (finalizer) thread: the request and its keep-alive move to the reclaim list, which the
// MPI thread completes later (and cancels before MPI_Finalize). The memory is never released
// while MPI may still touch it.

#include "buffer.hpp"
#include "status.hpp"

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

namespace oompi::rt {

class request {
public:
  /// A null (completed) request.
  request() = default;

  /// Blocks until the operation completes; returns its status.
  status wait();
  /// Completes the operation if it is done and returns its status; nullptr while pending.
  status* test();
  /// Asks MPI to cancel the operation (wait() still has to complete it).
  void cancel();
  /// True until the operation has been completed by wait() or test().
  bool is_pending() const noexcept;
  /// Completes the operation (cancelling a pending receive first) and releases the request;
  /// further use throws closed_error. Idempotent.
  void close();

  // --- persistent requests (comm.send_init, recv_init ...) -----------------------------
  // The request keeps the buffer's memory alive until close(). start() begins one
  // operation, wait()/test()/the set functions complete it; it can be started again.
  /// Starts a persistent request; std::logic_error for a request that is not persistent.
  void start();
  /// Starts all (persistent) requests in one MPI_Startall.
  static void start_all(std::vector<request>& reqs);
  bool is_persistent() const noexcept;
  /// The status of this request's last completion (wait, test, or a set function); nullptr
  /// before the first.
  status* last_status() const;

  // --- request sets (the core's wait_all ... test_some) --------------------------------
  // Null requests are allowed (they count as completed). A set may not mix persistent and
  // non-persistent requests (std::invalid_argument). Each completed request remembers its
  // status (last_status()). A failed operation throws oompi::error (MPI_ERR_IN_STATUS
  // resolved to the failing request's error); the others are still completed.
  static void wait_all(std::vector<request>& reqs);
  /// Index of the request that completed; -1 (MPI_UNDEFINED) when none was pending.
  static int wait_any(std::vector<request>& reqs);
  /// Indices of the requests that completed (empty when none was pending).
  static std::vector<int> wait_some(std::vector<request>& reqs);
  /// True (all completed) or false (none completed). Sets no last_status().
  static bool test_all(std::vector<request>& reqs);
  /// Index of a completed request; -1 when none is complete.
  static int test_any(std::vector<request>& reqs);
  static std::vector<int> test_some(std::vector<request>& reqs);

#ifndef SWIG
  // --- bare handles (comm::isend_native ...): the caller owns the handle and the memory ---
  /// Completes `h` (MPI_Wait) and sets it to MPI_REQUEST_NULL; throws oompi::error if the
  /// operation failed (it is complete either way).
  static status wait_native(MPI_Request& h);
  /// Completes `h` if it is done (then true, `out` set, `h` null); false while pending.
  static bool test_native(MPI_Request& h, status& out);
  /// A request that owns `h` and `keep` from now on; close() of a pending one cancels it first
  /// when `receive` (a receive nobody sends to would never complete), else waits.
  static request adopt(MPI_Request h, std::unique_ptr<keep_alive> keep, bool receive);

  struct state;
  friend struct request_access;
  explicit request(oompi::request r);
  request(oompi::prequest p, std::unique_ptr<keep_alive> keep);
#endif

private:
  state& live(const char* what);
  std::shared_ptr<state> st_;
};

#ifndef SWIG
// A bare handle as the 64 bits a binding keeps it in (a pointer in Open MPI, an int in MPICH).
static_assert(sizeof(MPI_Request) <= sizeof(std::int64_t), "MPI_Request must fit in 64 bits");
inline std::int64_t request_bits(MPI_Request h) noexcept {
  std::int64_t v = 0;
  std::memcpy(&v, &h, sizeof h);
  return v;
}
inline MPI_Request request_from_bits(std::int64_t v) noexcept {
  MPI_Request h;
  std::memcpy(&h, &v, sizeof h);
  return h;
}
#endif

}  // namespace oompi::rt

#endif  // OOMPI_RT_REQUEST_HPP
