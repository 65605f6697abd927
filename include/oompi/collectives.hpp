#ifndef OOMPI_COLLECTIVES_HPP
#define OOMPI_COLLECTIVES_HPP

// Collective operations, as a mixin of the communicator kinds that have them.
// (Filled in by the collectives work: one header per collective under collectives/.)

#include "error.hpp"

#include <mpi.h>

namespace oompi::detail {

/// CRTP base: Derived provides native() and require(routine).
template <class Derived>
class collectives {
public:
  /// Blocks until every process of the communicator has called barrier().
  void barrier() const {
    self().require("MPI_Barrier");
    OOMPI_CHECK(MPI_Barrier, (self().native()));
  }

private:
  const Derived& self() const noexcept { return static_cast<const Derived&>(*this); }
};

}  // namespace oompi::detail

#endif  // OOMPI_COLLECTIVES_HPP
