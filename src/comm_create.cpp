// Making communicators: split, create, groups, comparison, names, topologies, intercomms.
// Every new handle goes through comm::state::adopt, which frees it if wrapping fails and
// records its kind (inter, Cartesian, graph) once.
#include <oompi/rt/comm.hpp>
#include <oompi/rt/intercomm.hpp>
#include <oompi/rt/topology.hpp>

#include "detail/comm_state.hpp"
#include "detail/reclaim.hpp"

#include <oompi/object_ops.hpp>

#include <string>

namespace oompi::rt {

namespace {
// A new communicator, or a null comm handle when this process is not in it.
std::shared_ptr<comm::state> made(MPI_Comm h) {
  if (h == MPI_COMM_NULL) return nullptr;
  return comm::state::adopt(h, true);
}
void before_create(const char* routine) {
  oompi::detail::require_running(routine);
  detail::drain();
}
}  // namespace

comm comm::split(int color, int key) const {
  const auto& s = live_intra("comm.split");
  if (color < 0 && color != MPI_UNDEFINED)
    throw std::invalid_argument("comm.split: color " + std::to_string(color) +
                                " is negative (use undefined to take no part)");
  before_create("MPI_Comm_split");
  MPI_Comm h = MPI_COMM_NULL;
  OOMPI_CHECK(MPI_Comm_split, (s.handle(), color, key, &h));
  return comm(made(h));
}

comm comm::split_shared(int key) const {
  const auto& s = live_intra("comm.split_shared");
  before_create("MPI_Comm_split_type");
  MPI_Comm h = MPI_COMM_NULL;
  OOMPI_CHECK(MPI_Comm_split_type, (s.handle(), MPI_COMM_TYPE_SHARED, key, MPI_INFO_NULL, &h));
  return comm(made(h));
}

comm comm::create(const group& g) const {
  const auto& s = live_intra("comm.create");
  MPI_Group gh = g.native("comm.create");
  before_create("MPI_Comm_create");
  MPI_Comm h = MPI_COMM_NULL;
  OOMPI_CHECK(MPI_Comm_create, (s.handle(), gh, &h));
  return comm(made(h));
}

comm comm::create_group(const group& g, int tag) const {
  const auto& s = live_intra("comm.create_group");
  MPI_Group gh = g.native("comm.create_group");
  before_create("MPI_Comm_create_group");
  auto c = s.c.create_group(oompi::group(gh, false), tag);
  return comm(made(c.release()));
}

group comm::get_group() const {
  const auto& s = live("comm.get_group");
  MPI_Group g = MPI_GROUP_NULL;
  OOMPI_CHECK(MPI_Comm_group, (s.handle(), &g));
  return group::adopt(g);
}

comparison comm::compare(const comm& other) const {
  const auto& a = live("comm.compare");
  const auto& b = other.live("comm.compare");
  int r = MPI_UNEQUAL;
  OOMPI_CHECK(MPI_Comm_compare, (a.handle(), b.handle(), &r));
  return detail::to_comparison(r);
}

std::string comm::name() const { return live("comm.name").pt->name(); }

void comm::set_name(const std::string& name) const {
  const auto& s = live("comm.set_name");
  if (name.size() >= MPI_MAX_OBJECT_NAME)
    throw std::invalid_argument("comm.set_name: names are at most " +
                                std::to_string(MPI_MAX_OBJECT_NAME - 1) + " bytes");
  s.pt->set_name(name);
}

bool comm::is_inter() const { return live("comm.is_inter").inter(); }

comm comm::object_comm() const {
  const auto& s = live_intra("comm.object_comm");
  oompi::detail::require_running("comm.object_comm");
  return comm(state::adopt(oompi::detail::object_comm(s.handle()), false));
}

topology_kind comm::topology() const {
  const auto& s = live("comm.topology");
  if (s.cart) return topology_kind::cartesian;
  if (s.dgraph) return topology_kind::dist_graph;
  if (s.graph) return topology_kind::graph;
  return topology_kind::none;
}

cart_comm comm::create_cart(const std::vector<int>& dims, const std::vector<int>& periods,
                            bool reorder) const {
  const auto& s = live_intra("comm.create_cart");
  if (periods.size() != dims.size())
    throw std::invalid_argument("comm.create_cart: " + std::to_string(periods.size()) +
                                " periods for " + std::to_string(dims.size()) + " dimensions");
  before_create("MPI_Cart_create");
  // The core checks the dimensions (positive, product at most the size) before MPI sees them.
  oompi::cartesian_communicator c(s.c, dims, std::vector<bool>(periods.begin(), periods.end()),
                                  reorder);
  return cart_comm(made(c.release()));
}

dist_graph_comm comm::create_dist_graph(const std::vector<int>& sources,
                                        const std::vector<int>& destinations,
                                        bool reorder) const {
  const auto& s = live_intra("comm.create_dist_graph");
  before_create("MPI_Dist_graph_create_adjacent");
  auto c = oompi::dist_graph_communicator::adjacent(s.c, sources, destinations, reorder);
  return dist_graph_comm(made(c.release()));
}

dist_graph_comm comm::create_dist_graph_general(const std::vector<int>& sources,
                                                const std::vector<int>& degrees,
                                                const std::vector<int>& destinations,
                                                const std::vector<int>& weights,
                                                bool weighted, bool reorder) const {
  const auto& s = live_intra("comm.create_dist_graph_general");
  if (!weighted && !weights.empty())
    throw std::invalid_argument("comm.create_dist_graph_general: weights for an unweighted graph");
  before_create("MPI_Dist_graph_create");
  // The core checks the lengths (degrees against sources, weights against destinations); a
  // weighted graph's process with no edges passes MPI_WEIGHTS_EMPTY.
  auto c = !weighted
               ? oompi::dist_graph_communicator::general(s.c, sources, degrees, destinations,
                                                         reorder)
               : oompi::dist_graph_communicator::general_weighted(s.c, sources, degrees,
                                                                  destinations, weights, reorder);
  return dist_graph_comm(made(c.release()));
}

dist_graph_comm comm::create_dist_graph_weighted(const std::vector<int>& sources,
                                                 const std::vector<int>& source_weights,
                                                 const std::vector<int>& destinations,
                                                 const std::vector<int>& destination_weights,
                                                 bool reorder) const {
  const auto& s = live_intra("comm.create_dist_graph_weighted");
  before_create("MPI_Dist_graph_create_adjacent");
  auto c = oompi::dist_graph_communicator::adjacent_weighted(
      s.c, sources, source_weights, destinations, destination_weights, reorder);
  return dist_graph_comm(made(c.release()));
}

int comm::cart_map(const std::vector<int>& dims, const std::vector<int>& periods) const {
  const auto& s = live_intra("comm.cart_map");
  if (periods.size() != dims.size())
    throw std::invalid_argument("comm.cart_map: " + std::to_string(periods.size()) +
                                " periods for " + std::to_string(dims.size()) + " dimensions");
  long long n = 1;
  for (int d : dims) {
    if (d <= 0) throw std::invalid_argument("comm.cart_map: a dimension is " + std::to_string(d));
    n *= d;
    if (n > s.c.size())
      throw std::invalid_argument("comm.cart_map: the grid has more processes than the "
                                  "communicator's " + std::to_string(s.c.size()));
  }
  int rank = MPI_UNDEFINED;
  int none = 0;  // MPI refuses a null array even when it is empty (an empty vector's data())
  const int rc = MPI_Cart_map(s.handle(), static_cast<int>(dims.size()),
                              dims.empty() ? &none : dims.data(),
                              periods.empty() ? &none : periods.data(), &rank);
  if (rc != MPI_SUCCESS) oompi::detail::throw_mpi_error("MPI_Cart_map", rc);
  // Open MPI 4.1 returns the caller's own rank even beyond the grid's nodes; MPI says
  // MPI_UNDEFINED there (MPICH does).
  return rank >= n ? MPI_UNDEFINED : rank;
}

int comm::graph_map(const std::vector<int>& index, const std::vector<int>& edges) const {
  const auto& s = live_intra("comm.graph_map");
  const int size = s.c.size();
  if (index.size() > static_cast<std::size_t>(size))
    throw std::invalid_argument("comm.graph_map: " + std::to_string(index.size()) +
                                " nodes for " + std::to_string(size) + " processes");
  int prev = 0;
  for (int i : index) {
    if (i < prev || i > static_cast<int>(edges.size()))
      throw std::invalid_argument("comm.graph_map: index is not a non-decreasing list of edge "
                                  "counts inside edges");
    prev = i;
  }
  if (!index.empty() && index.back() != static_cast<int>(edges.size()))
    throw std::invalid_argument("comm.graph_map: the last index is not the number of edges");
  for (int e : edges)
    if (e < 0 || e >= static_cast<int>(index.size()))
      throw std::invalid_argument("comm.graph_map: edge to node " + std::to_string(e) +
                                  " outside the graph");
  int rank = MPI_UNDEFINED;
  int none = 0;  // MPI refuses a null array even when it is empty (an empty vector's data())
  const int rc = MPI_Graph_map(s.handle(), static_cast<int>(index.size()),
                               index.empty() ? &none : index.data(),
                               edges.empty() ? &none : edges.data(), &rank);
  if (rc != MPI_SUCCESS) oompi::detail::throw_mpi_error("MPI_Graph_map", rc);
  // As for cart_map: MPI_UNDEFINED beyond the graph's nodes (Open MPI 4.1 returns the rank).
  return rank >= static_cast<int>(index.size()) ? MPI_UNDEFINED : rank;
}

graph_comm comm::create_graph(const std::vector<int>& index, const std::vector<int>& edges,
                              bool reorder) const {
  const auto& s = live_intra("comm.create_graph");
  before_create("MPI_Graph_create");
  // The core checks the graph (nodes <= size, index non-decreasing, edges inside) first.
  auto c = oompi::graph_communicator::from_index(s.c, index, edges, reorder);
  return graph_comm(made(c.release()));
}

intercomm comm::create_intercomm(int local_leader, const comm& peer, int remote_leader,
                                 int tag) const {
  const auto& s = live_intra("comm.create_intercomm");
  const auto& p = peer.live("comm.create_intercomm");
  before_create("MPI_Intercomm_create");
  auto c = s.c.create_intercomm(local_leader, *p.pt, remote_leader, tag);
  return intercomm(made(c.release()));
}

// --- intercomm ---------------------------------------------------------------------------

int intercomm::remote_size() const { return live("intercomm.remote_size").ic.remote_size(); }

group intercomm::remote_group() const {
  const auto& s = live("intercomm.remote_group");
  MPI_Group g = MPI_GROUP_NULL;
  OOMPI_CHECK(MPI_Comm_remote_group, (s.handle(), &g));
  return group::adopt(g);
}

comm intercomm::merge(bool high) const {
  const auto& s = live("intercomm.merge");
  before_create("MPI_Intercomm_merge");
  MPI_Comm h = MPI_COMM_NULL;
  OOMPI_CHECK(MPI_Intercomm_merge, (s.handle(), high ? 1 : 0, &h));
  return comm(made(h));
}

}  // namespace oompi::rt

namespace oompi::rt {

intercomm intercomm::dup() const {
  comm d = comm::dup();
  return intercomm(d.st_);
}

}  // namespace oompi::rt
