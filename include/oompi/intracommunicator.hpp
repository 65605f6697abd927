#ifndef OOMPI_INTRACOMMUNICATOR_HPP
#define OOMPI_INTRACOMMUNICATOR_HPP

// Intracommunicators: one group of processes. world() and self() are intracommunicators.

#include "collectives.hpp"
#include "communicator.hpp"

namespace oompi {

class intracommunicator : public communicator,
                          public detail::collectives<intracommunicator> {
public:
  intracommunicator() noexcept = default;
  explicit intracommunicator(MPI_Comm comm, bool owned = false) : communicator(comm, owned) {}

  /// A new communicator with the same group and a new context (MPI_Comm_dup); owned.
  intracommunicator dup() const {
    require("MPI_Comm_dup");
    MPI_Comm c = MPI_COMM_NULL;
    OOMPI_CHECK(MPI_Comm_dup, (native(), &c));
    return intracommunicator(c, true);
  }

private:
  friend class communicator;
  friend class detail::collectives<intracommunicator>;
  intracommunicator(MPI_Comm comm, borrowed_tag t) : communicator(comm, t) {}
};

inline intracommunicator communicator::world() {
  detail::require_running("oompi::communicator::world");
  return intracommunicator(MPI_COMM_WORLD, borrowed_tag{});
}
inline intracommunicator communicator::self() {
  detail::require_running("oompi::communicator::self");
  return intracommunicator(MPI_COMM_SELF, borrowed_tag{});
}

}  // namespace oompi

#endif  // OOMPI_INTRACOMMUNICATOR_HPP
