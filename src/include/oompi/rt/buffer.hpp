#ifndef OOMPI_RT_BUFFER_HPP
#define OOMPI_RT_BUFFER_HPP

// Run-time buffers: (address, count, datatype), built by each language's typemaps from a
// managed array, a direct/native buffer or a buffer-protocol object. The direction is in the
// parameter type, so typemaps know whether MPI reads or writes the memory:
//   const buffer&        MPI reads it (send side of a blocking call)
//   buffer&              MPI writes it (receive side of a blocking call)
//   const async_buffer&  nonblocking send: the typemap puts a keep_alive in `keep`
//   async_buffer&        nonblocking receive: likewise
// The request of a nonblocking operation takes `keep` over and drops it on completion.

#include "common.hpp"

#include <cstdint>
#include <memory>

namespace oompi::rt {

struct buffer {
  void* data = nullptr;
  std::int64_t count = 0;                  // elements of `type`
  MPI_Datatype type = MPI_DATATYPE_NULL;
  std::int64_t extent = 0;                 // bytes between consecutive elements
  mutable std::unique_ptr<keep_alive> keep;  // taken over by the request (nonblocking only)

  buffer() = default;
  buffer(void* d, std::int64_t n, MPI_Datatype t, std::int64_t ext) noexcept
      : data(d), count(n), type(t), extent(ext) {}

  /// Elements [offset, offset + n) of this buffer. Throws std::out_of_range when they are
  /// not all inside it.
  buffer slice(std::int64_t offset, std::int64_t n, const char* what) const;
};

/// A buffer for a nonblocking operation: its typemap must make the memory stay valid (and
/// unmoved) until the request completes, and hand the guarantee over in `keep`.
struct async_buffer : buffer {
  async_buffer() = default;
};

}  // namespace oompi::rt

#endif  // OOMPI_RT_BUFFER_HPP
