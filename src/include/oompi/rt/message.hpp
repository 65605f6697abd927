#ifndef OOMPI_RT_MESSAGE_HPP
#define OOMPI_RT_MESSAGE_HPP

// A message matched by comm.mprobe()/improbe() (MPI_Message): only this handle can receive it,
// once (a second receive throws std::logic_error). Copies share one message. A message never
// received stays with MPI (it cannot be put back); there is nothing to free.

#include "buffer.hpp"
#include "request.hpp"
#include "status.hpp"

#include <cstdint>
#include <memory>

namespace oompi::rt {

class message {
public:
  /// A null message.
  message() = default;

  int source() const;
  int tag() const;
  std::int64_t count_bytes() const;
  /// The status the probe returned.
  status get_status() const;
  /// True once recv() or irecv() has taken the message.
  bool is_received() const;
  /// Receives the message into buf (MPI_Mrecv); MPI_ERR_TRUNCATE when it does not fit.
  status recv(buffer& buf);
  /// Nonblocking receive (MPI_Imrecv); the request keeps buf alive.
  request irecv(async_buffer& buf);

#ifndef SWIG
  struct state;
  explicit message(std::shared_ptr<state> s) noexcept : st_(std::move(s)) {}
#endif

private:
  state& live(const char* what) const;
  std::shared_ptr<state> st_;
};

}  // namespace oompi::rt

#endif  // OOMPI_RT_MESSAGE_HPP
