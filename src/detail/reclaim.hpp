#ifndef OOMPI_RT_DETAIL_RECLAIM_HPP
#define OOMPI_RT_DETAIL_RECLAIM_HPP

// Deferred reclamation. Managed runtimes destroy facade objects on finalizer threads, at
// times that differ between ranks, possibly after MPI_Finalize. Those destructors make no MPI
// call: they park what needs MPI here, and the MPI thread finishes the job at the next
// facade call that creates a handle or a request (drain), or before MPI_Finalize.

#include <oompi/request.hpp>

#include <mpi.h>

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
/// Completes finished orphans and frees deferred types. Cheap (one atomic load) when idle.
void drain() noexcept;
/// Before MPI_Finalize: cancels and completes every orphan, frees every deferred handle.
void drain_before_finalize() noexcept;
/// Registers a handle freed before MPI_Finalize (e.g. the test verdict communicator).
void at_finalize(MPI_Comm* comm) noexcept;

}  // namespace oompi::rt::detail

#endif  // OOMPI_RT_DETAIL_RECLAIM_HPP
