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

namespace oompi::rt {

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

  /// Bytes of data in one element (MPI_Type_size).
  std::int64_t size() const;
  /// Bytes from one element to the next in an array of them (MPI_Type_get_extent).
  std::int64_t extent() const;
  /// MPI's name for the type ("MPI_DOUBLE", or set by set_name).
  std::string name() const;
  /// True for a predefined type.
  bool is_builtin() const;
  /// True when this handle is null or closed.
  bool is_null() const noexcept;
  /// Frees a derived type (all copies see it closed); does nothing to a builtin. Idempotent.
  void close();

#ifndef SWIG
  /// The MPI handle; throws closed_error / logic_error when there is none.
  MPI_Datatype native(const char* what) const;
  struct state;
#endif

private:
  explicit datatype(std::shared_ptr<state> s) noexcept : st_(std::move(s)) {}
  std::shared_ptr<state> st_;
};

}  // namespace oompi::rt

#endif  // OOMPI_RT_DATATYPE_HPP
