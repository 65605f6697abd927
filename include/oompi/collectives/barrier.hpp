#ifndef OOMPI_COLLECTIVES_BARRIER_HPP
#define OOMPI_COLLECTIVES_BARRIER_HPP

// barrier, ibarrier.

#include "common.hpp"

namespace oompi::detail {

template <class D>
class barrier_ops {
public:
  /// Blocks until every process of the communicator has called barrier().
  void barrier() const {
    const D& c = derived();
    check_comm(c, "oompi::barrier");
    finish(MPI_Barrier(c.native()), "MPI_Barrier");
  }
  /// Nonblocking barrier: completes once every process has started it.
  request ibarrier() const {
    const D& c = derived();
    check_comm(c, "oompi::ibarrier");
    MPI_Request r = MPI_REQUEST_NULL;
    finish(MPI_Ibarrier(c.native(), &r), "MPI_Ibarrier");
    return request(r);
  }

private:
  const D& derived() const noexcept { return static_cast<const D&>(*this); }
};

}  // namespace oompi::detail

#endif  // OOMPI_COLLECTIVES_BARRIER_HPP
