#ifndef OOMPI_STATUS_HPP
#define OOMPI_STATUS_HPP

// The status of a completed receive (or probe): who sent it, with which tag, how much, and
// whether it was cancelled.

#include "datatype.hpp"
#include "error.hpp"

#include <mpi.h>

#include <climits>
#include <cstddef>
#include <stdexcept>
#include <string>

namespace oompi {

inline constexpr int any_source = MPI_ANY_SOURCE;
inline constexpr int any_tag = MPI_ANY_TAG;
inline constexpr int proc_null = MPI_PROC_NULL;

class status {
public:
  status() noexcept : s_() {
    s_.MPI_SOURCE = MPI_ANY_SOURCE;
    s_.MPI_TAG = MPI_ANY_TAG;
    s_.MPI_ERROR = MPI_SUCCESS;
  }
  explicit status(const MPI_Status& s) noexcept : s_(s) {}
  /// For a receive to fill: MPI sets source, tag and count, but not MPI_ERROR for a single
  /// completion, so only that field is written here.
  struct uninitialized_t {};
  explicit status(uninitialized_t) noexcept { s_.MPI_ERROR = MPI_SUCCESS; }

  int source() const noexcept { return s_.MPI_SOURCE; }
  int tag() const noexcept { return s_.MPI_TAG; }
  /// The error code recorded for this operation (meaningful after wait_all/some and friends).
  int error() const noexcept { return s_.MPI_ERROR; }

  /// Number of whole elements of type T received (also above INT_MAX). Throws
  /// std::range_error when the message is not a whole number of T (it was sent with another
  /// type): use elements() then.
  template <class T>
  std::size_t count() const {
    return count(datatype_of<T>());
  }
  std::size_t count(const datatype& type) const { return count(type.native()); }
  std::size_t count(MPI_Datatype type) const {
    detail::require_running("MPI_Get_count");
    int n = 0;
    OOMPI_CHECK(MPI_Get_count, (&s_, type, &n));
    if (n != MPI_UNDEFINED) return static_cast<std::size_t>(n);
    // More than INT_MAX elements, or not a whole number of them: work from the byte count.
    const MPI_Count bytes = byte_count();
    MPI_Count size = 0;
    OOMPI_CHECK(MPI_Type_size_x, (type, &size));
    if (size > 0 && bytes != MPI_UNDEFINED && bytes % size == 0)
      return static_cast<std::size_t>(bytes / size);
    throw std::range_error("oompi::status::count: the message (" + std::to_string(bytes) +
                           " bytes) is not a whole number of elements of this datatype (" +
                           std::to_string(size) + " bytes each); use elements()");
  }

  /// Number of basic elements received (MPI_Get_elements_x): also counts partial elements.
  template <class T>
  std::size_t elements() const {
    return elements(datatype_of<T>());
  }
  std::size_t elements(const datatype& type) const { return elements(type.native()); }
  std::size_t elements(MPI_Datatype type) const {
    detail::require_running("MPI_Get_elements_x");
    MPI_Count n = 0;
    OOMPI_CHECK(MPI_Get_elements_x, (&s_, type, &n));
    if (n == MPI_UNDEFINED)
      throw std::range_error("oompi::status::elements: the message is not a whole number of "
                             "basic elements of this datatype");
    return static_cast<std::size_t>(n);
  }

  /// Number of bytes received.
  std::size_t bytes() const {
    detail::require_running("MPI_Get_elements_x");
    return static_cast<std::size_t>(byte_count());
  }

  /// Was the operation cancelled?
  bool cancelled() const {
    detail::require_running("MPI_Test_cancelled");
    int flag = 0;
    OOMPI_CHECK(MPI_Test_cancelled, (&s_, &flag));
    return flag != 0;
  }

  const MPI_Status& native() const noexcept { return s_; }
  MPI_Status& native() noexcept { return s_; }

private:
  MPI_Count byte_count() const {
    MPI_Count bytes = 0;
    OOMPI_CHECK(MPI_Get_elements_x, (&s_, MPI_BYTE, &bytes));
    return bytes;
  }

  MPI_Status s_;
};

}  // namespace oompi

#endif  // OOMPI_STATUS_HPP
