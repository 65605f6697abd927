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

#include <memory>

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

#ifndef SWIG
  struct state;
  explicit request(oompi::request r);
#endif

private:
  state& live(const char* what);
  std::shared_ptr<state> st_;
};

}  // namespace oompi::rt

#endif  // OOMPI_RT_REQUEST_HPP
