#ifndef OOMPI_CARTESIAN_COMMUNICATOR_HPP
#define OOMPI_CARTESIAN_COMMUNICATOR_HPP

// Cartesian process topologies (MPI_Cart_*): a grid of any number of dimensions, each
// periodic (a ring) or not.
//
//   auto dims = oompi::dims_create(world.size(), 2);              // e.g. {2, 2}
//   oompi::cartesian_communicator torus(world, dims, {true, true});
//   auto [source, dest] = torus.shift(0, -1);                    // neighbours along dim 0
//
// A process beyond the grid (world larger than the product of dims) gets a null communicator.
// The grid's neighbour collectives (neighbor_allgather, neighbor_alltoall, ...) exchange with
// the 2 * ndims() neighbours: per dimension, the one at -1 and then the one at +1.

#include "error.hpp"
#include "intracommunicator.hpp"
#include "neighbor_collectives.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

namespace oompi {

/// Source and destination of a shift along one dimension: send to `dest`, receive from
/// `source` (oompi::proc_null past a non-periodic border).
struct shift_ranks {
  int source;
  int dest;
};

/// A balanced grid of `nnodes` processes (MPI_Dims_create). Entries of `dims` that are not 0
/// are kept; zeros are filled in. Impossible requests throw std::invalid_argument.
inline std::vector<int> dims_create(int nnodes, std::vector<int> dims) {
  detail::require_running("MPI_Dims_create");
  if (nnodes <= 0)
    throw std::invalid_argument("MPI_Dims_create: " + std::to_string(nnodes) +
                                " processes (must be positive)");
  long long fixed = 1;
  bool any_free = false;
  for (int d : dims) {
    if (d < 0)
      throw std::invalid_argument("MPI_Dims_create: negative dimension " + std::to_string(d));
    if (d == 0)
      any_free = true;
    else
      fixed *= d;
  }
  if (nnodes % fixed != 0 || (!any_free && fixed != nnodes))
    throw std::invalid_argument("MPI_Dims_create: the fixed dimensions (product " +
                                std::to_string(fixed) + ") do not fit " + std::to_string(nnodes) +
                                " processes");
  if (!dims.empty())
    OOMPI_CHECK(MPI_Dims_create, (nnodes, static_cast<int>(dims.size()), dims.data()));
  return dims;
}
/// A balanced grid of `nnodes` processes in `ndims` dimensions.
inline std::vector<int> dims_create(int nnodes, int ndims) {
  if (ndims < 0)
    throw std::invalid_argument("MPI_Dims_create: negative number of dimensions " +
                                std::to_string(ndims));
  return dims_create(nnodes, std::vector<int>(static_cast<std::size_t>(ndims), 0));
}

class cartesian_communicator : public intracommunicator,
                               public detail::neighbor_collectives<cartesian_communicator> {
public:
  /// A null communicator.
  cartesian_communicator() noexcept = default;
  /// A grid over `comm` (MPI_Cart_create, collective). `periods[i]` says whether dimension i
  /// wraps around; `reorder` lets MPI renumber the processes.
  cartesian_communicator(const intracommunicator& comm, const std::vector<int>& dims,
                         const std::vector<bool>& periods, bool reorder = false)
      : cartesian_communicator(make(comm, dims, periods, reorder), true) {}
  /// Wraps a handle with a Cartesian topology (anything else throws std::invalid_argument).
  explicit cartesian_communicator(MPI_Comm comm, bool owned = false)
      : intracommunicator(comm, owned) {
    if (comm == MPI_COMM_NULL) return;
    int kind = MPI_UNDEFINED;
    OOMPI_CHECK(MPI_Topo_test, (comm, &kind));
    if (kind != MPI_CART)
      throw std::invalid_argument("oompi::cartesian_communicator: the handle has no Cartesian "
                                  "topology");
    OOMPI_CHECK(MPI_Cartdim_get, (comm, &ndims_));
    // Blocks exchanged with one process more than once: the two of a periodic dimension of
    // extent 2, and all those of periodic dimensions of extent 1 (the process itself). Other
    // neighbours differ from each other (each dimension moves another coordinate).
    const auto g = get();
    std::vector<int> self;
    for (int d = 0; d < ndims_; ++d) {
      if (!g.periods[static_cast<std::size_t>(d)]) continue;
      const int extent = g.dims[static_cast<std::size_t>(d)];
      if (extent == 2) shared_peer_.push_back({2 * d, 2 * d + 1});
      if (extent == 1) self.insert(self.end(), {2 * d, 2 * d + 1});
    }
    if (!self.empty()) shared_peer_.push_back(std::move(self));
  }

  /// A duplicate with the same grid (MPI_Comm_dup).
  cartesian_communicator dup() const { return dup_as<cartesian_communicator>(); }
  cartesian_communicator dup(const info& hints) const {
    return dup_as<cartesian_communicator>(hints);
  }
  communicator_future<cartesian_communicator> idup() const {
    return idup_as<cartesian_communicator>();
  }

  /// Number of dimensions.
  int ndims() const {
    require("MPI_Cartdim_get");
    return ndims_;
  }
  /// Extent of every dimension.
  std::vector<int> dims() const { return get().dims; }
  /// Whether every dimension is periodic.
  std::vector<bool> periods() const {
    auto g = get();
    return std::vector<bool>(g.periods.begin(), g.periods.end());
  }
  /// This process's coordinates.
  std::vector<int> coords() const { return get().coords; }
  /// The coordinates of process `rank`.
  std::vector<int> coords(int rank) const {
    require("MPI_Cart_coords");
    check_rank("MPI_Cart_coords", rank);
    std::vector<int> c(static_cast<std::size_t>(ndims_));
    OOMPI_CHECK(MPI_Cart_coords, (native(), rank, ndims_, detail::out_array_arg(c)));
    return c;
  }

  using intracommunicator::rank;
  /// The rank of the process at `coords`. Coordinates outside a periodic dimension wrap
  /// around; outside a non-periodic one they throw std::out_of_range.
  int rank(const std::vector<int>& coords) const {
    require("MPI_Cart_rank");
    const auto g = get();
    if (coords.size() != static_cast<std::size_t>(ndims_))
      throw std::invalid_argument("MPI_Cart_rank: " + std::to_string(coords.size()) +
                                  " coordinates for a grid of " + std::to_string(ndims_) +
                                  " dimensions");
    for (std::size_t i = 0; i < coords.size(); ++i)
      if (!g.periods[i] && (coords[i] < 0 || coords[i] >= g.dims[i]))
        throw std::out_of_range("MPI_Cart_rank: coordinate " + std::to_string(coords[i]) +
                                " of non-periodic dimension " + std::to_string(i) +
                                " is outside [0, " + std::to_string(g.dims[i]) + ")");
    int r = MPI_PROC_NULL;
    OOMPI_CHECK(MPI_Cart_rank, (native(), detail::array_arg(coords), &r));
    return r;
  }

  /// The neighbours `disp` steps along `direction` (MPI_Cart_shift): send to dest, receive
  /// from source.
  shift_ranks shift(int direction, int disp = 1) const {
    require("MPI_Cart_shift");
    if (direction < 0 || direction >= ndims_)
      throw std::out_of_range("MPI_Cart_shift: direction " + std::to_string(direction) +
                              " of a grid of " + std::to_string(ndims_) + " dimensions");
    shift_ranks s{MPI_PROC_NULL, MPI_PROC_NULL};
    OOMPI_CHECK(MPI_Cart_shift, (native(), direction, disp, &s.source, &s.dest));
    return s;
  }

  /// The sub-grids keeping the dimensions where `remain` is true (MPI_Cart_sub, collective):
  /// each process gets the sub-grid it lies in.
  cartesian_communicator sub(const std::vector<bool>& remain) const {
    require("MPI_Cart_sub");
    if (remain.size() != static_cast<std::size_t>(ndims_))
      throw std::invalid_argument("MPI_Cart_sub: " + std::to_string(remain.size()) +
                                  " flags for a grid of " + std::to_string(ndims_) +
                                  " dimensions");
    std::vector<int> keep(remain.begin(), remain.end());
    MPI_Comm c = MPI_COMM_NULL;
    if (std::find(keep.begin(), keep.end(), 1) == keep.end()) {
      // No dimension kept: a 0-dimensional grid of the calling process alone, made locally,
      // since MPICH 4.0's MPI_Cart_sub gives it to the first process only (MPI_COMM_NULL to
      // the others: pmodels/mpich#7832).
      OOMPI_CHECK(MPI_Cart_create, (MPI_COMM_SELF, 0, nullptr, nullptr, 0, &c));
    } else {
      OOMPI_CHECK(MPI_Cart_sub, (native(), detail::array_arg(keep), &c));
    }
    return cartesian_communicator(c, true);
  }

  /// Neighbours of the neighbour collectives: 2 * ndims() on both sides.
  int in_degree() const noexcept { return 2 * ndims_; }
  int out_degree() const noexcept { return 2 * ndims_; }
  /// The neighbours in neighbour-collective order (proc_null past a non-periodic border).
  std::vector<int> neighbors() const {
    std::vector<int> out;
    for (int d = 0; d < ndims(); ++d) {
      const auto s = shift(d, 1);
      out.push_back(s.source);
      out.push_back(s.dest);
    }
    return out;
  }

private:
  friend class detail::neighbor_collectives<cartesian_communicator>;

  // The receive blocks to give `op` so that block s of a sender lands in block s^1 of the
  // receiver, as MPI requires, whatever order the library matches the messages of one pair of
  // processes in (see detail::probe_cart_recv_order); empty when nothing needs moving. From a
  // process, the sender's blocks arrive in ascending order; they belong in our blocks s^1, and
  // the library puts them into our blocks from that process in its receive order.
  std::vector<int> recv_perm(detail::neighbor_op op, bool nonblocking) const {
    if (shared_peer_.empty()) return {};
    const std::vector<int>& pos = detail::cart_recv_order(op, nonblocking, ndims_);
    if (pos.empty()) return {};
    std::vector<int> perm(pos.size());
    std::iota(perm.begin(), perm.end(), 0);
    for (std::vector<int> blocks : shared_peer_) {
      std::vector<int> sent = blocks;  // the sender's blocks, ascending: ours with the bit flipped
      for (int& b : sent) b ^= 1;
      std::sort(sent.begin(), sent.end());
      std::sort(blocks.begin(), blocks.end(), [&](int a, int b) {
        return pos[static_cast<std::size_t>(a)] < pos[static_cast<std::size_t>(b)];
      });
      for (std::size_t i = 0; i < blocks.size(); ++i)
        perm[static_cast<std::size_t>(blocks[i])] = sent[i] ^ 1;
    }
    for (std::size_t j = 0; j < perm.size(); ++j)
      if (perm[j] != static_cast<int>(j)) return perm;
    return {};
  }

  struct layout {
    std::vector<int> dims, periods, coords;
  };
  layout get() const {
    require("MPI_Cart_get");
    layout g{std::vector<int>(static_cast<std::size_t>(ndims_)),
             std::vector<int>(static_cast<std::size_t>(ndims_)),
             std::vector<int>(static_cast<std::size_t>(ndims_))};
    OOMPI_CHECK(MPI_Cart_get, (native(), ndims_, detail::out_array_arg(g.dims),
                               detail::out_array_arg(g.periods), detail::out_array_arg(g.coords)));
    return g;
  }
  void check_rank(const char* routine, int r) const {
    if (r < 0 || r >= size())
      throw std::out_of_range(std::string(routine) + ": rank " + std::to_string(r) +
                              " is not in the communicator (size " + std::to_string(size()) + ")");
  }
  static MPI_Comm make(const intracommunicator& comm, const std::vector<int>& dims,
                       const std::vector<bool>& periods, bool reorder) {
    if (comm.is_null()) throw std::logic_error("MPI_Cart_create: null communicator");
    detail::require_running("MPI_Cart_create");
    if (dims.size() != periods.size())
      throw std::invalid_argument("MPI_Cart_create: " + std::to_string(dims.size()) +
                                  " dimensions but " + std::to_string(periods.size()) +
                                  " periodicity flags");
    long long n = 1;
    for (int d : dims) {
      if (d <= 0)
        throw std::invalid_argument("MPI_Cart_create: dimension " + std::to_string(d) +
                                    " is not positive (dims_create fills in zeros)");
      n *= d;
      if (n > comm.size()) break;
    }
    if (n > comm.size())
      throw std::invalid_argument("MPI_Cart_create: the grid needs more processes than the " +
                                  std::to_string(comm.size()) + " of the communicator");
    std::vector<int> p(periods.begin(), periods.end());
    MPI_Comm c = MPI_COMM_NULL;
    OOMPI_CHECK(MPI_Cart_create, (comm.native(), static_cast<int>(dims.size()),
                                  detail::array_arg(dims), detail::array_arg(p), reorder ? 1 : 0,
                                  &c));
    return c;
  }

  int ndims_ = 0;
  std::vector<std::vector<int>> shared_peer_;  // blocks that go to and come from one process
};

}  // namespace oompi

#endif  // OOMPI_CARTESIAN_COMMUNICATOR_HPP
