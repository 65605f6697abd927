#ifndef OOMPI_RT_DETAIL_RECLAIM_HPP
#define OOMPI_RT_DETAIL_RECLAIM_HPP

// Deferred reclamation. Managed runtimes destroy facade objects on finalizer threads, at
// times that differ between ranks, possibly after MPI_Finalize. Those destructors make no MPI
// call: they park what needs MPI here, and the MPI thread finishes the job at the next
// facade call that creates a handle or a request (drain), or before MPI_Finalize.

#include <oompi/request.hpp>

#include <mpi.h>

#include <atomic>

namespace oompi::rt::detail {

/// Frees a derived datatype later, on the MPI thread (never after MPI_Finalize).
void defer_type_free(MPI_Datatype type) noexcept;
/// Frees a group later, on the MPI thread (never after MPI_Finalize).
void defer_group_free(MPI_Group group) noexcept;
/// Frees an info object later, on the MPI thread (never after MPI_Finalize).
void defer_info_free(MPI_Info info) noexcept;
/// Frees a communicator keyval later, on the MPI thread (never after MPI_Finalize).
void defer_keyval_free(int keyval) noexcept;
/// Takes a pending request whose owner is gone; completes it later, keeping its memory alive.
void orphan(oompi::request&& r) noexcept;
/// Something waits on the list (set under its lock, cleared by drain_slow).
extern std::atomic<bool> g_reclaim_nonempty;
void drain_slow() noexcept;
/// Completes finished orphans and frees deferred types. One atomic load when idle, inline: it
/// runs on every request's start (a call there was ~1.5 ns of an 8-byte isend).
inline void drain() noexcept {
  if (g_reclaim_nonempty.load(std::memory_order_acquire)) drain_slow();
}
/// Before MPI_Finalize: cancels and completes every orphan, frees every deferred handle.
void drain_before_finalize() noexcept;
/// Registers a handle freed before MPI_Finalize (e.g. the test verdict communicator).
void at_finalize(MPI_Comm* comm) noexcept;

}  // namespace oompi::rt::detail

#endif  // OOMPI_RT_DETAIL_RECLAIM_HPP
