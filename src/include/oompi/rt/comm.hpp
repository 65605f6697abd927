#ifndef OOMPI_RT_COMM_HPP
#define OOMPI_RT_COMM_HPP

// Communicators for the bindings: point-to-point on run-time buffers (through the core), a
// first set of collectives, dup and close.
//
// Copies share one communicator. close() frees a communicator made by dup() (collectively:
// every rank closes it) and marks all copies closed; world() and self() are never freed, closing
// them only closes that handle. A dup'ed communicator that is never closed is not freed by the
// garbage collector (MPI_Comm_free is collective; finalizer threads must not call it): it lives
// until MPI_Finalize. Close communicators you create.
//
// The *_part functions take [offset, offset + count) of the buffer (bounds checked here, for
// every language); the bindings that want offset/count overloads (Java) rename them to the
// plain name, the others hide them.

#include "buffer.hpp"
#include "datatype.hpp"
#include "op.hpp"
#include "request.hpp"
#include "status.hpp"

#include <cstdint>
#include <memory>

namespace oompi::rt {

class comm {
public:
  /// A null communicator.
  comm() = default;

  /// MPI_COMM_WORLD.
  static comm world();
  /// MPI_COMM_SELF.
  static comm self();

  /// This process's rank.
  int rank() const;
  /// Number of processes.
  int size() const;
  /// A new communicator with the same group (MPI_Comm_dup; collective). Close it when done.
  comm dup() const;
  /// Frees the communicator if this library made it (collective), closes every copy.
  void close();
  /// True when this handle is null or closed.
  bool is_null() const noexcept;

  // --- point-to-point ------------------------------------------------------------------
  void send(const buffer& buf, int dest, int tag = 0) const;
  void ssend(const buffer& buf, int dest, int tag = 0) const;
  /// Receives into buf; a larger message fails with MPI_ERR_TRUNCATE.
  status recv(buffer& buf, int source = MPI_ANY_SOURCE, int tag = MPI_ANY_TAG) const;
  status sendrecv(const buffer& sendbuf, int dest, int sendtag, buffer& recvbuf, int source,
                  int recvtag) const;
  request isend(const async_buffer& buf, int dest, int tag = 0) const;
  request irecv(async_buffer& buf, int source = MPI_ANY_SOURCE, int tag = MPI_ANY_TAG) const;
  status probe(int source = MPI_ANY_SOURCE, int tag = MPI_ANY_TAG) const;
  /// The status of a matching message if one is there; nullptr otherwise.
  status* iprobe(int source = MPI_ANY_SOURCE, int tag = MPI_ANY_TAG) const;

  // No default arguments here: Java's recv(buf, offset, count) would clash with
  // recv(buf, source, tag).
  void send_part(const buffer& buf, std::int64_t offset, std::int64_t count, int dest,
                 int tag) const;
  status recv_part(buffer& buf, std::int64_t offset, std::int64_t count, int source,
                   int tag) const;

  // --- collectives ---------------------------------------------------------------------
  void barrier() const;
  /// Broadcasts buf from root to every rank.
  void bcast(buffer& buf, int root) const;
  /// recvbuf = op over every rank's sendbuf (same count and type on all ranks).
  void allreduce(const buffer& sendbuf, buffer& recvbuf, const op& operation) const;
  /// buf = op over every rank's buf (MPI_IN_PLACE).
  void allreduce_in_place(buffer& buf, const op& operation) const;

#ifndef SWIG
  struct state;
  MPI_Comm native(const char* what) const;
#endif

private:
  explicit comm(std::shared_ptr<state> s) noexcept : st_(std::move(s)) {}
  const state& live(const char* what) const;
  std::shared_ptr<state> st_;
};

}  // namespace oompi::rt

#endif  // OOMPI_RT_COMM_HPP
