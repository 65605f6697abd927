#ifndef OOMPI_WINDOW_EPOCHS_HPP
#define OOMPI_WINDOW_EPOCHS_HPP

// One-sided communication: the epoch objects of post-start-complete-wait and of passive-target
// locks; their destructor ends the epoch.
// Part of <oompi/window.hpp> (include that one).

#include "common.hpp"

namespace oompi {

class window;

/// An access epoch of post-start-complete-wait (window::start): complete() (or the destructor)
/// ends it.
class [[nodiscard]] access_epoch {
public:
  access_epoch() noexcept = default;
  access_epoch(access_epoch&& o) noexcept : win_(std::exchange(o.win_, MPI_WIN_NULL)) {}
  access_epoch& operator=(access_epoch&& o) noexcept {
    if (this != &o) {
      end_quietly();
      win_ = std::exchange(o.win_, MPI_WIN_NULL);
    }
    return *this;
  }
  access_epoch(const access_epoch&) = delete;
  access_epoch& operator=(const access_epoch&) = delete;
  ~access_epoch() { end_quietly(); }

  /// Ends the epoch (MPI_Win_complete): the operations started in it are complete at the origin.
  void complete() {
    check("MPI_Win_complete");
    const int rc = MPI_Win_complete(win_);
    win_ = MPI_WIN_NULL;
    if (rc != MPI_SUCCESS) detail::throw_mpi_error("MPI_Win_complete", rc);
  }
  bool active() const noexcept { return win_ != MPI_WIN_NULL; }

private:
  friend class window;
  explicit access_epoch(MPI_Win w) noexcept : win_(w) {}
  void check(const char* routine) const {
    detail::require_running(routine);
    if (win_ == MPI_WIN_NULL) throw std::logic_error(std::string(routine) + ": the epoch has ended");
  }
  void end_quietly() noexcept {
    if (win_ != MPI_WIN_NULL && detail::mpi_usable()) MPI_Win_complete(win_);
    win_ = MPI_WIN_NULL;
  }
  MPI_Win win_ = MPI_WIN_NULL;
};

/// An exposure epoch of post-start-complete-wait (window::post): wait() (or the destructor)
/// ends it when every origin has completed; test() ends it if they have.
class [[nodiscard]] exposure_epoch {
public:
  exposure_epoch() noexcept = default;
  exposure_epoch(exposure_epoch&& o) noexcept : win_(std::exchange(o.win_, MPI_WIN_NULL)) {}
  exposure_epoch& operator=(exposure_epoch&& o) noexcept {
    if (this != &o) {
      end_quietly();
      win_ = std::exchange(o.win_, MPI_WIN_NULL);
    }
    return *this;
  }
  exposure_epoch(const exposure_epoch&) = delete;
  exposure_epoch& operator=(const exposure_epoch&) = delete;
  ~exposure_epoch() { end_quietly(); }

  /// Blocks until every origin of the group has called complete (MPI_Win_wait).
  void wait() {
    check("MPI_Win_wait");
    const int rc = MPI_Win_wait(win_);
    win_ = MPI_WIN_NULL;
    if (rc != MPI_SUCCESS) detail::throw_mpi_error("MPI_Win_wait", rc);
  }
  /// Ends the epoch and returns true if every origin has completed (MPI_Win_test).
  bool test() {
    check("MPI_Win_test");
    int flag = 0;
    if (const int rc = MPI_Win_test(win_, &flag); rc != MPI_SUCCESS) {
      win_ = MPI_WIN_NULL;
      detail::throw_mpi_error("MPI_Win_test", rc);
    }
    if (flag) win_ = MPI_WIN_NULL;
    return flag != 0;
  }
  bool active() const noexcept { return win_ != MPI_WIN_NULL; }

private:
  friend class window;
  explicit exposure_epoch(MPI_Win w) noexcept : win_(w) {}
  void check(const char* routine) const {
    detail::require_running(routine);
    if (win_ == MPI_WIN_NULL) throw std::logic_error(std::string(routine) + ": the epoch has ended");
  }
  void end_quietly() noexcept {
    if (win_ != MPI_WIN_NULL && detail::mpi_usable()) MPI_Win_wait(win_);
    win_ = MPI_WIN_NULL;
  }
  MPI_Win win_ = MPI_WIN_NULL;
};

/// A passive-target epoch on one rank (window::lock): unlock() (or the destructor) ends it.
class [[nodiscard]] lock_epoch {
public:
  lock_epoch() noexcept = default;
  lock_epoch(lock_epoch&& o) noexcept
      : win_(std::exchange(o.win_, MPI_WIN_NULL)), rank_(o.rank_) {}
  lock_epoch& operator=(lock_epoch&& o) noexcept {
    if (this != &o) {
      end_quietly();
      win_ = std::exchange(o.win_, MPI_WIN_NULL);
      rank_ = o.rank_;
    }
    return *this;
  }
  lock_epoch(const lock_epoch&) = delete;
  lock_epoch& operator=(const lock_epoch&) = delete;
  ~lock_epoch() { end_quietly(); }

  /// Completes the operations to the locked rank at origin and target (MPI_Win_flush).
  void flush() const {
    check("MPI_Win_flush");
    OOMPI_CHECK(MPI_Win_flush, (rank_, win_));
  }
  /// Completes them at the origin only: its buffers may be reused (MPI_Win_flush_local).
  void flush_local() const {
    check("MPI_Win_flush_local");
    OOMPI_CHECK(MPI_Win_flush_local, (rank_, win_));
  }
  /// Ends the epoch (MPI_Win_unlock): the operations are complete at origin and target.
  void unlock() {
    check("MPI_Win_unlock");
    const int rc = MPI_Win_unlock(rank_, win_);
    win_ = MPI_WIN_NULL;
    if (rc != MPI_SUCCESS) detail::throw_mpi_error("MPI_Win_unlock", rc);
  }
  int rank() const noexcept { return rank_; }
  bool active() const noexcept { return win_ != MPI_WIN_NULL; }

private:
  friend class window;
  lock_epoch(MPI_Win w, int rank) noexcept : win_(w), rank_(rank) {}
  void check(const char* routine) const {
    detail::require_running(routine);
    if (win_ == MPI_WIN_NULL) throw std::logic_error(std::string(routine) + ": the epoch has ended");
  }
  void end_quietly() noexcept {
    if (win_ != MPI_WIN_NULL && detail::mpi_usable()) MPI_Win_unlock(rank_, win_);
    win_ = MPI_WIN_NULL;
  }
  MPI_Win win_ = MPI_WIN_NULL;
  int rank_ = MPI_PROC_NULL;
};

/// A passive-target epoch on every rank (window::lock_all): unlock() (or the destructor)
/// ends it.
class [[nodiscard]] lock_all_epoch {
public:
  lock_all_epoch() noexcept = default;
  lock_all_epoch(lock_all_epoch&& o) noexcept : win_(std::exchange(o.win_, MPI_WIN_NULL)) {}
  lock_all_epoch& operator=(lock_all_epoch&& o) noexcept {
    if (this != &o) {
      end_quietly();
      win_ = std::exchange(o.win_, MPI_WIN_NULL);
    }
    return *this;
  }
  lock_all_epoch(const lock_all_epoch&) = delete;
  lock_all_epoch& operator=(const lock_all_epoch&) = delete;
  ~lock_all_epoch() { end_quietly(); }

  /// Ends the epoch (MPI_Win_unlock_all).
  void unlock() {
    check("MPI_Win_unlock_all");
    const int rc = MPI_Win_unlock_all(win_);
    win_ = MPI_WIN_NULL;
    if (rc != MPI_SUCCESS) detail::throw_mpi_error("MPI_Win_unlock_all", rc);
  }
  bool active() const noexcept { return win_ != MPI_WIN_NULL; }

private:
  friend class window;
  explicit lock_all_epoch(MPI_Win w) noexcept : win_(w) {}
  void check(const char* routine) const {
    detail::require_running(routine);
    if (win_ == MPI_WIN_NULL) throw std::logic_error(std::string(routine) + ": the epoch has ended");
  }
  void end_quietly() noexcept {
    if (win_ != MPI_WIN_NULL && detail::mpi_usable()) MPI_Win_unlock_all(win_);
    win_ = MPI_WIN_NULL;
  }
  MPI_Win win_ = MPI_WIN_NULL;
};

}  // namespace oompi

#endif  // OOMPI_WINDOW_EPOCHS_HPP
