#include <oompi/rt/message.hpp>

#include "detail/message_state.hpp"
#include "detail/reclaim.hpp"

#include <stdexcept>

namespace oompi::rt {


message::state& message::live(const char* what) const {
  if (!st_) detail::throw_null(what, "message");
  return *st_;
}

int message::source() const { return live("message.source").m.status().source(); }
int message::tag() const { return live("message.tag").m.status().tag(); }
std::int64_t message::count_bytes() const {
  return status(live("message.count_bytes").m.status()).count_bytes();
}
status message::get_status() const { return status(live("message.get_status").m.status()); }
bool message::is_received() const { return live("message.is_received").received; }

static void check_unused(message::state& s, const char* what) {
  if (s.received) throw std::logic_error(std::string(what) + ": the message was already received");
  if (s.c->closed) detail::throw_closed(what, "comm");
}

status message::recv(buffer& buf) {
  auto& s = live("message.recv");
  check_unused(s, "message.recv");
  detail::check_buffer(buf, "message.recv");
  auto rb = detail::raw(buf);
  s.received = true;  // MPI_Mrecv uses the handle up even when it fails
  return status(s.c->pt->mrecv(rb, s.m));
}

request message::irecv(async_buffer& buf) {
  auto& s = live("message.irecv");
  check_unused(s, "message.irecv");
  detail::check_buffer(buf, "message.irecv");
  detail::drain();
  auto rb = detail::raw(buf);
  s.received = true;
  return request(detail::owning(s.c->pt->imrecv(rb, s.m), &buf));
}

}  // namespace oompi::rt
