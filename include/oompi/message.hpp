#ifndef OOMPI_MESSAGE_HPP
#define OOMPI_MESSAGE_HPP

// A message taken off the matching queue by mprobe/improbe (MPI_Message): only mrecv/imrecv
// on this handle can receive it, so no other thread can steal it between probe and receive.
// A message that is never received stays with MPI (it cannot be put back): receive it.

#include "status.hpp"

#include <mpi.h>

#include <utility>

namespace oompi {

class message {
public:
  message() noexcept = default;
  message(MPI_Message m, const status& s) noexcept : msg_(m), status_(s) {}
  message(message&& o) noexcept : msg_(std::exchange(o.msg_, MPI_MESSAGE_NULL)), status_(o.status_) {}
  message& operator=(message&& o) noexcept {
    if (this != &o) {
      msg_ = std::exchange(o.msg_, MPI_MESSAGE_NULL);
      status_ = o.status_;
    }
    return *this;
  }
  message(const message&) = delete;
  message& operator=(const message&) = delete;

  /// Source, tag and size of the matched message.
  const oompi::status& status() const noexcept { return status_; }
  /// Elements of T in the message.
  template <class T>
  std::size_t count() const {
    return status_.count<T>();
  }
  /// False once the message has been received.
  bool valid() const noexcept { return msg_ != MPI_MESSAGE_NULL; }
  MPI_Message& native_handle() noexcept { return msg_; }

private:
  MPI_Message msg_ = MPI_MESSAGE_NULL;
  oompi::status status_;
};

}  // namespace oompi

#endif  // OOMPI_MESSAGE_HPP
