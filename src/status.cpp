#include <oompi/rt/status.hpp>

#include <string>

namespace oompi::rt {

status::status(const oompi::status& s) : source_(s.source()) {
  // One field at a time: MPI has just written them with separate 4-byte stores, and the
  // compiler would otherwise copy source and tag as one 8-byte load, which the CPU cannot
  // forward from two pending stores (a stall of ~12 cycles on every receive). The volatile
  // reads keep the loads apart.
  tag_ = static_cast<const volatile int&>(s.native().MPI_TAG);
  error_ = static_cast<const volatile int&>(s.native().MPI_ERROR);
#if defined(OPEN_MPI) && OPEN_MPI
  // Open MPI keeps the byte count and the cancelled flag as public members of MPI_Status
  // (mpi.h: _ucount, _cancelled), which MPI_Get_count and MPI_Test_cancelled only read back
  // after their argument checks: two library calls saved on every receive in every language.
  bytes_ = static_cast<std::int64_t>(s.native()._ucount);
  cancelled_ = s.native()._cancelled != 0;
#else
  // MPI_Get_count is the cheap query (a division by the type size); the large-count one only
  // for messages over INT_MAX bytes.
  int small = 0;
  MPI_Count n = 0;
  if (MPI_Get_count(&s.native(), MPI_BYTE, &small) == MPI_SUCCESS && small != MPI_UNDEFINED)
    bytes_ = small;
  else if (MPI_Get_elements_x(&s.native(), MPI_BYTE, &n) == MPI_SUCCESS && n != MPI_UNDEFINED)
    bytes_ = static_cast<std::int64_t>(n);
  int flag = 0;
  if (MPI_Test_cancelled(&s.native(), &flag) == MPI_SUCCESS) cancelled_ = flag != 0;
#endif
}

std::int64_t status::get_count(const datatype& type) const {
  const std::int64_t size = type.size();
  if (size == 0) return 0;
  if (bytes_ % size != 0)
    throw std::range_error("status.get_count: the message (" + std::to_string(bytes_) +
                           " bytes) is not a whole number of elements of " +
                           std::to_string(size) + " bytes");
  return bytes_ / size;
}

}  // namespace oompi::rt
