#ifndef OOMPI_RT_WINDOW_HPP
#define OOMPI_RT_WINDOW_HPP

// One-sided communication (RMA) for the bindings, over the core's oompi::window.
//
// Memory: create() and attach() expose the caller's buffer (the binding's typemap hands over what keeps it
// valid and unmoved: a JNI global reference to a direct buffer, a pinned GCHandle, a held
// Py_buffer), which the window keeps until close(); allocate() exposes memory MPI allocates
// and frees with the window (address() and size() let each binding show it as a direct
// ByteBuffer, a Span, a memoryview).
//
// Origins are borrowed until the operation completes (MPI reads an origin and writes a get's
// buffer after the call returns): every operation takes an async buffer whose keep-alive the
// window holds until the synchronisation that completes it -- fence, the end of an access
// epoch (complete), unlock / unlock_all, flush / flush_all / flush_local* -- for its target
// rank, or for all ranks. The target is the origin's count and datatype at displacement
// `disp` (in the target's disp_unit).
//
// Epochs for try-with-resources / using / with: start, post, lock and lock_all return an
// `epoch` whose close() ends it (complete, wait, unlock, unlock_all). An epoch never closed is
// not ended by the garbage collector (no MPI call on finalizer threads): close it.
//
// close() frees the window (MPI_Win_free, collective) and marks every copy closed. A window
// never closed is not freed by the garbage collector either: it and its memory live until
// MPI_Finalize. Bad input: rank, displacement or count outside the target's window
// (std::out_of_range), a user op in an accumulate (std::invalid_argument), a closed window or
// epoch (closed_error).

#include "buffer.hpp"
#include "comm.hpp"
#include "group.hpp"
#include "info.hpp"
#include "op.hpp"
#include "request.hpp"

#include <cstdint>
#include <memory>

#ifndef SWIG
namespace oompi {
class intracommunicator;
}
#endif

namespace oompi::rt {

/// Lock kinds (MPI_LOCK_EXCLUSIVE, MPI_LOCK_SHARED).
enum class lock_type : int { exclusive = 0, shared = 1 };

/// Assertions for fence/start/post/lock (MPI_MODE_*), combined with | into the `mode`
/// arguments. Values of their own (MPI's differ between implementations), translated here.
enum class rma_mode : int { none = 0, nocheck = 1, nostore = 2, noput = 4, noprecede = 8, nosucceed = 16 };

class window;

/// An epoch of a window (start, post, lock, lock_all); close() ends it.
class epoch {
public:
  epoch() = default;
  /// Ends the epoch (MPI_Win_complete, MPI_Win_wait, MPI_Win_unlock, MPI_Win_unlock_all) and
  /// releases the origins of its operations; idempotent.
  void close();
  /// Exposure epochs (post): ends the epoch if every origin has completed (MPI_Win_test).
  bool test();
  /// Lock epochs: completes the operations to the locked rank (MPI_Win_flush, flush_local).
  void flush();
  void flush_local();
  /// True until close().
  bool is_active() const noexcept;

#ifndef SWIG
  struct state;
  explicit epoch(std::shared_ptr<state> s) noexcept : st_(std::move(s)) {}
#endif

private:
  std::shared_ptr<state> st_;
};

class window {
public:
  /// A null window.
  window() = default;

  /// A window over the caller's buffer (MPI_Win_create; collective); disp_unit is the buffer's
  /// element size. The window keeps the buffer until close().
  static window create(const comm& c, async_buffer& memory);
  /// A window over `count` elements of `kind` that MPI allocates (MPI_Win_allocate;
  /// collective), zero-filled; disp_unit is the element size.
  static window allocate(const comm& c, std::int64_t count, type_kind kind);
  /// A window over `count` elements of `kind` in memory shared by the processes of one node
  /// (MPI_Win_allocate_shared; collective; every process of `c` must share memory, e.g. a
  /// comm.split_type(shared) communicator), zero-filled. shared_address(r) / shared_size(r)
  /// give another process's part, which this process reads and writes by load and store.
  static window allocate_shared(const comm& c, std::int64_t count, type_kind kind);
  /// A window with no memory yet (MPI_Win_create_dynamic; collective): attach() exposes local
  /// memory, and a target displacement is the target's address of the data (what attach
  /// returned there; disp_unit 1). Displacements are not bounds-checked (only the rank).
  static window create_dynamic(const comm& c);
  /// The same four with hints (MPI_Info: no_locks, accumulate_ordering, ...). A window made
  /// with no_locks=true refuses lock and lock_all (MPI_ERR_RMA_SYNC): the caller promised not
  /// to use them, and some osc components would silently grant them.
  static window create(const comm& c, async_buffer& memory, const info& hints);
  static window allocate(const comm& c, std::int64_t count, type_kind kind, const info& hints);
  static window allocate_shared(const comm& c, std::int64_t count, type_kind kind,
                                const info& hints);
  static window create_dynamic(const comm& c, const info& hints);
  /// MPI_Win_set_info / MPI_Win_get_info (the hints MPI uses now: a new object).
  void set_info(const info& hints);
  info get_info() const;

  /// Shared windows: the address and size in bytes of `rank`'s part (MPI_Win_shared_query).
  std::int64_t shared_address(int rank) const;
  std::int64_t shared_size(int rank) const;
  /// Dynamic windows: attaches the buffer's memory (MPI_Win_attach, local), which the window
  /// holds (pinned, referenced) until detach() or close(), and returns its address, the
  /// displacement other processes use.
  std::int64_t attach(async_buffer& memory);
  /// Detaches the memory attached at `address` (what attach returned) and releases it;
  /// std::invalid_argument when nothing is attached there.
  void detach(std::int64_t address);

  /// The local memory: its address and size in bytes; disp_unit in bytes.
  std::int64_t address() const;
  std::int64_t size() const;
  int disp_unit() const;
  /// This process's rank in the window's group and the group's size.
  int rank() const;
  int group_size() const;
  /// The size in bytes of `rank`'s window (recorded at creation).
  std::int64_t size_of(int rank) const;
  group get_group() const;

  // --- operations: complete at the next synchronisation for their target ----------------
  void put(const async_buffer& origin, int rank, std::int64_t disp);
  void get(async_buffer& result, int rank, std::int64_t disp);
  /// Predefined ops only (MPI's rule): a user op throws std::invalid_argument.
  void accumulate(const async_buffer& origin, int rank, std::int64_t disp, const op& operation);
  void get_accumulate(const async_buffer& origin, async_buffer& result, int rank,
                      std::int64_t disp, const op& operation);
  /// One element each.
  void fetch_and_op(const async_buffer& value, async_buffer& result, int rank, std::int64_t disp,
                    const op& operation);
  void compare_and_swap(const async_buffer& value, const async_buffer& compare,
                        async_buffer& result, int rank, std::int64_t disp);

  // Request forms (passive-target epochs only: lock / lock_all). The request completes the
  // operation locally (an origin is reusable, a result holds the data); flush or unlock
  // completes it at the target. The request holds the origin and result until it completes.
  request rput(const async_buffer& origin, int rank, std::int64_t disp);
  request rget(async_buffer& result, int rank, std::int64_t disp);
  request raccumulate(const async_buffer& origin, int rank, std::int64_t disp,
                      const op& operation);
  request rget_accumulate(const async_buffer& origin, async_buffer& result, int rank,
                          std::int64_t disp, const op& operation);

  // Parts [offset, offset + count) of the origin (Java's offset/count overloads).
  void put_part(const async_buffer& origin, std::int64_t offset, std::int64_t count, int rank,
                std::int64_t disp);
  void get_part(async_buffer& result, std::int64_t offset, std::int64_t count, int rank,
                std::int64_t disp);
  void accumulate_part(const async_buffer& origin, std::int64_t offset, std::int64_t count,
                       int rank, std::int64_t disp, const op& operation);

  // --- synchronisation ----------------------------------------------------------------
  /// MPI_Win_fence (collective): completes every operation of the previous epoch.
  void fence(int mode = 0);
  /// Access epoch to the members of g (MPI_Win_start); close() completes it.
  epoch start(const group& g, int mode = 0);
  /// Exposure epoch for the members of g (MPI_Win_post); close() waits for them.
  epoch post(const group& g, int mode = 0);
  /// Passive-target epoch on `rank` (MPI_Win_lock); close() unlocks.
  epoch lock(int rank, lock_type type = lock_type::exclusive, int mode = 0);
  /// Shared lock on every process (MPI_Win_lock_all); close() unlocks all.
  epoch lock_all(int mode = 0);
  void flush(int rank);
  void flush_all();
  void flush_local(int rank);
  void flush_local_all();
  /// MPI_Win_sync.
  void sync();

  /// Frees the window (MPI_Win_free, collective) for every copy and releases its memory.
  /// Idempotent.
  void close();
  /// True when this handle is null or closed.
  bool is_null() const noexcept;

#ifndef SWIG
  struct state;
#endif

private:
#ifndef SWIG
  static const oompi::intracommunicator& comm_of(const comm& c, const char* what);
#endif
  explicit window(std::shared_ptr<state> s) noexcept : st_(std::move(s)) {}
  std::shared_ptr<state> st_;
};

}  // namespace oompi::rt

#endif  // OOMPI_RT_WINDOW_HPP
