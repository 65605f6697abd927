#ifndef OOMPI_GRAPH_COMMUNICATOR_HPP
#define OOMPI_GRAPH_COMMUNICATOR_HPP

// General graph topologies (MPI_Graph_*): every process knows the whole graph.
//
//   // a ring of n: node i is adjacent to i-1 and i+1
//   std::vector<std::vector<int>> adj(n);
//   for (int i = 0; i < n; ++i) adj[i] = {(i + n - 1) % n, (i + 1) % n};
//   oompi::graph_communicator ring(world, adj);
//   ring.neighbors();   // this process's neighbours
//
// A process beyond the graph's nodes gets a null communicator. For large graphs prefer
// dist_graph_communicator, where each process gives only its own edges.

#include "error.hpp"
#include "intracommunicator.hpp"
#include "neighbor_collectives.hpp"

#include <mpi.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace oompi {

class graph_communicator : public intracommunicator,
                           public detail::neighbor_collectives<graph_communicator> {
public:
  /// A null communicator.
  graph_communicator() noexcept = default;
  /// The graph whose node i is adjacent to the nodes in adjacency[i] (MPI_Graph_create,
  /// collective; every process passes the same graph).
  graph_communicator(const intracommunicator& comm,
                     const std::vector<std::vector<int>>& adjacency, bool reorder = false)
      : graph_communicator(make(comm, flatten(adjacency), reorder), true) {}
  /// The graph in MPI's form: index[i] is the number of edges of nodes 0..i, edges the
  /// concatenated neighbour lists.
  static graph_communicator from_index(const intracommunicator& comm,
                                       const std::vector<int>& index,
                                       const std::vector<int>& edges, bool reorder = false) {
    return graph_communicator(make(comm, {index, edges}, reorder), true);
  }
  /// Wraps a handle with a graph topology (anything else throws std::invalid_argument).
  explicit graph_communicator(MPI_Comm comm, bool owned = false)
      : intracommunicator(comm, owned) {
    if (comm == MPI_COMM_NULL) return;
    int kind = MPI_UNDEFINED;
    OOMPI_CHECK(MPI_Topo_test, (comm, &kind));
    if (kind != MPI_GRAPH)
      throw std::invalid_argument("oompi::graph_communicator: the handle has no graph topology");
    OOMPI_CHECK(MPI_Graphdims_get, (comm, &nnodes_, &nedges_));
    OOMPI_CHECK(MPI_Graph_neighbors_count, (comm, rank(), &degree_));
  }

  graph_communicator dup() const { return dup_as<graph_communicator>(); }
  graph_communicator dup(const info& hints) const { return dup_as<graph_communicator>(hints); }
  communicator_future<graph_communicator> idup() const { return idup_as<graph_communicator>(); }

  /// Number of nodes.
  int nnodes() const {
    require("MPI_Graphdims_get");
    return nnodes_;
  }
  /// Number of edges (each undirected edge counted in both directions).
  int nedges() const {
    require("MPI_Graphdims_get");
    return nedges_;
  }
  /// MPI's index array (cumulative edge counts).
  std::vector<int> index() const { return get().first; }
  /// MPI's edges array (concatenated neighbour lists).
  std::vector<int> edges() const { return get().second; }
  /// The whole graph as adjacency lists.
  std::vector<std::vector<int>> adjacency() const {
    const auto g = get();
    std::vector<std::vector<int>> adj(static_cast<std::size_t>(nnodes_));
    int at = 0;
    for (int i = 0; i < nnodes_; ++i)
      for (; at < g.first[static_cast<std::size_t>(i)]; ++at)
        adj[static_cast<std::size_t>(i)].push_back(g.second[static_cast<std::size_t>(at)]);
    return adj;
  }
  /// Number of neighbours of node `rank`.
  int neighbors_count(int rank) const {
    require("MPI_Graph_neighbors_count");
    check_node("MPI_Graph_neighbors_count", rank);
    int n = 0;
    OOMPI_CHECK(MPI_Graph_neighbors_count, (native(), rank, &n));
    return n;
  }
  /// The neighbours of node `rank`.
  std::vector<int> neighbors(int rank) const {
    const int n = neighbors_count(rank);
    std::vector<int> out(static_cast<std::size_t>(n));
    OOMPI_CHECK(MPI_Graph_neighbors, (native(), rank, n, detail::out_array_arg(out)));
    return out;
  }
  /// This process's neighbours (the order of the neighbour collectives' blocks).
  std::vector<int> neighbors() const {
    require("MPI_Graph_neighbors");
    return neighbors(rank());
  }

  /// Neighbours of the neighbour collectives (the same on both sides).
  int in_degree() const noexcept { return degree_; }
  int out_degree() const noexcept { return degree_; }

private:
  friend class detail::neighbor_collectives<graph_communicator>;

  std::pair<std::vector<int>, std::vector<int>> get() const {
    require("MPI_Graph_get");
    std::vector<int> index(static_cast<std::size_t>(nnodes_)),
        edges(static_cast<std::size_t>(nedges_));
    OOMPI_CHECK(MPI_Graph_get, (native(), nnodes_, nedges_, detail::out_array_arg(index),
                                 detail::out_array_arg(edges)));
    return {std::move(index), std::move(edges)};
  }
  void check_node(const char* routine, int r) const {
    if (r < 0 || r >= nnodes_)
      throw std::out_of_range(std::string(routine) + ": node " + std::to_string(r) +
                              " is not in the graph (" + std::to_string(nnodes_) + " nodes)");
  }
  static std::pair<std::vector<int>, std::vector<int>> flatten(
      const std::vector<std::vector<int>>& adjacency) {
    std::pair<std::vector<int>, std::vector<int>> g;
    for (const auto& row : adjacency) {
      g.second.insert(g.second.end(), row.begin(), row.end());
      g.first.push_back(static_cast<int>(g.second.size()));
    }
    return g;
  }
  static MPI_Comm make(const intracommunicator& comm,
                       const std::pair<std::vector<int>, std::vector<int>>& g, bool reorder) {
    if (comm.is_null()) throw std::logic_error("MPI_Graph_create: null communicator");
    detail::require_running("MPI_Graph_create");
    const auto& [index, edges] = g;
    const int nnodes = static_cast<int>(index.size());
    if (nnodes > comm.size())
      throw std::invalid_argument("MPI_Graph_create: " + std::to_string(nnodes) +
                                  " nodes but only " + std::to_string(comm.size()) +
                                  " processes");
    int prev = 0;
    for (int i = 0; i < nnodes; ++i) {
      if (index[static_cast<std::size_t>(i)] < prev)
        throw std::invalid_argument("MPI_Graph_create: index is not non-decreasing at node " +
                                    std::to_string(i));
      prev = index[static_cast<std::size_t>(i)];
    }
    if (static_cast<std::size_t>(prev) != edges.size())
      throw std::invalid_argument("MPI_Graph_create: index ends at " + std::to_string(prev) +
                                  " but there are " + std::to_string(edges.size()) + " edges");
    for (int e : edges)
      if (e < 0 || e >= nnodes)
        throw std::out_of_range("MPI_Graph_create: edge to node " + std::to_string(e) +
                                " of a graph of " + std::to_string(nnodes) + " nodes");
    MPI_Comm c = MPI_COMM_NULL;
    // MPI reads its arrays only; older headers lack const.
    OOMPI_CHECK(MPI_Graph_create,
                (comm.native(), nnodes, const_cast<int*>(detail::array_arg(index)),
                 const_cast<int*>(detail::array_arg(edges)), reorder ? 1 : 0, &c));
    return c;
  }

  int nnodes_ = 0;
  int nedges_ = 0;
  int degree_ = 0;
};

}  // namespace oompi

#endif  // OOMPI_GRAPH_COMMUNICATOR_HPP
