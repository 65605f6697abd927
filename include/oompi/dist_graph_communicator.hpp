#ifndef OOMPI_DIST_GRAPH_COMMUNICATOR_HPP
#define OOMPI_DIST_GRAPH_COMMUNICATOR_HPP

// Distributed graph topologies (MPI_Dist_graph_*): each process gives only edges it knows.
//
//   // adjacent form: this process's in-neighbours (sources) and out-neighbours (destinations)
//   auto ring = oompi::dist_graph_communicator::adjacent(world, {left}, {right});
//   // general form: any edges, from any sources, as (source, degree, destinations) lists
//   auto g = oompi::dist_graph_communicator::general(world, {me}, {1}, {right});
//
// Edges may carry non-negative weights (the *_weighted factories). The neighbour collectives
// receive one block per source and send one per destination, in the order of sources() and
// destinations().

#include "error.hpp"
#include "info.hpp"
#include "intracommunicator.hpp"
#include "neighbor_collectives.hpp"

#include <mpi.h>

#include <cstddef>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

namespace oompi {

class dist_graph_communicator : public intracommunicator,
                                public detail::neighbor_collectives<dist_graph_communicator> {
public:
  /// A null communicator.
  dist_graph_communicator() noexcept = default;
  /// Wraps a handle with a distributed graph topology (anything else throws
  /// std::invalid_argument).
  explicit dist_graph_communicator(MPI_Comm comm, bool owned = false)
      : intracommunicator(comm, owned) {
    if (comm == MPI_COMM_NULL) return;
    int kind = MPI_UNDEFINED;
    OOMPI_CHECK(MPI_Topo_test, (comm, &kind));
    if (kind != MPI_DIST_GRAPH)
      throw std::invalid_argument(
          "oompi::dist_graph_communicator: the handle has no distributed graph topology");
    int weighted = 0;
    OOMPI_CHECK(MPI_Dist_graph_neighbors_count, (comm, &in_, &out_, &weighted));
    weighted_ = weighted != 0;
  }

  /// Each process names its own in-neighbours (`sources`) and out-neighbours (`destinations`)
  /// (MPI_Dist_graph_create_adjacent, collective). The edges must agree across processes.
  static dist_graph_communicator adjacent(const intracommunicator& comm,
                                          const std::vector<int>& sources,
                                          const std::vector<int>& destinations,
                                          bool reorder = false,
                                          const info& hints = info::null()) {
    return adjacent_impl(comm, sources, nullptr, destinations, nullptr, reorder, hints);
  }
  /// As adjacent(), with a weight per edge.
  static dist_graph_communicator adjacent_weighted(
      const intracommunicator& comm, const std::vector<int>& sources,
      const std::vector<int>& source_weights, const std::vector<int>& destinations,
      const std::vector<int>& destination_weights, bool reorder = false,
      const info& hints = info::null()) {
    return adjacent_impl(comm, sources, &source_weights, destinations, &destination_weights,
                         reorder, hints);
  }
  /// Any process may give any edges (MPI_Dist_graph_create, collective): for each i, edges
  /// from sources[i] to the next degrees[i] entries of `destinations`.
  static dist_graph_communicator general(const intracommunicator& comm,
                                         const std::vector<int>& sources,
                                         const std::vector<int>& degrees,
                                         const std::vector<int>& destinations,
                                         bool reorder = false,
                                         const info& hints = info::null()) {
    return general_impl(comm, sources, degrees, destinations, nullptr, reorder, hints);
  }
  /// As general(), with a weight per edge (one per entry of `destinations`).
  static dist_graph_communicator general_weighted(const intracommunicator& comm,
                                                  const std::vector<int>& sources,
                                                  const std::vector<int>& degrees,
                                                  const std::vector<int>& destinations,
                                                  const std::vector<int>& weights,
                                                  bool reorder = false,
                                                  const info& hints = info::null()) {
    return general_impl(comm, sources, degrees, destinations, &weights, reorder, hints);
  }

  dist_graph_communicator dup() const { return dup_as<dist_graph_communicator>(); }
  dist_graph_communicator dup(const info& hints) const {
    return dup_as<dist_graph_communicator>(hints);
  }
  communicator_future<dist_graph_communicator> idup() const {
    return idup_as<dist_graph_communicator>();
  }

  /// Number of in-neighbours (sources) and out-neighbours (destinations).
  int in_degree() const noexcept { return in_; }
  int out_degree() const noexcept { return out_; }
  /// Whether the edges carry weights.
  bool is_weighted() const {
    require("MPI_Dist_graph_neighbors_count");
    return weighted_;
  }
  /// This process's in-neighbours, in neighbour-collective order.
  std::vector<int> sources() const { return neighbors().sources; }
  /// This process's out-neighbours, in neighbour-collective order.
  std::vector<int> destinations() const { return neighbors().destinations; }
  /// Weights of the in-edges (empty when unweighted).
  std::vector<int> source_weights() const { return neighbors().source_weights; }
  /// Weights of the out-edges (empty when unweighted).
  std::vector<int> destination_weights() const { return neighbors().destination_weights; }

  struct neighbor_lists {
    std::vector<int> sources, source_weights, destinations, destination_weights;
  };
  /// Everything MPI_Dist_graph_neighbors returns, in one call.
  neighbor_lists neighbors() const {
    require("MPI_Dist_graph_neighbors");
    neighbor_lists n{std::vector<int>(static_cast<std::size_t>(in_)), {},
                     std::vector<int>(static_cast<std::size_t>(out_)), {}};
    int* sw = MPI_UNWEIGHTED;
    int* dw = MPI_UNWEIGHTED;
    if (weighted_) {
      n.source_weights.resize(static_cast<std::size_t>(in_));
      n.destination_weights.resize(static_cast<std::size_t>(out_));
      sw = detail::out_array_arg(n.source_weights);
      dw = detail::out_array_arg(n.destination_weights);
    }
    OOMPI_CHECK(MPI_Dist_graph_neighbors, (native(), in_, detail::out_array_arg(n.sources), sw,
                                           out_, detail::out_array_arg(n.destinations), dw));
    return n;
  }

private:
  friend class detail::neighbor_collectives<dist_graph_communicator>;

  // MPI's weight argument: the array, MPI_UNWEIGHTED, or MPI_WEIGHTS_EMPTY for a weighted
  // graph with no edges here (a null pointer would be ambiguous).
  static const int* weights_arg(const std::vector<int>* w) {
    if (!w) return MPI_UNWEIGHTED;
    if (w->empty()) return MPI_WEIGHTS_EMPTY;
    return w->data();
  }
  static void check_ranks(const char* routine, const char* what, const std::vector<int>& ranks,
                          int size) {
    for (int r : ranks)
      if (r < 0 || r >= size)
        throw std::out_of_range(std::string(routine) + ": " + what + " " + std::to_string(r) +
                                " is not a rank of the communicator (size " +
                                std::to_string(size) + ")");
  }
  static void check_weights(const char* routine, const char* what, const std::vector<int>* w,
                            std::size_t edges) {
    if (!w) return;
    if (w->size() != edges)
      throw std::invalid_argument(std::string(routine) + ": " + std::to_string(w->size()) + " " +
                                  what + " for " + std::to_string(edges) + " edges");
    for (int x : *w)
      if (x < 0)
        throw std::invalid_argument(std::string(routine) + ": negative weight " +
                                    std::to_string(x));
  }
  static void check_comm(const intracommunicator& comm, const char* routine) {
    if (comm.is_null()) throw std::logic_error(std::string(routine) + ": null communicator");
    detail::require_running(routine);
  }

  static dist_graph_communicator adjacent_impl(const intracommunicator& comm,
                                               const std::vector<int>& sources,
                                               const std::vector<int>* sw,
                                               const std::vector<int>& destinations,
                                               const std::vector<int>* dw, bool reorder,
                                               const info& hints) {
    const char* routine = "MPI_Dist_graph_create_adjacent";
    check_comm(comm, routine);
    check_ranks(routine, "source", sources, comm.size());
    check_ranks(routine, "destination", destinations, comm.size());
    check_weights(routine, "source weights", sw, sources.size());
    check_weights(routine, "destination weights", dw, destinations.size());
    MPI_Comm c = MPI_COMM_NULL;
    OOMPI_CHECK(MPI_Dist_graph_create_adjacent,
                (comm.native(), static_cast<int>(sources.size()), detail::array_arg(sources),
                 weights_arg(sw), static_cast<int>(destinations.size()),
                 detail::array_arg(destinations), weights_arg(dw), hints.native(),
                 reorder ? 1 : 0, &c));
    return dist_graph_communicator(c, true);
  }
  static dist_graph_communicator general_impl(const intracommunicator& comm,
                                              const std::vector<int>& sources,
                                              const std::vector<int>& degrees,
                                              const std::vector<int>& destinations,
                                              const std::vector<int>* w, bool reorder,
                                              const info& hints) {
    const char* routine = "MPI_Dist_graph_create";
    check_comm(comm, routine);
    if (degrees.size() != sources.size())
      throw std::invalid_argument(std::string(routine) + ": " + std::to_string(sources.size()) +
                                  " sources but " + std::to_string(degrees.size()) + " degrees");
    long long total = 0;
    for (int d : degrees) {
      if (d < 0)
        throw std::invalid_argument(std::string(routine) + ": negative degree " +
                                    std::to_string(d));
      total += d;
    }
    if (static_cast<std::size_t>(total) != destinations.size())
      throw std::invalid_argument(std::string(routine) + ": the degrees add up to " +
                                  std::to_string(total) + " but there are " +
                                  std::to_string(destinations.size()) + " destinations");
    check_ranks(routine, "source", sources, comm.size());
    check_ranks(routine, "destination", destinations, comm.size());
    check_weights(routine, "weights", w, destinations.size());
    MPI_Comm c = MPI_COMM_NULL;
    OOMPI_CHECK(MPI_Dist_graph_create,
                (comm.native(), static_cast<int>(sources.size()), detail::array_arg(sources),
                 detail::array_arg(degrees), detail::array_arg(destinations), weights_arg(w),
                 hints.native(), reorder ? 1 : 0, &c));
    return dist_graph_communicator(c, true);
  }

  int in_ = 0;
  int out_ = 0;
  bool weighted_ = false;
};

}  // namespace oompi

#endif  // OOMPI_DIST_GRAPH_COMMUNICATOR_HPP
