#ifndef OOMPI_RT_INTEROP_HPP
#define OOMPI_RT_INTEROP_HPP

// Communicators made by other MPI libraries' users in the same process (mpi4py, C or Fortran
// code): wrapped without being owned, and handed back as a Fortran handle that those libraries
// convert (mpi4py: MPI.Comm.f2py / Comm.py2f). A wrapped communicator is never freed by oompi:
// close() only closes the oompi handle; its owner frees it.

#include "comm.hpp"

#include <cstdint>

namespace oompi::rt {

class interop {
public:
  /// A communicator given by its Fortran handle (MPI_Comm_c2f; mpi4py: comm.py2f()). Sets
  /// MPI_ERRORS_RETURN on it, as on every communicator oompi uses.
  static comm comm_from_fortran(std::int64_t handle);
  /// The same from the address of an MPI_Comm variable (mpi4py: MPI._addressof(comm)).
  static comm comm_from_address(std::int64_t address);
  /// The Fortran handle of a communicator (MPI_Comm_c2f), e.g. for mpi4py.MPI.Comm.f2py.
  static std::int64_t comm_to_fortran(const comm& c);
};

}  // namespace oompi::rt

#endif  // OOMPI_RT_INTEROP_HPP
