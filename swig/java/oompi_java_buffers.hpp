// Java wrapper support: Java objects (arrays, direct buffers, segments, TypedBuffers) as run-time buffers; statuses.
// Part of oompi_java.hpp (the Java wrapper's support code), which includes the parts.
#ifndef OOMPI_SWIG_JAVA_BUFFERS_HPP
#define OOMPI_SWIG_JAVA_BUFFERS_HPP

#include "oompi_java_pins.hpp"

namespace oompi::java {

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

/// Native memory holding a copy of elements [first, first + length) of a Java array, for an
/// operation that reads or fills it after the call returns (a nonblocking operation, a
/// one-sided origin): the collector may move the array at any time, and pinning it for the
/// operation's whole life would stall the collector (BINDINGS-NOTES trap 3). The memory comes
/// from native_pool (no malloc, mmap or page faults per call once warm, not zeroed). A receive
/// (`copy_back`) copies it back into the range when the operation completes (this keep-alive
/// is destroyed then: wait/test or a request set, or the reclaim of a request dropped while
/// pending), so the array holds the data when waitFor() returns; a global reference keeps the
/// array alive until then. Nothing else of the array is written. One-sided origins need
/// neither: the window holds the copy until the synchronisation.
///
/// A point-to-point receive of the array's own element type (`only_arrived`) copies nothing in
/// and back only the bytes its completion's status counts (keep_alive::arrived): a shorter
/// message leaves the rest of the range as the program left it, and a long range costs what
/// arrived. Without a status (the request failed, or was dropped or closed while pending)
/// nothing is copied back. Others (collectives, a TypedBuffer's datatype with holes, whose
/// bytes do not arrive as a prefix) copy the whole range in and back.
struct array_copy_keep final : rt::keep_alive {
  JavaVM* vm = nullptr;
  jarray array = nullptr;  // a global reference, with copy_back only
  rt::type_kind kind = rt::type_kind::byte;
  jsize first = 0;
  jsize length = 0;
  bool copy_back = false;
  bool only_arrived = false;
  std::int64_t arrived_bytes = -1;  // only_arrived: set by arrived()
  pooled_bytes bytes;
  // Or a direct buffer's memory (a light range receive turned native, adopt_light_range): its
  // address, and a global reference that keeps the buffer (and so the memory) alive.
  char* block = nullptr;
  jobject block_ref = nullptr;
  char* data() noexcept { return block ? block : bytes.get(); }
  void arrived(const MPI_Status& s) override {
    if (!only_arrived) return;
    MPI_Status st = s;
    int cancelled = 0;
    MPI_Count n = 0;
    if (MPI_Test_cancelled(&st, &cancelled) != MPI_SUCCESS || cancelled ||
        MPI_Get_elements_x(&st, MPI_BYTE, &n) != MPI_SUCCESS || n == MPI_UNDEFINED)
      n = 0;
    arrived_bytes = n;
  }
  ~array_copy_keep() override {
    if (!array) return;
    JNIEnv* env = nullptr;
    if (vm->GetEnv(reinterpret_cast<void**>(&env), JNI_VERSION_1_6) != JNI_OK &&
        vm->AttachCurrentThreadAsDaemon(reinterpret_cast<void**>(&env), nullptr) != JNI_OK)
      return;
    if (copy_back) {
      // JNI allows no array call with an exception pending: set it aside meanwhile.
      jthrowable pending = env->ExceptionOccurred();
      if (pending) env->ExceptionClear();
      const jsize n = only_arrived ? elements_arrived(env) : length;
      array_region(env, array, kind, true, first, n, data());
      if (pending) {
        env->Throw(pending);
        env->DeleteLocalRef(pending);
      }
    }
    env->DeleteGlobalRef(array);
    if (block_ref) env->DeleteGlobalRef(block_ref);
  }

private:
  /// The elements to copy back: those the message filled, a partly filled last one completed
  /// from the array (its bytes past the message are the array's).
  jsize elements_arrived(JNIEnv* env) noexcept {
    const std::int64_t size = rt::detail::builtin_size(kind);
    const std::int64_t got =
        std::max<std::int64_t>(0, std::min<std::int64_t>(arrived_bytes, std::int64_t(length) * size));
    jsize whole = static_cast<jsize>(got / size);
    if (const std::int64_t part = got % size) {
      char tmp[16];
      char* last = data() + std::int64_t(whole) * size;
      std::memcpy(tmp, last, static_cast<std::size_t>(part));
      array_region(env, array, kind, false, first + whole, 1, last);
      std::memcpy(last, tmp, static_cast<std::size_t>(part));
      ++whole;
    }
    return whole;
  }
};

/// Elements [first, first + count) of `array` through a native copy (array_copy_keep) that `b`
/// owns and describes; `writable`: copied back into the range at completion (`only_arrived`:
/// a point-to-point receive, see array_copy_keep). False with a Java exception pending.
inline bool copy_array_range(JNIEnv* env, jarray array, rt::type_kind kind, jsize first,
                             jsize count, bool writable, rt::async_buffer& b,
                             bool only_arrived = false) {
  auto k = std::make_unique<array_copy_keep>();
  k->kind = kind;
  k->first = first;
  k->length = count;
  k->only_arrived = writable && only_arrived;
  const std::size_t n =
      static_cast<std::size_t>(count) * static_cast<std::size_t>(rt::detail::builtin_size(kind));
  if (!k->bytes.reserve(n)) {
    throw_java(env, "java/lang/OutOfMemoryError", "oompi: no native memory to copy the array");
    return false;
  }
  // Otherwise a receive's range is copied in too: MPI may fill less than the range (or not as
  // a prefix), and the rest is copied back as it was.
  if (!k->only_arrived) array_region(env, array, kind, false, first, count, k->bytes.get());
  if (writable) {
    env->GetJavaVM(&k->vm);
    k->array = static_cast<jarray>(env->NewGlobalRef(array));
    if (!k->array) {
      throw_java(env, "java/lang/OutOfMemoryError", "oompi: no global reference for the array");
      return false;
    }
    k->copy_back = true;
  }
  b.data = k->bytes.get();
  b.count = count;
  b.type = rt::detail::builtin_type(kind);
  b.extent = rt::detail::builtin_size(kind);
  b.keep = std::move(k);
  return true;
}

/// The range of a nonblocking send or point-to-point receive (copy_array_range; a receive
/// copies back only what arrived).
inline bool copy_async_range(JNIEnv* env, jarray array, rt::type_kind kind, jsize first,
                             jsize count, bool writable, rt::async_buffer& b) {
  return copy_array_range(env, array, kind, first, count, writable, b, true);
}

/// The origin of a one-sided operation (put, accumulate, the value of fetch_and_op ...), which
/// MPI reads until the synchronisation that completes it, long after the call returns: the
/// range copied now into native memory that the window holds until then.
inline bool rma_copy_range(JNIEnv* env, jarray array, rt::type_kind kind, jsize first, jsize count,
                           rt::async_buffer& b) {
  return copy_array_range(env, array, kind, first, count, false, b);
}

/// Describes the buffer of an operation that outlives the call: a direct buffer in place (kept
/// reachable), a primitive array (a TypedBuffer's too, keeping its datatype) through a native
/// copy of it (copy_array_range). `refuse_arrays` (persistent requests send_init, recv_init ...:
/// a copy made now would not see the array's later contents at each start()). False with a
/// Java exception pending.
inline bool describe_outliving(JNIEnv* env, jobject obj, bool writable, bool refuse_arrays,
                               rt::async_buffer& b) {
  pin p;
  if (!describe(env, obj, writable, refuse_arrays, b, p)) return false;
  if (!p.array) {
    b.keep.reset(new global_ref_keep(env, obj));
    return true;
  }
  const MPI_Datatype type = b.type;
  const std::int64_t count = b.count, extent = b.extent;
  if (!copy_array_range(env, p.array, p.kind, 0, p.length, writable, b)) return false;
  b.type = type;
  b.count = count;
  b.extent = extent;
  return true;
}

/// The buffer of a nonblocking operation (describe_outliving).
inline bool describe_async(JNIEnv* env, jobject obj, bool writable, bool persistent,
                           rt::async_buffer& b) {
  return describe_outliving(env, obj, writable, persistent, b);
}

/// The origin of a one-sided operation (describe_outliving; read only).
inline bool describe_rma_origin(JNIEnv* env, jobject obj, rt::async_buffer& b) {
  return describe_outliving(env, obj, false, false, b);
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

}  // namespace oompi::java

#endif  // OOMPI_SWIG_JAVA_BUFFERS_HPP
