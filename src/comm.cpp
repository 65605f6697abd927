#include <oompi/rt/comm.hpp>

#include "detail/comm_state.hpp"
#include "detail/message_state.hpp"
#include "detail/reclaim.hpp"

#include <oompi/communicator.hpp>

namespace oompi::rt {

using detail::check_buffer;
using detail::raw;

void detail::throw_bad_buffer(const buffer& b, const char* what) {
  if (b.count < 0) throw std::invalid_argument(std::string(what) + ": negative count");
  throw std::invalid_argument(std::string(what) + ": no datatype");
}

comm comm::world() {
  return comm(std::make_shared<state>(oompi::communicator::world(), false));
}

comm comm::self() {
  return comm(std::make_shared<state>(oompi::communicator::self(), false));
}

const comm::state& comm::live_intra(const char* what) const {
  const auto& s = live(what);
  if (s.inter())
    throw std::logic_error(std::string(what) +
                           ": MPI defines no in-place form, scan or exscan on intercommunicators "
                           "(and oompi's bindings have no reduce_scatter there yet)");
  return s;
}

std::shared_ptr<comm::state> comm::state::adopt(MPI_Comm h, bool own) {
  int inter = 0;
  if (const int rc = MPI_Comm_test_inter(h, &inter); rc != MPI_SUCCESS) {
    if (own) MPI_Comm_free(&h);
    oompi::detail::throw_mpi_error("MPI_Comm_test_inter", rc);
  }
  try {
    if (inter) {
      auto s = std::make_shared<state>(oompi::intracommunicator(), own);
      s->ic = oompi::intercommunicator(h, false);
      s->pt = &s->ic;
      return s;
    }
    auto s = std::make_shared<state>(oompi::intracommunicator(h, false), own);
    switch (oompi::topology_of(s->c)) {
      case oompi::topology_kind::cartesian:
        s->cart = std::make_unique<oompi::cartesian_communicator>(h, false);
        break;
      case oompi::topology_kind::dist_graph:
        s->dgraph = std::make_unique<oompi::dist_graph_communicator>(h, false);
        break;
      case oompi::topology_kind::graph:
        s->graph = std::make_unique<oompi::graph_communicator>(h, false);
        break;
      default: break;
    }
    return s;
  } catch (...) {
    if (own && oompi::detail::mpi_usable()) MPI_Comm_free(&h);
    throw;
  }
}

MPI_Comm comm::native(const char* what) const { return live(what).handle(); }

int comm::rank() const { return live("comm.rank").pt->rank(); }
int comm::size() const { return live("comm.size").pt->size(); }
bool comm::is_null() const noexcept { return !st_ || st_->closed; }

comm comm::dup() const {
  const auto& s = live("comm.dup");
  oompi::detail::require_running("MPI_Comm_dup");
  detail::drain();
  MPI_Comm h = MPI_COMM_NULL;
  OOMPI_CHECK(MPI_Comm_dup, (s.pt->native(), &h));
  return comm(state::adopt(h, true));  // frees h if it throws
}

void comm::close() {
  if (!st_ || st_->closed) return;
  MPI_Comm h = st_->handle();
  st_->cart.reset();
  st_->dgraph.reset();
  st_->graph.reset();
  st_->c = oompi::intracommunicator();
  st_->ic = oompi::intercommunicator();
  st_->pt = &st_->c;
  st_->closed = true;
  if (st_->owned && h != MPI_COMM_NULL && oompi::detail::mpi_usable())
    OOMPI_CHECK(MPI_Comm_free, (&h));
}

// --- point-to-point ----------------------------------------------------------------------

void comm::send(const buffer& buf, int dest, int tag) const {
  const auto& s = live("comm.send");
  check_buffer(buf, "comm.send");
  s.pt->send(raw(buf), dest, tag);
}

void comm::ssend(const buffer& buf, int dest, int tag) const {
  const auto& s = live("comm.ssend");
  check_buffer(buf, "comm.ssend");
  s.pt->ssend(raw(buf), dest, tag);
}

status comm::recv(buffer& buf, int source, int tag) const {
  const auto& s = live("comm.recv");
  check_buffer(buf, "comm.recv");
  auto rb = raw(buf);
  return status(s.pt->recv(rb, source, tag));
}

void comm::recv_ignore_status(buffer& buf, int source, int tag) const {
  const auto& s = live("comm.recv");
  check_buffer(buf, "comm.recv");
  auto rb = raw(buf);
  s.pt->recv_ignore_status(rb, source, tag);
}

status comm::sendrecv(const buffer& sendbuf, int dest, int sendtag, buffer& recvbuf, int source,
                      int recvtag) const {
  const auto& s = live("comm.sendrecv");
  check_buffer(sendbuf, "comm.sendrecv");
  check_buffer(recvbuf, "comm.sendrecv");
  auto rb = raw(recvbuf);
  return status(s.pt->sendrecv(raw(sendbuf), dest, sendtag, rb, source, recvtag));
}

request comm::isend(const async_buffer& buf, int dest, int tag) const {
  const auto& s = live("comm.isend");
  check_buffer(buf, "comm.isend");
  detail::drain();
  auto sb = raw(buf);  // an lvalue: borrowed by the core, owned through buf.keep
  return request(detail::owning(s.pt->isend(sb, dest, tag), &buf));
}

request comm::irecv(async_buffer& buf, int source, int tag) const {
  const auto& s = live("comm.irecv");
  check_buffer(buf, "comm.irecv");
  detail::drain();
  auto rb = raw(buf);
  return request(detail::owning(s.pt->irecv(rb, source, tag), &buf));
}

MPI_Request comm::isend_native(const buffer& buf, int dest, int tag) const {
  const auto& s = live("comm.isend");
  check_buffer(buf, "comm.isend");
  detail::drain();
  auto sb = raw(buf);  // borrowed: the caller keeps the memory valid
  return s.pt->isend(sb, dest, tag).release_handle();
}

MPI_Request comm::irecv_native(buffer& buf, int source, int tag) const {
  const auto& s = live("comm.irecv");
  check_buffer(buf, "comm.irecv");
  detail::drain();
  auto rb = raw(buf);
  return s.pt->irecv(rb, source, tag).release_handle();
}

status comm::probe(int source, int tag) const {
  return status(live("comm.probe").pt->probe(source, tag));
}

status* comm::iprobe(int source, int tag) const {
  auto s = live("comm.iprobe").pt->iprobe(source, tag);
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

// --- send modes, persistent requests, matched probes (p2p) -------------------------------

namespace oompi::rt {

// The blocking send modes besides send and ssend (point-to-point above).
#define OOMPI_RT_SEND_MODE(name)                                                   \
  void comm::name(const buffer& buf, int dest, int tag) const {                    \
    const auto& s = live("comm." #name);                                           \
    check_buffer(buf, "comm." #name);                                              \
    s.pt->name(raw(buf), dest, tag);                                               \
  }
OOMPI_RT_SEND_MODE(bsend)
OOMPI_RT_SEND_MODE(rsend)
#undef OOMPI_RT_SEND_MODE

status comm::sendrecv_replace(buffer& buf, int dest, int sendtag, int source,
                              int recvtag) const {
  const auto& s = live("comm.sendrecv_replace");
  check_buffer(buf, "comm.sendrecv_replace");
  auto rb = raw(buf);
  return status(s.pt->sendrecv_replace(rb, dest, sendtag, source, recvtag));
}

// The nonblocking send modes: the request keeps the buffer alive until it completes.
#define OOMPI_RT_ISEND(name)                                                       \
  request comm::name(const async_buffer& buf, int dest, int tag) const {           \
    const auto& s = live("comm." #name);                                           \
    check_buffer(buf, "comm." #name);                                              \
    detail::drain();                                                               \
    auto sb = raw(buf);                                                            \
    return request(detail::owning(s.pt->name(sb, dest, tag), &buf));               \
  }
OOMPI_RT_ISEND(issend)
OOMPI_RT_ISEND(ibsend)
OOMPI_RT_ISEND(irsend)
#undef OOMPI_RT_ISEND

// The persistent request owns the buffer's keep-alive for its whole life (not one operation).
#define OOMPI_RT_SEND_INIT(name)                                                   \
  request comm::name(const async_buffer& buf, int dest, int tag) const {           \
    const auto& s = live("comm." #name);                                           \
    check_buffer(buf, "comm." #name);                                              \
    detail::drain();                                                               \
    auto p = s.pt->name(raw(buf), dest, tag);                                        \
    return request(std::move(p), std::move(buf.keep));                             \
  }
OOMPI_RT_SEND_INIT(send_init)
OOMPI_RT_SEND_INIT(ssend_init)
OOMPI_RT_SEND_INIT(bsend_init)
OOMPI_RT_SEND_INIT(rsend_init)
#undef OOMPI_RT_SEND_INIT

request comm::recv_init(async_buffer& buf, int source, int tag) const {
  const auto& s = live("comm.recv_init");
  check_buffer(buf, "comm.recv_init");
  detail::drain();
  auto rb = raw(buf);
  auto p = s.pt->recv_init(rb, source, tag);
  return request(std::move(p), std::move(buf.keep));
}

message comm::mprobe(int source, int tag) const {
  live("comm.mprobe");
  auto st = std::make_shared<message::state>();
  st->m = st_->pt->mprobe(source, tag);
  st->c = st_;
  return message(std::move(st));
}

message* comm::improbe(int source, int tag) const {
  live("comm.improbe");
  auto m = st_->pt->improbe(source, tag);
  if (!m) return nullptr;
  auto st = std::make_shared<message::state>();
  st->m = std::move(*m);
  st->c = st_;
  return new message(std::move(st));
}

}  // namespace oompi::rt
