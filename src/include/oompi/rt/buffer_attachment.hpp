#ifndef OOMPI_RT_BUFFER_ATTACHMENT_HPP
#define OOMPI_RT_BUFFER_ATTACHMENT_HPP

// The buffer of buffered sends (bsend, ibsend, bsend_init): memory owned by the facade,
// attached to MPI by attach() and detached by close() (which waits until the buffered
// messages have left). MPI allows one attached buffer per process. Copies share one
// attachment. The destructor makes no MPI call: an attachment never closed stays attached
// (its memory is kept) until MPI_Finalize.

#include "common.hpp"

#include <cstdint>
#include <memory>

namespace oompi::rt {

class buffer_attachment {
public:
  /// A null attachment.
  buffer_attachment() = default;
  /// Attaches bytes + overhead() bytes. std::invalid_argument for a negative or too large
  /// size; oompi::error when a buffer is already attached.
  static buffer_attachment attach(std::int64_t bytes);
  /// MPI_BSEND_OVERHEAD: what each buffered message needs on top of its data.
  static std::int64_t overhead();
  /// Bytes attached (overhead included); 0 once closed.
  std::int64_t size() const noexcept;
  /// Detaches (waiting for the buffered messages) and frees the memory. Idempotent.
  void close();
  bool is_closed() const noexcept;

#ifndef SWIG
  struct state;
#endif

private:
  std::shared_ptr<state> st_;
};

}  // namespace oompi::rt

#endif  // OOMPI_RT_BUFFER_ATTACHMENT_HPP
