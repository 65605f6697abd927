#ifndef OOMPI_RT_TOPOLOGY_HPP
#define OOMPI_RT_TOPOLOGY_HPP

// Process topologies for the bindings: Cartesian grids and distributed graphs, made by
// comm::create_cart / comm::create_dist_graph, with the neighbour collectives of both.
// They are communicators (point-to-point and collectives work on them); close them when done.

#include "comm.hpp"

#include <vector>

#ifndef SWIG
namespace oompi {
class cartesian_communicator;
class graph_communicator;
}
#endif

namespace oompi::rt {

/// The two neighbours of a Cartesian shift: receive from `source`, send to `dest`
/// (proc_null past a non-periodic edge).
struct cart_shift {
  int source;
  int dest;
};

/// A communicator with a topology: the neighbour collectives. Buffers hold one block per
/// neighbour (in_degree() blocks received, out_degree() blocks sent by alltoall).
class topo_comm : public comm {
public:
  topo_comm() = default;
  /// Number of in-neighbours (blocks received by a neighbour collective).
  int in_degree() const;
  /// Number of out-neighbours.
  int out_degree() const;
  /// Sends sendbuf to every out-neighbour; recvbuf gets one block from each in-neighbour.
  void neighbor_allgather(const buffer& sendbuf, buffer& recvbuf) const;
  /// Block i of sendbuf goes to out-neighbour i; block j of recvbuf comes from in-neighbour j.
  void neighbor_alltoall(const buffer& sendbuf, buffer& recvbuf) const;
  request ineighbor_allgather(const async_buffer& sendbuf, async_buffer& recvbuf) const;
  request ineighbor_alltoall(const async_buffer& sendbuf, async_buffer& recvbuf) const;
  /// counts[i] elements from in-neighbour i land at displs[i] (elements) in recvbuf.
  void neighbor_allgatherv(const buffer& sendbuf, buffer& recvbuf, const std::vector<int>& counts,
                           const std::vector<int>& displs) const;
  /// Blocks of different sizes per neighbour, placed by element displacements.
  void neighbor_alltoallv(const buffer& sendbuf, const std::vector<int>& sendcounts,
                          const std::vector<int>& senddispls, buffer& recvbuf,
                          const std::vector<int>& recvcounts,
                          const std::vector<int>& recvdispls) const;
  /// Per-neighbour datatypes (MPI_Neighbor_alltoallw): block i is sendcounts[i] elements of
  /// sendtypes[i] at byte senddispls[i] (likewise received).
  void neighbor_alltoallw(const buffer& sendbuf, const std::vector<int>& sendcounts,
                          const std::vector<long long>& senddispls,
                          const std::vector<datatype>& sendtypes, buffer& recvbuf,
                          const std::vector<int>& recvcounts,
                          const std::vector<long long>& recvdispls,
                          const std::vector<datatype>& recvtypes) const;
  /// neighbor_allgatherv and neighbor_alltoallv, nonblocking: the request keeps the counts
  /// and displacements.
  request ineighbor_allgatherv(const async_buffer& sendbuf, async_buffer& recvbuf,
                               const std::vector<int>& counts, const std::vector<int>& displs) const;
  request ineighbor_alltoallv(const async_buffer& sendbuf, const std::vector<int>& sendcounts,
                              const std::vector<int>& senddispls, async_buffer& recvbuf,
                              const std::vector<int>& recvcounts,
                              const std::vector<int>& recvdispls) const;
  /// neighbor_alltoallw, nonblocking: the request keeps the counts, displacements and types.
  request ineighbor_alltoallw(const async_buffer& sendbuf, const std::vector<int>& sendcounts,
                              const std::vector<long long>& senddispls,
                              const std::vector<datatype>& sendtypes, async_buffer& recvbuf,
                              const std::vector<int>& recvcounts,
                              const std::vector<long long>& recvdispls,
                              const std::vector<datatype>& recvtypes) const;

#ifndef SWIG
protected:
  friend class comm;
  explicit topo_comm(std::shared_ptr<state> s) noexcept : comm(std::move(s)) {}
#endif
};

class cart_comm : public topo_comm {
public:
  /// A null communicator.
  cart_comm() = default;
  /// A balanced split of nnodes processes over dims.size() dimensions (MPI_Dims_create):
  /// nonzero entries of dims are kept, zeros are filled in.
  static std::vector<int> dims_create(int nnodes, const std::vector<int>& dims);

  /// Number of dimensions.
  int ndims() const;
  /// Processes along each dimension.
  std::vector<int> dims() const;
  /// 1 where a dimension wraps around, else 0.
  std::vector<int> periods() const;
  /// This process's coordinates.
  std::vector<int> coords() const;
  /// The coordinates of a rank.
  std::vector<int> coords_of(int rank) const;
  /// The rank at some coordinates (periodic dimensions wrap; others must be inside the grid).
  int rank_of(const std::vector<int>& coords) const;
  /// The neighbours `disp` steps along `direction` (MPI_Cart_shift).
  cart_shift shift(int direction, int disp = 1) const;
  /// The sub-grid keeping the dimensions where remain[i] is nonzero (MPI_Cart_sub; collective).
  cart_comm sub(const std::vector<int>& remain) const;

#ifndef SWIG
private:
  friend class comm;
  explicit cart_comm(std::shared_ptr<state> s) noexcept : topo_comm(std::move(s)) {}
  const oompi::cartesian_communicator& grid(const char* what) const;
#endif
};

class dist_graph_comm : public topo_comm {
public:
  /// A null communicator.
  dist_graph_comm() = default;
  /// This process's in-neighbours, in neighbour-collective order.
  std::vector<int> sources() const;
  /// This process's out-neighbours, in neighbour-collective order.
  std::vector<int> destinations() const;
  /// Whether the edges carry weights, and their weights (empty when unweighted), in the
  /// order of sources() and destinations().
  bool is_weighted() const;
  std::vector<int> source_weights() const;
  std::vector<int> destination_weights() const;

#ifndef SWIG
private:
  friend class comm;
  explicit dist_graph_comm(std::shared_ptr<state> s) noexcept : topo_comm(std::move(s)) {}
#endif
};

/// A general graph (comm.create_graph): every process knows the whole graph.
class graph_comm : public topo_comm {
public:
  /// A null communicator.
  graph_comm() = default;
  /// Number of nodes and of edges (MPI_Graphdims_get; each undirected edge counts twice).
  int nnodes() const;
  int nedges() const;
  /// The graph in MPI's form (MPI_Graph_get).
  std::vector<int> index() const;
  std::vector<int> edges() const;
  /// Number of neighbours of node `rank` (MPI_Graph_neighbors_count).
  int neighbors_count(int rank) const;
  /// The neighbours of node `rank` (MPI_Graph_neighbors); of this process without argument
  /// (the order of the neighbour collectives' blocks).
  std::vector<int> neighbors(int rank) const;
  std::vector<int> neighbors() const;

#ifndef SWIG
private:
  friend class comm;
  explicit graph_comm(std::shared_ptr<state> s) noexcept : topo_comm(std::move(s)) {}
  const oompi::graph_communicator& graph(const char* what) const;
#endif
};

}  // namespace oompi::rt

#endif  // OOMPI_RT_TOPOLOGY_HPP
