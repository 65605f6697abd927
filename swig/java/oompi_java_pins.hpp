// Java wrapper support: primitive arrays copied into native memory or pinned.
// Part of oompi_java.hpp (the Java wrapper's support code), which includes the parts.
#ifndef OOMPI_SWIG_JAVA_PINS_HPP
#define OOMPI_SWIG_JAVA_PINS_HPP

#include "oompi_java_errors.hpp"
#include "oompi_java_native_pool.hpp"

#include <climits>
#include <unistd.h>

namespace oompi::java {

// --- pins ---------------------------------------------------------------------------------

// How blocking calls reach a primitive array: copied into native memory and, for receives,
// back (array_region: Get/Set<T>ArrayRegion, or from 2 KiB on copy_bytes inside a critical
// region that lasts the copy only). Not pinned across the MPI call
// (except large arrays where the collector pins regions, arrays_can_pin below):
// JDK 17's collectors lock the GC while an array is pinned, so a thread waiting in MPI with a
// pinned array stalls every thread of its JVM that needs a collection, including the one that
// would send (or, on another rank, make another thread send) the awaited message: a deadlock
// with MPI_THREAD_MULTIPLE (test java.threads). A copy costs one JNI call, as does a pin.
// MPI.setArrayCopy is kept for compatibility and changes nothing.
inline std::atomic<bool> g_copy_arrays{true};

/// A thread's native memory for array copies, reused by its calls: a few slots (a call has
/// up to three array arguments) of native_pool blocks; a slot larger than `keep` bytes goes back
/// to the pool after the call (which frees it once idle), so a thread holds little between calls.
using copy_memory = pooled_bytes;
struct copy_slots {
  static constexpr int count = 4;
  // 4 MiB ranges included: the bound before issue 29 freed and reallocated (mmap, page faults)
  // the copy of a 4 MiB array at every call.
  static constexpr std::size_t keep = std::size_t(4) << 20;
  copy_memory slot[count];
  bool busy[count] = {};
};
inline thread_local copy_slots t_copies;

// Large arrays of the send/recv fast paths (array_use) are pinned instead of copied where that
// is safe: where the collector pins just the array's region rather than locking the GC while a
// thread holds a critical region (G1 from JDK 22, JEP 423; Shenandoah, JDK 17 too), a thread
// may block in MPI with the array pinned and the other threads still collect. Asked once per
// process from NativeLoader.arraysCanPin (JDK version, collector, -Doompi.arrays=copy); JDK 17
// with G1 copies. Only on paths that make no upcall into Java (JNI forbids calls inside a
// critical region), and from pin_min bytes on, where the copies cost more than the pin.
//
//
// Elsewhere (JDK 17) a pin locks the GC (issue 29 measured what a copy costs instead: a 4 MiB
// copy in and out, 1.3-2.3x the transfer):
// - A receive whose message is matched (a blocking receive waits for it unpinned, MPI_Mprobe;
//   Message.recv; orecv) is pinned for the transfer only, at any thread level: the message has
//   been sent, and the pinned thread, inside MPI, progresses every operation of its process,
//   so completing it needs no Java thread to run (none that the GC lock could stop).
// - A send is pinned below MPI_THREAD_MULTIPLE only: a pinned send waits for its receiver to
//   post the receive, and with MULTIPLE another thread of this JVM (stopped by the GC lock)
//   may be what that receiver waits for (test java.threads deadlocked that way).
//   A blocking receive follows the send's rule for waiting pinned (recv_array: a plain
//   pinned MPI_Recv where pin_range allows, no probe).
// Port.arrayPinning says which (0 copy always, 1 pin, 2 the rules above).
inline std::atomic<int> g_pin_arrays{-1};  // -1: not asked yet
/// Ranges that MPI may wait on (sends, receives waiting pinned: pin_range) of at least this
/// many bytes are pinned where pinning is allowed; smaller ones are copied (as cheap, and no GC
/// lock). Matched receives (pin_matched_range) pin from pin_matched_min().
/// OOMPI_JAVA_PIN_MIN (bytes) overrides both, for benches.
/// Blocking ranges below array_pin_from() are copied in Java before they get here
/// (ArrayRanges.java). JavaSliceBench, 2 ranks, slice / direct buffer at 4 KiB where sends may
/// pin: pinned 1.05-1.10 (FUNNELED, Shenandoah, Temurin 25 G1) against 1.15-1.24 copied in
/// Java; a matched pinned receive measured dearer than its copy at 4 KiB (--self, FUNNELED), and
/// under JDK 17 G1 MULTIPLE (matched receives, copied sends) 4 KiB pinned measured 1.57.
inline std::size_t pin_min_from_env(std::size_t dflt) noexcept {
  const char* e = std::getenv("OOMPI_JAVA_PIN_MIN");
  return e && *e ? static_cast<std::size_t>(std::strtoull(e, nullptr, 10)) : dflt;
}
inline std::size_t pin_min() noexcept {
  static const std::size_t v = pin_min_from_env(4 * 1024);
  return v;
}
inline std::size_t pin_matched_min() noexcept {
  static const std::size_t v = pin_min_from_env(64 * 1024);
  return v;
}

inline int array_pinning(JNIEnv* env) noexcept {
  int v = g_pin_arrays.load(std::memory_order_relaxed);
  if (OOMPI_DETAIL_LIKELY(v >= 0)) return v;
  v = 0;
  jclass c = env->FindClass("org/oompi/Port");
  jmethodID m = c ? env->GetStaticMethodID(c, "arrayPinning", "()I") : nullptr;
  if (m) v = env->CallStaticIntMethod(c, m);
  if (env->ExceptionCheck()) {  // no such method (an older jar), or it failed: copy
    env->ExceptionClear();
    v = 0;
  }
  if (c) env->DeleteLocalRef(c);
  g_pin_arrays.store(v, std::memory_order_relaxed);
  return v;
}

/// MPI's thread level, asked once while MPI runs (it cannot change); -1 outside MPI_Init ..
/// MPI_Finalize when not asked yet (MPI_Query_thread there aborts the job, and a range call
/// after MPI_Finalize must reach the call's own error, an exception).
inline int mpi_thread_level() noexcept {
  static std::atomic<int> cached{-1};
  int level = cached.load(std::memory_order_relaxed);
  if (OOMPI_DETAIL_LIKELY(level >= 0)) return level;
  if (!oompi::detail::mpi_usable() || MPI_Query_thread(&level) != MPI_SUCCESS) return -1;
  cached.store(level, std::memory_order_relaxed);
  return level;
}

inline bool arrays_can_pin(JNIEnv* env) noexcept {
  switch (array_pinning(env)) {
    case 1: return true;
    case 2: {
      const int level = mpi_thread_level();
      return level >= 0 && level < MPI_THREAD_MULTIPLE;
    }
    default: return false;
  }
}

/// Whether a range of `bytes` is pinned rather than copied: one that MPI may wait on (sends,
/// unmatched receives), or one that a matched message fills (see above).
inline bool pin_range(JNIEnv* env, std::size_t bytes) noexcept {
  return bytes >= pin_min() && arrays_can_pin(env);
}
inline bool pin_matched_range(JNIEnv* env, std::size_t bytes) noexcept {
  return bytes >= pin_matched_min() && array_pinning(env) != 0;
}

/// For ArrayRanges.java: the size in bytes from which a blocking range is pinned (pin_range),
/// INT_MAX where ranges are copied, -1 before MPI_Init (the thread level is not known yet).
inline int array_pin_from(JNIEnv* env) noexcept {
  if (mpi_thread_level() < 0) return -1;
  if (!arrays_can_pin(env)) return INT_MAX;
  return static_cast<int>(std::min<std::size_t>(pin_min(), INT_MAX));
}

/// memcpy that avoids a slow case of this class of machine: glibc (2.36) copies 2112 bytes up
/// to the L2 size (its rep_movsb_stop_threshold on AMD) with `rep movsb`, which AMD Zen CPUs
/// with FSRM run 25-50x slower (about 1 GB/s) when the destination lies 1-31 bytes after the
/// source modulo 4096 (measured on an AMD EPYC: a 64 KiB copy 43-50 us instead of 2-3 us; issue
/// 29's 4 KiB and 64 KiB slices hit it through the array's offset). Such copies go in pieces
/// below the threshold (vector moves). glibc has the same guard for Intel CPUs
/// (Avoid_Short_Distance_REP_MOVSB), off for this one.
inline void copy_bytes(void* to, const void* from, std::size_t n) noexcept {
  constexpr std::size_t piece = 2048;  // below glibc's x86_rep_movsb_threshold (2112)
  const std::uintptr_t gap =
      (reinterpret_cast<std::uintptr_t>(to) - reinterpret_cast<std::uintptr_t>(from)) & 4095;
  // From the L2 size on, glibc (on AMD) copies without `rep movsb`: fast at any distance.
  static const std::size_t rep_stop = [] {
    const long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
    return l2 > 0 ? static_cast<std::size_t>(l2) : std::size_t(512) << 10;
  }();
  if (n <= piece || n >= rep_stop || gap == 0 || gap >= 64) {
    std::memcpy(to, from, n);
    return;
  }
  char* t = static_cast<char*>(to);
  const char* f = static_cast<const char*>(from);
  // Through a volatile size: a constant one lets the compiler inline `rep movs` itself.
  static volatile std::size_t piece_size = piece;
  const std::size_t k = piece_size;
  for (; n > k; n -= k, t += k, f += k) std::memcpy(t, f, k);
  std::memcpy(t, f, n);
}

/// OOMPI_JAVA_COPY=region: every range by Get/Set<Type>ArrayRegion (the JVM's memmove), for
/// benches comparing the two.
inline bool region_copies_only() noexcept {
  static const bool v = [] {
    const char* e = std::getenv("OOMPI_JAVA_COPY");
    return e && std::strcmp(e, "region") == 0;
  }();
  return v;
}

/// Copies elements [from, from + n) of `array` (of `kind`) to or from native memory at `at`
/// (element `from`'s copy). Ranges of 2 KiB and more are copied with copy_bytes inside short
/// critical regions (at most 1 MiB each, so a collection waits at most one such copy; nothing
/// in them blocks or calls JNI); smaller ones by Get/Set<Type>ArrayRegion (one JNI call).
inline void array_region(JNIEnv* env, jarray array, rt::type_kind kind, bool back_to_java,
                         jsize from, jsize n, void* at) noexcept {
  if (n <= 0) return;
  const std::size_t size = static_cast<std::size_t>(rt::detail::builtin_size(kind));
  if (static_cast<std::size_t>(n) * size >= 2048 && size > 0 && !region_copies_only()) {
    const jsize step = static_cast<jsize>((std::size_t(1) << 20) / size);
    char* native = static_cast<char*>(at);
    for (jsize i = 0; i < n;) {
      const jsize m = std::min(step, n - i);
      void* p = env->GetPrimitiveArrayCritical(array, nullptr);
      if (!p) {  // not expected of HotSpot; the rest by the region calls below
        env->ExceptionClear();
        from += i;
        n -= i;
        at = native;
        break;
      }
      char* e = static_cast<char*>(p) + static_cast<std::size_t>(from + i) * size;
      const std::size_t bytes = static_cast<std::size_t>(m) * size;
      if (back_to_java) copy_bytes(e, native, bytes);
      else copy_bytes(native, e, bytes);
      env->ReleasePrimitiveArrayCritical(array, p, back_to_java ? 0 : JNI_ABORT);
      native += bytes;
      i += m;
      if (i == n) return;
    }
  }
  switch (kind) {
#define OOMPI_JAVA_REGION(K, JT, Name)                                                        \
  case rt::type_kind::K:                                                                   \
    if (back_to_java)                                                                      \
      env->Set##Name##ArrayRegion(static_cast<JT##Array>(array), from, n,                  \
                                  reinterpret_cast<const JT*>(at));                        \
    else                                                                                   \
      env->Get##Name##ArrayRegion(static_cast<JT##Array>(array), from, n, reinterpret_cast<JT*>(at)); \
    break;
    case rt::type_kind::byte:   // osend's byte[] (MPI_BYTE)
    case rt::type_kind::uint8:
    OOMPI_JAVA_REGION(int8, jbyte, Byte)
    OOMPI_JAVA_REGION(int16, jshort, Short)
    OOMPI_JAVA_REGION(uint16, jchar, Char)
    OOMPI_JAVA_REGION(int32, jint, Int)
    OOMPI_JAVA_REGION(int64, jlong, Long)
    OOMPI_JAVA_REGION(float32, jfloat, Float)
    OOMPI_JAVA_REGION(float64, jdouble, Double)
    OOMPI_JAVA_REGION(boolean, jboolean, Boolean)
#undef OOMPI_JAVA_REGION
    default: break;
  }
}

struct pin {
  JNIEnv* env = nullptr;
  jarray array = nullptr;
  void* ptr = nullptr;
  bool writable = false;
  bool copy_in = true;    // false: a receive that copies back only what arrived (done())
  jsize first = 0;        // the range's first element (a copy holds it at ptr)
  jsize length = -1;      // elements of the range (-1: the whole array, asked of the JVM)
  jsize back = -1;        // elements copied back (-1: all)
  rt::type_kind kind = rt::type_kind::byte;
  int slot = -1;          // t_copies' slot, or -1 with `own` or `small`
  bool pinned = false;    // ptr is the array itself (GetPrimitiveArrayCritical)
  copy_memory own;
  alignas(16) char small[256];  // small arrays: no thread-local lookup, no allocation

  pin() = default;
  pin(const pin&) = delete;
  pin& operator=(const pin&) = delete;
  ~pin() { release(); }

  /// Copies the range [first, first + length) into native memory (a receive without copy_in:
  /// nothing copied yet) and points b.data at its first element. False with a Java exception
  /// pending.
  bool acquire(JNIEnv* e, rt::buffer& b) noexcept {
    env = e;
    if (length < 0) {
      first = 0;
      length = env->GetArrayLength(array);
    }
    const std::size_t bytes =
        static_cast<std::size_t>(length) * static_cast<std::size_t>(rt::detail::builtin_size(kind));
    if (bytes <= sizeof small) {
      ptr = small;
    } else {
      copy_memory* v = &own;
      copy_slots& cs = t_copies;
      for (int i = 0; i < copy_slots::count; ++i)
        if (!cs.busy[i]) {
          slot = i;
          cs.busy[i] = true;
          v = &cs.slot[i];
          break;
        }
      if (!v->reserve(bytes)) {
        if (slot >= 0) cs.busy[slot] = false;
        slot = -1;
        throw_java(env, "java/lang/OutOfMemoryError", "oompi: no native memory to copy the array");
        return false;
      }
      ptr = v->get();
    }
    if (copy_in || !writable) region(false, 0, length);
    else back = 0;  // until done(): an error copies nothing back
    b.data = ptr;
    return true;
  }

  /// Pins the array (see arrays_can_pin) and points b.data at the range's first element.
  /// False with a Java exception pending.
  bool pin_array(JNIEnv* e, rt::buffer& b) noexcept {
    env = e;
    ptr = env->GetPrimitiveArrayCritical(array, nullptr);
    if (!ptr) {
      if (!env->ExceptionCheck())
        throw_java(env, "java/lang/OutOfMemoryError", "oompi: the array could not be pinned");
      return false;
    }
    pinned = true;
    b.data = static_cast<char*>(ptr) + std::int64_t(first) * rt::detail::builtin_size(kind);
    return true;
  }

  /// A receive without copy_in completed with `bytes` bytes: those are copied back (a partial
  /// last element merged with the array's own bytes).
  void done(std::int64_t bytes) noexcept {
    if (pinned) return;  // received in place
    const std::int64_t size = rt::detail::builtin_size(kind);
    bytes = std::max<std::int64_t>(0, std::min<std::int64_t>(bytes, std::int64_t(length) * size));
    back = static_cast<jsize>(bytes / size);
    if (const std::int64_t part = bytes % size) {
      char tmp[16];
      char* last = static_cast<char*>(ptr) + std::int64_t(back) * size;
      std::memcpy(tmp, last, static_cast<std::size_t>(part));
      region(false, back, 1);
      std::memcpy(last, tmp, static_cast<std::size_t>(part));
      ++back;
    }
  }

  /// Copies back (a receive that did not fail: no Java exception pending, for which JNI allows
  /// no array call) and gives the memory back. Runs when the wrapper returns: a user function
  /// called back from inside the MPI call (a nested wrapper) leaves the outer call's copies alone.
  void release() noexcept {
    if (!ptr) return;
    if (pinned) {  // first: no other JNI call inside the critical region
      env->ReleasePrimitiveArrayCritical(array, ptr, writable ? 0 : JNI_ABORT);
      pinned = false;
      ptr = nullptr;
      return;
    }
    if (writable && !env->ExceptionCheck()) region(true, 0, back < 0 ? length : back);
    if (slot >= 0) {
      copy_slots& cs = t_copies;
      if (cs.slot[slot].size() > copy_slots::keep) cs.slot[slot].reset();
      cs.busy[slot] = false;
      slot = -1;
    }
    ptr = nullptr;
  }

private:
  /// Elements [from, from + n) of the range between the array and the copy.
  void region(bool back_to_java, jsize from, jsize n) noexcept {
    array_region(env, array, kind, back_to_java, first + from, n,
                 static_cast<char*>(ptr) + std::int64_t(from) * rt::detail::builtin_size(kind));
  }
};

/// The address of a direct buffer, for the Port fast paths (whose Java side has checked
/// isDirect() and non-null): a read of java.nio.Buffer.address, which HotSpot serves without
/// leaving Java's thread state. GetDirectBufferAddress checks the object's class first (an
/// IsInstanceOf through the VM), a large share of an 8-byte send. Falls back to it on a JVM
/// without that field.
inline void* direct_address_of(JNIEnv* env, jobject buf) {
  static const jfieldID field = [env] {
    jclass c = env->FindClass("java/nio/Buffer");
    jfieldID id = c ? env->GetFieldID(c, "address", "J") : nullptr;
    if (!id) env->ExceptionClear();
    if (c) env->DeleteLocalRef(c);
    return id;
  }();
  if (field) return reinterpret_cast<void*>(static_cast<std::intptr_t>(env->GetLongField(buf, field)));
  return env->GetDirectBufferAddress(buf);
}

}  // namespace oompi::java

#endif  // OOMPI_SWIG_JAVA_PINS_HPP
