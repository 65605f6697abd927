#ifndef OOMPI_RT_ATTRIBUTE_HPP
#define OOMPI_RT_ATTRIBUTE_HPP

// Communicator attributes for the bindings (MPI keyvals): a keyval attaches a 64-bit integer
// to communicators; comm.dup copies it when the keyval says so. A managed object is attached
// by keeping it in a table of the language and attaching its index. The core's
// oompi::keyval<std::int64_t> does the work.
//
// close() frees the keyval (MPI_Comm_free_keyval, local); values still attached stay until
// their communicators are freed. One never closed is freed later on the MPI thread.
// The predefined attributes (MPI_TAG_UB ...) are comm::tag_ub() and its neighbours.

#include "comm.hpp"

#include <cstdint>
#include <memory>

namespace oompi::rt {

class keyval {
public:
  /// A null keyval.
  keyval() = default;
  /// A new keyval (MPI_Comm_create_keyval); with `copy_on_dup`, comm.dup() gives the duplicate
  /// the same value, otherwise none.
  static keyval create(bool copy_on_dup = true);

  /// Attaches `value` to `c` (MPI_Comm_set_attr), replacing an earlier one.
  void set(const comm& c, std::int64_t value) const;
  /// The value attached to `c` (MPI_Comm_get_attr); std::out_of_range when there is none.
  std::int64_t get(const comm& c) const;
  /// True when `c` has a value for this keyval.
  bool has(const comm& c) const;
  /// Deletes the value attached to `c` (MPI_Comm_delete_attr); false when there was none.
  bool remove(const comm& c) const;
  /// Frees the keyval for all copies. Idempotent.
  void close();
  bool is_null() const noexcept;

#ifndef SWIG
  struct state;
#endif

private:
  const state& live(const char* what) const;
  std::shared_ptr<state> st_;
};

}  // namespace oompi::rt

#endif  // OOMPI_RT_ATTRIBUTE_HPP
