// Java wrapper support: the Port fast paths, light requests, UserFunction views, MpiMemory.
// Part of oompi_java.hpp (the Java wrapper's support code), which includes the parts.
#ifndef OOMPI_SWIG_JAVA_FAST_PATHS_HPP
#define OOMPI_SWIG_JAVA_FAST_PATHS_HPP

#include "oompi_java_buffers.hpp"

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

/// The received bytes are copied back when it returns (the rest of the array is unchanged).
/// Where a send may pin (pin_range: below MULTIPLE, or a collector that pins regions) the
/// receive waits pinned in a plain MPI_Recv: no GC lock, or no other thread of this JVM that
/// MPI could be waiting on. Elsewhere (JDK 17 G1/Serial/Parallel at MULTIPLE) it waits for its
/// message unpinned (a matched probe), then pins the array for the transfer only (see
/// array_pinning). OOMPI_JAVA_RECV=matched probes everywhere (as before; benches).
inline bool recv_waits_pinned() noexcept {
  static const bool v = [] {
    const char* e = std::getenv("OOMPI_JAVA_RECV");
    return !(e && std::strcmp(e, "matched") == 0);
  }();
  return v;
}
inline rt::status recv_array(const rt::comm& c, array_ref a, int offset, int count, int kind,
                             int source, int tag) {
  if (recv_waits_pinned() && pins(a, count, kind)) {
    array_use u(a, offset, count, kind, true, true);
    return c.recv(u.b, source, tag);
  }
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
/// A light receive of elements [first, first + count) of `array` through a direct buffer (Java's
/// ArrayRanges.Block) turned native while pending (a request set, cancel, close): the native
/// request copies what arrived back into the range when it completes, as a native range
/// receive does (array_copy_keep with the buffer's memory).
inline rt::request adopt_light_range(JNIEnv* env, std::int64_t h, jobject buf, jarray array,
                                     int first, int count, int kind) {
  auto k = std::make_unique<array_copy_keep>();
  k->kind = static_cast<rt::type_kind>(kind);
  k->first = first;
  k->length = count;
  k->only_arrived = true;
  k->block = static_cast<char*>(direct_address_of(env, buf));
  env->GetJavaVM(&k->vm);
  k->block_ref = env->NewGlobalRef(buf);
  k->array = static_cast<jarray>(env->NewGlobalRef(array));
  if (!k->block_ref || !k->array) throw std::bad_alloc();  // (the keep frees what it has)
  k->copy_back = true;
  return rt::request::adopt(rt::request_from_bits(h), std::move(k), true);
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

#endif  // OOMPI_SWIG_JAVA_FAST_PATHS_HPP
