#ifndef OOMPI_DATATYPE_HPP
#define OOMPI_DATATYPE_HPP

// MPI datatypes: one trait maps a C++ type to its MPI datatype (datatype_traits<T>, read with
// datatype_of<T>()); `datatype` is the RAII handle for derived types; OOMPI_STRUCT makes a
// user struct an MPI struct datatype from its members.

#include "detail/for_each.hpp"
#include "detail/type_cache.hpp"
#include "error.hpp"

#include <mpi.h>

#include <array>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace oompi {

/// Customisation point: specialise with `static MPI_Datatype get()` to give T a datatype.
/// Builtins, enums, std::complex, value_index, std::array, C arrays and OOMPI_STRUCT types
/// are provided.
template <class T, class Enable = void>
struct datatype_traits {};

namespace detail {
template <class T, class = void>
struct has_datatype_impl : std::false_type {};
template <class T>
struct has_datatype_impl<T, std::void_t<decltype(datatype_traits<T>::get())>> : std::true_type {};
template <class T>
inline constexpr bool always_false_v = false;
}  // namespace detail

/// True when T has an MPI datatype (can be sent as plain memory).
template <class T>
inline constexpr bool has_datatype_v = detail::has_datatype_impl<std::remove_cv_t<T>>::value;

/// The MPI datatype of T.
template <class T>
MPI_Datatype datatype_of() {
  using U = std::remove_cv_t<T>;
  if constexpr (has_datatype_v<U>) {
    return datatype_traits<U>::get();
  } else if constexpr (std::is_pointer_v<U>) {
    static_assert(detail::always_false_v<T>,
                  "oompi: MPI cannot send a pointer (its value means nothing on another rank). "
                  "Send what it points to, or make the pointee an object graph with "
                  "OOMPI_TRANSPORTABLE and use osend/orecv.");
    return MPI_DATATYPE_NULL;
  } else {
    static_assert(detail::always_false_v<T>,
                  "oompi: this type has no MPI datatype. For a struct of plain members write "
                  "OOMPI_STRUCT(T, member1, member2, ...) at global scope; for anything else "
                  "specialise oompi::datatype_traits<T>, or send it as an object graph with "
                  "OOMPI_TRANSPORTABLE and osend/orecv.");
    return MPI_DATATYPE_NULL;
  }
}

#define OOMPI_DETAIL_BUILTIN(T, M)                                                             \
  template <>                                                                                  \
  struct datatype_traits<T> {                                                                  \
    static MPI_Datatype get() noexcept { return M; }                                           \
  };
OOMPI_DETAIL_BUILTIN(char, MPI_CHAR)
OOMPI_DETAIL_BUILTIN(signed char, MPI_SIGNED_CHAR)
OOMPI_DETAIL_BUILTIN(unsigned char, MPI_UNSIGNED_CHAR)
OOMPI_DETAIL_BUILTIN(wchar_t, MPI_WCHAR)
OOMPI_DETAIL_BUILTIN(char16_t, MPI_UINT16_T)
OOMPI_DETAIL_BUILTIN(char32_t, MPI_UINT32_T)
#if defined(__cpp_char8_t)
OOMPI_DETAIL_BUILTIN(char8_t, MPI_UNSIGNED_CHAR)
#endif
OOMPI_DETAIL_BUILTIN(short, MPI_SHORT)
OOMPI_DETAIL_BUILTIN(unsigned short, MPI_UNSIGNED_SHORT)
OOMPI_DETAIL_BUILTIN(int, MPI_INT)
OOMPI_DETAIL_BUILTIN(unsigned, MPI_UNSIGNED)
OOMPI_DETAIL_BUILTIN(long, MPI_LONG)
OOMPI_DETAIL_BUILTIN(unsigned long, MPI_UNSIGNED_LONG)
OOMPI_DETAIL_BUILTIN(long long, MPI_LONG_LONG)
OOMPI_DETAIL_BUILTIN(unsigned long long, MPI_UNSIGNED_LONG_LONG)
OOMPI_DETAIL_BUILTIN(float, MPI_FLOAT)
OOMPI_DETAIL_BUILTIN(double, MPI_DOUBLE)
OOMPI_DETAIL_BUILTIN(long double, MPI_LONG_DOUBLE)
OOMPI_DETAIL_BUILTIN(bool, MPI_CXX_BOOL)
OOMPI_DETAIL_BUILTIN(std::byte, MPI_BYTE)
OOMPI_DETAIL_BUILTIN(std::complex<float>, MPI_CXX_FLOAT_COMPLEX)
OOMPI_DETAIL_BUILTIN(std::complex<double>, MPI_CXX_DOUBLE_COMPLEX)
OOMPI_DETAIL_BUILTIN(std::complex<long double>, MPI_CXX_LONG_DOUBLE_COMPLEX)
#undef OOMPI_DETAIL_BUILTIN

/// Enumerations travel as their underlying integer type.
template <class T>
struct datatype_traits<T, std::enable_if_t<std::is_enum_v<T>>> {
  static MPI_Datatype get() { return datatype_of<std::underlying_type_t<T>>(); }
};

/// A value and its index, for the MAXLOC and MINLOC reductions (MPI_DOUBLE_INT, ...).
template <class T>
struct value_index {
  T value;
  int index;
  friend bool operator==(const value_index& a, const value_index& b) {
    return a.value == b.value && a.index == b.index;
  }
};
#define OOMPI_DETAIL_PAIR(T, M)                                                                \
  template <>                                                                                  \
  struct datatype_traits<value_index<T>> {                                                     \
    static MPI_Datatype get() noexcept { return M; }                                           \
  };
OOMPI_DETAIL_PAIR(float, MPI_FLOAT_INT)
OOMPI_DETAIL_PAIR(double, MPI_DOUBLE_INT)
OOMPI_DETAIL_PAIR(long double, MPI_LONG_DOUBLE_INT)
OOMPI_DETAIL_PAIR(short, MPI_SHORT_INT)
OOMPI_DETAIL_PAIR(int, MPI_2INT)
OOMPI_DETAIL_PAIR(long, MPI_LONG_INT)
#undef OOMPI_DETAIL_PAIR

/// std::array<T, N> and T[N] as elements (e.g. struct members): a contiguous type, built once.
template <class T, std::size_t N>
struct datatype_traits<std::array<T, N>, std::enable_if_t<has_datatype_v<T>>> {
  static MPI_Datatype get() {
    static const MPI_Datatype type = detail::cache_contiguous(N, datatype_of<T>());
    return type;
  }
};
template <class T, std::size_t N>
struct datatype_traits<T[N], std::enable_if_t<has_datatype_v<T>>> {
  static MPI_Datatype get() {
    static const MPI_Datatype type = detail::cache_contiguous(N, datatype_of<T>());
    return type;
  }
};

/// Array order for subarray and darray types.
enum class array_order : int { c = MPI_ORDER_C, fortran = MPI_ORDER_FORTRAN };

/// How darray distributes one dimension over the process grid.
enum class distribution : int {
  block = MPI_DISTRIBUTE_BLOCK,
  cyclic = MPI_DISTRIBUTE_CYCLIC,
  none = MPI_DISTRIBUTE_NONE
};
/// darray's distribution argument meaning "the default" (block: ceil(size / procs); cyclic: 1).
inline constexpr int default_darg = MPI_DISTRIBUTE_DFLT_DARG;

/// An MPI datatype handle. Builtins are borrowed; derived types made by the factories below
/// are committed on creation and freed by the destructor (never after MPI_Finalize).
class datatype {
public:
  datatype() noexcept = default;
  /// Borrow an existing handle (not freed by this object).
  explicit datatype(MPI_Datatype type) noexcept : type_(type) {}

  datatype(datatype&& other) noexcept
      : type_(std::exchange(other.type_, MPI_DATATYPE_NULL)),
        owned_(std::exchange(other.owned_, false)) {}
  datatype& operator=(datatype&& other) noexcept {
    if (this != &other) {
      reset();
      type_ = std::exchange(other.type_, MPI_DATATYPE_NULL);
      owned_ = std::exchange(other.owned_, false);
    }
    return *this;
  }
  datatype(const datatype&) = delete;  // use dup(): copying a handle would free it twice
  datatype& operator=(const datatype&) = delete;
  ~datatype() { reset(); }

  /// The datatype of a C++ type (borrowed; cached types live until MPI_Finalize).
  template <class T>
  static datatype of() {
    return datatype(datatype_of<T>());
  }

  static datatype contiguous(int count, const datatype& base) {
    return build("MPI_Type_contiguous", [&](MPI_Datatype* t) {
      return MPI_Type_contiguous(count, base.native(), t);
    });
  }
  static datatype vector(int count, int blocklength, int stride, const datatype& base) {
    return build("MPI_Type_vector", [&](MPI_Datatype* t) {
      return MPI_Type_vector(count, blocklength, stride, base.native(), t);
    });
  }
  /// Like vector, with the stride in bytes.
  static datatype hvector(int count, int blocklength, MPI_Aint stride_bytes,
                          const datatype& base) {
    return build("MPI_Type_create_hvector", [&](MPI_Datatype* t) {
      return MPI_Type_create_hvector(count, blocklength, stride_bytes, base.native(), t);
    });
  }
  static datatype indexed(const std::vector<int>& blocklengths,
                          const std::vector<int>& displacements, const datatype& base) {
    same_size("indexed", blocklengths.size(), displacements.size());
    return build("MPI_Type_indexed", [&](MPI_Datatype* t) {
      return MPI_Type_indexed(as_int(blocklengths.size()), blocklengths.data(),
                              displacements.data(), base.native(), t);
    });
  }
  /// Like indexed, with the displacements in bytes.
  static datatype hindexed(const std::vector<int>& blocklengths,
                           const std::vector<MPI_Aint>& displacements_bytes,
                           const datatype& base) {
    same_size("hindexed", blocklengths.size(), displacements_bytes.size());
    return build("MPI_Type_create_hindexed", [&](MPI_Datatype* t) {
      return MPI_Type_create_hindexed(as_int(blocklengths.size()), blocklengths.data(),
                                      displacements_bytes.data(), base.native(), t);
    });
  }
  static datatype indexed_block(int blocklength, const std::vector<int>& displacements,
                                const datatype& base) {
    return build("MPI_Type_create_indexed_block", [&](MPI_Datatype* t) {
      return MPI_Type_create_indexed_block(as_int(displacements.size()), blocklength,
                                           displacements.data(), base.native(), t);
    });
  }
  static datatype hindexed_block(int blocklength, const std::vector<MPI_Aint>& displacements,
                                 const datatype& base) {
    return build("MPI_Type_create_hindexed_block", [&](MPI_Datatype* t) {
      return MPI_Type_create_hindexed_block(as_int(displacements.size()), blocklength,
                                            displacements.data(), base.native(), t);
    });
  }
  /// A sub-block of an n-dimensional array.
  static datatype subarray(const std::vector<int>& sizes, const std::vector<int>& subsizes,
                           const std::vector<int>& starts, const datatype& base,
                           array_order order = array_order::c) {
    same_size("subarray", sizes.size(), subsizes.size());
    same_size("subarray", sizes.size(), starts.size());
    // Checked here: MPICH 4.0 builds a sub-array that leaves the array, to read out of bounds.
    for (std::size_t i = 0; i < sizes.size(); ++i)
      if (sizes[i] < 1 || subsizes[i] < 1 || starts[i] < 0 || subsizes[i] > sizes[i] ||
          starts[i] > sizes[i] - subsizes[i])
        throw std::invalid_argument("oompi::datatype::subarray: dimension " + std::to_string(i) +
                                    ": the sub-array (start " + std::to_string(starts[i]) +
                                    ", size " + std::to_string(subsizes[i]) +
                                    ") is not inside 0.." + std::to_string(sizes[i]));
    return build("MPI_Type_create_subarray", [&](MPI_Datatype* t) {
      return MPI_Type_create_subarray(as_int(sizes.size()), sizes.data(), subsizes.data(),
                                      starts.data(), static_cast<int>(order), base.native(), t);
    });
  }
  /// Process `rank`'s part of an n-dimensional array of `sizes` distributed over a process grid
  /// of `procs` (whose product is `nprocs`) as HPF does: per dimension block, cyclic (with a
  /// block size `dargs[i]`, or default_darg) or none. Inconsistent arguments throw
  /// std::invalid_argument before MPI sees them.
  static datatype darray(int nprocs, int rank, const std::vector<int>& sizes,
                         const std::vector<distribution>& distribs, const std::vector<int>& dargs,
                         const std::vector<int>& procs, const datatype& base,
                         array_order order = array_order::c) {
    same_size("darray", sizes.size(), distribs.size());
    same_size("darray", sizes.size(), dargs.size());
    same_size("darray", sizes.size(), procs.size());
    auto bad = [](const std::string& what) {
      throw std::invalid_argument("oompi::datatype::darray: " + what);
    };
    if (nprocs < 1 || rank < 0 || rank >= nprocs)
      bad("rank " + std::to_string(rank) + " is not in 0.." + std::to_string(nprocs - 1));
    long long grid = 1;
    std::vector<int> kinds(sizes.size());
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      const std::string dim = "dimension " + std::to_string(i) + ": ";
      if (sizes[i] < 1 || procs[i] < 1) bad(dim + "sizes and process counts must be positive");
      if (dargs[i] != default_darg && dargs[i] < 1)
        bad(dim + "the distribution argument must be positive or default_darg");
      if (distribs[i] == distribution::none && procs[i] != 1)
        bad(dim + "distribution::none needs 1 process in that dimension");
      // MPI: a block distribution must cover the dimension (darg * procs >= size).
      if (distribs[i] == distribution::block && dargs[i] != default_darg &&
          static_cast<long long>(dargs[i]) * procs[i] < sizes[i])
        bad(dim + "blocks of " + std::to_string(dargs[i]) + " on " + std::to_string(procs[i]) +
            " processes do not cover " + std::to_string(sizes[i]) + " elements");
      grid *= procs[i];
      kinds[i] = static_cast<int>(distribs[i]);
    }
    if (grid != nprocs)
      bad("the process grid has " + std::to_string(grid) + " processes, not " +
          std::to_string(nprocs));
    return build("MPI_Type_create_darray", [&](MPI_Datatype* t) {
      return MPI_Type_create_darray(nprocs, rank, as_int(sizes.size()), sizes.data(),
                                    kinds.data(), dargs.data(), procs.data(),
                                    static_cast<int>(order), base.native(), t);
    });
  }
  /// A struct type: blocks of (possibly different) types at byte displacements.
  static datatype structure(const std::vector<int>& blocklengths,
                            const std::vector<MPI_Aint>& displacements_bytes,
                            const std::vector<MPI_Datatype>& types) {
    same_size("structure", blocklengths.size(), displacements_bytes.size());
    same_size("structure", blocklengths.size(), types.size());
    return build("MPI_Type_create_struct", [&](MPI_Datatype* t) {
      return MPI_Type_create_struct(as_int(blocklengths.size()), blocklengths.data(),
                                    displacements_bytes.data(), types.data(), t);
    });
  }
  /// The same type map with a new lower bound and extent (e.g. to tile an array).
  static datatype resized(const datatype& base, MPI_Aint lower_bound, MPI_Aint extent) {
    return build("MPI_Type_create_resized", [&](MPI_Datatype* t) {
      return MPI_Type_create_resized(base.native(), lower_bound, extent, t);
    });
  }
  /// Takes ownership of a handle MPI returned (MPI_File_get_view, MPI_Type_get_contents): it is
  /// committed (a no-op if it already is) and freed by the destructor. Named (predefined) types
  /// are only borrowed: MPI forbids freeing them.
  static datatype adopt(MPI_Datatype t) {
    detail::require_running("oompi::datatype::adopt");
    int n = 0, a = 0, d = 0, combiner = MPI_COMBINER_NAMED;
    OOMPI_CHECK(MPI_Type_get_envelope, (t, &n, &a, &d, &combiner));
    if (combiner == MPI_COMBINER_NAMED) return datatype(t);
    datatype out(t);
    out.owned_ = true;  // freed even if the commit fails
    OOMPI_CHECK(MPI_Type_commit, (&out.type_));
    return out;
  }
  /// An owned duplicate of this type.
  datatype dup() const {
    return build("MPI_Type_dup", [&](MPI_Datatype* t) { return MPI_Type_dup(type_, t); });
  }

  MPI_Datatype native() const noexcept { return type_; }
  bool is_null() const noexcept { return type_ == MPI_DATATYPE_NULL; }
  bool owned() const noexcept { return owned_; }

  /// Bytes of data in one element (MPI_Type_size).
  MPI_Count size() const {
    MPI_Count n = 0;
    OOMPI_CHECK(MPI_Type_size_x, (checked(), &n));
    return n;
  }
  MPI_Count lower_bound() const { return extent_pair().first; }
  MPI_Count extent() const { return extent_pair().second; }
  MPI_Count true_lower_bound() const { return true_extent_pair().first; }
  MPI_Count true_extent() const { return true_extent_pair().second; }

  std::string name() const {
    char text[MPI_MAX_OBJECT_NAME];
    int len = 0;
    OOMPI_CHECK(MPI_Type_get_name, (checked(), text, &len));
    return std::string(text, static_cast<std::size_t>(len));
  }
  void set_name(const std::string& name) {
    OOMPI_CHECK(MPI_Type_set_name, (checked(), name.c_str()));
  }

  friend bool operator==(const datatype& a, const datatype& b) { return a.type_ == b.type_; }
  friend bool operator!=(const datatype& a, const datatype& b) { return a.type_ != b.type_; }

private:
  template <class F>
  static datatype build(const char* routine, F&& make) {
    detail::require_running(routine);
    MPI_Datatype t = MPI_DATATYPE_NULL;
    const int rc = make(&t);
    if (rc != MPI_SUCCESS) detail::throw_mpi_error(routine, rc);
    if (const int c = MPI_Type_commit(&t); c != MPI_SUCCESS) {
      MPI_Type_free(&t);
      detail::throw_mpi_error("MPI_Type_commit", c);
    }
    datatype d(t);
    d.owned_ = true;
    return d;
  }
  MPI_Datatype checked() const {
    if (type_ == MPI_DATATYPE_NULL) throw std::logic_error("oompi::datatype: null datatype");
    detail::require_running("oompi::datatype");
    return type_;
  }
  std::pair<MPI_Count, MPI_Count> extent_pair() const {
    MPI_Count lb = 0, ext = 0;
    OOMPI_CHECK(MPI_Type_get_extent_x, (checked(), &lb, &ext));
    return {lb, ext};
  }
  std::pair<MPI_Count, MPI_Count> true_extent_pair() const {
    MPI_Count lb = 0, ext = 0;
    OOMPI_CHECK(MPI_Type_get_true_extent_x, (checked(), &lb, &ext));
    return {lb, ext};
  }
  static void same_size(const char* what, std::size_t a, std::size_t b) {
    if (a != b)
      throw std::invalid_argument(std::string("oompi::datatype::") + what +
                                  ": argument vectors differ in length (" + std::to_string(a) +
                                  " vs " + std::to_string(b) + ")");
  }
  static int as_int(std::size_t n) {
    if (n > static_cast<std::size_t>(INT32_MAX))
      throw std::invalid_argument("oompi::datatype: more than INT_MAX blocks");
    return static_cast<int>(n);
  }
  void reset() noexcept {
    if (owned_ && type_ != MPI_DATATYPE_NULL && detail::mpi_usable()) MPI_Type_free(&type_);
    type_ = MPI_DATATYPE_NULL;
    owned_ = false;
  }

  MPI_Datatype type_ = MPI_DATATYPE_NULL;
  bool owned_ = false;
};

namespace detail {
struct struct_field {
  MPI_Aint offset;
  MPI_Datatype type;
};
// Builds, commits and caches the struct type of OOMPI_STRUCT, resized to sizeof(T) so that
// arrays of T are described correctly whatever the padding.
inline MPI_Datatype build_struct_type(std::size_t size, std::initializer_list<struct_field> fields) {
  require_running("OOMPI_STRUCT");
  std::vector<int> lengths(fields.size(), 1);
  std::vector<MPI_Aint> offsets;
  std::vector<MPI_Datatype> types;
  for (const auto& f : fields) {
    offsets.push_back(f.offset);
    types.push_back(f.type);
  }
  MPI_Datatype raw = MPI_DATATYPE_NULL, resized = MPI_DATATYPE_NULL;
  OOMPI_CHECK(MPI_Type_create_struct, (static_cast<int>(fields.size()), lengths.data(),
                                       offsets.data(), types.data(), &raw));
  const int rc = MPI_Type_create_resized(raw, 0, static_cast<MPI_Aint>(size), &resized);
  MPI_Type_free(&raw);
  if (rc != MPI_SUCCESS) throw_mpi_error("MPI_Type_create_resized", rc);
  return cache_committed(resized);
}
}  // namespace detail
}  // namespace oompi

#define OOMPI_DETAIL_STRUCT_FIELD(T, m)                                                        \
  ::oompi::detail::struct_field{static_cast<MPI_Aint>(offsetof(T, m)),                         \
                                ::oompi::datatype_of<decltype(T::m)>()},

/// OOMPI_STRUCT(T, member1, member2, ...): gives the struct T an MPI struct datatype built from
/// the listed members (which may be arithmetic, enums, arrays or other OOMPI_STRUCT types),
/// resized to sizeof(T), committed once on first use and freed at MPI_Finalize.
/// Write it at global scope, after the struct's definition.
#define OOMPI_STRUCT(T, ...)                                                                   \
  namespace oompi {                                                                            \
  template <>                                                                                  \
  struct datatype_traits<T> {                                                                  \
    static_assert(std::is_standard_layout_v<T> && std::is_trivially_copyable_v<T>,            \
                  "OOMPI_STRUCT needs a standard-layout, trivially copyable struct: MPI copies " \
                  "its bytes. For types holding pointers, strings or containers use "          \
                  "OOMPI_TRANSPORTABLE and osend/orecv.");                                     \
    static MPI_Datatype get() {                                                                \
      static const MPI_Datatype type = ::oompi::detail::build_struct_type(                     \
          sizeof(T), {OOMPI_DETAIL_FOR_EACH(OOMPI_DETAIL_STRUCT_FIELD, T, __VA_ARGS__)});      \
      return type;                                                                             \
    }                                                                                          \
  };                                                                                           \
  }

#endif  // OOMPI_DATATYPE_HPP
