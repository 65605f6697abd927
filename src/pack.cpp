// MPI_Pack / MPI_Unpack for the bindings (Open MPI's Java Comm.pack/unpack, MPI.PACKED): the
// packed side is a buffer whose bytes (count * extent) are the whole space, and positions are
// byte offsets into it. Every range is checked here, before MPI writes or reads a byte.
#include <oompi/rt/comm.hpp>

#include "detail/comm_state.hpp"

#include <climits>
#include <stdexcept>
#include <string>

namespace oompi::rt {

using detail::check_buffer;

namespace {
int int_count(std::int64_t n, const char* what) {
  if (n < 0 || n > INT_MAX)
    throw std::invalid_argument(std::string(what) + ": count " + std::to_string(n) +
                                " is outside [0, INT_MAX]");
  return static_cast<int>(n);
}

// The bytes of the packed side, and `position` checked against them.
int packed_bytes(const buffer& b, std::int64_t position, const char* what) {
  const std::int64_t bytes = b.count * b.extent;
  if (bytes > INT_MAX)
    throw std::invalid_argument(std::string(what) + ": more than INT_MAX packed bytes");
  if (position < 0 || position > bytes)
    throw std::out_of_range(std::string(what) + ": position " + std::to_string(position) +
                            " is outside the " + std::to_string(bytes) + " packed bytes");
  return static_cast<int>(bytes);
}

// The bytes `count` elements of `type` take packed (their data size: MPI's native packing
// on one machine stores the data without gaps).
std::int64_t data_bytes(const buffer& b, const char* what) {
  int size = 0;
  if (const int rc = MPI_Type_size(b.type, &size); rc != MPI_SUCCESS)
    oompi::detail::throw_mpi_error(what, rc);
  return b.count * size;
}
}  // namespace

std::int64_t comm::pack_size(std::int64_t count, const datatype& type) const {
  const char* what = "comm.pack_size";
  const auto& s = live(what);
  int size = 0;
  const int rc = MPI_Pack_size(int_count(count, what), type.native(what), s.handle(), &size);
  if (rc != MPI_SUCCESS) oompi::detail::throw_mpi_error("MPI_Pack_size", rc);
  return size;
}

std::int64_t comm::pack(const buffer& in, buffer& out, std::int64_t position) const {
  const char* what = "comm.pack";
  const auto& s = live(what);
  check_buffer(in, what);
  check_buffer(out, what);
  const int outsize = packed_bytes(out, position, what);
  const std::int64_t need = data_bytes(in, what);
  if (need > outsize - position)
    throw std::out_of_range(std::string(what) + ": " + std::to_string(need) +
                            " bytes do not fit in the " + std::to_string(outsize - position) +
                            " left after position " + std::to_string(position));
  int pos = static_cast<int>(position);
  const int rc = MPI_Pack(in.data, int_count(in.count, what), in.type, out.data, outsize, &pos,
                          s.handle());
  if (rc != MPI_SUCCESS) oompi::detail::throw_mpi_error("MPI_Pack", rc);
  return pos;
}

std::int64_t comm::unpack(const buffer& in, std::int64_t position, buffer& out) const {
  const char* what = "comm.unpack";
  const auto& s = live(what);
  check_buffer(in, what);
  check_buffer(out, what);
  const int insize = packed_bytes(in, position, what);
  const std::int64_t need = data_bytes(out, what);
  if (need > insize - position)
    throw std::out_of_range(std::string(what) + ": " + std::to_string(need) + " bytes wanted, " +
                            std::to_string(insize - position) + " left after position " +
                            std::to_string(position));
  int pos = static_cast<int>(position);
  const int rc = MPI_Unpack(in.data, insize, &pos, out.data, int_count(out.count, what),
                            out.type, s.handle());
  if (rc != MPI_SUCCESS) oompi::detail::throw_mpi_error("MPI_Unpack", rc);
  return pos;
}

}  // namespace oompi::rt
