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
#include "../binding_names.hpp"

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

/// C#'s names for the facade's (csharp.i: PascalCase methods and classes, and its renames).
using oompi::binding::csharp_names;
/// A facade exception's message in C#'s names ("MpiFile.WriteAt: ...").
inline std::string message(const std::exception& e) {
  return oompi::binding::message(e, csharp_names);
}

/// Turns the C++ exception in flight into a pending C# exception.
inline void translate() noexcept {
  try {
    throw;
  } catch (const oompi::error& e) {
    raise(mpi, e.what(), e.error_class(), e.code(), e.routine().c_str());
  } catch (const rt::closed_error& e) {
    raise(closed, message(e).c_str());
  } catch (const rt::user_function_error& e) {
    raise(user_function, message(e).c_str());
  } catch (const std::out_of_range& e) {
    raise(out_of_range, message(e).c_str());
  } catch (const std::invalid_argument& e) {
    raise(argument, message(e).c_str());
  } catch (const std::length_error& e) {
    raise(argument, message(e).c_str());
  } catch (const std::domain_error& e) {
    raise(argument, message(e).c_str());
  } catch (const std::logic_error& e) {
    raise(state, message(e).c_str());
  } catch (const std::range_error& e) {
    raise(arithmetic, message(e).c_str());
  } catch (const std::bad_alloc&) {
    raise(memory, "oompi: out of native memory");
  } catch (const std::exception& e) {
    raise(other, message(e).c_str());
  } catch (...) {
    raise(other, "oompi: unknown C++ exception");
  }
}

}  // namespace oompi::csharp

#include "oompi_csharp_fast_paths.hpp"  // the P/Invoke fast paths (uses the above)

#endif  // OOMPI_SWIG_CSHARP_HPP
