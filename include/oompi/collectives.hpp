#ifndef OOMPI_COLLECTIVES_HPP
#define OOMPI_COLLECTIVES_HPP

// Collective operations, as a mixin of the communicator kinds that have them: one header per
// collective family under collectives/, each a CRTP base; detail::collectives<Derived> gathers
// them. Derived provides native(), rank(), size(); an intercommunicator also remote_size(),
// and then roots and sizes follow MPI's intercommunicator rules (MPI_ROOT, MPI_PROC_NULL, the
// remote group's size) and the in-place forms, scan and exscan do not compile.
//
// Conventions (buffers, in place, nonblocking, errors): collectives/common.hpp and
// docs/collectives.md. Reduction ops: op.hpp.

#include "collectives/allgather.hpp"
#include "collectives/alltoall.hpp"
#include "collectives/barrier.hpp"
#include "collectives/bcast.hpp"
#include "collectives/common.hpp"
#include "collectives/gather.hpp"
#include "collectives/reduce.hpp"
#include "collectives/reduce_local.hpp"
#include "collectives/reduce_scatter.hpp"
#include "collectives/scan.hpp"
#include "collectives/scatter.hpp"
#include "op.hpp"

namespace oompi::detail {

/// CRTP base of the communicators that have collectives.
template <class Derived>
class collectives : public barrier_ops<Derived>,
                    public bcast_ops<Derived>,
                    public gather_ops<Derived>,
                    public scatter_ops<Derived>,
                    public allgather_ops<Derived>,
                    public alltoall_ops<Derived>,
                    public reduce_ops<Derived>,
                    public reduce_scatter_ops<Derived>,
                    public scan_ops<Derived> {};

}  // namespace oompi::detail

#endif  // OOMPI_COLLECTIVES_HPP
