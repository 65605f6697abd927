#ifndef OOMPI_TOPOLOGY_HPP
#define OOMPI_TOPOLOGY_HPP

// Process topologies: Cartesian grids, graphs and distributed graphs, each a communicator kind
// derived from intracommunicator with the neighbour collectives. This header brings them all
// and says which one a communicator has.

#include "cartesian_communicator.hpp"
#include "communicator.hpp"
#include "dist_graph_communicator.hpp"
#include "error.hpp"
#include "graph_communicator.hpp"
#include "neighbor_collectives.hpp"

#include <mpi.h>

#include <stdexcept>

namespace oompi {

/// The topology a communicator has (MPI_Topo_test).
enum class topology_kind : int {
  none = MPI_UNDEFINED,
  cartesian = MPI_CART,
  graph = MPI_GRAPH,
  dist_graph = MPI_DIST_GRAPH,
};

inline topology_kind topology_of(const communicator& comm) {
  detail::require_running("MPI_Topo_test");
  if (comm.is_null()) throw std::logic_error("MPI_Topo_test: null communicator");
  int kind = MPI_UNDEFINED;
  OOMPI_CHECK(MPI_Topo_test, (comm.native(), &kind));
  return static_cast<topology_kind>(kind);
}

}  // namespace oompi

#endif  // OOMPI_TOPOLOGY_HPP
