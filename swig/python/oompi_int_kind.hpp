// The integer element kind of a buffer, by size and signedness: what the three ways a Python
// buffer names its element type (a buffer-protocol format, a NumPy dtype, a DLPack dtype) share.
#ifndef OOMPI_SWIG_PYTHON_INT_KIND_HPP
#define OOMPI_SWIG_PYTHON_INT_KIND_HPP

#include <oompi/rt/rt.hpp>

namespace oompi::python {

/// The kind of a `bytes`-byte integer (1, 2, 4 or 8); false for another size.
inline bool int_kind(long long bytes, bool is_signed, rt::type_kind& kind) {
  switch (bytes) {
    case 1: kind = is_signed ? rt::type_kind::int8 : rt::type_kind::uint8; return true;
    case 2: kind = is_signed ? rt::type_kind::int16 : rt::type_kind::uint16; return true;
    case 4: kind = is_signed ? rt::type_kind::int32 : rt::type_kind::uint32; return true;
    case 8: kind = is_signed ? rt::type_kind::int64 : rt::type_kind::uint64; return true;
  }
  return false;
}

}  // namespace oompi::python

#endif  // OOMPI_SWIG_PYTHON_INT_KIND_HPP
