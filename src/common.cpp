#include <oompi/rt/buffer.hpp>
#include <oompi/rt/common.hpp>

#include <string>

namespace oompi::rt {
namespace detail {

MPI_Datatype builtin_type(type_kind k) {
  switch (k) {
    case type_kind::byte: return MPI_BYTE;
    case type_kind::int8: return MPI_INT8_T;
    case type_kind::uint8: return MPI_UINT8_T;
    case type_kind::int16: return MPI_INT16_T;
    case type_kind::uint16: return MPI_UINT16_T;
    case type_kind::int32: return MPI_INT32_T;
    case type_kind::uint32: return MPI_UINT32_T;
    case type_kind::int64: return MPI_INT64_T;
    case type_kind::uint64: return MPI_UINT64_T;
    case type_kind::float32: return MPI_FLOAT;
    case type_kind::float64: return MPI_DOUBLE;
    case type_kind::boolean: return MPI_C_BOOL;
    case type_kind::complex64: return MPI_C_FLOAT_COMPLEX;
    case type_kind::complex128: return MPI_C_DOUBLE_COMPLEX;
  }
  throw std::invalid_argument("oompi: unknown type kind " + std::to_string(static_cast<int>(k)));
}

std::int64_t builtin_size(type_kind k) noexcept {
  switch (k) {
    case type_kind::byte:
    case type_kind::int8:
    case type_kind::uint8:
    case type_kind::boolean: return 1;
    case type_kind::int16:
    case type_kind::uint16: return 2;
    case type_kind::int32:
    case type_kind::uint32:
    case type_kind::float32: return 4;
    case type_kind::int64:
    case type_kind::uint64:
    case type_kind::float64:
    case type_kind::complex64: return 8;
    case type_kind::complex128: return 16;
  }
  return 0;
}

bool valid_kind(int k) noexcept { return k >= 0 && k < type_kind_count; }

MPI_Op builtin_op(op_kind k) {
  switch (k) {
    case op_kind::sum: return MPI_SUM;
    case op_kind::prod: return MPI_PROD;
    case op_kind::max: return MPI_MAX;
    case op_kind::min: return MPI_MIN;
    case op_kind::land: return MPI_LAND;
    case op_kind::lor: return MPI_LOR;
    case op_kind::lxor: return MPI_LXOR;
    case op_kind::band: return MPI_BAND;
    case op_kind::bor: return MPI_BOR;
    case op_kind::bxor: return MPI_BXOR;
    case op_kind::maxloc: return MPI_MAXLOC;
    case op_kind::minloc: return MPI_MINLOC;
    case op_kind::replace: return MPI_REPLACE;
    case op_kind::no_op: return MPI_NO_OP;
  }
  throw std::invalid_argument("oompi: unknown op kind " + std::to_string(static_cast<int>(k)));
}

comparison to_comparison(int r) {
  if (r == MPI_IDENT) return comparison::ident;
  if (r == MPI_CONGRUENT) return comparison::congruent;
  if (r == MPI_SIMILAR) return comparison::similar;
  return comparison::unequal;
}

void throw_closed(const char* what, const char* object) {
  throw closed_error(std::string(what) + ": this " + object + " has been closed");
}
void throw_null(const char* what, const char* object) {
  throw std::logic_error(std::string(what) + ": null " + object);
}

}  // namespace detail

buffer buffer::slice(std::int64_t offset, std::int64_t n, const char* what) const {
  if (offset < 0 || n < 0 || offset > count || n > count - offset)
    throw std::out_of_range(std::string(what) + ": offset " + std::to_string(offset) +
                            " and count " + std::to_string(n) + " do not fit in a buffer of " +
                            std::to_string(count) + " elements");
  return buffer(static_cast<char*>(data) + offset * extent, n, type, extent);
}

}  // namespace oompi::rt
