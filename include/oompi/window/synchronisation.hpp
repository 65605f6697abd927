#ifndef OOMPI_WINDOW_SYNCHRONISATION_HPP
#define OOMPI_WINDOW_SYNCHRONISATION_HPP

// One-sided communication: the window's synchronisation calls (fence, start, post, lock,
// lock_all, flush, sync), which begin the epochs of epochs.hpp.
// Part of <oompi/window.hpp> (include that one).

#include "creation.hpp"

namespace oompi {

inline void window::fence(int assert) const {
  require("MPI_Win_fence");
  OOMPI_CHECK(MPI_Win_fence, (assert, win_));
}

inline access_epoch window::start(const oompi::group& g, int assert) const {
  require("MPI_Win_start");
  if (g.is_null()) throw std::logic_error("MPI_Win_start: null group");
  OOMPI_CHECK(MPI_Win_start, (g.native(), assert, win_));
  return access_epoch(win_);
}

inline exposure_epoch window::post(const oompi::group& g, int assert) const {
  require("MPI_Win_post");
  if (g.is_null()) throw std::logic_error("MPI_Win_post: null group");
  OOMPI_CHECK(MPI_Win_post, (g.native(), assert, win_));
  return exposure_epoch(win_);
}

inline lock_epoch window::lock(int rank, lock_type type, int assert) const {
  require("MPI_Win_lock");
  check_rank("MPI_Win_lock", rank, false);
  OOMPI_CHECK(MPI_Win_lock, (static_cast<int>(type), rank, assert, win_));
  return lock_epoch(win_, rank);
}

inline lock_all_epoch window::lock_all(int assert) const {
  require("MPI_Win_lock_all");
  OOMPI_CHECK(MPI_Win_lock_all, (assert, win_));
  return lock_all_epoch(win_);
}

inline void window::flush(int rank) const {
  require("MPI_Win_flush");
  check_rank("MPI_Win_flush", rank, false);
  OOMPI_CHECK(MPI_Win_flush, (rank, win_));
}

inline void window::flush_all() const {
  require("MPI_Win_flush_all");
  OOMPI_CHECK(MPI_Win_flush_all, (win_));
}

inline void window::flush_local(int rank) const {
  require("MPI_Win_flush_local");
  check_rank("MPI_Win_flush_local", rank, false);
  OOMPI_CHECK(MPI_Win_flush_local, (rank, win_));
}

inline void window::flush_local_all() const {
  require("MPI_Win_flush_local_all");
  OOMPI_CHECK(MPI_Win_flush_local_all, (win_));
}

inline void window::sync() const {
  require("MPI_Win_sync");
  OOMPI_CHECK(MPI_Win_sync, (win_));
}

}  // namespace oompi

#endif  // OOMPI_WINDOW_SYNCHRONISATION_HPP
