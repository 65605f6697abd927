#ifndef OOMPI_INTERCOMMUNICATOR_HPP
#define OOMPI_INTERCOMMUNICATOR_HPP

// Intercommunicators: two disjoint groups, a local and a remote one. Point-to-point ranks
// (dest, source) name processes of the remote group; size() and rank() are about the local
// group. Collectives over an intercommunicator move data between the groups: in rooted ones
// the root passes intercommunicator::root, the other processes of its group
// intercommunicator::no_root, and the remote group names the root's rank in the root's group.

#include "collectives.hpp"
#include "communicator.hpp"
#include "detail/comm_ops.hpp"
#include "group.hpp"
#include "intracommunicator.hpp"

#include <mpi.h>

#include <stdexcept>
#include <string>

namespace oompi {

class intercommunicator : public communicator,
                          public detail::collectives<intercommunicator>,
                          public detail::comm_ops<intercommunicator> {
public:
  /// Root argument of a rooted collective at the root itself (MPI_ROOT).
  static constexpr int root = MPI_ROOT;
  /// Root argument at the other processes of the root's group (MPI_PROC_NULL).
  static constexpr int no_root = MPI_PROC_NULL;

  /// A null communicator.
  intercommunicator() noexcept = default;
  /// Wraps a handle (an intracommunicator handle throws std::invalid_argument). With `owned`
  /// this object frees it. MPI_ERRORS_RETURN is installed on it.
  explicit intercommunicator(MPI_Comm comm, bool owned = false) : communicator(comm, owned) {
    if (comm != MPI_COMM_NULL) {
      int inter = 0;
      OOMPI_CHECK(MPI_Comm_test_inter, (comm, &inter));
      if (!inter)
        throw std::invalid_argument(
            "oompi::intercommunicator: the handle is an intracommunicator (wrap it in "
            "oompi::intracommunicator)");
      OOMPI_CHECK(MPI_Comm_remote_size, (comm, &remote_size_));
    }
  }

  using communicator::self;  // not the collectives mixin's private helper
  using communicator::world;

  /// The communicator of a subgroup of the local group (MPI_Comm_create; see comm_ops).
  using detail::comm_ops<intercommunicator>::create;
  /// See intracommunicator::create_intercomm (this is the same call).
  static intercommunicator create(const intracommunicator& local, int local_leader,
                                  const communicator& peer, int remote_leader, int tag = 0) {
    return local.create_intercomm(local_leader, peer, remote_leader, tag);
  }

  /// The intercommunicator to the processes that spawned this one (MPI_Comm_get_parent); null
  /// when this process was not spawned or has disconnected from its parent. Not owned.
  static intercommunicator parent();

  /// Number of processes in the remote group.
  int remote_size() const {
    require("MPI_Comm_remote_size");
    return remote_size_;
  }
  /// The remote group.
  oompi::group remote_group() const {
    require("MPI_Comm_remote_group");
    MPI_Group g = MPI_GROUP_NULL;
    OOMPI_CHECK(MPI_Comm_remote_group, (native(), &g));
    return oompi::group(g);
  }
  /// One intracommunicator of both groups (MPI_Intercomm_merge). The group passing high = false
  /// comes first; when both pass the same value the order is unspecified. Collective.
  intracommunicator merge(bool high) const {
    require("MPI_Intercomm_merge");
    MPI_Comm c = MPI_COMM_NULL;
    OOMPI_CHECK(MPI_Intercomm_merge, (native(), high ? 1 : 0, &c));
    return intracommunicator(c, true);
  }

private:
  friend class detail::collectives<intercommunicator>;
  friend class detail::comm_ops<intercommunicator>;

  int remote_size_ = 0;
};

inline intercommunicator intracommunicator::create_intercomm(int local_leader,
                                                             const communicator& peer,
                                                             int remote_leader, int tag) const {
  require("MPI_Intercomm_create");
  if (local_leader < 0 || local_leader >= size())
    throw std::out_of_range("MPI_Intercomm_create: local leader " + std::to_string(local_leader) +
                            " is not a rank of the local communicator (size " +
                            std::to_string(size()) + ")");
  if (tag < 0)
    throw std::invalid_argument("MPI_Intercomm_create: tag " + std::to_string(tag) +
                                " is negative");
  // peer and remote_leader only matter at the local leader, which checks them and tells its
  // group the verdict (one small broadcast) so that bad input throws on every local process
  // instead of leaving the others blocked.
  enum : int { ok = 0, null_peer = 1, bad_rank = 2, not_disjoint = 3 };
  int verdict = ok;
  MPI_Comm peer_handle = MPI_COMM_NULL;
  if (rank() == local_leader) {
    if (peer.is_null())
      verdict = null_peer;
    else if (remote_leader < 0 || remote_leader >= peer.size())
      verdict = bad_rank;
    else if (remote_leader == peer.rank())
      verdict = not_disjoint;
    else
      peer_handle = peer.native();
  }
  OOMPI_CHECK(MPI_Bcast, (&verdict, 1, MPI_INT, local_leader, native()));
  const std::string at = rank() == local_leader ? "" : " (at the local leader)";
  switch (verdict) {
    case null_peer:
      throw std::logic_error("MPI_Intercomm_create: null peer communicator" + at);
    case bad_rank:
      throw std::out_of_range("MPI_Intercomm_create: remote leader " +
                              (rank() == local_leader ? std::to_string(remote_leader) + " " : "") +
                              "is not a rank of the peer communicator" +
                              (rank() == local_leader ? " (size " + std::to_string(peer.size()) + ")"
                                                      : at));
    case not_disjoint:
      throw std::invalid_argument(
          "MPI_Intercomm_create: the remote leader is the local leader itself (the groups must "
          "be disjoint)" + at);
    default:
      break;
  }
  MPI_Comm c = MPI_COMM_NULL;
  OOMPI_CHECK(MPI_Intercomm_create, (native(), local_leader, peer_handle, remote_leader, tag, &c));
  return intercommunicator(c, true);
}

}  // namespace oompi

#include "dynamic.hpp"

#endif  // OOMPI_INTERCOMMUNICATOR_HPP
