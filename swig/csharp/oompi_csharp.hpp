// Support code compiled into the C# native library (liboompi_csharp.so): run-time buffers from
// the managed MpiBuffer struct, GCHandle keep-alives for nonblocking calls, exception translation.
//
// Blocking calls: the C# proxy pins the array with `fixed` for the duration of the P/Invoke and
// passes a BufferDesc (address, count, kind). Nonblocking calls: the proxy allocates a pinned
// GCHandle and passes it along; the request owns it (gchandle_keep) and frees it through a
// callback into C# when the operation completes. Exceptions: C++ exceptions become a pending
// C# exception through a callback (SWIG's pending-exception mechanism): on CoreCLR nothing may
// unwind through native frames.
#ifndef OOMPI_SWIG_CSHARP_HPP
#define OOMPI_SWIG_CSHARP_HPP

#include <oompi/rt/rt.hpp>

#include <pthread.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

extern "C" {
/// What C# passes for a buffer (Oompi.BufferDesc, sequential layout, by value).
struct oompi_cs_buffer {
  void* data;
  std::int64_t count;
  std::int32_t kind;
  void* type;            // an explicit oompi::rt::datatype* when has_type (null: disposed)
  std::intptr_t handle;  // GCHandle of a pinned array (nonblocking calls), or 0
  std::int64_t type_count;  // elements of type; -1: as many whole ones as fit
  std::int32_t has_type;
};
/// What C# gets for a status (Oompi.StatusData); valid == 0 stands for "no status" (null).
struct oompi_cs_status {
  std::int32_t source, tag, error, cancelled;
  std::int64_t count_bytes;
  std::int32_t valid;
};
}

namespace oompi::csharp {

using free_handle_fn = void (*)(std::intptr_t);
using raise_fn = void (*)(int kind, const char* message, int error_class, int error_code,
                          const char* routine);
inline free_handle_fn g_free_handle = nullptr;
inline raise_fn g_raise = nullptr;

// Kinds of exception the C# side creates (Oompi.NativeCallbacks.Raise).
enum exception_kind : int {
  mpi = 0,           // Oompi.MpiException
  closed = 1,        // ObjectDisposedException
  out_of_range = 2,  // ArgumentOutOfRangeException
  argument = 3,      // ArgumentException
  state = 4,         // InvalidOperationException
  arithmetic = 5,    // ArithmeticException
  memory = 6,        // OutOfMemoryException
  other = 7,         // Exception
  user_function = 8, // Oompi.UserFunctionException (the function's own exception inside)
};

inline void raise(int kind, const char* message, int error_class = 0, int error_code = 0,
                  const char* routine = "") noexcept {
  if (g_raise) g_raise(kind, message, error_class, error_code, routine);
}

inline void translate() noexcept;

/// Fills b from a C# BufferDesc, then applies its explicit datatype (bounds checked). False
/// with a pending C# exception (it runs outside the %exception try block).
inline bool describe(const oompi_cs_buffer& d, rt::buffer& b) noexcept {
  b.data = d.data;
  b.count = d.count;
  if (rt::detail::valid_kind(d.kind)) {
    const auto k = static_cast<rt::type_kind>(d.kind);
    b.type = rt::detail::builtin_type(k);
    b.extent = rt::detail::builtin_size(k);
  } else {
    b.type = MPI_DATATYPE_NULL;  // rejected by the facade with std::invalid_argument
    b.extent = 0;
  }
  if (!d.has_type) return true;
  if (!d.type) {
    raise(closed, "oompi: the Datatype of the buffer has been disposed");
    return false;
  }
  try {
    const auto& t = *static_cast<const rt::datatype*>(d.type);
    std::int64_t n = d.type_count;
    if (n < 0) {  // as many whole elements as fit
      const std::int64_t ext = t.extent();
      n = ext > 0 ? b.count * b.extent / ext : 0;
    }
    rt::retype(b, t, n, "oompi: typed buffer");
    return true;
  } catch (...) {
    translate();
    return false;
  }
}

/// A pinned GCHandle owned by a pending request; freed (through C#) when it completes.
struct gchandle_keep final : rt::keep_alive {
  std::intptr_t handle;
  explicit gchandle_keep(std::intptr_t h) noexcept : handle(h) {}
  ~gchandle_keep() override {
    if (handle && g_free_handle) g_free_handle(handle);
  }
};

/// As describe; the pinned handle goes to b.keep first, so it is freed on every path.
inline bool describe_async(const oompi_cs_buffer& d, rt::async_buffer& b) noexcept {
  if (d.handle) {
    try {
      b.keep.reset(new gchandle_keep(d.handle));
    } catch (...) {
      if (g_free_handle) g_free_handle(d.handle);
      raise(memory, "oompi: out of native memory");
      return false;
    }
  }
  return describe(d, b);
}

inline oompi_cs_status to_cs(const rt::status* s) noexcept {
  oompi_cs_status r{};
  if (s) {
    r.source = s->source();
    r.tag = s->tag();
    r.error = s->error();
    r.cancelled = s->cancelled() ? 1 : 0;
    r.count_bytes = s->count_bytes();
    r.valid = 1;
  }
  return r;
}

/// Turns the C++ exception in flight into a pending C# exception.
inline void translate() noexcept {
  try {
    throw;
  } catch (const oompi::error& e) {
    raise(mpi, e.what(), e.error_class(), e.code(), e.routine().c_str());
  } catch (const rt::closed_error& e) {
    raise(closed, e.what());
  } catch (const rt::user_function_error& e) {
    raise(user_function, e.what());
  } catch (const std::out_of_range& e) {
    raise(out_of_range, e.what());
  } catch (const std::invalid_argument& e) {
    raise(argument, e.what());
  } catch (const std::length_error& e) {
    raise(argument, e.what());
  } catch (const std::domain_error& e) {
    raise(argument, e.what());
  } catch (const std::logic_error& e) {
    raise(state, e.what());
  } catch (const std::range_error& e) {
    raise(arithmetic, e.what());
  } catch (const std::bad_alloc&) {
    raise(memory, "oompi: out of native memory");
  } catch (const std::exception& e) {
    raise(other, e.what());
  } catch (...) {
    raise(other, "oompi: unknown C++ exception");
  }
}

}  // namespace oompi::csharp

// --- the blocking send and receive of primitive arrays and spans (Comm.Send<T>/Recv<T>) ------
// Plain C entry points with blittable arguments and an error code, P/Invoked without marshalling
// (HandleRef, a 48-byte BufferDesc, a struct returned by value and the pending-exception check
// of the generated wrappers cost ~50 ns per 8-byte send + receive). Nonzero: a C# exception is
// pending.
namespace oompi::csharp {
inline rt::buffer primitive_buffer(void* data, std::int64_t count, int kind) {
  if (!rt::detail::valid_kind(kind)) return rt::buffer(data, count, MPI_DATATYPE_NULL, 0);
  const auto k = static_cast<rt::type_kind>(kind);
  return rt::buffer(data, count, rt::detail::builtin_type(k), rt::detail::builtin_size(k));
}
}  // namespace oompi::csharp

extern "C" SWIGEXPORT int oompi_cs_send(const oompi::rt::comm* c, void* data, std::int64_t count,
                                        int kind, int dest, int tag) noexcept {
  if (!c) {
    oompi::csharp::raise(oompi::csharp::closed, "oompi: this Comm has been disposed");
    return 1;
  }
  try {
    c->send(oompi::csharp::primitive_buffer(data, count, kind), dest, tag);
    return 0;
  } catch (...) {
    oompi::csharp::translate();
    return 1;
  }
}

/// status null: no status is made (MPI_STATUS_IGNORE).
extern "C" SWIGEXPORT int oompi_cs_recv(const oompi::rt::comm* c, void* data, std::int64_t count,
                                        int kind, int source, int tag,
                                        oompi_cs_status* status) noexcept {
  if (!c) {
    oompi::csharp::raise(oompi::csharp::closed, "oompi: this Comm has been disposed");
    return 1;
  }
  try {
    oompi::rt::buffer b = oompi::csharp::primitive_buffer(data, count, kind);
    if (status) {
      const oompi::rt::status s = c->recv(b, source, tag);
      *status = oompi::csharp::to_cs(&s);
    } else {
      c->recv_ignore_status(b, source, tag);
    }
    return 0;
  } catch (...) {
    oompi::csharp::translate();
    return 1;
  }
}

extern "C" SWIGEXPORT void oompi_cs_register(oompi::csharp::free_handle_fn free_handle,
                                             oompi::csharp::raise_fn raise_exception) {
  oompi::csharp::g_free_handle = free_handle;
  oompi::csharp::g_raise = raise_exception;
}

// --- Isend/Irecv with the pin held by C# (Oompi.Request's light mode) -----------------------
// C# pins the array with a pooled GCHandle and keeps it until the operation completes; the
// request is the bare MPI_Request (as an int64: a pointer in Open MPI, an int in MPICH), kept in
// the C# Request. No native allocation, no callback into C#, no finalizer. oompi_cs_adopt
// turns one into a native request (request sets, Cancel) when it needs to be.
namespace oompi::csharp {
using rt::request_bits;
using rt::request_from_bits;
}  // namespace oompi::csharp

extern "C" SWIGEXPORT std::int64_t oompi_cs_request_null() {
  return oompi::csharp::request_bits(MPI_REQUEST_NULL);
}

// Blittable arguments, an error code back (1: a C# exception is pending), as oompi_cs_send.
extern "C" SWIGEXPORT int oompi_cs_isend(const oompi::rt::comm* c, const oompi_cs_buffer* d,
                                         int dest, int tag, std::int64_t* h) noexcept {
  using namespace oompi::csharp;
  oompi::rt::buffer b;
  if (!c) return raise(closed, "oompi: this Comm has been disposed"), 1;
  if (!describe(*d, b)) return 1;
  try {
    *h = request_bits(c->isend_native(b, dest, tag));
    return 0;
  } catch (...) {
    translate();
    return 1;
  }
}

extern "C" SWIGEXPORT int oompi_cs_irecv(const oompi::rt::comm* c, const oompi_cs_buffer* d,
                                         int source, int tag, std::int64_t* h) noexcept {
  using namespace oompi::csharp;
  oompi::rt::buffer b;
  if (!c) return raise(closed, "oompi: this Comm has been disposed"), 1;
  if (!describe(*d, b)) return 1;
  try {
    *h = request_bits(c->irecv_native(b, source, tag));
    return 0;
  } catch (...) {
    translate();
    return 1;
  }
}

// Whole arrays of a primitive type (Comm.Isend<T>(T[]) / Irecv<T>(T[])): scalar arguments, as
// oompi_cs_send, no descriptor to build or read.
extern "C" SWIGEXPORT int oompi_cs_isend_data(const oompi::rt::comm* c, void* data,
                                              std::int64_t count, int kind, int dest, int tag,
                                              std::int64_t* h) noexcept {
  using namespace oompi::csharp;
  if (!c) return raise(closed, "oompi: this Comm has been disposed"), 1;
  try {
    *h = request_bits(c->isend_native(primitive_buffer(data, count, kind), dest, tag));
    return 0;
  } catch (...) {
    translate();
    return 1;
  }
}

extern "C" SWIGEXPORT int oompi_cs_irecv_data(const oompi::rt::comm* c, void* data,
                                              std::int64_t count, int kind, int source, int tag,
                                              std::int64_t* h) noexcept {
  using namespace oompi::csharp;
  if (!c) return raise(closed, "oompi: this Comm has been disposed"), 1;
  try {
    oompi::rt::buffer b = primitive_buffer(data, count, kind);
    *h = request_bits(c->irecv_native(b, source, tag));
    return 0;
  } catch (...) {
    translate();
    return 1;
  }
}

/// Completes *h (MPI_Wait); *h is MPI_REQUEST_NULL afterwards, also when it failed.
extern "C" SWIGEXPORT int oompi_cs_wait(std::int64_t* h, oompi_cs_status* out) noexcept {
  using namespace oompi::csharp;
  MPI_Request r = request_from_bits(*h);
  try {
    const oompi::rt::status s = oompi::rt::request::wait_native(r);
    *h = request_bits(r);
    *out = to_cs(&s);
    return 0;
  } catch (...) {
    *h = request_bits(MPI_REQUEST_NULL);
    translate();
    return 1;
  }
}

/// Completes *h if it is done (*out valid, *h null); *out invalid while pending.
extern "C" SWIGEXPORT int oompi_cs_test(std::int64_t* h, oompi_cs_status* out) noexcept {
  using namespace oompi::csharp;
  MPI_Request r = request_from_bits(*h);
  try {
    oompi::rt::status s;
    const bool done = oompi::rt::request::test_native(r, s);
    *h = request_bits(r);
    *out = done ? to_cs(&s) : oompi_cs_status{};
    return 0;
  } catch (...) {
    *h = request_bits(MPI_REQUEST_NULL);
    translate();
    return 1;
  }
}

/// The calling thread's stack (lowest address, size), for Oompi.PinPool's owner test; nonzero:
/// unknown (the pool then always takes the thread-static way).
extern "C" SWIGEXPORT int oompi_cs_stack(void** low, std::size_t* size) noexcept {
#if defined(__linux__)
  pthread_attr_t a;
  if (pthread_getattr_np(pthread_self(), &a) != 0) return 1;
  const int rc = pthread_attr_getstack(&a, low, size);
  pthread_attr_destroy(&a);
  return rc;
#else
  (void)low;
  (void)size;
  return 1;
#endif
}

/// A native request (what Request's proxy owns) taking over h and the pinned handle.
extern "C" SWIGEXPORT void* oompi_cs_adopt(std::int64_t h, std::intptr_t pin, int receive) {
  using namespace oompi::csharp;
  std::unique_ptr<oompi::rt::keep_alive> keep;
  try {
    if (pin) keep.reset(new gchandle_keep(pin));
    return new oompi::rt::request(
        oompi::rt::request::adopt(request_from_bits(h), std::move(keep), receive != 0));
  } catch (...) {
    translate();
    return nullptr;
  }
}

#endif  // OOMPI_SWIG_CSHARP_HPP
