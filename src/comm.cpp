#include <oompi/rt/comm.hpp>

#include "detail/comm_state.hpp"
#include "detail/reclaim.hpp"

#include <oompi/communicator.hpp>

namespace oompi::rt {

using detail::check_buffer;
using detail::raw;

comm comm::world() {
  return comm(std::make_shared<state>(oompi::communicator::world(), false));
}

comm comm::self() {
  return comm(std::make_shared<state>(oompi::communicator::self(), false));
}

const comm::state& comm::live(const char* what) const {
  if (!st_) detail::throw_null(what, "communicator");
  if (st_->closed) detail::throw_closed(what, "communicator");
  return *st_;
}

MPI_Comm comm::native(const char* what) const { return live(what).c.native(); }

int comm::rank() const { return live("comm.rank").c.rank(); }
int comm::size() const { return live("comm.size").c.size(); }
bool comm::is_null() const noexcept { return !st_ || st_->closed; }

comm comm::dup() const {
  const auto& s = live("comm.dup");
  oompi::detail::require_running("MPI_Comm_dup");
  detail::drain();
  MPI_Comm h = MPI_COMM_NULL;
  OOMPI_CHECK(MPI_Comm_dup, (s.c.native(), &h));
  try {
    return comm(std::make_shared<state>(oompi::intracommunicator(h, false), true));
  } catch (...) {
    MPI_Comm_free(&h);
    throw;
  }
}

void comm::close() {
  if (!st_ || st_->closed) return;
  if (st_->owned && oompi::detail::mpi_usable()) {
    MPI_Comm h = st_->c.native();
    st_->c = oompi::intracommunicator();
    OOMPI_CHECK(MPI_Comm_free, (&h));
  }
  st_->c = oompi::intracommunicator();
  st_->closed = true;
}

// --- point-to-point ----------------------------------------------------------------------

void comm::send(const buffer& buf, int dest, int tag) const {
  const auto& s = live("comm.send");
  check_buffer(buf, "comm.send");
  s.c.send(raw(buf), dest, tag);
}

void comm::ssend(const buffer& buf, int dest, int tag) const {
  const auto& s = live("comm.ssend");
  check_buffer(buf, "comm.ssend");
  s.c.ssend(raw(buf), dest, tag);
}

status comm::recv(buffer& buf, int source, int tag) const {
  const auto& s = live("comm.recv");
  check_buffer(buf, "comm.recv");
  auto rb = raw(buf);
  return status(s.c.recv(rb, source, tag));
}

status comm::sendrecv(const buffer& sendbuf, int dest, int sendtag, buffer& recvbuf, int source,
                      int recvtag) const {
  const auto& s = live("comm.sendrecv");
  check_buffer(sendbuf, "comm.sendrecv");
  check_buffer(recvbuf, "comm.sendrecv");
  auto rb = raw(recvbuf);
  return status(s.c.sendrecv(raw(sendbuf), dest, sendtag, rb, source, recvtag));
}

request comm::isend(const async_buffer& buf, int dest, int tag) const {
  const auto& s = live("comm.isend");
  check_buffer(buf, "comm.isend");
  detail::drain();
  auto sb = raw(buf);  // an lvalue: borrowed by the core, owned through buf.keep
  return request(detail::owning(s.c.isend(sb, dest, tag), &buf));
}

request comm::irecv(async_buffer& buf, int source, int tag) const {
  const auto& s = live("comm.irecv");
  check_buffer(buf, "comm.irecv");
  detail::drain();
  auto rb = raw(buf);
  return request(detail::owning(s.c.irecv(rb, source, tag), &buf));
}

status comm::probe(int source, int tag) const {
  return status(live("comm.probe").c.probe(source, tag));
}

status* comm::iprobe(int source, int tag) const {
  auto s = live("comm.iprobe").c.iprobe(source, tag);
  return s ? new status(*s) : nullptr;
}

void comm::send_part(const buffer& buf, std::int64_t offset, std::int64_t count, int dest,
                     int tag) const {
  send(buf.slice(offset, count, "comm.send"), dest, tag);
}

status comm::recv_part(buffer& buf, std::int64_t offset, std::int64_t count, int source,
                       int tag) const {
  buffer part = buf.slice(offset, count, "comm.recv");
  return recv(part, source, tag);
}

}  // namespace oompi::rt
