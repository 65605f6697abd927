#include <oompi/rt/comm.hpp>

#include "detail/reclaim.hpp"

#include <oompi/communicator.hpp>

namespace oompi::rt {

struct comm::state {
  oompi::intracommunicator c;  // never owning: this state decides when to free
  bool owned = false;
  bool closed = false;
  explicit state(oompi::intracommunicator&& ic, bool own) : c(std::move(ic)), owned(own) {}
  // Not freed here: MPI_Comm_free is collective and this may be a finalizer thread.
};

namespace {
oompi::raw_buffer raw(const buffer& b) { return oompi::raw_buffer(b.data, static_cast<std::size_t>(b.count), b.type); }

void check_buffer(const buffer& b, const char* what) {
  if (b.count < 0) throw std::invalid_argument(std::string(what) + ": negative count");
  if (b.type == MPI_DATATYPE_NULL) throw std::invalid_argument(std::string(what) + ": no datatype");
}
}  // namespace

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

namespace {
// The core's request for a borrowed buffer, re-made to own the buffer's keep-alive.
oompi::request owning(oompi::request&& r, const buffer& buf) {
  MPI_Request h = r.native();
  r.native_handle() = MPI_REQUEST_NULL;
  return oompi::request(h, std::move(buf.keep));
}
}  // namespace

request comm::isend(const async_buffer& buf, int dest, int tag) const {
  const auto& s = live("comm.isend");
  check_buffer(buf, "comm.isend");
  detail::drain();
  auto sb = raw(buf);  // an lvalue: borrowed by the core, owned through buf.keep
  return request(owning(s.c.isend(sb, dest, tag), buf));
}

request comm::irecv(async_buffer& buf, int source, int tag) const {
  const auto& s = live("comm.irecv");
  check_buffer(buf, "comm.irecv");
  detail::drain();
  auto rb = raw(buf);
  return request(owning(s.c.irecv(rb, source, tag), buf));
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

// --- collectives (plain MPI until the core's collectives land) ---------------------------

void comm::barrier() const { live("comm.barrier").c.barrier(); }

void comm::bcast(buffer& buf, int root) const {
  const auto& s = live("comm.bcast");
  check_buffer(buf, "comm.bcast");
  oompi::detail::require_running("MPI_Bcast");
  oompi::detail::with_int_count({buf.data, static_cast<std::size_t>(buf.count), buf.type},
                                [&](void* p, int n, MPI_Datatype t) {
                                  OOMPI_CHECK(MPI_Bcast, (p, n, t, root, s.c.native()));
                                });
}

void comm::allreduce(const buffer& sendbuf, buffer& recvbuf, const op& operation) const {
  const auto& s = live("comm.allreduce");
  check_buffer(sendbuf, "comm.allreduce");
  check_buffer(recvbuf, "comm.allreduce");
  if (sendbuf.count != recvbuf.count)
    throw std::invalid_argument("comm.allreduce: send and receive buffers differ in length (" +
                                std::to_string(sendbuf.count) + " vs " +
                                std::to_string(recvbuf.count) + " elements)");
  if (sendbuf.count > INT_MAX)
    throw std::invalid_argument("comm.allreduce: more than INT_MAX elements");
  const MPI_Op o = operation.native("comm.allreduce");
  oompi::detail::require_running("MPI_Allreduce");
  OOMPI_CHECK(MPI_Allreduce, (sendbuf.data, recvbuf.data, static_cast<int>(sendbuf.count),
                              sendbuf.type, o, s.c.native()));
}

void comm::allreduce_in_place(buffer& buf, const op& operation) const {
  const auto& s = live("comm.allreduce_in_place");
  check_buffer(buf, "comm.allreduce_in_place");
  if (buf.count > INT_MAX)
    throw std::invalid_argument("comm.allreduce_in_place: more than INT_MAX elements");
  const MPI_Op o = operation.native("comm.allreduce_in_place");
  oompi::detail::require_running("MPI_Allreduce");
  OOMPI_CHECK(MPI_Allreduce,
              (MPI_IN_PLACE, buf.data, static_cast<int>(buf.count), buf.type, o, s.c.native()));
}

}  // namespace oompi::rt
