#include <oompi/rt/buffer_attachment.hpp>

#include "detail/reclaim.hpp"

#include <oompi/communicator.hpp>

#include <climits>
#include <stdexcept>

namespace oompi::rt {

struct buffer_attachment::state {
  std::unique_ptr<oompi::attached_buffer> b;  // the core's: its destructor detaches
  ~state() {
    // Possibly a finalizer thread: no MPI_Buffer_detach here. MPI keeps using the memory,
    // so it is kept (leaked) until the process ends.
    (void)b.release();
  }
};

buffer_attachment buffer_attachment::attach(std::int64_t bytes) {
  if (bytes < 0) throw std::invalid_argument("buffer_attachment.attach: negative size");
  if (bytes > INT_MAX - MPI_BSEND_OVERHEAD)
    throw std::invalid_argument("buffer_attachment.attach: larger than INT_MAX bytes");
  detail::drain();
  buffer_attachment a;
  a.st_ = std::make_shared<state>();
  a.st_->b = std::make_unique<oompi::attached_buffer>(static_cast<std::size_t>(bytes));
  return a;
}

std::int64_t buffer_attachment::overhead() { return MPI_BSEND_OVERHEAD; }

std::int64_t buffer_attachment::size() const noexcept {
  return st_ && st_->b ? static_cast<std::int64_t>(st_->b->size()) : 0;
}

void buffer_attachment::close() {
  if (st_) st_->b.reset();  // on the caller's (MPI) thread: detach, then free
}

bool buffer_attachment::is_closed() const noexcept { return !st_ || !st_->b; }

}  // namespace oompi::rt
