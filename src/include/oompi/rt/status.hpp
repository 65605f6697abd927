#ifndef OOMPI_RT_STATUS_HPP
#define OOMPI_RT_STATUS_HPP

// The status of a completed receive or probe, as a plain value: source, tag, error, the size of
// the message in bytes, and whether it was cancelled. Everything is read from MPI when the
// status is made, so the bindings map it to a value of their own (a Java object without native
// memory, a C# class, a Python struct sequence) instead of a proxy with a finalizer: one is
// made for every receive.

#include "datatype.hpp"

#include <oompi/status.hpp>

#include <cstdint>

namespace oompi::rt {

class status {
public:
  status() = default;
#ifndef SWIG
  explicit status(const oompi::status& s);
#endif
  int source() const noexcept { return source_; }
  int tag() const noexcept { return tag_; }
  /// The error code recorded for the operation (MPI_SUCCESS when it succeeded).
  int error() const noexcept { return error_; }
  /// Bytes of data in the message.
  std::int64_t count_bytes() const noexcept { return bytes_; }
  /// Was the operation cancelled?
  bool cancelled() const noexcept { return cancelled_; }
  /// Whole elements of `type` in the message (count_bytes / type.size()). Every binding
  /// computes it by this rule. Throws std::range_error when the message is not a whole number
  /// of them.
  std::int64_t get_count(const datatype& type) const;

private:
  int source_ = MPI_ANY_SOURCE;
  int tag_ = MPI_ANY_TAG;
  int error_ = MPI_SUCCESS;
  bool cancelled_ = false;
  std::int64_t bytes_ = 0;
};

}  // namespace oompi::rt

#endif  // OOMPI_RT_STATUS_HPP
