#ifndef OOMPI_WINDOW_CREATION_HPP
#define OOMPI_WINDOW_CREATION_HPP

// One-sided communication: the window class, its creation (create, allocate, allocate_shared,
// create_dynamic), its one-sided operations and attributes. Its synchronisation calls are
// defined in synchronisation.hpp, those of shared and dynamic windows in shared_dynamic.hpp.
// Part of <oompi/window.hpp> (include that one).

#include "epochs.hpp"

namespace oompi {

/// An RMA window (MPI_Win). Move-only; the destructor frees it (MPI_Win_free, collective:
/// destroy windows in the same order on every process). Memory from allocate/allocate_shared
/// belongs to the window and goes with it; memory given to create/attach stays the caller's
/// and must outlive the window (or the attachment).
class window {
public:
  /// A null window.
  window() noexcept = default;
  window(window&& o) noexcept
      : win_(std::exchange(o.win_, MPI_WIN_NULL)), rank_(o.rank_),
        dynamic_(o.dynamic_), misaligned_(o.misaligned_), extents_(std::move(o.extents_)) {}
  window& operator=(window&& o) noexcept {
    if (this != &o) {
      reset();
      win_ = std::exchange(o.win_, MPI_WIN_NULL);
      rank_ = o.rank_;
      dynamic_ = o.dynamic_;
      misaligned_ = o.misaligned_;
      extents_ = std::move(o.extents_);
    }
    return *this;
  }
  window(const window&) = delete;
  window& operator=(const window&) = delete;
  ~window() { reset(); }

  // --- creation (collective over comm) ---------------------------------------------------

  /// A window over the caller's contiguous buffer (a container, a view, raw_buffer): its
  /// elements are the window, disp_unit is the element's extent. The buffer must outlive the
  /// window and keep its storage (no resizing a vector while the window exists).
  template <class B, class = detail::enable_if_receivable<B>>
  static window create(const intracommunicator& comm, B&& buf, const info& hints = info::null()) {
    const detail::buffer_desc d = detail::describe_out(buf);
    MPI_Aint lb = 0, extent = 0;
    detail::require_running("MPI_Win_create");
    OOMPI_CHECK(MPI_Type_get_extent, (d.type, &lb, &extent));
    const int unit = extent > 0 && extent <= INT_MAX ? static_cast<int>(extent) : 1;
    return create(comm, d.data, static_cast<MPI_Aint>(d.count) * extent, unit, hints);
  }
  /// A window over `bytes` bytes at `base` with the given displacement unit (MPI_Win_create).
  static window create(const intracommunicator& comm, void* base, MPI_Aint bytes, int disp_unit,
                       const info& hints = info::null()) {
    check_creation("MPI_Win_create", comm, bytes, disp_unit);
    MPI_Win w = MPI_WIN_NULL;
    OOMPI_CHECK(MPI_Win_create, (base, bytes, disp_unit, hints.native(), comm.native(), &w));
    window made(w, comm, bytes, disp_unit, false, base);
    if (!made.misaligned_ || disp_unit == 1) return made;
    // MPI moved some process's base by a part of an element (see the constructor): again with
    // byte displacements everywhere (collective: every process saw the same gathered shifts).
    made.free();
    OOMPI_CHECK(MPI_Win_create, (base, bytes, 1, hints.native(), comm.native(), &w));
    return window(w, comm, bytes, disp_unit, false, base, 1);
  }
  /// A window over `count` new elements of T that MPI allocates (MPI_Win_allocate); data<T>()
  /// is the local part. Not initialised (MPI memory): write it before it is read.
  template <class T>
  static window allocate(const intracommunicator& comm, std::size_t count,
                         const info& hints = info::null()) {
    static_assert(has_datatype_v<T>, "oompi::window::allocate<T>: T has no MPI datatype");
    return allocate_bytes(comm, bytes_of<T>("MPI_Win_allocate", count), sizeof(T), hints);
  }
  static window allocate_bytes(const intracommunicator& comm, MPI_Aint bytes, int disp_unit,
                               const info& hints = info::null()) {
    check_creation("MPI_Win_allocate", comm, bytes, disp_unit);
    MPI_Win w = MPI_WIN_NULL;
    void* base = nullptr;
    OOMPI_CHECK(MPI_Win_allocate, (bytes, disp_unit, hints.native(), comm.native(), &base, &w));
    return window(w, comm, bytes, disp_unit, false, base);
  }
  /// A window in memory shared by processes of one node (MPI_Win_allocate_shared); the
  /// communicator's processes must share memory (split_type(comm_type::shared)). Other
  /// processes' parts are reached by load/store through shared_query.
  template <class T>
  static window allocate_shared(const intracommunicator& comm, std::size_t count,
                                const info& hints = info::null()) {
    static_assert(has_datatype_v<T>, "oompi::window::allocate_shared<T>: T has no MPI datatype");
    return allocate_shared_bytes(comm, bytes_of<T>("MPI_Win_allocate_shared", count), sizeof(T),
                                 hints);
  }
  static window allocate_shared_bytes(const intracommunicator& comm, MPI_Aint bytes,
                                      int disp_unit, const info& hints = info::null()) {
    check_creation("MPI_Win_allocate_shared", comm, bytes, disp_unit);
    MPI_Win w = MPI_WIN_NULL;
    void* base = nullptr;
    OOMPI_CHECK(MPI_Win_allocate_shared,
                (bytes, disp_unit, hints.native(), comm.native(), &base, &w));
    return window(w, comm, bytes, disp_unit, false, base);
  }
  /// A window with no memory yet (MPI_Win_create_dynamic): attach() adds local memory, and a
  /// target displacement is the target's address of the data (what attach returns there).
  /// Displacements are not bounds-checked: the attached memory is known to its process only.
  static window create_dynamic(const intracommunicator& comm, const info& hints = info::null()) {
    check_creation("MPI_Win_create_dynamic", comm, 0, 1);
    MPI_Win w = MPI_WIN_NULL;
    OOMPI_CHECK(MPI_Win_create_dynamic, (hints.native(), comm.native(), &w));
    return window(w, comm, 0, 1, true);
  }

  // --- dynamic windows ------------------------------------------------------------------

  /// Attaches the buffer's memory to a dynamic window (MPI_Win_attach, local) and returns its
  /// address, the displacement other processes use to reach it.
  template <class B, class = detail::enable_if_receivable<B>>
  MPI_Aint attach(B&& buf) const;
  MPI_Aint attach(void* base, MPI_Aint bytes) const;
  template <class B, class = detail::enable_if_receivable<B>>
  void detach(B&& buf) const;
  void detach(const void* base) const;
  /// The address of local memory as a displacement for dynamic windows (MPI_Get_address).
  static MPI_Aint address_of(const void* p);

  // --- put, get, accumulate ---------------------------------------------------------------

  /// Writes `origin` into `rank`'s window at displacement `disp` (same count and datatype).
  template <class B>
  void put(B&& origin, int rank, MPI_Aint disp = 0) const {
    detail::borrowed_origin<B>();
    const detail::buffer_desc d = detail::describe(origin);
    const MPI_Aint td = check_target<detail::element_t<B>>("MPI_Put", rank, disp, d.count, d.type);
    detail::with_int_count(d, [&](void* p, int n, MPI_Datatype t) {
      OOMPI_CHECK(MPI_Put, (p, n, t, rank, td, n, t, win_));
    });
  }
  /// Writes `origin` into the target layout `t`.
  template <class B>
  void put(B&& origin, int rank, const target_spec& t) const {
    detail::borrowed_origin<B>();
    const detail::buffer_desc d = detail::describe(origin);
    const target_args ta = check_spec("MPI_Put", "origin", rank, t, d.count, d.type);
    const int tn = ta.count;
    const MPI_Aint td = ta.disp;
    detail::with_int_count(d, [&](void* p, int n, MPI_Datatype ty) {
      OOMPI_CHECK(MPI_Put, (p, n, ty, rank, td, tn, t.type, win_));
    });
  }
  /// Reads `rank`'s window at `disp` into `origin` (complete when the epoch ends or is flushed).
  template <class B, class = detail::enable_if_receivable<B>>
  void get(B&& origin, int rank, MPI_Aint disp = 0) const {
    const detail::buffer_desc d = detail::describe_out(origin);
    const MPI_Aint td = check_target<detail::element_t<B>>("MPI_Get", rank, disp, d.count, d.type);
    detail::with_int_count(d, [&](void* p, int n, MPI_Datatype t) {
      OOMPI_CHECK(MPI_Get, (p, n, t, rank, td, n, t, win_));
    });
  }
  template <class B, class = detail::enable_if_receivable<B>>
  void get(B&& origin, int rank, const target_spec& t) const {
    const detail::buffer_desc d = detail::describe_out(origin);
    const target_args ta = check_spec("MPI_Get", "origin", rank, t, d.count, d.type);
    const int tn = ta.count;
    const MPI_Aint td = ta.disp;
    detail::with_int_count(d, [&](void* p, int n, MPI_Datatype ty) {
      OOMPI_CHECK(MPI_Get, (p, n, ty, rank, td, tn, t.type, win_));
    });
  }
  /// Combines `origin` into `rank`'s window with a predefined op (element-wise, atomic per
  /// element with respect to other accumulates).
  template <class B, class Op>
  void accumulate(B&& origin, int rank, MPI_Aint disp, const Op& op) const {
    detail::borrowed_origin<B>();
    const MPI_Op o = detail::rma_op<detail::element_t<B>>(op, "MPI_Accumulate");
    const detail::buffer_desc d = detail::describe(origin);
    const MPI_Aint td = check_target<detail::element_t<B>>("MPI_Accumulate", rank, disp, d.count, d.type);
    detail::with_int_count(d, [&](void* p, int n, MPI_Datatype t) {
      OOMPI_CHECK(MPI_Accumulate, (p, n, t, rank, td, n, t, o, win_));
    });
  }
  template <class B, class Op>
  void accumulate(B&& origin, int rank, const target_spec& t, const Op& op) const {
    detail::borrowed_origin<B>();
    const MPI_Op o = detail::rma_op<detail::element_t<B>>(op, "MPI_Accumulate");
    const detail::buffer_desc d = detail::describe(origin);
    const target_args ta = check_spec("MPI_Accumulate", "origin", rank, t, d.count, d.type);
    const int tn = ta.count;
    const MPI_Aint td = ta.disp;
    detail::with_int_count(d, [&](void* p, int n, MPI_Datatype ty) {
      OOMPI_CHECK(MPI_Accumulate, (p, n, ty, rank, td, tn, t.type, o, win_));
    });
  }
  /// Fetches the target's data into `result`, then combines `origin` into it (atomically per
  /// element). With ops::no_op it is an atomic read and `origin` is ignored; with
  /// ops::replace an atomic swap. The target's layout follows `result`.
  template <class B, class R, class Op, class = detail::enable_if_receivable<R>>
  void get_accumulate(B&& origin, R&& result, int rank, MPI_Aint disp, const Op& op) const {
    detail::borrowed_origin<B>();
    const MPI_Op o = detail::rma_op<detail::element_t<R>>(op, "MPI_Get_accumulate");
    const detail::buffer_desc od = detail::describe(origin), rd = detail::describe_out(result);
    const MPI_Aint td = check_target<detail::element_t<R>>("MPI_Get_accumulate", rank, disp, rd.count, rd.type);
    const int rn = detail::target_count("MPI_Get_accumulate", rd.count);
    if (o != MPI_NO_OP)
      detail::check_same_bytes("MPI_Get_accumulate", "origin", od.count, od.type, rd.count, rd.type);
    const int on = o == MPI_NO_OP ? 0 : detail::target_count("MPI_Get_accumulate", od.count);
    OOMPI_CHECK(MPI_Get_accumulate,
                (od.data, on, od.type, rd.data, rn, rd.type, rank, td, rn, rd.type, o, win_));
  }
  template <class B, class R, class Op, class = detail::enable_if_receivable<R>>
  void get_accumulate(B&& origin, R&& result, int rank, const target_spec& t,
                      const Op& op) const {
    detail::borrowed_origin<B>();
    const MPI_Op o = detail::rma_op<detail::element_t<R>>(op, "MPI_Get_accumulate");
    const detail::buffer_desc od = detail::describe(origin), rd = detail::describe_out(result);
    const target_args ta = check_spec("MPI_Get_accumulate", "result", rank, t, rd.count, rd.type);
    const int tn = ta.count;
    const MPI_Aint td = ta.disp;
    if (o != MPI_NO_OP)
      detail::check_same_bytes("MPI_Get_accumulate", "origin", od.count, od.type, t.count, t.type);
    const int on = o == MPI_NO_OP ? 0 : detail::target_count("MPI_Get_accumulate", od.count);
    const int rn = detail::target_count("MPI_Get_accumulate", rd.count);
    OOMPI_CHECK(MPI_Get_accumulate,
                (od.data, on, od.type, rd.data, rn, rd.type, rank, td, tn, t.type, o, win_));
  }
  /// One element: result = target; target = op(value, target) (MPI_Fetch_and_op; T must be
  /// a predefined type). `result` is valid once the epoch ends or is flushed; `value`, like
  /// every origin, must live until then.
  template <class V, class T, class Op>
  void fetch_and_op(V&& value, T& result, int rank, MPI_Aint disp, const Op& op) const {
    detail::borrowed_origin<V>();
    static_assert(std::is_same_v<std::remove_cv_t<std::remove_reference_t<V>>, T>,
                  "oompi::window::fetch_and_op: value and result must have the same type");
    static_assert(has_datatype_v<T>, "oompi::window::fetch_and_op: T has no MPI datatype");
    const MPI_Op o = detail::rma_op<T>(op, "MPI_Fetch_and_op");
    const MPI_Datatype t = datatype_of<T>();
    fetch_and_op(&value, &result, t, rank, disp, o);
  }
  /// One element: result = target; if target == compare, target = value
  /// (MPI_Compare_and_swap; T an integer, bool or std::byte type).
  template <class V, class C, class T>
  void compare_and_swap(V&& value, C&& compare, T& result, int rank, MPI_Aint disp) const {
    detail::borrowed_origin<V>();
    detail::borrowed_origin<C>();
    static_assert(std::is_same_v<std::remove_cv_t<std::remove_reference_t<V>>, T> &&
                      std::is_same_v<std::remove_cv_t<std::remove_reference_t<C>>, T>,
                  "oompi::window::compare_and_swap: value, compare and result must have the "
                  "same type");
    static_assert(has_datatype_v<T>, "oompi::window::compare_and_swap: T has no MPI datatype");
    const MPI_Datatype t = datatype_of<T>();
    compare_and_swap(&value, &compare, &result, t, rank, disp);
  }

  /// Untyped forms of the two calls above (a run-time facade's): one element of `type` at
  /// each address, which must stay valid until the operation completes.
  void fetch_and_op(const void* value, void* result, MPI_Datatype type, int rank, MPI_Aint disp,
                    MPI_Op op) const {
    if (!detail::is_predefined_op(op)) detail::throw_user_op("MPI_Fetch_and_op");
    const MPI_Aint td = check_atomic("MPI_Fetch_and_op", rank, disp, type);
    if (OOMPI_DETAIL_UNLIKELY(detail::sum_is_integer_add_only(type, op)))
      OOMPI_CHECK(MPI_Get_accumulate,
                  (value, 1, type, result, 1, type, rank, td, 1, type, op, win_));
    else
      OOMPI_CHECK(MPI_Fetch_and_op, (value, result, type, rank, td, op, win_));
  }
  void compare_and_swap(const void* value, const void* compare, void* result, MPI_Datatype type,
                        int rank, MPI_Aint disp) const {
    const MPI_Aint td = check_atomic("MPI_Compare_and_swap", rank, disp, type);
    OOMPI_CHECK(MPI_Compare_and_swap, (value, compare, result, type, rank, td, win_));
  }

  // --- request-based (passive-target epochs only) -----------------------------------------
  // The request completes the operation locally (origin buffer reusable); flush or unlock
  // completes it at the target. A named buffer is borrowed; a temporary container given to
  // rput/raccumulate is owned by the request until completion.

  template <class B>
  request rput(B&& origin, int rank, MPI_Aint disp = 0) const {
    return start_owned(std::forward<B>(origin), [&](const auto& b) {
      const detail::buffer_desc d = detail::describe(b);
      const MPI_Aint td = check_target<detail::element_t<B>>("MPI_Rput", rank, disp, d.count, d.type);
      const int n = detail::target_count("MPI_Rput", d.count);
      MPI_Request r = MPI_REQUEST_NULL;
      OOMPI_CHECK(MPI_Rput, (d.data, n, d.type, rank, td, n, d.type, win_, &r));
      return r;
    });
  }
  template <class B>
  request rput(B&& origin, int rank, const target_spec& t) const {
    return start_owned(std::forward<B>(origin), [&](const auto& b) {
      const detail::buffer_desc d = detail::describe(b);
      const target_args ta = check_spec("MPI_Rput", "origin", rank, t, d.count, d.type);
      const int tn = ta.count;
      const MPI_Aint td = ta.disp;
      const int n = detail::target_count("MPI_Rput", d.count);
      MPI_Request r = MPI_REQUEST_NULL;
      OOMPI_CHECK(MPI_Rput, (d.data, n, d.type, rank, td, tn, t.type, win_, &r));
      return r;
    });
  }
  template <class B, class = detail::enable_if_receivable<B>>
  request rget(B&& origin, int rank, MPI_Aint disp = 0) const {
    const detail::buffer_desc d = detail::describe_out(origin);
    const MPI_Aint td = check_target<detail::element_t<B>>("MPI_Rget", rank, disp, d.count, d.type);
    const int n = detail::target_count("MPI_Rget", d.count);
    MPI_Request r = MPI_REQUEST_NULL;
    OOMPI_CHECK(MPI_Rget, (d.data, n, d.type, rank, td, n, d.type, win_, &r));
    return request(r);
  }
  template <class B, class = detail::enable_if_receivable<B>>
  request rget(B&& origin, int rank, const target_spec& t) const {
    const detail::buffer_desc d = detail::describe_out(origin);
    const target_args ta = check_spec("MPI_Rget", "origin", rank, t, d.count, d.type);
    const int tn = ta.count;
    const MPI_Aint td = ta.disp;
    const int n = detail::target_count("MPI_Rget", d.count);
    MPI_Request r = MPI_REQUEST_NULL;
    OOMPI_CHECK(MPI_Rget, (d.data, n, d.type, rank, td, tn, t.type, win_, &r));
    return request(r);
  }
  template <class B, class Op>
  request raccumulate(B&& origin, int rank, MPI_Aint disp, const Op& op) const {
    const MPI_Op o = detail::rma_op<detail::element_t<B>>(op, "MPI_Raccumulate");
    return start_owned(std::forward<B>(origin), [&](const auto& b) {
      const detail::buffer_desc d = detail::describe(b);
      const MPI_Aint td = check_target<detail::element_t<B>>("MPI_Raccumulate", rank, disp, d.count, d.type);
      const int n = detail::target_count("MPI_Raccumulate", d.count);
      MPI_Request r = MPI_REQUEST_NULL;
      OOMPI_CHECK(MPI_Raccumulate, (d.data, n, d.type, rank, td, n, d.type, o, win_, &r));
      return r;
    });
  }
  /// The result buffer is borrowed; a temporary origin is kept by the request.
  template <class B, class R, class Op, class = detail::enable_if_receivable<R>>
  request rget_accumulate(B&& origin, R&& result, int rank, MPI_Aint disp,
                          const Op& op) const {
    const MPI_Op o = detail::rma_op<detail::element_t<R>>(op, "MPI_Rget_accumulate");
    const detail::buffer_desc rd = detail::describe_out(result);
    const MPI_Aint td = check_target<detail::element_t<R>>("MPI_Rget_accumulate", rank, disp, rd.count, rd.type);
    const int rn = detail::target_count("MPI_Rget_accumulate", rd.count);
    return start_owned(std::forward<B>(origin), [&](const auto& b) {
      const detail::buffer_desc od = detail::describe(b);
      if (o != MPI_NO_OP)
        detail::check_same_bytes("MPI_Rget_accumulate", "origin", od.count, od.type, rd.count,
                                 rd.type);
      const int on = o == MPI_NO_OP ? 0 : detail::target_count("MPI_Rget_accumulate", od.count);
      MPI_Request r = MPI_REQUEST_NULL;
      OOMPI_CHECK(MPI_Rget_accumulate, (od.data, on, od.type, rd.data, rn, rd.type, rank, td,
                                        rn, rd.type, o, win_, &r));
      return r;
    });
  }

  // --- synchronisation ----------------------------------------------------------------------

  /// Active-target fence (MPI_Win_fence, collective): ends the previous epoch, starts the next.
  void fence(int assert = rma_assert::none) const;
  /// Starts an access epoch to the processes of `g` (MPI_Win_start); the epoch object's
  /// complete() or destructor ends it.
  access_epoch start(const oompi::group& g, int assert = rma_assert::none) const;
  /// Starts an exposure epoch for the processes of `g` (MPI_Win_post); the epoch object's
  /// wait() or destructor ends it.
  exposure_epoch post(const oompi::group& g, int assert = rma_assert::none) const;
  /// Starts a passive-target epoch on `rank` (MPI_Win_lock); the epoch object's unlock() or
  /// destructor ends it.
  lock_epoch lock(int rank, lock_type type = lock_type::exclusive,
                  int assert = rma_assert::none) const;
  /// A shared lock on every process (MPI_Win_lock_all).
  lock_all_epoch lock_all(int assert = rma_assert::none) const;
  /// In a passive-target epoch: completes the operations to `rank` at origin and target.
  void flush(int rank) const;
  void flush_all() const;
  /// In a passive-target epoch: completes the operations to `rank` at the origin only.
  void flush_local(int rank) const;
  void flush_local_all() const;
  /// Synchronises the public and private copies of the local window (MPI_Win_sync), e.g.
  /// between load/store accesses to shared memory.
  void sync() const;

  // --- shared memory ----------------------------------------------------------------------

  /// The part of `rank` (proc_null: the first process with a nonzero part) of a shared window
  /// (MPI_Win_shared_query): directly addressable by this process.
  shared_region shared_query(int rank) const;
  /// shared_query as elements of T.
  template <class T>
  typed_buffer<T> shared_query(int rank) const;

  // --- attributes ---------------------------------------------------------------------------

  /// This process's memory (MPI_WIN_BASE); nullptr for a dynamic window.
  void* base() const {
    void* b = attr<void*>(MPI_WIN_BASE, "MPI_WIN_BASE");
    if (dynamic_ || b == nullptr) return b;
    const extent& e = extents_[static_cast<std::size_t>(rank_)];
    return static_cast<char*>(b) + e.offset * (e.unit / e.scale);  // see the constructor
  }
  /// Bytes of this process's window (MPI_WIN_SIZE).
  MPI_Aint size() const { return *attr<MPI_Aint*>(MPI_WIN_SIZE, "MPI_WIN_SIZE"); }
  /// The displacement unit given at creation (MPI_WIN_DISP_UNIT unless oompi had to use bytes).
  int disp_unit() const {
    require("oompi::window::disp_unit");
    return static_cast<int>(extents_[static_cast<std::size_t>(rank_)].unit);
  }
  window_flavor flavor() const {
    return static_cast<window_flavor>(*attr<int*>(MPI_WIN_CREATE_FLAVOR, "MPI_WIN_CREATE_FLAVOR"));
  }
  window_model model() const {
    return static_cast<window_model>(*attr<int*>(MPI_WIN_MODEL, "MPI_WIN_MODEL"));
  }
  /// This process's memory as elements of T.
  template <class T>
  typed_buffer<T> data() const {
    return typed_buffer<T>(static_cast<T*>(base()), static_cast<std::size_t>(size()) / sizeof(T));
  }
  /// The size in bytes of `rank`'s window, as recorded at creation (0 for dynamic windows).
  MPI_Aint size_of(int rank) const {
    require("oompi::window::size_of");
    check_rank("oompi::window::size_of", rank, false);
    return extents_[static_cast<std::size_t>(rank)].bytes;
  }
  /// The group of the window's processes (MPI_Win_get_group).
  oompi::group group() const {
    require("MPI_Win_get_group");
    MPI_Group g = MPI_GROUP_NULL;
    OOMPI_CHECK(MPI_Win_get_group, (win_, &g));
    return oompi::group(g);
  }
  /// This process's rank in the window's group, and the number of processes.
  int rank() const noexcept { return rank_; }
  int group_size() const noexcept { return static_cast<int>(extents_.size()); }
  /// The hints in use (MPI_Win_get_info): a new info object.
  info get_info() const {
    require("MPI_Win_get_info");
    MPI_Info i = MPI_INFO_NULL;
    OOMPI_CHECK(MPI_Win_get_info, (win_, &i));
    return info(i, true);
  }
  void set_info(const info& hints) const {
    require("MPI_Win_set_info");
    if (hints.is_null()) throw std::invalid_argument("MPI_Win_set_info: null info");
    OOMPI_CHECK(MPI_Win_set_info, (win_, hints.native()));
  }
  std::string name() const {
    require("MPI_Win_get_name");
    char text[MPI_MAX_OBJECT_NAME];
    int len = 0;
    OOMPI_CHECK(MPI_Win_get_name, (win_, text, &len));
    return std::string(text, static_cast<std::size_t>(len));
  }
  void set_name(const std::string& name) const {
    require("MPI_Win_set_name");
    OOMPI_CHECK(MPI_Win_set_name, (win_, name.c_str()));
  }

  MPI_Win native() const noexcept { return win_; }
  bool is_null() const noexcept { return win_ == MPI_WIN_NULL; }
  /// True for windows made by create_dynamic (no bounds checks).
  bool is_dynamic() const noexcept { return dynamic_; }

  /// Frees the window now (MPI_Win_free, collective) and leaves this object null. Throws
  /// oompi::error if MPI refuses (e.g. an epoch is still open: end it first).
  void free() {
    require("MPI_Win_free");
    const int rc = MPI_Win_free(&win_);
    if (rc != MPI_SUCCESS) detail::throw_mpi_error("MPI_Win_free", rc);
    win_ = MPI_WIN_NULL;
    extents_.clear();
  }

private:
  // A process's window as every process sees it. MPI's displacement of an element at `disp`
  // (in `unit`) is disp x scale + offset: scale 1 and offset 0 unless MPI moved the base (below).
  struct extent {
    MPI_Aint bytes;
    MPI_Aint unit;
    MPI_Aint scale;
    MPI_Aint offset;
    MPI_Aint address;  // of the memory (0: dynamic), for the alignment of atomics
  };

  // Installs MPI_ERRORS_RETURN and records every process's size and disp_unit (one
  // allgather) so that bounds checks need no communication.
  //
  // `wanted` is the base given to MPI_Win_create. MPICH 4.0.0-4.0.2 over UCX >= 1.13 replaces
  // it by the start of UCX's registration, rounded down to 16 bytes (pmodels/mpich#6140): every
  // put and get then lands that many bytes early, at every target (raw C shows it). The shift
  // is read back from MPI_WIN_BASE and added to each displacement, in units of the MPI
  // disp_unit `mpi_unit` (create() falls back to byte units when the shift is not a whole
  // number of elements: misaligned_ is then set).
  window(MPI_Win w, const intracommunicator& comm, MPI_Aint bytes, int unit, bool dynamic,
         const void* wanted = nullptr, int mpi_unit = 0)
      : win_(w), rank_(comm.rank()), dynamic_(dynamic) {
    if (const int rc = MPI_Win_set_errhandler(win_, MPI_ERRORS_RETURN); rc != MPI_SUCCESS) {
      MPI_Win_free(&win_);
      detail::throw_mpi_error("MPI_Win_set_errhandler", rc);
    }
    if (mpi_unit == 0) mpi_unit = unit;
    MPI_Aint shift = 0;
    if (wanted != nullptr && bytes > 0) {
      void* got = nullptr;
      int flag = 0;
      if (MPI_Win_get_attr(win_, MPI_WIN_BASE, &got, &flag) == MPI_SUCCESS && flag)
        shift = static_cast<MPI_Aint>(static_cast<const char*>(wanted) -
                                      static_cast<const char*>(got));
    }
    extents_.resize(static_cast<std::size_t>(comm.size()));
    const MPI_Aint mine[5] = {bytes, unit, shift, mpi_unit, reinterpret_cast<MPI_Aint>(wanted)};
    static_assert(sizeof(extent) == sizeof(mine), "extent is gathered as 5 MPI_Aint");
    if (const int rc = MPI_Allgather(mine, 5, MPI_AINT, extents_.data(), 5, MPI_AINT,
                                     comm.native());
        rc != MPI_SUCCESS) {
      MPI_Win_free(&win_);
      detail::throw_mpi_error("MPI_Allgather", rc);
    }
    for (extent& e : extents_) {  // gathered as {bytes, unit, shift, mpi_unit, address}
      const MPI_Aint s = e.scale, mu = e.offset;
      if (s % mu != 0) misaligned_ = true;
      e.scale = e.unit / mu;
      e.offset = s / mu;
    }
  }

  static void check_creation(const char* routine, const intracommunicator& comm, MPI_Aint bytes,
                             int disp_unit) {
    detail::require_running(routine);
    if (comm.is_null()) throw std::logic_error(std::string(routine) + ": null communicator");
    if (bytes < 0) throw std::invalid_argument(std::string(routine) + ": negative size");
    if (disp_unit < 1)
      throw std::invalid_argument(std::string(routine) + ": disp_unit " +
                                  std::to_string(disp_unit) + " is not positive");
  }
  template <class T>
  static MPI_Aint bytes_of(const char* routine, std::size_t count) {
    if (count > static_cast<std::size_t>(PTRDIFF_MAX) / sizeof(T))
      throw std::length_error(std::string(routine) + ": " + std::to_string(count) +
                              " elements do not fit in the address space");
    return static_cast<MPI_Aint>(count * sizeof(T));
  }

  void require(const char* routine) const {
    detail::require_running(routine);
    if (OOMPI_DETAIL_UNLIKELY(win_ == MPI_WIN_NULL)) throw_null(routine);
  }
  [[noreturn]] OOMPI_DETAIL_COLD static void throw_null(const char* routine) {
    throw std::logic_error(std::string(routine) +
                           ": null window (freed, moved from, or never created)");
  }
  void check_rank(const char* routine, int rank, bool proc_null_ok) const {
    if (OOMPI_DETAIL_LIKELY(rank >= 0 && rank < group_size())) return;
    if (proc_null_ok && rank == MPI_PROC_NULL) return;
    throw_rank(routine, rank);
  }
  [[noreturn]] OOMPI_DETAIL_COLD void throw_rank(const char* routine, int rank) const {
    throw std::out_of_range(std::string(routine) + ": target rank " + std::to_string(rank) +
                            " is not in the window's group (size " +
                            std::to_string(group_size()) + ")");
  }
  // The target range [disp x unit + lo, disp x unit + hi) must lie inside [0, size) of the
  // target's window. proc_null targets are no-ops for MPI and pass.
  // Returns MPI's displacement for `disp`.
  template <class T>
  MPI_Aint check_target(const char* routine, int rank, MPI_Aint disp, std::size_t count,
                        MPI_Datatype type) const {
    require(routine);
    if (rank == MPI_PROC_NULL) return disp;
    check_rank(routine, rank, false);
    if (dynamic_) return disp;
    const extent& e = extents_[static_cast<std::size_t>(rank)];
    if (count != 0) {
      const auto span = detail::type_span<T>(count, type);
      const detail::rma_wide start = static_cast<detail::rma_wide>(disp) * e.unit;
      if (OOMPI_DETAIL_UNLIKELY(start + span.first < 0 || start + span.second > e.bytes))
        throw_bounds(routine, rank, disp, count, span.second - span.first, e);
    }
    return disp * e.scale + e.offset;
  }
  [[noreturn]] OOMPI_DETAIL_COLD static void throw_bounds(const char* routine, int rank,
                                                          MPI_Aint disp, std::size_t count,
                                                          detail::rma_wide bytes,
                                                          const extent& e) {
    throw std::out_of_range(std::string(routine) + ": " + std::to_string(count) +
                            " elements (" + std::to_string(static_cast<long long>(bytes)) +
                            " bytes) at displacement " + std::to_string(disp) + " (unit " +
                            std::to_string(e.unit) + ") do not fit in rank " +
                            std::to_string(rank) + "'s window of " + std::to_string(e.bytes) +
                            " bytes");
  }
  // An explicit target: bounds, matching byte counts, an int target count.
  // An atomic's element must be aligned to its size: UCX refuses a misaligned one (Open MPI's
  // osc/ucx then returns success with the target untouched and the result unwritten).
  MPI_Aint check_atomic(const char* routine, int rank, MPI_Aint disp, MPI_Datatype type) const {
    const MPI_Aint td = check_target<void>(routine, rank, disp, 1, type);
    if (rank == MPI_PROC_NULL) return td;
    int size = 0;
    if (MPI_Type_size(type, &size) != MPI_SUCCESS || size <= 0 || (size & (size - 1)) != 0)
      return td;
    const extent& e = extents_[static_cast<std::size_t>(rank)];
    const MPI_Aint at = dynamic_ ? disp : e.address + disp * e.unit;
    if (OOMPI_DETAIL_UNLIKELY(at % size != 0)) throw_misaligned(routine, rank, disp, size);
    return td;
  }
  [[noreturn]] OOMPI_DETAIL_COLD static void throw_misaligned(const char* routine, int rank,
                                                              MPI_Aint disp, int size) {
    throw std::invalid_argument(std::string(routine) + ": the element at displacement " +
                                std::to_string(disp) + " of rank " + std::to_string(rank) +
                                "'s window is not aligned to its size (" + std::to_string(size) +
                                " bytes); atomic operations need naturally aligned elements");
  }
  struct target_args {
    int count;
    MPI_Aint disp;
  };
  target_args check_spec(const char* routine, const char* what, int rank, const target_spec& t,
                         std::size_t count, MPI_Datatype type) const {
    require(routine);
    if (t.type == MPI_DATATYPE_NULL)
      throw std::invalid_argument(std::string(routine) + ": null target datatype");
    const MPI_Aint disp = check_target<void>(routine, rank, t.disp, t.count, t.type);
    detail::check_same_bytes(routine, what, count, type, t.count, t.type);
    return {detail::target_count(routine, t.count), disp};
  }
  // rput/raccumulate: a named buffer (or a view) is borrowed; a temporary container is moved
  // into the request and kept until the operation completes.
  template <class B, class F>
  request start_owned(B&& origin, F&& start) const {
    if constexpr (std::is_lvalue_reference_v<B> || is_view_v<B>) {
      return request(start(origin));
    } else {
      using V = std::remove_cv_t<std::remove_reference_t<B>>;
      auto owned = std::make_unique<detail::kept<V>>(std::move(origin));
      const MPI_Request r = start(owned->value);
      return request(r, std::move(owned));
    }
  }
  template <class P>
  P attr(int key, const char* what) const {
    require("MPI_Win_get_attr");
    P value{};
    int flag = 0;
    OOMPI_CHECK(MPI_Win_get_attr, (win_, key, &value, &flag));
    if (!flag) throw std::logic_error(std::string("MPI_Win_get_attr: ") + what + " is not set");
    return value;
  }
  void reset() noexcept {
    if (win_ != MPI_WIN_NULL && detail::mpi_usable()) MPI_Win_free(&win_);
    win_ = MPI_WIN_NULL;
    extents_.clear();
  }

  MPI_Win win_ = MPI_WIN_NULL;
  int rank_ = MPI_PROC_NULL;
  bool dynamic_ = false;
  bool misaligned_ = false;
  std::vector<extent> extents_;
};

}  // namespace oompi

#endif  // OOMPI_WINDOW_CREATION_HPP
