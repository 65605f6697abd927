#ifndef OOMPI_RT_COMMON_HPP
#define OOMPI_RT_COMMON_HPP

// The runtime facade (namespace oompi::rt): a small compiled library of non-template classes
// over the header-only core, for the SWIG bindings (Java, C#, Python). Types and kinds are
// chosen at run time here, so everything the bindings see is plain C++ that SWIG can wrap.
//
// This header: the enumerations shared by all facade classes and the facade's own exceptions.

#include <oompi/error.hpp>
#include <oompi/request.hpp>

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

namespace oompi::rt {

#ifndef SWIG
/// A handle was used after close() (Java IllegalStateException, C# ObjectDisposedException,
/// Python oompi.ClosedError).
///
/// Every message of the facade starts with where it was raised, "<class>.<method>: " in the
/// facade's names (window.put, file.write_at); a binding shows that part in its own names
/// (Window.put, MpiFile.WriteAt, binding_names.hpp). A closed or null handle also carries the
/// facade class it is about (object()), so that its text names the binding's class too.
class closed_error : public std::logic_error {
public:
  using std::logic_error::logic_error;
  /// "<where>: this <object> has been closed" (object: a facade class, comm, window, ...).
  closed_error(const char* where, const char* object);
  /// Where it was raised ("window.put") and the facade class that was closed ("window");
  /// empty for a closed_error made from a whole message.
  const std::string& where() const noexcept { return where_; }
  const std::string& object() const noexcept { return object_; }

private:
  std::string where_, object_;
};

/// A call on a null (default-constructed) handle: "<where>: null <object>", and with a maker
/// (the facade call that makes one, "info.create"), " (<maker>() makes one)".
class null_handle_error : public std::logic_error {
public:
  null_handle_error(const char* where, const char* object, const char* maker = nullptr);
  const std::string& where() const noexcept { return where_; }
  const std::string& object() const noexcept { return object_; }
  const std::string& maker() const noexcept { return maker_; }

private:
  std::string where_, object_, maker_;
};

/// How the facade's messages name a facade class in C++ ("communicator" for comm).
const char* facade_noun(const char* object) noexcept;

/// A user_function reported failure with fail() (the C# binding's way): the collective that
/// ran it throws this after MPI returns.
class user_function_error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Whatever a pending nonblocking operation needs kept alive: a JNI global reference to a
/// direct buffer, a pinned GCHandle, a held Py_buffer. Destroyed when the operation completes.
using keep_alive = oompi::detail::keep_alive;
#endif

/// Thread support levels (MPI_THREAD_*).
enum class thread_level : int { single = 0, funneled = 1, serialized = 2, multiple = 3 };

/// Element types that a managed array or buffer can hold; each maps to one MPI datatype.
enum class type_kind : int {
  byte = 0,     // MPI_BYTE: raw bytes (ByteBuffer, bytes-like with format 'B' when asked)
  int8 = 1,     // MPI_INT8_T (Java byte, C# sbyte, NumPy int8)
  uint8 = 2,    // MPI_UINT8_T (C# byte, NumPy uint8, bytearray)
  int16 = 3,    // MPI_INT16_T
  uint16 = 4,   // MPI_UINT16_T (Java char, C# char)
  int32 = 5,    // MPI_INT32_T
  uint32 = 6,   // MPI_UINT32_T
  int64 = 7,    // MPI_INT64_T
  uint64 = 8,   // MPI_UINT64_T
  float32 = 9,  // MPI_FLOAT
  float64 = 10, // MPI_DOUBLE
  boolean = 11, // MPI_C_BOOL (one byte: Java boolean, C# bool, NumPy bool)
  complex64 = 12,   // MPI_C_FLOAT_COMPLEX
  complex128 = 13,  // MPI_C_DOUBLE_COMPLEX
};
inline constexpr int type_kind_count = 14;

/// Predefined reduction operations; they never call into a managed runtime.
enum class op_kind : int {
  sum = 0, prod, max, min, land, lor, lxor, band, bor, bxor, maxloc, minloc, replace, no_op
};

/// Result of comparing two groups or two communicators (MPI_Group_compare, MPI_Comm_compare).
enum class comparison : int {
  ident = 0,      // the same communicator / the same members in the same order
  congruent = 1,  // communicators: same members, same order, different contexts
  similar = 2,    // same members, different order
  unequal = 3,    // different members
};

/// The process topology a communicator carries (MPI_Topo_test).
enum class topology_kind : int { none = 0, cartesian = 1, graph = 2, dist_graph = 3 };

#ifndef SWIG
namespace detail {
/// The facade's comparison for MPI's MPI_IDENT ... MPI_UNEQUAL.
comparison to_comparison(int mpi_result);
[[noreturn]] void throw_bad_kind(type_kind k);
/// The MPI datatype of a kind (a predefined handle: valid before MPI_Init in Open MPI and
/// MPICH alike, since both define them as constants or link-time objects). Inline: every
/// binding call with a buffer of a primitive kind makes one.
inline MPI_Datatype builtin_type(type_kind k) {
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
  throw_bad_kind(k);
}

/// Size in bytes of one element of a kind.
inline std::int64_t builtin_size(type_kind k) noexcept {
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

/// True when k is a valid type_kind value.
bool valid_kind(int k) noexcept;
MPI_Op builtin_op(op_kind k);

/// Throws closed_error with "<what>: this <object> has been closed" (object: a facade class).
[[noreturn]] void throw_closed(const char* what, const char* object);
/// Throws null_handle_error for a default-constructed (null) handle (object: a facade class;
/// maker: the facade call that makes one, if any).
[[noreturn]] void throw_null(const char* what, const char* object, const char* maker = nullptr);
/// The state behind a facade handle that is neither null nor closed (else throw_null or
/// throw_closed, naming `object`).
template <class State>
State* live_state(const std::shared_ptr<State>& st, const char* what, const char* object,
                  const char* maker = nullptr) {
  if (!st) throw_null(what, object, maker);
  if (st->closed) throw_closed(what, object);
  return st.get();
}
}  // namespace detail
#endif

}  // namespace oompi::rt

#endif  // OOMPI_RT_COMMON_HPP
