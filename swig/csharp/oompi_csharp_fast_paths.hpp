// C# native library support: the blocking send and receive of arrays and spans, and the light
// requests (pins held by C#): plain C entry points P/Invoked without marshalling.
// Part of oompi_csharp.hpp, which includes it after the buffers and exceptions.
#ifndef OOMPI_SWIG_CSHARP_FAST_PATHS_HPP
#define OOMPI_SWIG_CSHARP_FAST_PATHS_HPP

#include "oompi_csharp.hpp"

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

/// Runs call(*c) for the C# method `where` ("Comm.Send"): 0, or 1 with a C# exception pending
/// (the Comm disposed, in C#'s names as every message, or what the call threw).
template <class F>
inline int on_comm(const rt::comm* c, const char* where, F&& call) noexcept {
  if (!c) {
    raise(closed, (std::string(where) + ": this Comm has been disposed").c_str());
    return 1;
  }
  try {
    call(*c);
    return 0;
  } catch (...) {
    translate();
    return 1;
  }
}
}  // namespace oompi::csharp

extern "C" SWIGEXPORT int oompi_cs_send(const oompi::rt::comm* c, void* data, std::int64_t count,
                                        int kind, int dest, int tag) noexcept {
  return oompi::csharp::on_comm(c, "Comm.Send", [&](const oompi::rt::comm& cc) {
    cc.send(oompi::csharp::primitive_buffer(data, count, kind), dest, tag);
  });
}

/// status null: no status is made (MPI_STATUS_IGNORE).
extern "C" SWIGEXPORT int oompi_cs_recv(const oompi::rt::comm* c, void* data, std::int64_t count,
                                        int kind, int source, int tag,
                                        oompi_cs_status* status) noexcept {
  return oompi::csharp::on_comm(c, "Comm.Recv", [&](const oompi::rt::comm& cc) {
    oompi::rt::buffer b = oompi::csharp::primitive_buffer(data, count, kind);
    if (status) {
      const oompi::rt::status st = cc.recv(b, source, tag);
      *status = oompi::csharp::to_cs(&st);
    } else {
      cc.recv_ignore_status(b, source, tag);
    }
  });
}

/// The blocking Allreduce of primitive arrays and spans (Comm.Allreduce<T>, and namespace MPI's
/// Allreduce of numbers): the same facade call as the generated wrapper, without its two 48-byte
/// BufferDescs and pending-exception check. op is live (C# checked it: HandleArg.Live).
extern "C" SWIGEXPORT int oompi_cs_allreduce(const oompi::rt::comm* c, void* send,
                                             std::int64_t send_count, void* recv,
                                             std::int64_t recv_count, int kind,
                                             const oompi::rt::op* op) noexcept {
  return oompi::csharp::on_comm(c, "Comm.Allreduce", [&](const oompi::rt::comm& cc) {
    oompi::rt::buffer r = oompi::csharp::primitive_buffer(recv, recv_count, kind);
    cc.allreduce(oompi::csharp::primitive_buffer(send, send_count, kind), r, *op);
  });
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
  if (c && !describe(*d, b)) return 1;
  return on_comm(c, "Comm.Isend", [&](const oompi::rt::comm& cc) {
    *h = request_bits(cc.isend_native(b, dest, tag));
  });
}

extern "C" SWIGEXPORT int oompi_cs_irecv(const oompi::rt::comm* c, const oompi_cs_buffer* d,
                                         int source, int tag, std::int64_t* h) noexcept {
  using namespace oompi::csharp;
  oompi::rt::buffer b;
  if (c && !describe(*d, b)) return 1;
  return on_comm(c, "Comm.Irecv", [&](const oompi::rt::comm& cc) {
    *h = request_bits(cc.irecv_native(b, source, tag));
  });
}

// Whole arrays of a primitive type (Comm.Isend<T>(T[]) / Irecv<T>(T[])): scalar arguments, as
// oompi_cs_send, no descriptor to build or read.
extern "C" SWIGEXPORT int oompi_cs_isend_data(const oompi::rt::comm* c, void* data,
                                              std::int64_t count, int kind, int dest, int tag,
                                              std::int64_t* h) noexcept {
  using namespace oompi::csharp;
  return on_comm(c, "Comm.Isend", [&](const oompi::rt::comm& cc) {
    *h = request_bits(cc.isend_native(primitive_buffer(data, count, kind), dest, tag));
  });
}

extern "C" SWIGEXPORT int oompi_cs_irecv_data(const oompi::rt::comm* c, void* data,
                                              std::int64_t count, int kind, int source, int tag,
                                              std::int64_t* h) noexcept {
  using namespace oompi::csharp;
  return on_comm(c, "Comm.Irecv", [&](const oompi::rt::comm& cc) {
    oompi::rt::buffer b = primitive_buffer(data, count, kind);
    *h = request_bits(cc.irecv_native(b, source, tag));
  });
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

#endif  // OOMPI_SWIG_CSHARP_FAST_PATHS_HPP
