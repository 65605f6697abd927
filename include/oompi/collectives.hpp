#ifndef OOMPI_COLLECTIVES_HPP
#define OOMPI_COLLECTIVES_HPP

// Collective operations, as a mixin of the communicator kinds that have them.
// (Filled in by the collectives work: one header per collective under collectives/.)

#include <mpi.h>

namespace oompi::detail {

/// CRTP base: Derived provides native() and require(routine).
template <class Derived>
class collectives {};

}  // namespace oompi::detail

#endif  // OOMPI_COLLECTIVES_HPP
