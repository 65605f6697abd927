#ifndef OOMPI_RT_INTERCOMM_HPP
#define OOMPI_RT_INTERCOMM_HPP

// Intercommunicators for the bindings, made by comm::create_intercomm: point-to-point between
// two disjoint groups (ranks name processes of the remote group), remote_size, remote_group,
// merge, and the collectives MPI defines on them, with MPI's rules: in the root's group the
// root passes `root` (MPI_ROOT) and the others `proc_null`; the other group passes the root's
// rank in the root's group; allreduce/allgather/alltoall exchange between the two groups.
// In-place forms, scan, exscan and reduce_scatter throw std::logic_error.

#include "comm.hpp"

namespace oompi::rt {

class intercomm : public comm {
public:
  /// A null communicator.
  intercomm() = default;
  /// The intercommunicator to the job that spawned this process (MPI_Comm_get_parent); null
  /// (is_null() true) when it was not spawned. disconnect() it when done.
  static intercomm parent();
  /// Number of processes in the remote group.
  int remote_size() const;
  /// The remote group.
  group remote_group() const;
  /// The intracommunicator of both groups (MPI_Intercomm_merge; collective): the group that
  /// passes high = true is ordered after the other.
  comm merge(bool high) const;
  /// MPI_Comm_dup (collective): another intercommunicator between the same groups (comm::dup
  /// would return it as a plain comm, without remote_size, remote_group and merge).
  intercomm dup() const;

#ifndef SWIG
private:
  friend class comm;
  explicit intercomm(std::shared_ptr<state> s) noexcept : comm(std::move(s)) {}
#endif
};

}  // namespace oompi::rt

#endif  // OOMPI_RT_INTERCOMM_HPP
