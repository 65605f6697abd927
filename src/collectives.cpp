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
// sizes). In-place forms and scans stay intracommunicator-only (live_intra); the blocking
// reduce_scatter(_block) run on intercommunicators too (group A's reduction scattered over B).
template <class F>
decltype(auto) on(const comm::state& s, F&& f) {
  return s.inter() ? f(s.ic) : f(s.c);
}
// ... or on the core communicator already chosen (intracommunicator-only forms pass s.c).
template <class Core, class F>
decltype(auto) on(const Core& c, F&& f) {
  return f(c);
}

// A two-buffer collective on `target` (a state, or s.c): the send buffer checked, then the
// receive buffer, then call(core communicator, send, receive) on the core's raw buffers.
template <class Target, class F>
void run(const Target& target, const buffer& sendbuf, buffer& recvbuf, const char* what,
         F&& call) {
  auto sb = in(sendbuf, what);
  out rb(recvbuf, what);
  on(target, [&](const auto& c) { call(c, sb, rb.r); });
}
// Its nonblocking form: what finished requests left is freed first, and the request keeps both
// buffers (and a reduction's op) alive until it completes.
template <class Target, class F>
request start(const Target& target, const async_buffer& sendbuf, async_buffer& recvbuf,
              const char* what, F&& call, const op* reduction = nullptr) {
  auto sb = in(sendbuf, what);
  out rb(recvbuf, what);
  detail::drain();
  auto r = on(target, [&](const auto& c) { return call(c, sb, rb.r); });
  return request(owning(std::move(r), &sendbuf, &recvbuf, reduction ? hold(*reduction) : nullptr));
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
  run(s, sendbuf, recvbuf, "comm.reduce",
      [&](const auto& c, auto& sb, auto& rb) { return c.reduce(sb, rb, o, root); });
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
  run(s, sendbuf, recvbuf, "comm.allreduce",
      [&](const auto& c, auto& sb, auto& rb) { return c.allreduce(sb, rb, o); });
}

void comm::allreduce_in_place(buffer& buf, const op& operation) const {
  const auto& s = live_intra("comm.allreduce_in_place");
  const auto& o = operation.core("comm.allreduce_in_place");
  out b(buf, "comm.allreduce_in_place");
  s.c.allreduce(oompi::in_place, b.r, o);
}

void comm::gather(const buffer& sendbuf, buffer& recvbuf, int root) const {
  run(live("comm.gather"), sendbuf, recvbuf, "comm.gather",
      [&](const auto& c, auto& sb, auto& rb) { return c.gather(sb, rb, root); });
}

void comm::gather_in_place(buffer& buf, int root) const {
  const auto& s = live_intra("comm.gather_in_place");
  out b(buf, "comm.gather_in_place");
  s.c.gather(oompi::in_place, b.r, root);
}

void comm::gatherv(const buffer& sendbuf, buffer& recvbuf, const std::vector<int>& counts,
                   const std::vector<int>& displs, int root) const {
  run(live("comm.gatherv"), sendbuf, recvbuf, "comm.gatherv",
      [&](const auto& c, auto& sb, auto& rb) { return c.gatherv(sb, rb, counts, displs, root); });
}

void comm::scatter(const buffer& sendbuf, buffer& recvbuf, int root) const {
  run(live("comm.scatter"), sendbuf, recvbuf, "comm.scatter",
      [&](const auto& c, auto& sb, auto& rb) { return c.scatter(sb, rb, root); });
}

void comm::scatter_in_place(buffer& buf, int root) const {
  const auto& s = live_intra("comm.scatter_in_place");
  out b(buf, "comm.scatter_in_place");
  s.c.scatter(oompi::in_place, b.r, root);
}

void comm::scatterv(const buffer& sendbuf, const std::vector<int>& counts,
                    const std::vector<int>& displs, buffer& recvbuf, int root) const {
  run(live("comm.scatterv"), sendbuf, recvbuf, "comm.scatterv",
      [&](const auto& c, auto& sb, auto& rb) { return c.scatterv(sb, counts, displs, rb, root); });
}

void comm::allgather(const buffer& sendbuf, buffer& recvbuf) const {
  run(live("comm.allgather"), sendbuf, recvbuf, "comm.allgather",
      [&](const auto& c, auto& sb, auto& rb) { return c.allgather(sb, rb); });
}

void comm::allgather_in_place(buffer& buf) const {
  const auto& s = live_intra("comm.allgather_in_place");
  out b(buf, "comm.allgather_in_place");
  s.c.allgather(oompi::in_place, b.r);
}

void comm::allgatherv(const buffer& sendbuf, buffer& recvbuf, const std::vector<int>& counts,
                      const std::vector<int>& displs) const {
  run(live("comm.allgatherv"), sendbuf, recvbuf, "comm.allgatherv",
      [&](const auto& c, auto& sb, auto& rb) { return c.allgatherv(sb, rb, counts, displs); });
}

void comm::alltoall(const buffer& sendbuf, buffer& recvbuf) const {
  run(live("comm.alltoall"), sendbuf, recvbuf, "comm.alltoall",
      [&](const auto& c, auto& sb, auto& rb) { return c.alltoall(sb, rb); });
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
  run(live("comm.alltoallv"), sendbuf, recvbuf, "comm.alltoallv",
      [&](const auto& c, auto& sb, auto& rb) {
        return c.alltoallv(sb, sendcounts, senddispls, rb, recvcounts, recvdispls);
      });
}

void comm::reduce_scatter_block(const buffer& sendbuf, buffer& recvbuf,
                                const op& operation) const {
  const auto& s = live("comm.reduce_scatter_block");
  const auto& o = operation.core("comm.reduce_scatter_block");
  run(s, sendbuf, recvbuf, "comm.reduce_scatter_block",
      [&](const auto& c, auto& sb, auto& rb) { return c.reduce_scatter_block(sb, rb, o); });
}

void comm::reduce_scatter(const buffer& sendbuf, buffer& recvbuf, const std::vector<int>& counts,
                          const op& operation) const {
  const auto& s = live("comm.reduce_scatter");
  const auto& o = operation.core("comm.reduce_scatter");
  run(s, sendbuf, recvbuf, "comm.reduce_scatter",
      [&](const auto& c, auto& sb, auto& rb) { return c.reduce_scatter(sb, rb, counts, o); });
}

void comm::scan(const buffer& sendbuf, buffer& recvbuf, const op& operation) const {
  const auto& s = live_intra("comm.scan");
  const auto& o = operation.core("comm.scan");
  run(s.c, sendbuf, recvbuf, "comm.scan",
      [&](const auto& c, auto& sb, auto& rb) { return c.scan(sb, rb, o); });
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
  run(s.c, sendbuf, recvbuf, "comm.exscan",
      [&](const auto& c, auto& sb, auto& rb) { return c.exscan(sb, rb, o); });
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
  return start(s, sendbuf, recvbuf, "comm.ireduce",
               [&](const auto& c, auto& sb, auto& rb) { return c.ireduce(sb, rb, o, root); },
               &operation);
}

request comm::iallreduce(const async_buffer& sendbuf, async_buffer& recvbuf,
                         const op& operation) const {
  const auto& s = live("comm.iallreduce");
  const auto& o = operation.core("comm.iallreduce");
  return start(s, sendbuf, recvbuf, "comm.iallreduce",
               [&](const auto& c, auto& sb, auto& rb) { return c.iallreduce(sb, rb, o); },
               &operation);
}

request comm::iallreduce_in_place(async_buffer& buf, const op& operation) const {
  const auto& s = live_intra("comm.iallreduce_in_place");
  const auto& o = operation.core("comm.iallreduce_in_place");
  out b(buf, "comm.iallreduce_in_place");
  detail::drain();
  return request(owning(s.c.iallreduce(oompi::in_place, b.r, o), &buf, nullptr, hold(operation)));
}

request comm::igather(const async_buffer& sendbuf, async_buffer& recvbuf, int root) const {
  return start(live("comm.igather"), sendbuf, recvbuf, "comm.igather",
               [&](const auto& c, auto& sb, auto& rb) { return c.igather(sb, rb, root); });
}

request comm::igatherv(const async_buffer& sendbuf, async_buffer& recvbuf,
                       const std::vector<int>& counts, const std::vector<int>& displs,
                       int root) const {
  return start(live("comm.igatherv"), sendbuf, recvbuf, "comm.igatherv",
               [&](const auto& c, auto& sb, auto& rb) {
                 return c.igatherv(sb, rb, counts, displs, root);
               });
}

request comm::iscatter(const async_buffer& sendbuf, async_buffer& recvbuf, int root) const {
  return start(live("comm.iscatter"), sendbuf, recvbuf, "comm.iscatter",
               [&](const auto& c, auto& sb, auto& rb) { return c.iscatter(sb, rb, root); });
}

request comm::iscatterv(const async_buffer& sendbuf, const std::vector<int>& counts,
                        const std::vector<int>& displs, async_buffer& recvbuf, int root) const {
  return start(live("comm.iscatterv"), sendbuf, recvbuf, "comm.iscatterv",
               [&](const auto& c, auto& sb, auto& rb) {
                 return c.iscatterv(sb, counts, displs, rb, root);
               });
}

request comm::iallgather(const async_buffer& sendbuf, async_buffer& recvbuf) const {
  return start(live("comm.iallgather"), sendbuf, recvbuf, "comm.iallgather",
               [&](const auto& c, auto& sb, auto& rb) { return c.iallgather(sb, rb); });
}

request comm::iallgatherv(const async_buffer& sendbuf, async_buffer& recvbuf,
                          const std::vector<int>& counts, const std::vector<int>& displs) const {
  return start(live("comm.iallgatherv"), sendbuf, recvbuf, "comm.iallgatherv",
               [&](const auto& c, auto& sb, auto& rb) {
                 return c.iallgatherv(sb, rb, counts, displs);
               });
}

request comm::ialltoall(const async_buffer& sendbuf, async_buffer& recvbuf) const {
  return start(live("comm.ialltoall"), sendbuf, recvbuf, "comm.ialltoall",
               [&](const auto& c, auto& sb, auto& rb) { return c.ialltoall(sb, rb); });
}

request comm::ialltoallv(const async_buffer& sendbuf, const std::vector<int>& sendcounts,
                         const std::vector<int>& senddispls, async_buffer& recvbuf,
                         const std::vector<int>& recvcounts,
                         const std::vector<int>& recvdispls) const {
  return start(live("comm.ialltoallv"), sendbuf, recvbuf, "comm.ialltoallv",
               [&](const auto& c, auto& sb, auto& rb) {
                 return c.ialltoallv(sb, sendcounts, senddispls, rb, recvcounts, recvdispls);
               });
}

request comm::ialltoallw(const async_buffer& sendbuf, const std::vector<int>& sendcounts,
                         const std::vector<int>& senddispls,
                         const std::vector<datatype>& sendtypes, async_buffer& recvbuf,
                         const std::vector<int>& recvcounts, const std::vector<int>& recvdispls,
                         const std::vector<datatype>& recvtypes) const {
  const char* what = "comm.ialltoallw";
  const auto& s = live(what);
  const auto st = detail::natives(sendtypes, what), rt = detail::natives(recvtypes, what);
  return start(s, sendbuf, recvbuf, what, [&](const auto& c, auto& sb, auto& rb) {
    return c.ialltoallw(sb, sendcounts, senddispls, st, rb, recvcounts, recvdispls, rt);
  });
}

request comm::ireduce_scatter_block(const async_buffer& sendbuf, async_buffer& recvbuf,
                                    const op& operation) const {
  const auto& s = live_intra("comm.ireduce_scatter_block");
  const auto& o = operation.core("comm.ireduce_scatter_block");
  return start(s.c, sendbuf, recvbuf, "comm.ireduce_scatter_block",
               [&](const auto& c, auto& sb, auto& rb) {
                 return c.ireduce_scatter_block(sb, rb, o);
               }, &operation);
}

request comm::iscan(const async_buffer& sendbuf, async_buffer& recvbuf,
                    const op& operation) const {
  const auto& s = live_intra("comm.iscan");
  const auto& o = operation.core("comm.iscan");
  return start(s.c, sendbuf, recvbuf, "comm.iscan",
               [&](const auto& c, auto& sb, auto& rb) { return c.iscan(sb, rb, o); }, &operation);
}

request comm::iexscan(const async_buffer& sendbuf, async_buffer& recvbuf,
                      const op& operation) const {
  const auto& s = live_intra("comm.iexscan");
  const auto& o = operation.core("comm.iexscan");
  return start(s.c, sendbuf, recvbuf, "comm.iexscan",
               [&](const auto& c, auto& sb, auto& rb) { return c.iexscan(sb, rb, o); }, &operation);
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
  return start(s.c, sendbuf, recvbuf, "comm.ireduce_scatter",
               [&](const auto& c, auto& sb, auto& rb) {
                 return c.ireduce_scatter(sb, rb, counts, o);
               }, &operation);
}

void comm::alltoallw(const buffer& sendbuf, const std::vector<int>& sendcounts,
                     const std::vector<int>& senddispls, const std::vector<datatype>& sendtypes,
                     buffer& recvbuf, const std::vector<int>& recvcounts,
                     const std::vector<int>& recvdispls,
                     const std::vector<datatype>& recvtypes) const {
  const char* what = "comm.alltoallw";
  const auto& s = live(what);
  const auto st = detail::natives(sendtypes, what), rt = detail::natives(recvtypes, what);
  run(s, sendbuf, recvbuf, what, [&](const auto& c, auto& sb, auto& rb) {
    c.alltoallw(sb, sendcounts, senddispls, st, rb, recvcounts, recvdispls, rt);
  });
}

}  // namespace oompi::rt
