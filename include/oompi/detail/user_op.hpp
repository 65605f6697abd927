#ifndef OOMPI_DETAIL_USER_OP_HPP
#define OOMPI_DETAIL_USER_OP_HPP

// The machinery behind user reduction ops (oompi::op, lambdas passed to collectives).
//
// MPI_User_function gets no user-data pointer, so a C++ callable with state cannot be reached
// from it directly. Two ways in:
// - A stateless callable (an empty, trivially copyable type: captureless lambdas, std::plus<>,
//   most function objects) needs no state: one trampoline per (element type, callable type,
//   commutativity), whose MPI_Op is created once and reused for the life of MPI.
// - A callable with state used by a blocking collective: a per-type trampoline finds it in a
//   thread-local frame pushed for the call (the op runs inside the caller's MPI call).
// - A callable with state that outlives a call (oompi::op objects, nonblocking collectives,
//   run-time functions) takes a slot of a fixed pool of trampolines (slot_trampoline<I>), each
//   reading its own (function, context) entry. The slot is leased for the life of the op;
//   every slot's MPI_Op is created once and reused by later leases. OOMPI_OP_SLOTS (default
//   2048) slots exist; one more live op with state throws std::length_error.
// Every trampoline loops over the `len` elements MPI hands it with the callable inlined, and
// catches whatever the callable throws: an exception must never unwind through MPI's C frames.
// The first exception is kept in an error_record and rethrown by the collective once MPI has
// returned; after it the op is not called again until the error has been taken.
// Every MPI_Op made here is freed when MPI_Finalize starts (a delete callback on MPI_COMM_SELF).

#include "../datatype.hpp"
#include "../error.hpp"

#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#ifndef OOMPI_OP_SLOTS
#define OOMPI_OP_SLOTS 2048
#endif

namespace oompi::detail {

static_assert(OOMPI_OP_SLOTS >= 1, "OOMPI_OP_SLOTS must be at least 1");

/// The first exception a user op threw, until someone takes it. Lock-free and noexcept on the
/// capturing side (it runs inside MPI); one atomic load on the checking side.
class error_record {
public:
  error_record() noexcept = default;
  error_record(const error_record&) = delete;
  error_record& operator=(const error_record&) = delete;
  ~error_record() {
    std::exception_ptr* p = pending_.load(std::memory_order_acquire);
    if (p != &out_of_memory()) delete p;
  }

  /// Call from a catch block: keeps the exception in flight unless one is already kept.
  void capture() noexcept {
    auto* p = new (std::nothrow) std::exception_ptr(std::current_exception());
    if (p == nullptr) p = &out_of_memory();
    std::exception_ptr* expected = nullptr;
    if (!pending_.compare_exchange_strong(expected, p, std::memory_order_acq_rel) &&
        p != &out_of_memory())
      delete p;
  }
  bool failed() const noexcept { return pending_.load(std::memory_order_acquire) != nullptr; }
  /// Rethrows the kept exception (once) and forgets it.
  void rethrow_if_failed() {
    if (!failed()) return;
    std::exception_ptr* p = pending_.exchange(nullptr, std::memory_order_acq_rel);
    if (p == nullptr) return;
    std::exception_ptr e = *p;
    if (p != &out_of_memory()) delete p;
    std::rethrow_exception(e);
  }

private:
  // Used when not even the exception_ptr could be allocated.
  static std::exception_ptr& out_of_memory() noexcept {
    static std::exception_ptr e = std::make_exception_ptr(std::bad_alloc());
    return e;
  }
  std::atomic<std::exception_ptr*> pending_{nullptr};
};

// --- calling a user callable on a block of elements --------------------------------------

/// A callable usable as a reduction op on T, in one of three shapes:
///   T f(const T& in, const T& inout)        inout = f(in, inout), element by element
///   void f(const T& in, T& inout)            updates inout in place, element by element
///   void f(const T* in, T* inout, int len)   the whole block at once
template <class F, class T, class = void>
struct is_block_op : std::false_type {};
template <class F, class T>
struct is_block_op<F, T, std::enable_if_t<std::is_invocable_v<F&, const T*, T*, int>>>
    : std::true_type {};

template <class F, class T, class = void>
struct is_element_op : std::false_type {};
template <class F, class T>
struct is_element_op<F, T, std::enable_if_t<std::is_invocable_v<F&, const T&, T&>>> {
  using result = std::invoke_result_t<F&, const T&, T&>;
  static constexpr bool value = std::is_void_v<result> || std::is_assignable_v<T&, result>;
};

template <class F, class T>
inline constexpr bool is_user_op_v = is_block_op<F, T>::value || is_element_op<F, T>::value;

/// MPI's rule: inout[i] = in[i] (x) inout[i], with `in` from the lower ranks.
template <class T, class F>
inline void apply_elements(F& f, const T* a, T* b, int len) {
  if constexpr (is_block_op<F, T>::value) {
    f(a, b, len);
  } else if constexpr (std::is_void_v<std::invoke_result_t<F&, const T&, T&>>) {
    for (int i = 0; i < len; ++i) f(a[i], b[i]);
  } else {
    for (int i = 0; i < len; ++i) b[i] = f(a[i], b[i]);
  }
}

/// The bytes [lo, hi) of one T that MPI's buffers are sure to hold: those of the datatype
/// (its true extent). A buffer MPI allocates (Open MPI's reduction temporaries) ends where the
/// last element's data ends, so a struct whose datatype stops before sizeof(T) (tail padding,
/// members left out of OOMPI_STRUCT) must not be read or written as a whole T there.
struct element_span {
  std::size_t lo, hi;
};
template <class T>
inline element_span query_span(MPI_Datatype type) {
  MPI_Aint lb = 0, extent = 0, true_lb = 0, true_extent = 0;
  OOMPI_CHECK(MPI_Type_get_extent, (type, &lb, &extent));
  OOMPI_CHECK(MPI_Type_get_true_extent, (type, &true_lb, &true_extent));
  if (lb != 0 || extent != static_cast<MPI_Aint>(sizeof(T)))
    throw std::logic_error("oompi: a user op on T got a datatype whose extent (" +
                           std::to_string(extent) + ") is not sizeof(T) (" +
                           std::to_string(sizeof(T)) + "); its elements are not T objects");
  const MPI_Aint hi = std::clamp<MPI_Aint>(true_lb + true_extent, 0, extent);
  return {static_cast<std::size_t>(std::clamp<MPI_Aint>(true_lb, 0, hi)),
          static_cast<std::size_t>(hi)};
}
template <class T>
inline element_span span_of(MPI_Datatype type) {
  if constexpr (std::is_arithmetic_v<T> || std::is_enum_v<T>) {
    return {0, sizeof(T)};  // a predefined type: no padding
  } else {
    // T's own datatype is asked once; it is the one MPI hands the op but for user-made types.
    static const MPI_Datatype usual = datatype_of<T>();
    static const element_span usual_span = query_span<T>(usual);
    return type == usual ? usual_span : query_span<T>(type);
  }
}

/// Element i of a block through local copies: only the span's bytes are read and written.
template <class T, class F>
inline void apply_one_copied(F& f, const unsigned char* in, unsigned char* inout,
                             element_span s) {
  static_assert(std::is_trivially_copyable_v<T>, "oompi: an MPI element type is plain bytes");
  alignas(T) unsigned char a[sizeof(T)] = {}, b[sizeof(T)] = {};
  std::memcpy(a + s.lo, in + s.lo, s.hi - s.lo);
  std::memcpy(b + s.lo, inout + s.lo, s.hi - s.lo);
  apply_elements<T>(f, std::launder(reinterpret_cast<const T*>(a)),
                    std::launder(reinterpret_cast<T*>(b)), 1);
  std::memcpy(inout + s.lo, b + s.lo, s.hi - s.lo);
}

/// Runs f on the `len` elements of type `type` MPI hands a user op.
template <class T, class F>
inline void apply_user_op(F& f, const void* in, void* inout, int len, MPI_Datatype type) {
  const element_span s = span_of<T>(type);
  if ((s.lo == 0 && s.hi == sizeof(T)) || len <= 0) {  // no padding at either end: in place
    apply_elements<T>(f, static_cast<const T*>(in), static_cast<T*>(inout), len);
    return;
  }
  // Only the first element's head and the last one's tail may lie outside the buffers.
  const auto* a = static_cast<const unsigned char*>(in);
  auto* b = static_cast<unsigned char*>(inout);
  int first = 0, last = len;
  if (s.lo != 0) apply_one_copied<T>(f, a, b, s), first = 1;
  if (last > first) {
    --last;
    apply_one_copied<T>(f, a + last * sizeof(T), b + last * sizeof(T), s);
  }
  if (last > first)
    apply_elements<T>(f, reinterpret_cast<const T*>(a) + first, reinterpret_cast<T*>(b) + first,
                      last - first);
}

/// A callable with no state: any instance does the same, so one per type serves every op.
template <class F>
inline constexpr bool is_stateless_v = std::is_empty_v<F> && std::is_trivially_copyable_v<F>;

// --- MPI_Op handles, freed when MPI_Finalize starts ----------------------------------------

class op_handles {
public:
  /// MPI_Op_create, the handle kept until MPI_Finalize.
  static MPI_Op create(MPI_User_function* fn, bool commutative) {
    require_running("MPI_Op_create");
    auto& self = instance();
    std::lock_guard<std::mutex> lock(self.mutex_);
    self.hook();
    MPI_Op h = MPI_OP_NULL;
    OOMPI_CHECK(MPI_Op_create, (fn, commutative ? 1 : 0, &h));
    self.handles_.push_back(h);
    return h;
  }
private:
  static op_handles& instance() {
    static op_handles h;
    return h;
  }
  void hook() {
    if (hooked_) return;
    int keyval = MPI_KEYVAL_INVALID;
    OOMPI_CHECK(MPI_Comm_create_keyval, (MPI_COMM_NULL_COPY_FN, &op_handles::free_all, &keyval, nullptr));
    OOMPI_CHECK(MPI_Comm_set_attr, (MPI_COMM_SELF, keyval, nullptr));
    MPI_Comm_free_keyval(&keyval);  // the attribute keeps it alive until deleted
    hooked_ = true;
  }
  static int free_all(MPI_Comm, int, void*, void*) {
    auto& self = instance();
    std::lock_guard<std::mutex> lock(self.mutex_);
    for (auto& h : self.handles_) MPI_Op_free(&h);
    self.handles_.clear();
    self.hooked_ = false;
    return MPI_SUCCESS;
  }

  std::mutex mutex_;
  std::vector<MPI_Op> handles_;
  bool hooked_ = false;
};

// --- stateless callables: one trampoline and one MPI_Op per type -------------------------

template <class T, class F, bool Commutative>
struct stateless_op {
  static inline error_record errors;
  alignas(F) static inline unsigned char storage[sizeof(F)];

  static void trampoline(void* in, void* inout, int* len, MPI_Datatype* type) noexcept {
    if (errors.failed()) return;  // no further calls after an exception
    try {
      apply_user_op<T>(*std::launder(reinterpret_cast<F*>(storage)), in, inout, *len, *type);
    } catch (...) {
      errors.capture();
    }
  }
  /// The MPI_Op, created on first use.
  static MPI_Op handle(const F& f) {
    static const MPI_Op h = [&] {
      ::new (static_cast<void*>(storage)) F(f);  // empty and trivially copyable: never destroyed
      return op_handles::create(&trampoline, Commutative);
    }();
    return h;
  }
};

// --- callables with state in a blocking collective: a thread-local frame ------------------
// A blocking collective runs the op inside the caller's MPI call, on the caller's thread: the
// per-type trampoline finds the callable in a frame the collective pushed for the call. No
// slot, no lock. (Should an MPI library ever run it elsewhere, the call fails with a clear
// error instead of using another thread's state.)

template <class T, class F, bool Commutative>
class framed_op {
public:
  /// One per blocking call; frames nest (an op may itself run a collective).
  class frame {
  public:
    explicit frame(F& f) noexcept : f_(&f), outer_(current_) { current_ = this; }
    frame(const frame&) = delete;
    frame& operator=(const frame&) = delete;
    ~frame() { current_ = outer_; }
    MPI_Op native() const { return handle(); }
    void rethrow_if_failed() {
      stray_.rethrow_if_failed();
      errors_.rethrow_if_failed();
    }

  private:
    friend class framed_op;
    F* f_;
    frame* outer_;
    error_record errors_;
  };

private:
  static inline thread_local frame* current_ = nullptr;
  static inline error_record stray_;  // calls that found no frame on their thread

  static void trampoline(void* in, void* inout, int* len, MPI_Datatype* type) noexcept {
    frame* fr = current_;
    if (fr == nullptr) {
      try {
        throw std::logic_error(
            "oompi: MPI ran a user op with state outside the thread of its blocking collective");
      } catch (...) {
        stray_.capture();
      }
      return;
    }
    if (fr->errors_.failed()) return;
    try {
      apply_user_op<T>(*fr->f_, in, inout, *len, *type);
    } catch (...) {
      fr->errors_.capture();
    }
  }
  static MPI_Op handle() {
    static const MPI_Op h = op_handles::create(&trampoline, Commutative);
    return h;
  }
};

// --- callables with state that outlive a call: a pool of slot trampolines ----------------
// Only code that makes such ops (oompi::op from a callable with state or a run-time function,
// nonblocking collectives with one) instantiates the pool.

using op_invoke_fn = void (*)(void* ctx, void* in, void* inout, int len, MPI_Datatype type);

struct op_slot {
  op_invoke_fn fn = nullptr;
  void* ctx = nullptr;
};

template <int N>
class op_slot_pool {
public:
  static inline op_slot slots[N];

  static op_slot_pool& instance() {
    static op_slot_pool pool;
    return pool;
  }

  /// Leases a slot calling fn(ctx, ...) and returns its index; `handle` gets its MPI_Op.
  int acquire(op_invoke_fn fn, void* ctx, bool commutative, MPI_Op& handle) {
    require_running("oompi::op");
    std::lock_guard<std::mutex> lock(mutex_);
    if (free_.empty())
      throw std::length_error(
          "oompi::op: " + std::to_string(N) +
          " user ops with state are alive at once, the most this build supports (each holds "
          "one of OOMPI_OP_SLOTS trampoline slots). Destroy ops you no longer need, use "
          "stateless callables (captureless lambdas and empty function objects need no slot), "
          "or compile with -DOOMPI_OP_SLOTS=<more>.");
    const int i = free_.back();
    MPI_Op& h = handles_[i][commutative ? 1 : 0];
    if (h == MPI_OP_NULL) h = op_handles::create(trampoline_of(i), commutative);
    free_.pop_back();
    slots[i].fn = fn;
    slots[i].ctx = ctx;
    handle = h;
    return i;
  }
  void release(int i) noexcept {
    std::lock_guard<std::mutex> lock(mutex_);
    slots[i].fn = nullptr;
    slots[i].ctx = nullptr;
    free_.push_back(i);
  }
  /// Slots not leased at the moment.
  std::size_t available() {
    std::lock_guard<std::mutex> lock(mutex_);
    return free_.size();
  }

private:
  op_slot_pool() {
    free_.reserve(N);
    for (int i = N - 1; i >= 0; --i) {
      free_.push_back(i);  // hand out slot 0 first
      handles_[i][0] = handles_[i][1] = MPI_OP_NULL;
    }
  }

  template <int I>
  static void slot_trampoline(void* in, void* inout, int* len, MPI_Datatype* type) {
    const op_slot& s = slots[I];
    s.fn(s.ctx, in, inout, *len, *type);
  }
  template <std::size_t... I>
  static MPI_User_function* trampoline_of(int i, std::index_sequence<I...>) {
    static MPI_User_function* const table[] = {&slot_trampoline<static_cast<int>(I)>...};
    return table[i];
  }
  static MPI_User_function* trampoline_of(int i) {
    return trampoline_of(i, std::make_index_sequence<N>{});
  }

  std::mutex mutex_;
  std::vector<int> free_;
  MPI_Op handles_[N][2];  // created on first lease, freed by op_handles at MPI_Finalize
};

using op_pool = op_slot_pool<OOMPI_OP_SLOTS>;

/// State of a user op that leases a slot: the errors it caught and its slot. Its address is
/// the slot's context, so it never moves (heap-allocated by oompi::op, on the stack for the
/// temporary op of a blocking collective).
class slot_op_state {
public:
  slot_op_state() = default;
  slot_op_state(const slot_op_state&) = delete;
  slot_op_state& operator=(const slot_op_state&) = delete;
  virtual ~slot_op_state() {
    if (slot_ >= 0) op_pool::instance().release(slot_);
  }
  MPI_Op native() const noexcept { return handle_; }
  error_record& errors() noexcept { return errors_; }
  void rethrow_if_failed() { errors_.rethrow_if_failed(); }

protected:
  template <class Pool = op_pool>  // a template: the pool is instantiated only when used
  void lease(op_invoke_fn fn, bool commutative) {
    slot_ = Pool::instance().acquire(fn, this, commutative, handle_);
  }
  error_record errors_;

private:
  int slot_ = -1;
  MPI_Op handle_ = MPI_OP_NULL;
};

/// A typed callable (a copy the op owns) in a slot.
template <class T, class F>
class typed_slot_op final : public slot_op_state {
public:
  template <class A>
  typed_slot_op(A&& f, bool commutative) : f_(std::forward<A>(f)) {
    lease(&invoke, commutative);
  }

private:
  static void invoke(void* ctx, void* in, void* inout, int len, MPI_Datatype type) {
    auto* self = static_cast<typed_slot_op*>(ctx);
    if (self->errors_.failed()) return;
    try {
      apply_user_op<T>(self->f_, in, inout, len, type);
    } catch (...) {
      self->errors_.capture();
    }
  }
  F f_;
};

/// A run-time callable in a slot (the bindings' director functions go through this).
template <class Fn>
class runtime_slot_op final : public slot_op_state {
public:
  runtime_slot_op(Fn f, bool commutative) : f_(std::move(f)) { lease(&invoke, commutative); }

private:
  static void invoke(void* ctx, void* in, void* inout, int len, MPI_Datatype type) {
    auto* self = static_cast<runtime_slot_op*>(ctx);
    if (self->errors_.failed()) return;
    try {
      self->f_(static_cast<const void*>(in), inout, len, type);
    } catch (...) {
      self->errors_.capture();
    }
  }
  Fn f_;
};

}  // namespace oompi::detail

#endif  // OOMPI_DETAIL_USER_OP_HPP
