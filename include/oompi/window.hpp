#ifndef OOMPI_WINDOW_HPP
#define OOMPI_WINDOW_HPP

// One-sided communication (RMA): windows of memory that other processes read and write.
//
//   std::vector<double> local(n);
//   auto win = oompi::window::create(world, local);   // disp_unit = sizeof(double)
//   win.fence();
//   win.put(values, right, 0);                         // into `right`'s local[0..]
//   win.fence();
//
// `window` is untyped, like a communicator; the operations are typed by their buffers (the
// same buffers as send/recv: scalars, containers, oompi::buffer views, derived datatypes).
// A target displacement counts the target's disp_unit (sizeof(T) for a window over T's; 1 for
// byte windows); the target is by default the origin's count and datatype, or an explicit
// target_spec{disp, count, datatype}. Every operation has an untyped form (raw_buffer, byte
// counts and MPI_Datatype) that a run-time facade can call.
//
// Epochs: fence() is a call; start/post/lock/lock_all return [[nodiscard]] epoch objects whose
// destructor ends the epoch (complete, wait, unlock, unlock_all). As with a request destroyed
// early, a destructor cannot report a failure: it ends the epoch and ignores MPI's answer; call
// complete()/wait()/unlock() explicitly to see errors. Destroy epochs before their window.
//
// Checks before MPI sees a call: a target rank outside the window's group -> std::out_of_range;
// a displacement and count that leave the target's window -> std::out_of_range (each process's
// size and disp_unit are exchanged once, at creation, so the check is local; dynamic windows
// cannot be checked: their memory is attached later, locally); accumulate with a user op ->
// std::invalid_argument (MPI allows predefined ops only); a freed or moved-from window ->
// std::logic_error. MPI_ERRORS_RETURN is set on every window: MPI errors throw oompi::error.
//
// Buffers are borrowed until the operation completes (the epoch ends, or a flush): MPI reads an
// origin and writes a get's buffer after the call has returned, so a temporary origin does not
// compile (the request forms rput/raccumulate/rget_accumulate keep a moved-in one). Counts
// above INT_MAX: put/get/accumulate move one element of a derived type, as send does; the
// request forms, get_accumulate and explicit targets refuse them (std::length_error).
//
// The parts: window/common.hpp (kinds, target_spec, bounds arithmetic), window/epochs.hpp (the
// epoch objects), window/creation.hpp (the window class, its creation, operations and
// attributes), window/synchronisation.hpp, window/shared_dynamic.hpp.
#include "window/common.hpp"
#include "window/epochs.hpp"
#include "window/creation.hpp"
#include "window/synchronisation.hpp"
#include "window/shared_dynamic.hpp"

#endif  // OOMPI_WINDOW_HPP
