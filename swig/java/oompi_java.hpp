// Support code compiled into the Java wrapper (liboompi_java.so): run-time buffers from Java
// objects, array pinning, exception translation.
//
// Buffers: a Java buffer argument is an Object: a primitive array or a direct java.nio buffer
// (its elements [position, limit)). Arrays are copied into native memory in the `check`
// typemap, after every argument has been converted, and copied back (receives) when the
// wrapper returns (not on the error path); never pinned across the call (see pin). The calls
// with an offset and a count (Port.java's paths, array_use) touch only that range of the array
// (issue 29): copied, or pinned where that is safe and large enough (array_pinning).
#ifndef OOMPI_SWIG_JAVA_HPP
#define OOMPI_SWIG_JAVA_HPP

#include <oompi/rt/rt.hpp>
#include <oompi/detail/object_match.hpp>

#include <jni.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <vector>

namespace oompi::java {

// --- exceptions -------------------------------------------------------------------------

inline void throw_java(JNIEnv* env, const char* cls, const std::string& msg) noexcept {
  if (env->ExceptionCheck()) return;  // keep the first exception
  jclass c = env->FindClass(cls);
  if (!c) return;  // FindClass left NoClassDefFoundError pending
  env->ThrowNew(c, msg.c_str());
  env->DeleteLocalRef(c);
}

inline void throw_mpi(JNIEnv* env, const oompi::error& e) noexcept {
  if (env->ExceptionCheck()) return;
  jclass c = env->FindClass("org/oompi/MPIException");
  if (!c) return;
  jmethodID ctor = env->GetMethodID(c, "<init>", "(Ljava/lang/String;IILjava/lang/String;)V");
  jstring msg = env->NewStringUTF(e.what());
  jstring routine = env->NewStringUTF(e.routine().c_str());
  if (ctor && msg && routine) {
    auto ex = static_cast<jthrowable>(
        env->NewObject(c, ctor, msg, static_cast<jint>(e.error_class()), static_cast<jint>(e.code()), routine));
    if (ex) env->Throw(ex);
  }
}

// --- pins ---------------------------------------------------------------------------------

// How blocking calls reach a primitive array: copied into native memory (Get<T>ArrayRegion)
// and, for receives, back (Set<T>ArrayRegion). Not pinned with GetPrimitiveArrayCritical
// (except large arrays where the collector pins regions, arrays_can_pin below):
// JDK 17's collectors lock the GC while an array is pinned, so a thread waiting in MPI with a
// pinned array stalls every thread of its JVM that needs a collection, including the one that
// would send (or, on another rank, make another thread send) the awaited message: a deadlock
// with MPI_THREAD_MULTIPLE (test java.threads). A copy costs one JNI call, as does a pin.
// MPI.setArrayCopy is kept for compatibility and changes nothing.
inline std::atomic<bool> g_copy_arrays{true};

/// A thread's native memory for array copies, reused by its calls: a few slots (a call has
/// up to three array arguments); larger copies than `keep` bytes are freed after the call.
struct copy_memory {
  std::unique_ptr<char[]> data;  // not zeroed: the copy overwrites what MPI reads
  std::size_t size = 0;
  bool reserve(std::size_t n) noexcept {
    if (n <= size) return true;
    data.reset(new (std::nothrow) char[n]);
    size = data ? n : 0;
    return size != 0;
  }
};
struct copy_slots {
  static constexpr int count = 4;
  // 4 MiB arrays included (a copy is one byte longer than the array): the former bound freed
  // and reallocated the copy of a 4 MiB array at every call.
  static constexpr std::size_t keep = (std::size_t(4) << 20) + 1;
  copy_memory slot[count];
  bool busy[count] = {};
};
inline thread_local copy_slots t_copies;

// Large arrays of the send/recv fast paths (array_use) are pinned instead of copied where that
// is safe: where the collector pins just the array's region rather than locking the GC while a
// thread holds a critical region (G1 from JDK 22, JEP 423), a thread may block in MPI with the
// array pinned and the other threads still collect. Asked once per process from
// NativeLoader.arraysCanPin (JDK version, collector, -Doompi.arrays=copy); JDK 17 copies. Only
// on paths that make no upcall into Java (JNI forbids calls inside a critical region), and from
// pin_min bytes on, where the copies cost more than the pin.
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
// Port.arrayPinning says which (0 copy always, 1 pin, 2 the rules above).
inline std::atomic<int> g_pin_arrays{-1};  // -1: not asked yet
/// Ranges of at least this many bytes are pinned where pinning is allowed; smaller ones are
/// copied (as cheap, and no GC lock). OOMPI_JAVA_PIN_MIN (bytes) overrides it, for benches.
inline std::size_t pin_min() noexcept {
  static const std::size_t v = [] {
    const char* e = std::getenv("OOMPI_JAVA_PIN_MIN");
    return e && *e ? static_cast<std::size_t>(std::strtoull(e, nullptr, 10)) : std::size_t(64 * 1024);
  }();
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

inline bool arrays_can_pin(JNIEnv* env) noexcept {
  switch (array_pinning(env)) {
    case 1: return true;
    case 2: {
      int level = MPI_THREAD_MULTIPLE;
      return MPI_Query_thread(&level) == MPI_SUCCESS && level < MPI_THREAD_MULTIPLE;
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
  return bytes >= pin_min() && array_pinning(env) != 0;
}

/// Copies elements [from, from + n) of `array` (of `kind`) to or from native memory at `at`
/// (element `from`'s copy).
inline void array_region(JNIEnv* env, jarray array, rt::type_kind kind, bool back_to_java,
                         jsize from, jsize n, void* at) noexcept {
  if (n <= 0) return;
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
        static_cast<std::size_t>(length) * static_cast<std::size_t>(rt::detail::builtin_size(kind)) + 1;
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
      ptr = v->data.get();
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
      if (cs.slot[slot].size > copy_slots::keep) cs.slot[slot] = copy_memory();
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

// --- classifying buffer objects -------------------------------------------------------------

struct class_info {
  jclass cls = nullptr;  // global reference
  rt::type_kind kind = rt::type_kind::byte;
  bool is_array = false;
  bool direct = false;
  bool swapped = false;  // not in native byte order
  bool read_only = false;
  bool is_typed = false;  // org.oompi.TypedBuffer: another buffer with an explicit datatype
  bool segment = false;   // java.lang.foreign.MemorySegment (JDK 22+): bytes
};

class class_cache {
public:
  explicit class_cache(JNIEnv* env) {
    env->GetJavaVM(&vm);
    jclass buf = env->FindClass("java/nio/Buffer");
    buffer_cls = static_cast<jclass>(env->NewGlobalRef(buf));
    position = env->GetFieldID(buf, "position", "I");
    limit = env->GetFieldID(buf, "limit", "I");
    is_direct = env->GetMethodID(buf, "isDirect", "()Z");
    is_read_only = env->GetMethodID(buf, "isReadOnly", "()Z");
    const struct {
      const char* name;
      rt::type_kind kind;
    } arrays[] = {{"[D", rt::type_kind::float64}, {"[I", rt::type_kind::int32},
                  {"[J", rt::type_kind::int64},   {"[F", rt::type_kind::float32},
                  {"[B", rt::type_kind::int8},    {"[S", rt::type_kind::int16},
                  {"[C", rt::type_kind::uint16},  {"[Z", rt::type_kind::boolean}};
    for (const auto& a : arrays) {
      class_info ci;
      jclass c = env->FindClass(a.name);
      ci.cls = static_cast<jclass>(env->NewGlobalRef(c));
      env->DeleteLocalRef(c);
      ci.kind = a.kind;
      ci.is_array = true;
      add(ci);
    }
    env->DeleteLocalRef(buf);
    // The FFM API's MemorySegment (final in JDK 22): looked up by name, so the library and
    // oompi.jar still build and run on JDK 17, where the class does not exist.
    if (jclass seg = env->FindClass("java/lang/foreign/MemorySegment")) {
      segment_cls = static_cast<jclass>(env->NewGlobalRef(seg));
      seg_is_native = env->GetMethodID(seg, "isNative", "()Z");
      seg_address = env->GetMethodID(seg, "address", "()J");
      seg_size = env->GetMethodID(seg, "byteSize", "()J");
      seg_read_only = env->GetMethodID(seg, "isReadOnly", "()Z");
      seg_scope = env->GetMethodID(seg, "scope", "()Ljava/lang/foreign/MemorySegment$Scope;");
      jclass scope = env->FindClass("java/lang/foreign/MemorySegment$Scope");
      scope_alive = scope ? env->GetMethodID(scope, "isAlive", "()Z") : nullptr;
      if (scope) env->DeleteLocalRef(scope);
      env->DeleteLocalRef(seg);
      if (!seg_is_native || !seg_address || !seg_size || !seg_read_only || !seg_scope ||
          !scope_alive)
        segment_cls = nullptr;
    }
    env->ExceptionClear();  // NoClassDefFoundError (JDK < 22) or NoSuchMethodError (a preview)
    jclass tb = env->FindClass("org/oompi/TypedBuffer");
    if (tb) {
      typed_buffer = env->GetFieldID(tb, "buffer", "Ljava/lang/Object;");
      typed_count = env->GetFieldID(tb, "count", "J");
      typed_type = env->GetFieldID(tb, "type", "Lorg/oompi/Datatype;");
      jclass dt = env->FindClass("org/oompi/Datatype");
      datatype_ptr = env->GetFieldID(dt, "swigCPtr", "J");  // 0 once closed
      env->DeleteLocalRef(dt);
      class_info ci;
      ci.cls = static_cast<jclass>(env->NewGlobalRef(tb));
      ci.is_typed = true;
      add(ci);
      env->DeleteLocalRef(tb);
    }
  }

  /// The info of obj's class, or nullptr with a Java exception pending. A buffer argument is
  /// usually of the same class as the previous one on this thread: try that first, with one
  /// JNI call for arrays (primitive array classes have no subclasses) and two for buffers.
  const class_info* lookup(JNIEnv* env, jobject obj) {
    static thread_local const class_info* last_array __attribute__((tls_model("initial-exec"))) = nullptr;
    static thread_local const class_info* last_buffer __attribute__((tls_model("initial-exec"))) = nullptr;
    // One class fetch serves both caches (array classes are final, so an exact match is enough).
    if (last_array || last_buffer) {
      jclass c = env->GetObjectClass(obj);
      const class_info* hit = nullptr;
      if (last_buffer && env->IsSameObject(c, last_buffer->cls)) hit = last_buffer;
      else if (last_array && env->IsSameObject(c, last_array->cls)) hit = last_array;
      env->DeleteLocalRef(c);
      if (hit) return hit;
    }
    const class_info* ci = lookup_exact(env, obj);
    if (ci) (ci->is_array ? last_array : last_buffer) = ci;
    return ci;
  }

  const class_info* lookup_exact(JNIEnv* env, jobject obj) {
    jclass c = env->GetObjectClass(obj);
    const int n = count_.load(std::memory_order_acquire);
    for (int i = 0; i < n; ++i)
      if (env->IsSameObject(c, entries_[i].cls)) {
        env->DeleteLocalRef(c);
        return &entries_[i];
      }
    const class_info* ci = learn(env, obj, c);
    env->DeleteLocalRef(c);
    return ci;
  }

  JavaVM* vm = nullptr;
  jclass buffer_cls = nullptr;
  jfieldID position = nullptr, limit = nullptr;
  jfieldID typed_buffer = nullptr, typed_count = nullptr, typed_type = nullptr;
  jfieldID datatype_ptr = nullptr;
  jclass segment_cls = nullptr;  // null before JDK 22
  jmethodID seg_is_native = nullptr, seg_address = nullptr, seg_size = nullptr,
            seg_read_only = nullptr, seg_scope = nullptr, scope_alive = nullptr;

private:
  static constexpr int capacity = 64;

  void add(const class_info& ci) {
    const int n = count_.load(std::memory_order_relaxed);
    if (n >= capacity) return;  // not cached: looked up again next time
    entries_[n] = ci;
    count_.store(n + 1, std::memory_order_release);
  }

  const class_info* learn(JNIEnv* env, jobject obj, jclass c) {
    class_info ci;
    if (segment_cls && env->IsInstanceOf(obj, segment_cls)) {
      ci.segment = true;  // kind byte; native or heap, read-only: asked per object (describe)
      return remember(env, c, ci);
    }
    if (!env->IsInstanceOf(obj, buffer_cls)) {
      jclass cc = env->GetObjectClass(c);
      jmethodID get_name = env->GetMethodID(cc, "getName", "()Ljava/lang/String;");
      auto name = static_cast<jstring>(env->CallObjectMethod(c, get_name));
      std::string n = "?";
      if (name) {
        const char* s = env->GetStringUTFChars(name, nullptr);
        n = s;
        env->ReleaseStringUTFChars(name, s);
      }
      throw_java(env, "java/lang/IllegalArgumentException",
                 "oompi: a buffer must be a primitive array, a direct java.nio buffer or a "
                 "native MemorySegment, not " + n);
      return nullptr;
    }
    const struct {
      const char* name;
      rt::type_kind kind;
    } kinds[] = {{"java/nio/ByteBuffer", rt::type_kind::byte},
                 {"java/nio/DoubleBuffer", rt::type_kind::float64},
                 {"java/nio/IntBuffer", rt::type_kind::int32},
                 {"java/nio/LongBuffer", rt::type_kind::int64},
                 {"java/nio/FloatBuffer", rt::type_kind::float32},
                 {"java/nio/ShortBuffer", rt::type_kind::int16},
                 {"java/nio/CharBuffer", rt::type_kind::uint16}};
    bool found = false;
    for (const auto& k : kinds) {
      jclass kc = env->FindClass(k.name);
      const bool is = env->IsInstanceOf(obj, kc);
      env->DeleteLocalRef(kc);
      if (is) {
        ci.kind = k.kind;
        found = true;
        break;
      }
    }
    if (!found) {
      throw_java(env, "java/lang/IllegalArgumentException", "oompi: unsupported java.nio buffer type");
      return nullptr;
    }
    ci.direct = env->CallBooleanMethod(obj, is_direct);
    ci.read_only = env->CallBooleanMethod(obj, is_read_only);
    if (ci.kind != rt::type_kind::byte) {
      // The byte order of a view buffer is fixed by its class (…U native, …S swapped).
      jclass bc = env->GetObjectClass(obj);
      jmethodID order = env->GetMethodID(bc, "order", "()Ljava/nio/ByteOrder;");
      jobject o = env->CallObjectMethod(obj, order);
      jclass bo = env->FindClass("java/nio/ByteOrder");
      jmethodID native_order = env->GetStaticMethodID(bo, "nativeOrder", "()Ljava/nio/ByteOrder;");
      jobject no = env->CallStaticObjectMethod(bo, native_order);
      ci.swapped = !env->IsSameObject(o, no);
      env->DeleteLocalRef(bc);
      env->DeleteLocalRef(o);
      env->DeleteLocalRef(no);
      env->DeleteLocalRef(bo);
    }
    if (env->ExceptionCheck()) return nullptr;
    return remember(env, c, ci);
  }

  const class_info* remember(JNIEnv* env, jclass c, class_info ci) {
    std::lock_guard<std::mutex> lock(mutex_);
    // Re-check under the lock: another thread may have learnt the class meanwhile.
    const int n = count_.load(std::memory_order_acquire);
    for (int i = 0; i < n; ++i)
      if (env->IsSameObject(c, entries_[i].cls)) return &entries_[i];
    ci.cls = static_cast<jclass>(env->NewGlobalRef(c));
    if (n >= capacity) {
      // Full: answer from a thread-local slot (rare; only with very many buffer classes).
      thread_local class_info spare;
      spare = ci;
      return &spare;
    }
    add(ci);
    return &entries_[n];
  }

  jmethodID is_direct = nullptr, is_read_only = nullptr;
  class_info entries_[capacity];
  std::atomic<int> count_{0};
  std::mutex mutex_;
};

inline class_cache& classes(JNIEnv* env) {
  static class_cache* c = new class_cache(env);  // lives as long as the library
  return *c;
}

inline bool describe_typed(JNIEnv* env, jobject obj, bool writable, bool async, rt::buffer& b,
                           pin& p);

/// A MemorySegment as bytes (Buffers.typed gives it another datatype). Only native segments
/// (Arena.allocate, mapped files) have an address that stays put; a heap segment wraps a Java
/// array that the GC moves, and is refused rather than copied (arrays are the way to send those).
/// The segment's arena must be open (checked) and stay open until the operation completes:
/// closing it frees the memory under MPI, as freeing any buffer would.
inline bool describe_segment(JNIEnv* env, class_cache& cc, jobject obj, bool writable,
                             rt::buffer& b) {
  const bool native = env->CallBooleanMethod(obj, cc.seg_is_native);
  if (env->ExceptionCheck()) return false;
  if (!native) {
    throw_java(env, "java/lang/IllegalArgumentException",
               "oompi: a heap MemorySegment (MemorySegment.ofArray) has no fixed address; use a "
               "native segment (Arena.allocate) or pass the array itself");
    return false;
  }
  if (writable && env->CallBooleanMethod(obj, cc.seg_read_only)) {
    throw_java(env, "java/lang/IllegalArgumentException",
               "oompi: cannot receive into a read-only MemorySegment");
    return false;
  }
  jobject scope = env->CallObjectMethod(obj, cc.seg_scope);
  const bool alive = scope && env->CallBooleanMethod(scope, cc.scope_alive);
  if (scope) env->DeleteLocalRef(scope);
  if (env->ExceptionCheck()) return false;
  if (!alive) {
    throw_java(env, "java/lang/IllegalStateException",
               "oompi: the MemorySegment's arena is closed (its memory is freed)");
    return false;
  }
  const jlong address = env->CallLongMethod(obj, cc.seg_address);
  const jlong size = env->CallLongMethod(obj, cc.seg_size);
  if (env->ExceptionCheck()) return false;
  b.data = reinterpret_cast<void*>(static_cast<std::intptr_t>(address));
  b.type = rt::detail::builtin_type(rt::type_kind::byte);
  b.extent = 1;
  b.count = size;
  return true;
}

/// Describes a Java buffer object. For an array, `p` records it and the check typemap pins
/// it. False with a Java exception pending.
inline bool describe(JNIEnv* env, jobject obj, bool writable, bool async, rt::buffer& b, pin& p) {
  if (!obj) {
    throw_java(env, "java/lang/NullPointerException", "oompi: the buffer is null");
    return false;
  }
  class_cache& cc = classes(env);
  const class_info* ci = cc.lookup(env, obj);
  if (!ci) return false;
  if (ci->is_typed) return describe_typed(env, obj, writable, async, b, p);
  if (ci->segment) return describe_segment(env, cc, obj, writable, b);
  b.type = rt::detail::builtin_type(ci->kind);
  b.extent = rt::detail::builtin_size(ci->kind);
  if (ci->is_array) {
    if (async) {
      throw_java(env, "java/lang/IllegalArgumentException",
                 "oompi: a Java array can move during garbage collection, so it cannot be the "
                 "buffer of a persistent request (send_init, recv_init ...) nor receive a "
                 "one-sided result (get, get_accumulate, fetch_and_op, compare_and_swap) or be "
                 "window memory; use a direct buffer (Buffers.newDoubleBuffer(n), "
                 "ByteBuffer.allocateDirect(n).order(ByteOrder.nativeOrder()))");
      return false;
    }
    b.count = env->GetArrayLength(static_cast<jarray>(obj));
    b.data = nullptr;  // set by pin::acquire
    p.array = static_cast<jarray>(obj);
    p.length = static_cast<jsize>(b.count);
    p.writable = writable;
    p.kind = ci->kind;
    return true;
  }
  if (!ci->direct) {
    throw_java(env, "java/lang/IllegalArgumentException",
               "oompi: a heap java.nio buffer has no fixed address; use a direct buffer "
               "(ByteBuffer.allocateDirect, Buffers.new*Buffer) or a primitive array");
    return false;
  }
  if (ci->swapped) {
    throw_java(env, "java/lang/IllegalArgumentException",
               "oompi: this buffer is not in native byte order; create it from "
               "ByteBuffer.allocateDirect(n).order(ByteOrder.nativeOrder()) or with "
               "Buffers.new*Buffer(n)");
    return false;
  }
  if (writable && ci->read_only) {
    throw_java(env, "java/lang/IllegalArgumentException",
               "oompi: cannot receive into a read-only buffer");
    return false;
  }
  char* base = static_cast<char*>(env->GetDirectBufferAddress(obj));
  const jint pos = env->GetIntField(obj, cc.position);
  const jint lim = env->GetIntField(obj, cc.limit);
  b.data = base + static_cast<std::int64_t>(pos) * b.extent;
  b.count = lim - pos;
  return true;
}

inline void translate(JNIEnv* env) noexcept;

/// A TypedBuffer: its buffer described as usual, then seen as `count` elements of its datatype
/// (bounds checked by rt::retype). Its constructor refuses a TypedBuffer inside a TypedBuffer.
inline bool describe_typed(JNIEnv* env, jobject obj, bool writable, bool async, rt::buffer& b,
                           pin& p) {
  class_cache& cc = classes(env);
  jobject inner = env->GetObjectField(obj, cc.typed_buffer);
  const jlong count = env->GetLongField(obj, cc.typed_count);
  jobject t = env->GetObjectField(obj, cc.typed_type);
  const auto* type = reinterpret_cast<const rt::datatype*>(env->GetLongField(t, cc.datatype_ptr));
  env->DeleteLocalRef(t);
  // `inner` stays a live local reference: the pin holds it until the call returns.
  if (!describe(env, inner, writable, async, b, p)) return false;
  if (!type) {
    throw_java(env, "java/lang/IllegalStateException", "oompi: typed buffer: the datatype is closed");
    return false;
  }
  try {
    std::int64_t n = count;
    if (n < 0) {  // as many whole elements as fit
      const std::int64_t ext = type->extent();
      n = ext > 0 ? b.count * b.extent / ext : 0;
    }
    rt::retype(b, *type, n, "oompi: typed buffer");
    return true;
  } catch (...) {
    translate(env);
    return false;
  }
}

/// Keeps a direct buffer reachable (so its memory is not freed) until the request completes.
struct global_ref_keep final : rt::keep_alive {
  JavaVM* vm;
  jobject ref;
  global_ref_keep(JNIEnv* env, jobject obj) : ref(env->NewGlobalRef(obj)) { env->GetJavaVM(&vm); }
  ~global_ref_keep() override {
    JNIEnv* env = nullptr;
    if (vm->GetEnv(reinterpret_cast<void**>(&env), JNI_VERSION_1_6) != JNI_OK &&
        vm->AttachCurrentThreadAsDaemon(reinterpret_cast<void**>(&env), nullptr) != JNI_OK)
      return;
    env->DeleteGlobalRef(ref);
  }
};

/// A Java array used by a nonblocking operation (isend, irecv, the i-collectives, file
/// iread/iwrite): the collector may move the array at any time, and pinning it for the
/// operation's whole life would stall the collector (BINDINGS-NOTES trap 3). So MPI works on a
/// native copy, filled from the array at the call; a receive copies it back into the array when
/// the operation completes (this keep-alive is destroyed then: wait/test or a request set, or
/// the reclaim of a request dropped while pending), so the array holds the data when waitFor()
/// returns. A global reference keeps the array alive until then. Send-side copies are not
/// copied back.
struct array_copy_keep final : rt::keep_alive {
  JavaVM* vm = nullptr;
  jarray array = nullptr;  // a global reference
  rt::type_kind kind = rt::type_kind::byte;
  jsize first = 0;  // the range copied: [first, first + length)
  jsize length = 0;
  bool copy_back = false;
  std::unique_ptr<char[]> bytes;
  ~array_copy_keep() override {
    JNIEnv* env = nullptr;
    if (vm->GetEnv(reinterpret_cast<void**>(&env), JNI_VERSION_1_6) != JNI_OK &&
        vm->AttachCurrentThreadAsDaemon(reinterpret_cast<void**>(&env), nullptr) != JNI_OK)
      return;
    if (copy_back) {
      // JNI allows no array call with an exception pending: set it aside meanwhile.
      jthrowable pending = env->ExceptionOccurred();
      if (pending) env->ExceptionClear();
      array_region(env, array, kind, true, first, length, bytes.get());
      if (pending) {
        env->Throw(pending);
        env->DeleteLocalRef(pending);
      }
    }
    env->DeleteGlobalRef(array);
  }
};

/// Describes the buffer of a nonblocking operation: a direct buffer in place (kept reachable),
/// a primitive array through a native copy (array_copy_keep). `persistent` (send_init,
/// recv_init ...): arrays are refused, since a copy made now would not see the array's later
/// contents at each start(). False with a Java exception pending.
/// Elements [first, first + count) of `array` through a native copy (array_copy_keep) for a
/// nonblocking operation: b describes the copy. False with a Java exception pending.
inline bool copy_async_range(JNIEnv* env, jarray array, rt::type_kind kind, jsize first,
                             jsize count, bool writable, rt::async_buffer& b) {
  auto k = std::make_unique<array_copy_keep>();
  env->GetJavaVM(&k->vm);
  k->kind = kind;
  k->first = first;
  k->length = count;
  const std::size_t n =
      static_cast<std::size_t>(count) * static_cast<std::size_t>(rt::detail::builtin_size(kind));
  k->bytes.reset(new (std::nothrow) char[n ? n : 1]);
  if (!k->bytes) {
    throw_java(env, "java/lang/OutOfMemoryError", "oompi: no native memory to copy the array");
    return false;
  }
  array_region(env, array, kind, false, first, count, k->bytes.get());
  k->array = static_cast<jarray>(env->NewGlobalRef(array));
  if (!k->array) {
    throw_java(env, "java/lang/OutOfMemoryError", "oompi: no global reference for the array");
    return false;
  }
  k->copy_back = writable;
  b.data = k->bytes.get();
  b.count = count;
  b.type = rt::detail::builtin_type(kind);
  b.extent = rt::detail::builtin_size(kind);
  b.keep = std::move(k);
  return true;
}

inline bool describe_async(JNIEnv* env, jobject obj, bool writable, bool persistent,
                           rt::async_buffer& b) {
  pin p;
  if (!describe(env, obj, writable, persistent, b, p)) return false;
  if (!p.array) {
    b.keep.reset(new global_ref_keep(env, obj));
    return true;
  }
  // A TypedBuffer over an array keeps its datatype: only the memory is swapped for the copy.
  const MPI_Datatype type = b.type;
  const std::int64_t count = b.count, extent = b.extent;
  if (!copy_async_range(env, p.array, p.kind, 0, p.length, writable, b)) return false;
  b.type = type;
  b.count = count;
  b.extent = extent;
  return true;
}

/// Native memory holding a copy of a Java array for a one-sided origin.
struct native_copy final : rt::keep_alive {
  std::unique_ptr<char[]> bytes;
};

/// The origin of a one-sided operation (put, accumulate, the value of fetch_and_op ...), which
/// MPI reads until the synchronisation that completes it, long after the call returns. A
/// direct buffer is used in place and kept reachable; a primitive array is copied now into
/// native memory that the window holds until then (the array may change or move meanwhile).
/// False with a Java exception pending.
/// Elements [first, first + count) of `array` copied into native memory that `b` owns (keep).
inline bool rma_copy_range(JNIEnv* env, jarray array, rt::type_kind kind, jsize first, jsize count,
                           rt::async_buffer& b) {
  auto copy = std::make_unique<native_copy>();
  const std::size_t n =
      static_cast<std::size_t>(count) * static_cast<std::size_t>(rt::detail::builtin_size(kind));
  copy->bytes.reset(new (std::nothrow) char[n ? n : 1]);
  if (!copy->bytes) {
    throw_java(env, "java/lang/OutOfMemoryError", "oompi: no native memory to copy the array");
    return false;
  }
  array_region(env, array, kind, false, first, count, copy->bytes.get());
  b.data = copy->bytes.get();
  b.count = count;
  b.type = rt::detail::builtin_type(kind);
  b.extent = rt::detail::builtin_size(kind);
  b.keep = std::move(copy);
  return true;
}

inline bool describe_rma_origin(JNIEnv* env, jobject obj, rt::async_buffer& b) {
  pin p;
  if (!describe(env, obj, false, false, b, p)) return false;
  if (!p.array) {
    b.keep.reset(new global_ref_keep(env, obj));
    return true;
  }
  const MPI_Datatype type = b.type;  // a TypedBuffer's datatype stays
  const std::int64_t count = b.count, extent = b.extent;
  if (!rma_copy_range(env, p.array, p.kind, 0, p.length, b)) return false;
  b.type = type;
  b.count = count;
  b.extent = extent;
  return true;
}

/// A status as the long[] that org.oompi.Status is made from: {source, tag, error, cancelled,
/// count in bytes}.
inline jlongArray status_array(JNIEnv* env, const rt::status& s) noexcept {
  jlongArray a = env->NewLongArray(5);
  if (!a) return nullptr;  // OutOfMemoryError pending
  const jlong v[5] = {s.source(), s.tag(), s.error(), s.cancelled() ? 1 : 0, s.count_bytes()};
  env->SetLongArrayRegion(a, 0, 5, v);
  return a;
}

/// Turns the C++ exception in flight into a pending Java exception.
/// A Java exception thrown by a user function (a director upcall inside MPI): carried as a C++
/// exception through the core's trampoline to the collective, which throws the same Throwable
/// again in Java (translate below).
class java_error : public std::exception {
public:
  java_error(JNIEnv* env, jthrowable t) {
    JavaVM* vm = nullptr;
    env->GetJavaVM(&vm);
    ref_ = std::shared_ptr<_jobject>(env->NewGlobalRef(t), [vm](jobject r) {
      JNIEnv* e = nullptr;
      if (r && vm && vm->GetEnv(reinterpret_cast<void**>(&e), JNI_VERSION_1_6) == JNI_OK)
        e->DeleteGlobalRef(r);
    });
  }
  const char* what() const noexcept override { return "oompi: a Java user function threw"; }
  jthrowable throwable() const noexcept { return static_cast<jthrowable>(ref_.get()); }

private:
  std::shared_ptr<_jobject> ref_;
};

inline void translate(JNIEnv* env) noexcept {
  try {
    throw;
  } catch (const java_error& e) {
    env->Throw(e.throwable());
  } catch (const oompi::error& e) {
    throw_mpi(env, e);
  } catch (const oompi::rt::closed_error& e) {
    throw_java(env, "java/lang/IllegalStateException", e.what());
  } catch (const std::out_of_range& e) {
    throw_java(env, "java/lang/IndexOutOfBoundsException", e.what());
  } catch (const std::invalid_argument& e) {
    throw_java(env, "java/lang/IllegalArgumentException", e.what());
  } catch (const std::length_error& e) {
    throw_java(env, "java/lang/IllegalArgumentException", e.what());
  } catch (const std::domain_error& e) {
    throw_java(env, "java/lang/IllegalArgumentException", e.what());
  } catch (const std::logic_error& e) {
    throw_java(env, "java/lang/IllegalStateException", e.what());
  } catch (const std::range_error& e) {
    throw_java(env, "java/lang/ArithmeticException", e.what());
  } catch (const std::bad_alloc&) {
    throw_java(env, "java/lang/OutOfMemoryError", "oompi: out of native memory");
  } catch (const std::exception& e) {
    throw_java(env, "java/lang/RuntimeException", e.what());
  } catch (...) {
    throw_java(env, "java/lang/RuntimeException", "oompi: unknown C++ exception");
  }
}

}  // namespace oompi::java

// --- Port fast paths (java.i): a direct buffer's address, a primitive array pinned ----------
namespace oompi::java {
struct direct_address { void* ptr = nullptr; };
inline oompi::rt::buffer direct_buffer(direct_address a, int position, int count, int kind) {
  const auto k = static_cast<oompi::rt::type_kind>(kind);
  const std::int64_t ext = oompi::rt::detail::builtin_size(k);
  return oompi::rt::buffer(static_cast<char*>(a.ptr) + position * ext, count,
                           oompi::rt::detail::builtin_type(k), ext);
}
}
namespace oompi::java {
struct array_ref { JNIEnv* env = nullptr; jarray array = nullptr; };
/// Elements [offset, offset + count) of an array argument of the fast paths (Java has checked
/// the range: Port.checkRange), copied for the call (see pin) or, with `pinned`, pinned
/// (pin_range). Only the range is touched. A receive copies nothing in: received(n) copies
/// back the n bytes that arrived when the array_use ends.
struct array_use {
  pin p;
  oompi::rt::buffer b;
  array_use(array_ref a, int offset, int count, int kind, bool writable, bool pinned) {
    const auto k = static_cast<oompi::rt::type_kind>(kind);
    b = oompi::rt::buffer(nullptr, count, oompi::rt::detail::builtin_type(k),
                          oompi::rt::detail::builtin_size(k));
    p.array = a.array;
    p.writable = writable;
    p.copy_in = !writable;
    p.first = offset;
    p.length = count;
    p.kind = k;
    const bool ok = pinned ? p.pin_array(a.env, b) : p.acquire(a.env, b);
    if (!ok) throw std::bad_alloc();  // the Java exception stays pending
    b.count = count;
  }
  void received(std::int64_t bytes) noexcept { p.done(bytes); }
};

/// Whether `count` elements of `kind` are pinned rather than copied (pin_range; `matched`:
/// pin_matched_range).
inline bool pins(array_ref a, int count, int kind, bool matched = false) noexcept {
  const std::size_t bytes =
      static_cast<std::size_t>(count) *
      static_cast<std::size_t>(rt::detail::builtin_size(static_cast<rt::type_kind>(kind)));
  return matched ? pin_matched_range(a.env, bytes) : pin_range(a.env, bytes);
}
}

namespace oompi::java {
/// send_array/recv_array of java.i: elements [offset, offset + count) of the array, copied or
/// pinned for the call (small whole arrays do not come here: Port.java copies them into its
/// per-thread direct buffer).
inline void send_array(const rt::comm& c, array_ref a, int offset, int count, int kind, int dest,
                       int tag) {
  array_use u(a, offset, count, kind, false, pins(a, count, kind));
  c.send(u.b, dest, tag);
}

/// The received bytes are copied back when it returns (the rest of the array is unchanged). A
/// pinned receive waits for its message unpinned (a matched probe), then pins the array for the
/// transfer only (see array_pinning).
inline rt::status recv_array(const rt::comm& c, array_ref a, int offset, int count, int kind,
                             int source, int tag) {
  if (source != MPI_PROC_NULL && pins(a, count, kind, true)) {
    rt::message m = c.mprobe(source, tag);
    array_use u(a, offset, count, kind, true, true);
    return m.recv(u.b);
  }
  array_use u(a, offset, count, kind, true, false);
  rt::status s = c.recv(u.b, source, tag);
  u.received(s.count_bytes());
  return s;
}

/// Message.recv into elements [offset, offset + count) of an array.
inline rt::status message_recv_array(rt::message& m, array_ref a, int offset, int count, int kind) {
  array_use u(a, offset, count, kind, true, pins(a, count, kind, true));
  rt::status s = m.recv(u.b);
  u.received(s.count_bytes());
  return s;
}

/// isend/irecv of elements [offset, offset + count) of an array: through a native copy of the
/// range (copy_async_range), a receive's copied back into the range when it completes.
inline rt::request isend_array(const rt::comm& c, array_ref a, int offset, int count, int kind,
                               int dest, int tag) {
  rt::async_buffer b;
  if (!copy_async_range(a.env, a.array, static_cast<rt::type_kind>(kind), offset, count, false, b))
    throw std::bad_alloc();  // the Java exception stays pending
  return c.isend(b, dest, tag);
}
inline rt::request irecv_array(const rt::comm& c, array_ref a, int offset, int count, int kind,
                               int source, int tag) {
  rt::async_buffer b;
  if (!copy_async_range(a.env, a.array, static_cast<rt::type_kind>(kind), offset, count, true, b))
    throw std::bad_alloc();
  return c.irecv(b, source, tag);
}

/// Window.put/accumulate of elements [offset, offset + count) of an array: the range copied
/// into native memory the window holds until the synchronisation.
inline rt::async_buffer rma_array(array_ref a, int offset, int count, int kind) {
  rt::async_buffer b;
  if (!rma_copy_range(a.env, a.array, static_cast<rt::type_kind>(kind), offset, count, b))
    throw std::bad_alloc();
  return b;
}

/// orecv's receive. A matched probe (MPI_Mprobe: safe with threads), then, when the message fits
/// in `capacity` bytes of `scratch` (a byte[]), its receive there: returns its size. A larger
/// message stays matched for this thread's recv_matched_bytes (into an array the caller makes of
/// that size) and the result is -(size) - 1. MPI_PROC_NULL: INT64_MIN.
inline thread_local MPI_Message t_matched __attribute__((tls_model("initial-exec"))) =
    MPI_MESSAGE_NULL;
constexpr std::int64_t proc_null_message = INT64_MIN;

inline void mrecv_into(array_ref a, std::int64_t n, MPI_Message& msg) {
  const int kind = static_cast<int>(rt::type_kind::byte);
  array_use u(a, 0, static_cast<int>(n), kind, true, pins(a, static_cast<int>(n), kind, true));
  MPI_Status st;
  OOMPI_CHECK(MPI_Mrecv, (u.b.data, static_cast<int>(n), MPI_BYTE, &msg, &st));
  u.received(n);
}

inline std::int64_t mprobe_recv_bytes(const rt::comm& c, int source, int tag, array_ref scratch,
                                      int capacity) {
  if (t_matched != MPI_MESSAGE_NULL)
    throw std::logic_error("oompi: orecv: a matched message of this thread is still waiting");
  MPI_Message msg = MPI_MESSAGE_NULL;
  MPI_Status st;
  oompi::detail::ordered_mprobe(source, tag, c.native("comm.orecv"), &msg, &st);  // issue 25
  if (msg == MPI_MESSAGE_NO_PROC) return proc_null_message;
  const std::int64_t n = rt::status(oompi::status(st)).count_bytes();
  if (n <= capacity) {
    mrecv_into(scratch, n, msg);
    return n;
  }
  t_matched = msg;
  return -n - 1;
}

inline void recv_matched_bytes(array_ref a, int length) {
  MPI_Message msg = t_matched;
  if (msg == MPI_MESSAGE_NULL) throw std::logic_error("oompi: orecv: no matched message waits");
  t_matched = MPI_MESSAGE_NULL;
  mrecv_into(a, length, msg);
}

// A status written into the caller's thread's status slot: a direct buffer of 5 longs
// (org.oompi.Status.slot()), {source, tag, error, cancelled, count in bytes}.
struct status_out { std::int64_t* slot = nullptr; };
inline void write_status(status_out o, const rt::status& s) noexcept {
  o.slot[0] = s.source();
  o.slot[1] = s.tag();
  o.slot[2] = s.error();
  o.slot[3] = s.cancelled() ? 1 : 0;
  o.slot[4] = s.count_bytes();
}

// --- light requests (Request.java's light mode: comm.isend/irecv of a direct buffer) ---------
// The bare MPI_Request travels to Java as a long (rt::request_bits / request_from_bits).
/// A completion's status packed into a long for Java: no slot to write, no object to make (the
/// Java side unpacks it into a Status, which the JIT drops when the caller ignores it). Bits
/// 0-30 the size in bytes, 31-46 source + 2, 47-61 tag + 2 (MPI's negative constants fit),
/// 62 cancelled; an error code or a field out of range gives status_spilled (the status then
/// waits in t_spilled for light_spilled, the same thread's next call).
constexpr std::int64_t status_spilled = -1;
constexpr std::int64_t status_not_done = INT64_MIN;  // light_test: still pending
inline thread_local rt::status t_spilled;
inline std::int64_t pack_status(const rt::status& s) noexcept {
  const auto n = static_cast<std::uint64_t>(s.count_bytes());
  const auto source = static_cast<std::uint64_t>(static_cast<std::int64_t>(s.source()) + 2);
  const auto tag = static_cast<std::uint64_t>(static_cast<std::int64_t>(s.tag()) + 2);
  if (s.error() != MPI_SUCCESS || n >> 31 || source >> 16 || tag >> 15) {
    t_spilled = s;
    return status_spilled;
  }
  return static_cast<std::int64_t>(n | source << 31 | tag << 47 |
                                   std::uint64_t{s.cancelled()} << 62);
}
/// A native request owning a light request's handle and (by a global reference) its buffer:
/// for what only native requests do (cancel, request sets), for close() of a pending one, and
/// for a pending one that was collected (destroyed at once: the facade moves it to the reclaim
/// list, no MPI call on the cleaner thread).
inline rt::request adopt_light(JNIEnv* env, std::int64_t h, jobject buf, bool receive) {
  std::unique_ptr<rt::keep_alive> keep;
  if (buf) keep.reset(new global_ref_keep(env, buf));
  return rt::request::adopt(rt::request_from_bits(h), std::move(keep), receive);
}
}  // namespace oompi::java

// --- org.oompi.UserFunction: zero-copy views of MPI's memory during a user op call -----------
extern "C" JNIEXPORT jobject JNICALL Java_org_oompi_UserFunction_view(JNIEnv* env, jclass,
                                                                      jlong address,
                                                                      jlong bytes) {
  return env->NewDirectByteBuffer(reinterpret_cast<void*>(static_cast<std::intptr_t>(address)),
                                  bytes);
}

// --- org.oompi.MpiMemory: MPI_Alloc_mem as a direct ByteBuffer --------------------------------
extern "C" JNIEXPORT jobject JNICALL Java_org_oompi_MpiMemory_allocate0(JNIEnv* env, jclass,
                                                                         jint bytes) {
  void* p = nullptr;
  const int rc = MPI_Alloc_mem(bytes > 0 ? bytes : 1, MPI_INFO_NULL, &p);
  if (rc != MPI_SUCCESS || !p) {
    oompi::java::throw_java(env, "java/lang/OutOfMemoryError",
                            "oompi: MPI_Alloc_mem of " + std::to_string(bytes) + " bytes failed");
    return nullptr;
  }
  jobject b = env->NewDirectByteBuffer(p, bytes);
  if (!b) MPI_Free_mem(p);
  return b;
}
extern "C" JNIEXPORT void JNICALL Java_org_oompi_MpiMemory_free0(JNIEnv* env, jclass, jobject buf) {
  if (void* p = env->GetDirectBufferAddress(buf)) MPI_Free_mem(p);
}

#endif  // OOMPI_SWIG_JAVA_HPP
