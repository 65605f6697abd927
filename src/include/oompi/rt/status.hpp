#ifndef OOMPI_RT_STATUS_HPP
#define OOMPI_RT_STATUS_HPP

// The status of a completed receive or probe: source, tag, error, element count.

#include "datatype.hpp"

#include <oompi/status.hpp>

#include <cstdint>

namespace oompi::rt {

class status {
public:
  status() = default;
#ifndef SWIG
  explicit status(const oompi::status& s) noexcept : s_(s) {}
  const oompi::status& core() const noexcept { return s_; }
#endif
  int source() const noexcept { return s_.source(); }
  int tag() const noexcept { return s_.tag(); }
  /// The error code recorded for the operation (MPI_SUCCESS when it succeeded).
  int error() const noexcept { return s_.error(); }
  /// Whole elements of `type` in the message. Throws std::range_error when the message is not
  /// a whole number of them.
  std::int64_t get_count(const datatype& type) const;
  /// Was the operation cancelled?
  bool cancelled() const;

private:
  oompi::status s_;
};

}  // namespace oompi::rt

#endif  // OOMPI_RT_STATUS_HPP
