#ifndef OOMPI_DETAIL_COMM_OPS_HPP
#define OOMPI_DETAIL_COMM_OPS_HPP

// Communicator management shared by intra- and intercommunicators (a CRTP mixin): dup, idup,
// split, create, group, compare, info hints, attributes, explicit free. Each returns the
// communicator kind it was called on (MPI keeps the kind: splitting an intercommunicator
// gives intercommunicators).

#include "../error.hpp"
#include "../group.hpp"
#include "../info.hpp"
#include "../status.hpp"

#include <mpi.h>

#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

namespace oompi {

class communicator;
template <class T>
class keyval;

namespace detail {

// An exception thrown by a user callback that MPI calls (attribute copy/delete) cannot unwind
// through MPI's C frames: the callback stores it here and returns an error code, and the oompi
// call that made MPI run the callback rethrows it.
inline std::exception_ptr& callback_exception() noexcept {
  thread_local std::exception_ptr pending;
  return pending;
}

/// Brackets an MPI call that may run user callbacks: clears stale callback exceptions first,
/// then turns a failure (or a callback exception) into the right C++ exception.
struct callback_scope {
  callback_scope() noexcept { callback_exception() = nullptr; }
  void check(const char* routine, int rc) const {
    if (auto e = std::exchange(callback_exception(), nullptr)) std::rethrow_exception(e);
    if (rc != MPI_SUCCESS) throw_mpi_error(routine, rc);
  }
};

}  // namespace detail

/// The pending result of a nonblocking duplication (idup): get() waits and returns the new
/// communicator. Dropping it unretrieved waits for the operation and frees the communicator,
/// so like every collective it must be done in the same order on all processes.
template <class C>
class communicator_future {
public:
  communicator_future(std::unique_ptr<MPI_Comm> comm, MPI_Request req) noexcept
      : comm_(std::move(comm)), req_(req) {}
  communicator_future(communicator_future&& o) noexcept
      : comm_(std::move(o.comm_)), req_(std::exchange(o.req_, MPI_REQUEST_NULL)) {}
  communicator_future& operator=(communicator_future&& o) noexcept {
    if (this != &o) {
      reset();
      comm_ = std::move(o.comm_);
      req_ = std::exchange(o.req_, MPI_REQUEST_NULL);
    }
    return *this;
  }
  communicator_future(const communicator_future&) = delete;
  communicator_future& operator=(const communicator_future&) = delete;
  ~communicator_future() { reset(); }

  /// Blocks until the duplication is complete.
  void wait() {
    if (req_ == MPI_REQUEST_NULL) return;
    detail::require_running("MPI_Wait");
    OOMPI_CHECK(MPI_Wait, (&req_, MPI_STATUS_IGNORE));
  }
  /// True once the duplication is complete.
  bool test() {
    if (req_ == MPI_REQUEST_NULL) return true;
    detail::require_running("MPI_Test");
    int flag = 0;
    OOMPI_CHECK(MPI_Test, (&req_, &flag, MPI_STATUS_IGNORE));
    return flag != 0;
  }
  /// Waits, then hands over the new communicator (owned). Only once.
  C get() {
    if (!comm_) throw std::logic_error("oompi::communicator_future::get: already retrieved");
    wait();
    const MPI_Comm c = std::exchange(*comm_, MPI_COMM_NULL);  // C owns it from here on
    comm_.reset();
    return C(c, true);
  }
  bool valid() const noexcept { return comm_ != nullptr; }
  MPI_Request native() const noexcept { return req_; }

private:
  void reset() noexcept {
    if (!detail::mpi_usable()) return;
    if (req_ != MPI_REQUEST_NULL) MPI_Wait(&req_, MPI_STATUS_IGNORE);
    if (comm_ && *comm_ != MPI_COMM_NULL) MPI_Comm_free(comm_.get());
    comm_.reset();
  }

  std::unique_ptr<MPI_Comm> comm_;  // MPI writes the new handle here: a stable address
  MPI_Request req_ = MPI_REQUEST_NULL;
};

namespace detail {

/// CRTP base: Derived is a communicator kind constructible from (MPI_Comm, bool owned) and
/// befriends this class (for communicator::require).
template <class Derived>
class comm_ops {
public:
  /// A new communicator with the same group and topology and a new context (MPI_Comm_dup).
  /// Attributes are copied as their keyvals say; a copy callback's exception is rethrown here.
  Derived dup() const { return dup_as<Derived>(); }
  /// dup() with new hints (MPI_Comm_dup_with_info); attributes are copied as by dup().
  Derived dup(const info& hints) const { return dup_as<Derived>(hints); }
  /// Nonblocking dup (MPI_Comm_idup): the returned future yields the communicator.
  communicator_future<Derived> idup() const { return idup_as<Derived>(); }

  /// Splits by colour: processes passing the same colour form one new communicator, ordered by
  /// key (then by rank here). Colour oompi::undefined gives a null communicator.
  Derived split(int color, int key = 0) const {
    derived().require("MPI_Comm_split");
    if (color < 0 && color != MPI_UNDEFINED)
      throw std::invalid_argument("MPI_Comm_split: colour " + std::to_string(color) +
                                  " is negative (use a colour >= 0, or oompi::undefined to "
                                  "leave this process out)");
    MPI_Comm c = MPI_COMM_NULL;
    OOMPI_CHECK(MPI_Comm_split, (derived().native(), color, key, &c));
    return Derived(c, true);
  }
  /// The communicator of the processes in `g` (a subset of this communicator's group; for an
  /// intercommunicator, of the local group). Collective over this communicator; processes
  /// not in `g` get a null communicator.
  Derived create(const oompi::group& g) const {
    derived().require("MPI_Comm_create");
    if (g.is_null()) throw std::logic_error("MPI_Comm_create: null group");
    MPI_Comm c = MPI_COMM_NULL;
    OOMPI_CHECK(MPI_Comm_create, (derived().native(), g.native(), &c));
    return Derived(c, true);
  }

  /// The group of this communicator (the local group of an intercommunicator).
  oompi::group group() const {
    derived().require("MPI_Comm_group");
    MPI_Group g = MPI_GROUP_NULL;
    OOMPI_CHECK(MPI_Comm_group, (derived().native(), &g));
    return oompi::group(g);
  }
  /// ident (same handle), congruent (same group and order), similar (same members) or unequal.
  template <class Other>
  comparison compare(const Other& other) const {
    derived().require("MPI_Comm_compare");
    if (other.is_null()) throw std::logic_error("MPI_Comm_compare: null communicator");
    int result = MPI_UNEQUAL;
    OOMPI_CHECK(MPI_Comm_compare, (derived().native(), other.native(), &result));
    return static_cast<comparison>(result);
  }
  /// True for an intercommunicator (MPI_Comm_test_inter).
  bool is_inter() const {
    derived().require("MPI_Comm_test_inter");
    int flag = 0;
    OOMPI_CHECK(MPI_Comm_test_inter, (derived().native(), &flag));
    return flag != 0;
  }

  /// The hints in use (MPI_Comm_get_info): a new info object.
  oompi::info get_info() const {
    derived().require("MPI_Comm_get_info");
    MPI_Info i = MPI_INFO_NULL;
    OOMPI_CHECK(MPI_Comm_get_info, (derived().native(), &i));
    return oompi::info(i, true);
  }
  /// Sets hints (MPI_Comm_set_info; collective).
  void set_info(const oompi::info& hints) const {
    derived().require("MPI_Comm_set_info");
    if (hints.is_null())
      throw std::invalid_argument("MPI_Comm_set_info: null info (pass an info object)");
    OOMPI_CHECK(MPI_Comm_set_info, (derived().native(), hints.native()));
  }

  /// Attaches a value under a keyval (replacing, and deleting, any earlier one).
  template <class T, class V>
  void set_attr(const keyval<T>& k, V&& value) const {
    k.set(derived(), std::forward<V>(value));
  }
  /// The value attached under a keyval; nullptr when there is none.
  template <class T>
  T* get_attr(const keyval<T>& k) const {
    return k.get(derived());
  }
  /// Removes (and deletes) the value attached under a keyval; false when there was none.
  template <class T>
  bool delete_attr(const keyval<T>& k) const {
    return k.erase(derived());
  }

  /// Frees an owned communicator now (collective, like its destructor) and leaves this object
  /// null; a borrowed one (world, self) is only forgotten. An exception thrown by an
  /// attribute's delete callback is rethrown here.
  void free() {
    callback_scope cs;
    static_cast<Derived&>(*this) = Derived();
    cs.check("MPI_Comm_free", MPI_SUCCESS);
  }

protected:
  // The duplicate as communicator kind C (a topology keeps its kind).
  template <class C>
  C dup_as() const {
    derived().require("MPI_Comm_dup");
    MPI_Comm c = MPI_COMM_NULL;
    callback_scope cs;
    cs.check("MPI_Comm_dup", MPI_Comm_dup(derived().native(), &c));
    return C(c, true);
  }
  template <class C>
  C dup_as(const info& hints) const {
    derived().require("MPI_Comm_dup_with_info");
    MPI_Comm c = MPI_COMM_NULL;
    callback_scope cs;
    cs.check("MPI_Comm_dup_with_info",
             MPI_Comm_dup_with_info(derived().native(), hints.native(), &c));
    return C(c, true);
  }
  template <class C>
  communicator_future<C> idup_as() const {
    derived().require("MPI_Comm_idup");
    auto c = std::make_unique<MPI_Comm>(MPI_COMM_NULL);
    MPI_Request r = MPI_REQUEST_NULL;
    callback_scope cs;
    cs.check("MPI_Comm_idup", MPI_Comm_idup(derived().native(), c.get(), &r));
    return communicator_future<C>(std::move(c), r);
  }

private:
  const Derived& derived() const noexcept { return static_cast<const Derived&>(*this); }
};

}  // namespace detail
}  // namespace oompi

#endif  // OOMPI_DETAIL_COMM_OPS_HPP
