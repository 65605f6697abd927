// The facade's collectives: each one checks the handles and buffers, then calls the core's
// collective on raw buffers (which checks counts, roots and sizes before MPI sees them).
// Nonblocking forms hand the buffers' keep-alives (and the op) to the request.
#include <oompi/rt/comm.hpp>

#include "detail/comm_state.hpp"
#include "detail/reclaim.hpp"

#include <oompi/collectives.hpp>

#include <memory>

namespace oompi::rt {

using detail::check_buffer;
using detail::owning;
using detail::raw;

namespace {
// A receive-side buffer as an lvalue raw buffer for the core.
struct out {
  oompi::raw_buffer r;
  out(const buffer& b, const char* what) : r((check_buffer(b, what), raw(b))) {}
};
oompi::raw_buffer in(const buffer& b, const char* what) {
  check_buffer(b, what);
  return raw(b);
}
// Keeps the facade op (and with it the core op and the user function's slot) alive until a
// nonblocking reduction completes.
std::shared_ptr<void> hold(const op& o) { return std::make_shared<op>(o); }
// Calls f on the core's communicator of this state: the intracommunicator, or the
// intercommunicator (whose collectives follow MPI's intercommunicator rules for roots and
// sizes). In-place forms, scans and reduce_scatter stay intracommunicator-only (live_intra).
template <class F>
decltype(auto) on(const comm::state& s, F&& f) {
  return s.inter() ? f(s.ic) : f(s.c);
}
}  // namespace

void comm::barrier() const {
  const auto& s = live("comm.barrier");
  on(s, [&](const auto& c) { return c.barrier(); });
}

void comm::bcast(buffer& buf, int root) const {
  const auto& s = live("comm.bcast");
  out b(buf, "comm.bcast");
  on(s, [&](const auto& c) { return c.bcast(b.r, root); });
}

void comm::reduce(const buffer& sendbuf, buffer& recvbuf, const op& operation, int root) const {
  const auto& s = live("comm.reduce");
  const auto& o = operation.core("comm.reduce");
  auto sb = in(sendbuf, "comm.reduce");
  out rb(recvbuf, "comm.reduce");
  on(s, [&](const auto& c) { return c.reduce(sb, rb.r, o, root); });
}

void comm::reduce_in_place(buffer& buf, const op& operation, int root) const {
  const auto& s = live_intra("comm.reduce_in_place");
  const auto& o = operation.core("comm.reduce_in_place");
  out b(buf, "comm.reduce_in_place");
  s.c.reduce(oompi::in_place, b.r, o, root);
}

void comm::allreduce(const buffer& sendbuf, buffer& recvbuf, const op& operation) const {
  const auto& s = live("comm.allreduce");
  const auto& o = operation.core("comm.allreduce");
  auto sb = in(sendbuf, "comm.allreduce");
  out rb(recvbuf, "comm.allreduce");
  on(s, [&](const auto& c) { return c.allreduce(sb, rb.r, o); });
}

void comm::allreduce_in_place(buffer& buf, const op& operation) const {
  const auto& s = live_intra("comm.allreduce_in_place");
  const auto& o = operation.core("comm.allreduce_in_place");
  out b(buf, "comm.allreduce_in_place");
  s.c.allreduce(oompi::in_place, b.r, o);
}

void comm::gather(const buffer& sendbuf, buffer& recvbuf, int root) const {
  const auto& s = live("comm.gather");
  auto sb = in(sendbuf, "comm.gather");
  out rb(recvbuf, "comm.gather");
  on(s, [&](const auto& c) { return c.gather(sb, rb.r, root); });
}

void comm::gather_in_place(buffer& buf, int root) const {
  const auto& s = live_intra("comm.gather_in_place");
  out b(buf, "comm.gather_in_place");
  s.c.gather(oompi::in_place, b.r, root);
}

void comm::gatherv(const buffer& sendbuf, buffer& recvbuf, const std::vector<int>& counts,
                   const std::vector<int>& displs, int root) const {
  const auto& s = live("comm.gatherv");
  auto sb = in(sendbuf, "comm.gatherv");
  out rb(recvbuf, "comm.gatherv");
  on(s, [&](const auto& c) { return c.gatherv(sb, rb.r, counts, displs, root); });
}

void comm::scatter(const buffer& sendbuf, buffer& recvbuf, int root) const {
  const auto& s = live("comm.scatter");
  auto sb = in(sendbuf, "comm.scatter");
  out rb(recvbuf, "comm.scatter");
  on(s, [&](const auto& c) { return c.scatter(sb, rb.r, root); });
}

void comm::scatter_in_place(buffer& buf, int root) const {
  const auto& s = live_intra("comm.scatter_in_place");
  out b(buf, "comm.scatter_in_place");
  s.c.scatter(oompi::in_place, b.r, root);
}

void comm::scatterv(const buffer& sendbuf, const std::vector<int>& counts,
                    const std::vector<int>& displs, buffer& recvbuf, int root) const {
  const auto& s = live("comm.scatterv");
  auto sb = in(sendbuf, "comm.scatterv");
  out rb(recvbuf, "comm.scatterv");
  on(s, [&](const auto& c) { return c.scatterv(sb, counts, displs, rb.r, root); });
}

void comm::allgather(const buffer& sendbuf, buffer& recvbuf) const {
  const auto& s = live("comm.allgather");
  auto sb = in(sendbuf, "comm.allgather");
  out rb(recvbuf, "comm.allgather");
  on(s, [&](const auto& c) { return c.allgather(sb, rb.r); });
}

void comm::allgather_in_place(buffer& buf) const {
  const auto& s = live_intra("comm.allgather_in_place");
  out b(buf, "comm.allgather_in_place");
  s.c.allgather(oompi::in_place, b.r);
}

void comm::allgatherv(const buffer& sendbuf, buffer& recvbuf, const std::vector<int>& counts,
                      const std::vector<int>& displs) const {
  const auto& s = live("comm.allgatherv");
  auto sb = in(sendbuf, "comm.allgatherv");
  out rb(recvbuf, "comm.allgatherv");
  on(s, [&](const auto& c) { return c.allgatherv(sb, rb.r, counts, displs); });
}

void comm::alltoall(const buffer& sendbuf, buffer& recvbuf) const {
  const auto& s = live("comm.alltoall");
  auto sb = in(sendbuf, "comm.alltoall");
  out rb(recvbuf, "comm.alltoall");
  on(s, [&](const auto& c) { return c.alltoall(sb, rb.r); });
}

void comm::alltoall_in_place(buffer& buf) const {
  const auto& s = live_intra("comm.alltoall_in_place");
  out b(buf, "comm.alltoall_in_place");
  s.c.alltoall(oompi::in_place, b.r);
}

void comm::alltoallv(const buffer& sendbuf, const std::vector<int>& sendcounts,
                     const std::vector<int>& senddispls, buffer& recvbuf,
                     const std::vector<int>& recvcounts,
                     const std::vector<int>& recvdispls) const {
  const auto& s = live("comm.alltoallv");
  auto sb = in(sendbuf, "comm.alltoallv");
  out rb(recvbuf, "comm.alltoallv");
  on(s, [&](const auto& c) { return c.alltoallv(sb, sendcounts, senddispls, rb.r, recvcounts, recvdispls); });
}

void comm::reduce_scatter_block(const buffer& sendbuf, buffer& recvbuf,
                                const op& operation) const {
  const auto& s = live_intra("comm.reduce_scatter_block");
  const auto& o = operation.core("comm.reduce_scatter_block");
  auto sb = in(sendbuf, "comm.reduce_scatter_block");
  out rb(recvbuf, "comm.reduce_scatter_block");
  s.c.reduce_scatter_block(sb, rb.r, o);
}

void comm::reduce_scatter(const buffer& sendbuf, buffer& recvbuf, const std::vector<int>& counts,
                          const op& operation) const {
  const auto& s = live_intra("comm.reduce_scatter");
  const auto& o = operation.core("comm.reduce_scatter");
  auto sb = in(sendbuf, "comm.reduce_scatter");
  out rb(recvbuf, "comm.reduce_scatter");
  s.c.reduce_scatter(sb, rb.r, counts, o);
}

void comm::scan(const buffer& sendbuf, buffer& recvbuf, const op& operation) const {
  const auto& s = live_intra("comm.scan");
  const auto& o = operation.core("comm.scan");
  auto sb = in(sendbuf, "comm.scan");
  out rb(recvbuf, "comm.scan");
  s.c.scan(sb, rb.r, o);
}

void comm::scan_in_place(buffer& buf, const op& operation) const {
  const auto& s = live_intra("comm.scan_in_place");
  const auto& o = operation.core("comm.scan_in_place");
  out b(buf, "comm.scan_in_place");
  s.c.scan(oompi::in_place, b.r, o);
}

void comm::exscan(const buffer& sendbuf, buffer& recvbuf, const op& operation) const {
  const auto& s = live_intra("comm.exscan");
  const auto& o = operation.core("comm.exscan");
  auto sb = in(sendbuf, "comm.exscan");
  out rb(recvbuf, "comm.exscan");
  s.c.exscan(sb, rb.r, o);
}

void comm::exscan_in_place(buffer& buf, const op& operation) const {
  const auto& s = live_intra("comm.exscan_in_place");
  const auto& o = operation.core("comm.exscan_in_place");
  out b(buf, "comm.exscan_in_place");
  s.c.exscan(oompi::in_place, b.r, o);
}

// --- nonblocking ---------------------------------------------------------------------------

request comm::ibarrier() const {
  const auto& s = live("comm.ibarrier");
  detail::drain();
  return request(on(s, [&](const auto& c) { return c.ibarrier(); }));
}

request comm::ibcast(async_buffer& buf, int root) const {
  const auto& s = live("comm.ibcast");
  out b(buf, "comm.ibcast");
  detail::drain();
  return request(owning(on(s, [&](const auto& c) { return c.ibcast(b.r, root); }), &buf));
}

request comm::ireduce(const async_buffer& sendbuf, async_buffer& recvbuf, const op& operation,
                      int root) const {
  const auto& s = live("comm.ireduce");
  const auto& o = operation.core("comm.ireduce");
  auto sb = in(sendbuf, "comm.ireduce");
  out rb(recvbuf, "comm.ireduce");
  detail::drain();
  return request(owning(on(s, [&](const auto& c) { return c.ireduce(sb, rb.r, o, root); }), &sendbuf, &recvbuf, hold(operation)));
}

request comm::iallreduce(const async_buffer& sendbuf, async_buffer& recvbuf,
                         const op& operation) const {
  const auto& s = live("comm.iallreduce");
  const auto& o = operation.core("comm.iallreduce");
  auto sb = in(sendbuf, "comm.iallreduce");
  out rb(recvbuf, "comm.iallreduce");
  detail::drain();
  return request(owning(on(s, [&](const auto& c) { return c.iallreduce(sb, rb.r, o); }), &sendbuf, &recvbuf, hold(operation)));
}

request comm::iallreduce_in_place(async_buffer& buf, const op& operation) const {
  const auto& s = live_intra("comm.iallreduce_in_place");
  const auto& o = operation.core("comm.iallreduce_in_place");
  out b(buf, "comm.iallreduce_in_place");
  detail::drain();
  return request(owning(s.c.iallreduce(oompi::in_place, b.r, o), &buf, nullptr, hold(operation)));
}

request comm::igather(const async_buffer& sendbuf, async_buffer& recvbuf, int root) const {
  const auto& s = live("comm.igather");
  auto sb = in(sendbuf, "comm.igather");
  out rb(recvbuf, "comm.igather");
  detail::drain();
  return request(owning(on(s, [&](const auto& c) { return c.igather(sb, rb.r, root); }), &sendbuf, &recvbuf));
}

request comm::igatherv(const async_buffer& sendbuf, async_buffer& recvbuf,
                       const std::vector<int>& counts, const std::vector<int>& displs,
                       int root) const {
  const auto& s = live("comm.igatherv");
  auto sb = in(sendbuf, "comm.igatherv");
  out rb(recvbuf, "comm.igatherv");
  detail::drain();
  return request(owning(on(s, [&](const auto& c) { return c.igatherv(sb, rb.r, counts, displs, root); }), &sendbuf, &recvbuf));
}

request comm::iscatter(const async_buffer& sendbuf, async_buffer& recvbuf, int root) const {
  const auto& s = live("comm.iscatter");
  auto sb = in(sendbuf, "comm.iscatter");
  out rb(recvbuf, "comm.iscatter");
  detail::drain();
  return request(owning(on(s, [&](const auto& c) { return c.iscatter(sb, rb.r, root); }), &sendbuf, &recvbuf));
}

request comm::iscatterv(const async_buffer& sendbuf, const std::vector<int>& counts,
                        const std::vector<int>& displs, async_buffer& recvbuf, int root) const {
  const auto& s = live("comm.iscatterv");
  auto sb = in(sendbuf, "comm.iscatterv");
  out rb(recvbuf, "comm.iscatterv");
  detail::drain();
  return request(owning(on(s, [&](const auto& c) { return c.iscatterv(sb, counts, displs, rb.r, root); }), &sendbuf, &recvbuf));
}

request comm::iallgather(const async_buffer& sendbuf, async_buffer& recvbuf) const {
  const auto& s = live("comm.iallgather");
  auto sb = in(sendbuf, "comm.iallgather");
  out rb(recvbuf, "comm.iallgather");
  detail::drain();
  return request(owning(on(s, [&](const auto& c) { return c.iallgather(sb, rb.r); }), &sendbuf, &recvbuf));
}

request comm::iallgatherv(const async_buffer& sendbuf, async_buffer& recvbuf,
                          const std::vector<int>& counts, const std::vector<int>& displs) const {
  const auto& s = live("comm.iallgatherv");
  auto sb = in(sendbuf, "comm.iallgatherv");
  out rb(recvbuf, "comm.iallgatherv");
  detail::drain();
  return request(owning(on(s, [&](const auto& c) { return c.iallgatherv(sb, rb.r, counts, displs); }), &sendbuf, &recvbuf));
}

request comm::ialltoall(const async_buffer& sendbuf, async_buffer& recvbuf) const {
  const auto& s = live("comm.ialltoall");
  auto sb = in(sendbuf, "comm.ialltoall");
  out rb(recvbuf, "comm.ialltoall");
  detail::drain();
  return request(owning(on(s, [&](const auto& c) { return c.ialltoall(sb, rb.r); }), &sendbuf, &recvbuf));
}

request comm::ialltoallv(const async_buffer& sendbuf, const std::vector<int>& sendcounts,
                         const std::vector<int>& senddispls, async_buffer& recvbuf,
                         const std::vector<int>& recvcounts,
                         const std::vector<int>& recvdispls) const {
  const auto& s = live("comm.ialltoallv");
  auto sb = in(sendbuf, "comm.ialltoallv");
  out rb(recvbuf, "comm.ialltoallv");
  detail::drain();
  return request(owning(
      on(s, [&](const auto& c) { return c.ialltoallv(sb, sendcounts, senddispls, rb.r, recvcounts, recvdispls); }), &sendbuf,
      &recvbuf));
}

request comm::ialltoallw(const async_buffer& sendbuf, const std::vector<int>& sendcounts,
                         const std::vector<int>& senddispls,
                         const std::vector<datatype>& sendtypes, async_buffer& recvbuf,
                         const std::vector<int>& recvcounts, const std::vector<int>& recvdispls,
                         const std::vector<datatype>& recvtypes) const {
  const char* what = "comm.ialltoallw";
  const auto& s = live(what);
  const auto st = detail::natives(sendtypes, what), rt = detail::natives(recvtypes, what);
  auto sb = in(sendbuf, what);
  out rb(recvbuf, what);
  detail::drain();
  return request(owning(on(s, [&](const auto& c) {
                          return c.ialltoallw(sb, sendcounts, senddispls, st, rb.r, recvcounts,
                                              recvdispls, rt);
                        }),
                        &sendbuf, &recvbuf));
}

request comm::ireduce_scatter_block(const async_buffer& sendbuf, async_buffer& recvbuf,
                                    const op& operation) const {
  const auto& s = live_intra("comm.ireduce_scatter_block");
  const auto& o = operation.core("comm.ireduce_scatter_block");
  auto sb = in(sendbuf, "comm.ireduce_scatter_block");
  out rb(recvbuf, "comm.ireduce_scatter_block");
  detail::drain();
  return request(owning(s.c.ireduce_scatter_block(sb, rb.r, o), &sendbuf, &recvbuf,
                        hold(operation)));
}

request comm::iscan(const async_buffer& sendbuf, async_buffer& recvbuf,
                    const op& operation) const {
  const auto& s = live_intra("comm.iscan");
  const auto& o = operation.core("comm.iscan");
  auto sb = in(sendbuf, "comm.iscan");
  out rb(recvbuf, "comm.iscan");
  detail::drain();
  return request(owning(s.c.iscan(sb, rb.r, o), &sendbuf, &recvbuf, hold(operation)));
}

request comm::iexscan(const async_buffer& sendbuf, async_buffer& recvbuf,
                      const op& operation) const {
  const auto& s = live_intra("comm.iexscan");
  const auto& o = operation.core("comm.iexscan");
  auto sb = in(sendbuf, "comm.iexscan");
  out rb(recvbuf, "comm.iexscan");
  detail::drain();
  return request(owning(s.c.iexscan(sb, rb.r, o), &sendbuf, &recvbuf, hold(operation)));
}

// --- in-place v-forms, ireduce_scatter (binding parity) -----------------------------------

void comm::gatherv_in_place(buffer& buf, const std::vector<int>& counts,
                            const std::vector<int>& displs, int root) const {
  const auto& s = live_intra("comm.gatherv_in_place");
  out b(buf, "comm.gatherv_in_place");
  s.c.gatherv(oompi::in_place, b.r, counts, displs, root);
}

void comm::allgatherv_in_place(buffer& buf, const std::vector<int>& counts,
                               const std::vector<int>& displs) const {
  const auto& s = live_intra("comm.allgatherv_in_place");
  out b(buf, "comm.allgatherv_in_place");
  s.c.allgatherv(oompi::in_place, b.r, counts, displs);
}

void comm::alltoallv_in_place(buffer& buf, const std::vector<int>& counts,
                              const std::vector<int>& displs) const {
  const auto& s = live_intra("comm.alltoallv_in_place");
  out b(buf, "comm.alltoallv_in_place");
  s.c.alltoallv(oompi::in_place, b.r, counts, displs);
}

request comm::ireduce_scatter(const async_buffer& sendbuf, async_buffer& recvbuf,
                              const std::vector<int>& counts, const op& operation) const {
  const auto& s = live_intra("comm.ireduce_scatter");
  const auto& o = operation.core("comm.ireduce_scatter");
  auto sb = in(sendbuf, "comm.ireduce_scatter");
  out rb(recvbuf, "comm.ireduce_scatter");
  detail::drain();
  return request(owning(s.c.ireduce_scatter(sb, rb.r, counts, o), &sendbuf, &recvbuf,
                        hold(operation)));
}

void comm::alltoallw(const buffer& sendbuf, const std::vector<int>& sendcounts,
                     const std::vector<int>& senddispls, const std::vector<datatype>& sendtypes,
                     buffer& recvbuf, const std::vector<int>& recvcounts,
                     const std::vector<int>& recvdispls,
                     const std::vector<datatype>& recvtypes) const {
  const char* what = "comm.alltoallw";
  const auto& s = live(what);
  const auto st = detail::natives(sendtypes, what), rt = detail::natives(recvtypes, what);
  auto sb = in(sendbuf, what);
  out rb(recvbuf, what);
  on(s, [&](const auto& c) {
    c.alltoallw(sb, sendcounts, senddispls, st, rb.r, recvcounts, recvdispls, rt);
  });
}

}  // namespace oompi::rt
