#include <oompi/rt/interop.hpp>

#include "detail/comm_state.hpp"

#include <oompi/environment.hpp>

namespace oompi::rt {

namespace {
std::shared_ptr<comm::state> wrap(MPI_Comm h, const char* what) {
  oompi::detail::require_running(what);
  if (h == MPI_COMM_NULL) throw std::invalid_argument(std::string(what) + ": MPI_COMM_NULL");
  int inter = 0;
  OOMPI_CHECK(MPI_Comm_test_inter, (h, &inter));  // rejects what is not a communicator
  OOMPI_CHECK(MPI_Comm_set_errhandler, (h, MPI_ERRORS_RETURN));
  return comm::state::adopt(h, false);
}
}  // namespace

comm interop::comm_from_fortran(std::int64_t handle) {
  if (handle < INT32_MIN || handle > INT32_MAX)
    throw std::invalid_argument("interop.comm_from_fortran: not a Fortran handle");
  return comm(wrap(MPI_Comm_f2c(static_cast<MPI_Fint>(handle)), "interop.comm_from_fortran"));
}

comm interop::comm_from_address(std::int64_t address) {
  if (address == 0) throw std::invalid_argument("interop.comm_from_address: null address");
  return comm(wrap(*reinterpret_cast<const MPI_Comm*>(static_cast<std::intptr_t>(address)),
                   "interop.comm_from_address"));
}

std::int64_t interop::comm_to_fortran(const comm& c) {
  return MPI_Comm_c2f(c.native("interop.comm_to_fortran"));
}

}  // namespace oompi::rt
