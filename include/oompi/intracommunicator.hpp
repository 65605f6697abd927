#ifndef OOMPI_INTRACOMMUNICATOR_HPP
#define OOMPI_INTRACOMMUNICATOR_HPP

// Intracommunicators: one group of processes. world() and self() are intracommunicators.
//
// Management (dup, idup, split, create, group, compare, info, attributes, free) comes from
// detail::comm_ops; collectives from detail::collectives. A communicator made here owns its
// handle and its destructor frees it: MPI_Comm_free is collective, so destroy communicators in
// the same order on every process (scopes do that naturally). Nothing is freed after
// MPI_Finalize. A split or create that leaves a process out gives it a null communicator
// (is_null()); calls on it throw std::logic_error.

#include "collectives.hpp"
#include "communicator.hpp"
#include "detail/comm_ops.hpp"
#include "group.hpp"
#include "info.hpp"

#include <mpi.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace oompi {

class intercommunicator;
struct spawn_command;

/// Kinds of MPI_Comm_split_type.
enum class comm_type : int {
  shared = MPI_COMM_TYPE_SHARED,  ///< processes that can share memory (one node)
  undefined = MPI_UNDEFINED,      ///< this process joins no new communicator
};

class intracommunicator : public communicator,
                          public detail::collectives<intracommunicator>,
                          public detail::comm_ops<intracommunicator> {
public:
  /// A null communicator.
  intracommunicator() noexcept = default;
  /// Wraps a handle (an intercommunicator handle throws std::invalid_argument). With `owned`
  /// this object frees it. MPI_ERRORS_RETURN is installed on it.
  explicit intracommunicator(MPI_Comm comm, bool owned = false) : communicator(comm, owned) {
    if (comm != MPI_COMM_NULL) {
      int inter = 0;
      OOMPI_CHECK(MPI_Comm_test_inter, (comm, &inter));
      if (inter)
        throw std::invalid_argument(
            "oompi::intracommunicator: the handle is an intercommunicator (wrap it in "
            "oompi::intercommunicator)");
    }
  }

  // world()/self() of the base; also keeps `intracommunicator::self()` from being ambiguous
  // with a mixin's private self() helper.
  using communicator::self;
  using communicator::world;

  /// Splits into communicators of processes that share a resource (MPI_Comm_split_type):
  /// comm_type::shared gives one communicator per shared-memory node. Ordered by key, then
  /// by rank here; comm_type::undefined gives a null communicator.
  intracommunicator split_type(comm_type type, int key = 0,
                               const info& hints = info::null()) const {
    require("MPI_Comm_split_type");
    MPI_Comm c = MPI_COMM_NULL;
    OOMPI_CHECK(MPI_Comm_split_type,
                (native(), static_cast<int>(type), key, hints.native(), &c));
    return intracommunicator(c, true);
  }

  /// The communicator of the processes in `g` (a subset of this group), made collectively by
  /// the members of `g` only (MPI_Comm_create_group): other processes need not take part. A
  /// process outside `g` gets a null communicator without calling MPI.
  intracommunicator create_group(const oompi::group& g, int tag = 0) const {
    require("MPI_Comm_create_group");
    if (g.is_null()) throw std::logic_error("MPI_Comm_create_group: null group");
    if (tag < 0)
      throw std::invalid_argument("MPI_Comm_create_group: tag " + std::to_string(tag) +
                                  " is negative");
    if (!g.contains_me()) return intracommunicator();
    MPI_Comm c = MPI_COMM_NULL;
    OOMPI_CHECK(MPI_Comm_create_group, (native(), g.native(), tag, &c));
    return intracommunicator(c, true);
  }

  /// An intercommunicator between this group and another disjoint group (MPI_Intercomm_create).
  /// `local_leader` is a rank here; `peer` a communicator in which the leader of this group
  /// can reach the other leader, `remote_leader` (significant at the local leader only); `tag`
  /// must not clash with other traffic on `peer`. Collective over both groups.
  intercommunicator create_intercomm(int local_leader, const communicator& peer,
                                     int remote_leader, int tag = 0) const;

  // Dynamic processes (dynamic.hpp). Collective; the arguments are read at `root` only.

  /// Starts `maxprocs` copies of `program` with `args` (MPI_Comm_spawn) and returns the
  /// intercommunicator to them (their world is its remote group). With `errcodes`, one code per
  /// process is stored there instead of throwing on the first failed start.
  intercommunicator spawn(const std::string& program, const std::vector<std::string>& args = {},
                          int maxprocs = 1, const info& hints = info::null(), int root = 0,
                          std::vector<int>* errcodes = nullptr) const;
  /// Starts several programs in one world (MPI_Comm_spawn_multiple), in the order given.
  intercommunicator spawn_multiple(const std::vector<spawn_command>& commands, int root = 0,
                                   std::vector<int>* errcodes = nullptr) const;
  /// Waits for a job to connect to `port` (MPI_Comm_accept).
  intercommunicator accept(const std::string& port, int root = 0,
                           const info& hints = info::null()) const;
  /// Connects to a job accepting on `port` (MPI_Comm_connect).
  intercommunicator connect(const std::string& port, int root = 0,
                            const info& hints = info::null()) const;

private:
  friend class communicator;
  friend class detail::collectives<intracommunicator>;
  friend class detail::comm_ops<intracommunicator>;
  intracommunicator(MPI_Comm comm, borrowed_tag t) : communicator(comm, t) {}
};

inline intracommunicator communicator::world() {
  detail::require_running("oompi::communicator::world");
  return intracommunicator(MPI_COMM_WORLD, borrowed_tag{});
}
inline intracommunicator communicator::self() {
  detail::require_running("oompi::communicator::self");
  return intracommunicator(MPI_COMM_SELF, borrowed_tag{});
}

}  // namespace oompi

#include "intercommunicator.hpp"

#endif  // OOMPI_INTRACOMMUNICATOR_HPP
