#ifndef OOMPI_RT_DATATYPE_HPP
#define OOMPI_RT_DATATYPE_HPP

// Datatype handles for the bindings: the builtins by kind, derived types by factory.
// Copies share one handle; close() frees a derived type for all copies. A derived type that
// is never closed is freed later on the MPI thread (never from a finalizer thread, never
// after MPI_Finalize).

#include "common.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace oompi::rt {

class datatype_contents;

class datatype {
public:
  /// A null datatype.
  datatype() = default;

  /// The predefined datatype of a kind (never freed: close() does nothing to it, so shared
  /// constants such as Java's Datatype.DOUBLE stay usable).
  static datatype of(type_kind kind);
  /// `count` consecutive elements of `base` (MPI_Type_contiguous), committed.
  static datatype contiguous(int count, const datatype& base);
  /// `count` blocks of `blocklength` elements, `stride` elements apart (MPI_Type_vector).
  static datatype vector(int count, int blocklength, int stride, const datatype& base);
  /// Like vector, with the stride in bytes (MPI_Type_create_hvector).
  static datatype hvector(int count, int blocklength, std::int64_t stride_bytes,
                          const datatype& base);
  /// Blocks of blocklengths[i] elements at displacements[i] elements (MPI_Type_indexed).
  static datatype indexed(const std::vector<int>& blocklengths,
                          const std::vector<int>& displacements, const datatype& base);
  /// Like indexed, displacements in bytes (MPI_Type_create_hindexed).
  static datatype hindexed(const std::vector<int>& blocklengths,
                           const std::vector<long long>& displacements_bytes,
                           const datatype& base);
  /// Blocks of one length at displacements in elements (MPI_Type_create_indexed_block).
  static datatype indexed_block(int blocklength, const std::vector<int>& displacements,
                                const datatype& base);
  /// A struct: blocklengths[i] elements of types[i] at displacements_bytes[i]
  /// (MPI_Type_create_struct). Resize it to the language's record size with resized().
  static datatype create_struct(const std::vector<int>& blocklengths,
                                const std::vector<long long>& displacements_bytes,
                                const std::vector<datatype>& types);
  /// A C-order sub-array of a sizes[] array of base elements (MPI_Type_create_subarray).
  static datatype subarray(const std::vector<int>& sizes, const std::vector<int>& subsizes,
                           const std::vector<int>& starts, const datatype& base);
  /// Process `rank`'s part of a C-order array of `sizes` distributed HPF-style over a grid of
  /// `procs` processes (product `nprocs`; MPI_Type_create_darray): distribs[i] is
  /// distribute_block, distribute_cyclic or distribute_none, dargs[i] a block size or
  /// distribute_dflt_darg. Inconsistent arguments: std::invalid_argument before MPI sees them.
  static datatype darray(int nprocs, int rank, const std::vector<int>& sizes,
                         const std::vector<int>& distribs, const std::vector<int>& dargs,
                         const std::vector<int>& procs, const datatype& base);
  /// The same type with lower bound lb and extent `extent` bytes (MPI_Type_create_resized).
  static datatype resized(const datatype& base, std::int64_t lb, std::int64_t extent);
  /// The predefined value-index pair for MAXLOC/MINLOC whose value is of kind `value`:
  /// float32 -> MPI_FLOAT_INT, float64 -> MPI_DOUBLE_INT, int16 -> MPI_SHORT_INT,
  /// int32 -> MPI_2INT, int64 -> MPI_LONG_INT (LP64). Records are {value; int index}, padded
  /// as a C struct of the two.
  static datatype value_index(type_kind value);
  /// MPI_PACKED: the bytes of comm.pack, for sending and receiving packed messages.
  static datatype packed();
  /// A copy of a type (MPI_Type_dup), derived even when the original is predefined.
  datatype dup() const;

  /// Bytes of data in one element (MPI_Type_size).
  std::int64_t size() const;
  /// Bytes from one element to the next in an array of them (MPI_Type_get_extent).
  std::int64_t extent() const;
  /// Lower bound in bytes (MPI_Type_get_extent).
  std::int64_t lb() const;
  /// Bytes actually spanned by the data, and where they start (MPI_Type_get_true_extent).
  std::int64_t true_extent() const;
  std::int64_t true_lb() const;
  /// How many basic elements of this type's type map `bytes` bytes of data hold
  /// (MPI_Get_elements of a status that received `bytes` bytes); `undefined` (MPI_UNDEFINED)
  /// when they end inside a basic element.
  std::int64_t elements_in(std::int64_t bytes) const;
  /// MPI's name for the type ("MPI_DOUBLE", or set by set_name).
  std::string name() const;
  /// True for a predefined type.
  bool is_builtin() const;
  /// The element kind of a predefined type of one of the kinds (MPI_DOUBLE -> float64, ...);
  /// -1 for any other type (derived types, pairs). Lets user functions pick a typed view.
  int element_kind() const;
  /// How the type was made (MPI_Type_get_envelope): combiner_named for a predefined type,
  /// combiner_vector, combiner_struct ... for derived ones.
  int combiner() const;
  /// The constructor and its arguments (MPI_Type_get_contents) as a datatype_contents.
  datatype_contents contents() const;
  /// True when this handle is null or closed.
  bool is_null() const noexcept;
  /// Frees a derived type (all copies see it closed); does nothing to a builtin. Idempotent.
  void close();

#ifndef SWIG
  /// The MPI handle; throws closed_error / logic_error when there is none.
  MPI_Datatype native(const char* what) const;
  /// A handle on a type owned elsewhere (never freed through it).
  static datatype borrow(MPI_Datatype type);
  /// A handle MPI returned (MPI_File_get_view): a derived one is owned (freed by close or
  /// later on the MPI thread), a predefined one borrowed.
  static datatype adopt(MPI_Datatype type);
  struct state;
#endif

private:
  explicit datatype(std::shared_ptr<state> s) noexcept : st_(std::move(s)) {}
  std::shared_ptr<state> st_;
};

/// A decoded datatype (datatype.contents()): the combiner and the arguments its constructor
/// took, in MPI_Type_get_contents's order (e.g. vector: integers {count, blocklength,
/// stride}, types {base}; struct: integers {count, blocklengths...}, addresses {displacements},
/// types {types...}). A predefined type has combiner_named and no arguments. The types are
/// datatypes of their own (derived ones are new handles: close them, or leave them to the
/// collector).
class datatype_contents {
public:
  int combiner() const noexcept { return combiner_; }
  std::vector<int> integers() const { return integers_; }
  std::vector<long long> addresses() const { return addresses_; }
  std::vector<datatype> types() const { return types_; }

#ifndef SWIG
  int combiner_ = MPI_COMBINER_NAMED;
  std::vector<int> integers_;
  std::vector<long long> addresses_;
  std::vector<datatype> types_;
#endif
};

#ifndef SWIG
struct buffer;
/// Makes `b` -- memory a language typemap described with the element type it inferred --
/// `count` elements of `type` instead (a derived type, a pair type, or another builtin), for
/// the explicit-datatype forms of the bindings (Java Buffers.typed, C# Buffer.Of(array, count,
/// type), Python [buf, count, type]). Throws std::out_of_range when the elements would reach
/// outside the memory (no MPI call ever reads or writes past it), std::invalid_argument for a
/// negative count, closed_error for a closed type.
void retype(buffer& b, const datatype& type, std::int64_t count, const char* what);
#endif

}  // namespace oompi::rt

#endif  // OOMPI_RT_DATATYPE_HPP
