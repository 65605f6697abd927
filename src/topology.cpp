// Topology communicators: queries on the core's views (comm::state::cart/dgraph/graph, made
// once when the handle was adopted) and the neighbour collectives.
#include <oompi/rt/topology.hpp>

#include "detail/comm_state.hpp"
#include "detail/reclaim.hpp"

namespace oompi::rt {

using detail::check_buffer;
using detail::owning;
using detail::raw;

namespace {
// Calls f with the core's topology communicator of this state (they share the neighbour
// collectives' CRTP interface but no base class).
template <class F>
decltype(auto) with_topology(const comm::state& s, const char* what, F&& f) {
  if (s.cart) return f(*s.cart);
  if (s.dgraph) return f(*s.dgraph);
  if (s.graph) return f(*s.graph);
  throw std::logic_error(std::string(what) + ": the communicator has no topology");
}
}  // namespace

int topo_comm::in_degree() const {
  return with_topology(live("topo_comm.in_degree"), "topo_comm.in_degree",
                       [](const auto& t) { return t.in_degree(); });
}
int topo_comm::out_degree() const {
  return with_topology(live("topo_comm.out_degree"), "topo_comm.out_degree",
                       [](const auto& t) { return t.out_degree(); });
}

// A neighbour collective: checks, then f(core topology, send raw, recv raw) on the right view.
template <class F>
static decltype(auto) neighbor(const comm::state& s, const char* what, const buffer& sendbuf,
                        const buffer& recvbuf, F&& f) {
  check_buffer(sendbuf, what);
  check_buffer(recvbuf, what);
  auto sb = raw(sendbuf);
  auto rb = raw(recvbuf);
  return with_topology(s, what, [&](const auto& t) { return f(t, sb, rb); });
}

void topo_comm::neighbor_allgather(const buffer& sendbuf, buffer& recvbuf) const {
  const char* what = "topo_comm.neighbor_allgather";
  neighbor(live(what), what, sendbuf, recvbuf,
           [](const auto& t, auto& sb, auto& rb) { t.neighbor_allgather(sb, rb); });
}

void topo_comm::neighbor_alltoall(const buffer& sendbuf, buffer& recvbuf) const {
  const char* what = "topo_comm.neighbor_alltoall";
  neighbor(live(what), what, sendbuf, recvbuf,
           [](const auto& t, auto& sb, auto& rb) { t.neighbor_alltoall(sb, rb); });
}

void topo_comm::neighbor_allgatherv(const buffer& sendbuf, buffer& recvbuf,
                                    const std::vector<int>& counts,
                                    const std::vector<int>& displs) const {
  const char* what = "topo_comm.neighbor_allgatherv";
  neighbor(live(what), what, sendbuf, recvbuf, [&](const auto& t, auto& sb, auto& rb) {
    t.neighbor_allgatherv(sb, rb, counts, displs);
  });
}

void topo_comm::neighbor_alltoallv(const buffer& sendbuf, const std::vector<int>& sendcounts,
                                   const std::vector<int>& senddispls, buffer& recvbuf,
                                   const std::vector<int>& recvcounts,
                                   const std::vector<int>& recvdispls) const {
  const char* what = "topo_comm.neighbor_alltoallv";
  neighbor(live(what), what, sendbuf, recvbuf, [&](const auto& t, auto& sb, auto& rb) {
    t.neighbor_alltoallv(sb, sendcounts, senddispls, rb, recvcounts, recvdispls);
  });
}

void topo_comm::neighbor_alltoallw(const buffer& sendbuf, const std::vector<int>& sendcounts,
                                   const std::vector<long long>& senddispls,
                                   const std::vector<datatype>& sendtypes, buffer& recvbuf,
                                   const std::vector<int>& recvcounts,
                                   const std::vector<long long>& recvdispls,
                                   const std::vector<datatype>& recvtypes) const {
  const char* what = "topo_comm.neighbor_alltoallw";
  const auto& s = live(what);
  const auto st = detail::natives(sendtypes, what), rt = detail::natives(recvtypes, what);
  const std::vector<MPI_Aint> sd(senddispls.begin(), senddispls.end()),
      rd(recvdispls.begin(), recvdispls.end());
  neighbor(s, what, sendbuf, recvbuf, [&](const auto& t, auto& sb, auto& rb) {
    t.neighbor_alltoallw(sb, sendcounts, sd, st, rb, recvcounts, rd, rt);
  });
}

request topo_comm::ineighbor_alltoallw(const async_buffer& sendbuf,
                                       const std::vector<int>& sendcounts,
                                       const std::vector<long long>& senddispls,
                                       const std::vector<datatype>& sendtypes,
                                       async_buffer& recvbuf, const std::vector<int>& recvcounts,
                                       const std::vector<long long>& recvdispls,
                                       const std::vector<datatype>& recvtypes) const {
  const char* what = "topo_comm.ineighbor_alltoallw";
  const auto& s = live(what);
  auto st = detail::natives(sendtypes, what), rt = detail::natives(recvtypes, what);
  std::vector<MPI_Aint> sd(senddispls.begin(), senddispls.end()),
      rd(recvdispls.begin(), recvdispls.end());
  detail::drain();
  return request(neighbor(s, what, sendbuf, recvbuf, [&](const auto& t, auto& sb, auto& rb) {
    return owning(t.ineighbor_alltoallw(sb, sendcounts, std::move(sd), std::move(st), rb,
                                        recvcounts, std::move(rd), std::move(rt)),
                  &sendbuf, &recvbuf);
  }));
}

request topo_comm::ineighbor_allgather(const async_buffer& sendbuf, async_buffer& recvbuf) const {
  const char* what = "topo_comm.ineighbor_allgather";
  const auto& s = live(what);
  detail::drain();
  return request(neighbor(s, what, sendbuf, recvbuf, [&](const auto& t, auto& sb, auto& rb) {
    return owning(t.ineighbor_allgather(sb, rb), &sendbuf, &recvbuf);
  }));
}

request topo_comm::ineighbor_alltoall(const async_buffer& sendbuf, async_buffer& recvbuf) const {
  const char* what = "topo_comm.ineighbor_alltoall";
  const auto& s = live(what);
  detail::drain();
  return request(neighbor(s, what, sendbuf, recvbuf, [&](const auto& t, auto& sb, auto& rb) {
    return owning(t.ineighbor_alltoall(sb, rb), &sendbuf, &recvbuf);
  }));
}

request topo_comm::ineighbor_allgatherv(const async_buffer& sendbuf, async_buffer& recvbuf,
                                        const std::vector<int>& counts,
                                        const std::vector<int>& displs) const {
  const char* what = "topo_comm.ineighbor_allgatherv";
  const auto& s = live(what);
  detail::drain();
  return request(neighbor(s, what, sendbuf, recvbuf, [&](const auto& t, auto& sb, auto& rb) {
    return owning(t.ineighbor_allgatherv(sb, rb, counts, displs), &sendbuf, &recvbuf);
  }));
}

request topo_comm::ineighbor_alltoallv(const async_buffer& sendbuf,
                                       const std::vector<int>& sendcounts,
                                       const std::vector<int>& senddispls, async_buffer& recvbuf,
                                       const std::vector<int>& recvcounts,
                                       const std::vector<int>& recvdispls) const {
  const char* what = "topo_comm.ineighbor_alltoallv";
  const auto& s = live(what);
  detail::drain();
  return request(neighbor(s, what, sendbuf, recvbuf, [&](const auto& t, auto& sb, auto& rb) {
    return owning(t.ineighbor_alltoallv(sb, sendcounts, senddispls, rb, recvcounts, recvdispls),
                  &sendbuf, &recvbuf);
  }));
}

// --- Cartesian ----------------------------------------------------------------------------

const oompi::cartesian_communicator& cart_comm::grid(const char* what) const {
  const auto& s = live(what);
  if (!s.cart) throw std::logic_error(std::string(what) + ": not a Cartesian communicator");
  return *s.cart;
}

std::vector<int> cart_comm::dims_create(int nnodes, const std::vector<int>& dims) {
  return oompi::dims_create(nnodes, dims);
}

int cart_comm::ndims() const { return grid("cart_comm.ndims").ndims(); }
std::vector<int> cart_comm::dims() const { return grid("cart_comm.dims").dims(); }
std::vector<int> cart_comm::periods() const {
  const auto p = grid("cart_comm.periods").periods();
  return std::vector<int>(p.begin(), p.end());
}
std::vector<int> cart_comm::coords() const { return grid("cart_comm.coords").coords(); }
std::vector<int> cart_comm::coords_of(int rank) const {
  return grid("cart_comm.coords_of").coords(rank);
}
int cart_comm::rank_of(const std::vector<int>& coords) const {
  return grid("cart_comm.rank_of").rank(coords);
}
cart_shift cart_comm::shift(int direction, int disp) const {
  const auto r = grid("cart_comm.shift").shift(direction, disp);
  return cart_shift{r.source, r.dest};
}
cart_comm cart_comm::sub(const std::vector<int>& remain) const {
  const auto& g = grid("cart_comm.sub");
  oompi::detail::require_running("MPI_Cart_sub");
  detail::drain();
  auto c = g.sub(std::vector<bool>(remain.begin(), remain.end()));
  return cart_comm(comm::state::adopt(c.release(), true));
}

// --- distributed graph --------------------------------------------------------------------

std::vector<int> dist_graph_comm::sources() const {
  const auto& s = live("dist_graph_comm.sources");
  if (!s.dgraph) throw std::logic_error("dist_graph_comm.sources: not a distributed graph");
  return s.dgraph->sources();
}
std::vector<int> dist_graph_comm::destinations() const {
  const auto& s = live("dist_graph_comm.destinations");
  if (!s.dgraph) throw std::logic_error("dist_graph_comm.destinations: not a distributed graph");
  return s.dgraph->destinations();
}

namespace {
const oompi::dist_graph_communicator& dgraph_of(const comm::state& s, const char* what) {
  if (!s.dgraph) throw std::logic_error(std::string(what) + ": not a distributed graph");
  return *s.dgraph;
}
}  // namespace

bool dist_graph_comm::is_weighted() const {
  const char* what = "dist_graph_comm.is_weighted";
  return dgraph_of(live(what), what).is_weighted();
}
std::vector<int> dist_graph_comm::source_weights() const {
  const char* what = "dist_graph_comm.source_weights";
  return dgraph_of(live(what), what).source_weights();
}
std::vector<int> dist_graph_comm::destination_weights() const {
  const char* what = "dist_graph_comm.destination_weights";
  return dgraph_of(live(what), what).destination_weights();
}

// --- a plain comm as its topology's class (the state knows which one it carries) ----------

cart_comm comm::as_cart() const {
  if (!live("comm.as_cart").cart) throw std::logic_error("comm.as_cart: not a Cartesian communicator");
  return cart_comm(st_);
}
graph_comm comm::as_graph() const {
  if (!live("comm.as_graph").graph) throw std::logic_error("comm.as_graph: not a graph communicator");
  return graph_comm(st_);
}
dist_graph_comm comm::as_dist_graph() const {
  if (!live("comm.as_dist_graph").dgraph)
    throw std::logic_error("comm.as_dist_graph: not a distributed graph communicator");
  return dist_graph_comm(st_);
}

// --- graph --------------------------------------------------------------------------------

const oompi::graph_communicator& graph_comm::graph(const char* what) const {
  const auto& s = live(what);
  if (!s.graph) throw std::logic_error(std::string(what) + ": not a graph communicator");
  return *s.graph;
}

int graph_comm::nnodes() const { return graph("graph_comm.nnodes").nnodes(); }
int graph_comm::nedges() const { return graph("graph_comm.nedges").nedges(); }
std::vector<int> graph_comm::index() const { return graph("graph_comm.index").index(); }
std::vector<int> graph_comm::edges() const { return graph("graph_comm.edges").edges(); }
int graph_comm::neighbors_count(int rank) const {
  return graph("graph_comm.neighbors_count").neighbors_count(rank);
}
std::vector<int> graph_comm::neighbors(int rank) const {
  return graph("graph_comm.neighbors").neighbors(rank);
}
std::vector<int> graph_comm::neighbors() const {
  return graph("graph_comm.neighbors").neighbors();
}

}  // namespace oompi::rt
