#ifndef OOMPI_RT_INFO_HPP
#define OOMPI_RT_INFO_HPP

// Info objects (MPI_Info) for the bindings: string key/value hints, over the core's oompi::info.
//
// info() is a null info (MPI_INFO_NULL, "no hints", what every function taking hints accepts);
// info::create() makes a new, empty object. Copies share one object; close() frees it for all
// copies (a local call). One never closed is freed later on the MPI thread (never from a
// finalizer thread, never after MPI_Finalize). Bad keys and values (empty, longer than
// MPI_MAX_INFO_KEY / MPI_MAX_INFO_VAL) throw std::invalid_argument before MPI sees them.

#include "common.hpp"

#include <oompi/info.hpp>

#include <memory>
#include <string>
#include <vector>

namespace oompi::rt {

class info {
public:
  /// MPI_INFO_NULL: no hints.
  info() = default;
  /// A new, empty info object (MPI_Info_create).
  static info create();
  /// MPI_INFO_ENV: how the program was started (command, maxprocs, ...); never freed.
  static info env();

  /// Sets or replaces a key (MPI_Info_set).
  void set(const std::string& key, const std::string& value);
  /// The value of a key (MPI_Info_get); std::out_of_range when it is not set.
  std::string get(const std::string& key) const;
  /// True when the key is set.
  bool contains(const std::string& key) const;
  /// Removes a key (MPI_Info_delete); false when it was not set.
  bool remove(const std::string& key);
  /// Number of keys (MPI_Info_get_nkeys).
  int size() const;
  /// All keys, in MPI's order (MPI_Info_get_nthkey).
  std::vector<std::string> keys() const;
  /// A new object with the same pairs (MPI_Info_dup).
  info dup() const;
  /// Frees the object for all copies (MPI_Info_free; does nothing to null or env). Idempotent.
  void close();
  /// True for MPI_INFO_NULL and after close().
  bool is_null() const noexcept;

#ifndef SWIG
  struct state;
  /// The handle (MPI_INFO_NULL for a null info); closed_error after close().
  MPI_Info native(const char* what) const;
  /// Takes ownership of a handle MPI returned (MPI_Comm_get_info ...).
  static info adopt(MPI_Info handle);
  /// A non-owning core view (info::null() for a null info), for the core's calls that take
  /// hints (window and file creation ...): oompi::window::allocate(c, n, hints.core(what)).
  oompi::info core(const char* what) const { return oompi::info(native(what), false); }
#endif

private:
  const state& live(const char* what) const;
  std::shared_ptr<state> st_;
};

}  // namespace oompi::rt

#endif  // OOMPI_RT_INFO_HPP
