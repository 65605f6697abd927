#ifndef OOMPI_DETAIL_RECV_GUARD_HPP
#define OOMPI_DETAIL_RECV_GUARD_HPP

// A receive never writes outside the memory its caller named.
//
// MPI fails a message larger than the receive buffer with MPI_ERR_TRUNCATE. Open MPI 4.1 (pml
// ob1) reports it, but for a message above the transport's eager limit (about 4 KB over shared
// memory, where vader copies it with CMA; more over TCP) it first writes the WHOLE message from
// the buffer's start, past its end, whatever the receive count (a 1-element receive of a 5 KB
// message writes 5 KB). In a JVM, .NET or NumPy array that is heap corruption. (ob1's RGET and
// RDMA-put protocols size the transfer by the sender's header, hdr_msg_length, into a
// contiguous receive buffer; its eager and copy-in/out fragments are unpacked through the
// receive's convertor, which stops at the buffer's end. The size of the next message cannot be
// known before it is matched, so every receive needs the probe.) MPICH 4.0 writes
// nothing outside the buffer. So, unless the MPI is MPICH, a blocking receive takes the message
// with a matched probe first (MPI_Mprobe: the same message MPI_Recv would match, and no other
// thread can take it), compares its size with the buffer, then receives it (MPI_Mrecv). A
// message that does not fit is received into a staging buffer of its own size; the elements
// that fit are unpacked into the caller's buffer and the call fails with MPI_ERR_TRUNCATE (the
// status, when asked for, holds the message's true size and MPI_ERR_TRUNCATE).
//
// Where the MPI itself stops at the buffer's end (Open MPI's ob1 with
// pml_ob1_max_rdma_per_request=0, which oompi::environment arranges; ucx; MPICH), the guard is
// off and every receive is plain MPI (detail/receive_safety.hpp decides at MPI_Init).
//
// A posted nonblocking receive (irecv, recv_init) cannot be guarded: the size is unknown until
// it matches, and matching it later (an Improbe in test/wait) would change which receive gets
// which message and deadlock the usual irecv-then-send exchange of large messages. Its buffer
// must hold any message that can match it. Matched receives (mrecv, imrecv) know the size.
//
// -DOOMPI_RECV_GUARD=0 / =1 overrides the choice (0: MPI_Recv directly, as a C program does).
// Where the guard is compiled in, the environment variable OOMPI_RECV_GUARD=0 / =1 forces it
// off / on (read when the library is loaded and again at MPI_Init), and
// oompi::environment::set_receive_guard(bool) at run time. The guard is on until an
// oompi::environment has started MPI and found it safe. Off on an MPI that is not safe
// (receive_protection() "none"), a message larger than its buffer corrupts the memory after it.

#include "../buffer.hpp"

#include <mpi.h>

#include <atomic>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

#ifndef OOMPI_RECV_GUARD
#if defined(MPICH) && !defined(OPEN_MPI) && !defined(I_MPI_VERSION) && !defined(MVAPICH2_VERSION)
#define OOMPI_RECV_GUARD 0
#else
#define OOMPI_RECV_GUARD 1
#endif
#endif

namespace oompi {
namespace detail {

/// The part of a truncated message that fits, and the failure: the matched message `m` (its
/// probe status `probed`, `bytes` long) is received into a staging buffer of its size, its
/// first `count` elements of `type` are unpacked into `data`. Returns MPI_ERR_TRUNCATE (or the
/// error of the receive). bad_alloc leaves the message matched and unreceived (never written).
OOMPI_DETAIL_COLD inline int truncated_mrecv(void* data, int count, MPI_Datatype type,
                                             MPI_Message* m, const MPI_Status& probed,
                                             MPI_Count bytes, MPI_Comm comm, MPI_Status* st) {
  std::vector<char> stage(static_cast<std::size_t>(bytes));
  int rc;
  if (bytes <= INT_MAX) {
    // MPI_PACKED matches a message sent with any datatype; MPI_Unpack then handles derived types.
    rc = MPI_Mrecv(stage.data(), static_cast<int>(bytes), MPI_PACKED, m, MPI_STATUS_IGNORE);
  } else {
    large_count_type big(static_cast<std::size_t>(bytes), MPI_BYTE);
    rc = MPI_Mrecv(stage.data(), 1, big.type(), m, MPI_STATUS_IGNORE);
  }
  if (rc != MPI_SUCCESS) return rc;
  MPI_Count size = 0;
  MPI_Type_size_x(type, &size);
  // What MPI_Recv leaves inside the buffer on truncation is not specified (MPICH: nothing, Open
  // MPI: the first elements); oompi gives the first elements (not above 2 GiB: MPI_Unpack's int).
  if (size * count <= INT_MAX) {
    int pos = 0;
    MPI_Unpack(stage.data(), static_cast<int>(size * count), &pos, data, count, type, comm);
  }
  if (st != MPI_STATUS_IGNORE) {
    *st = probed;  // source, tag, and the count of the whole message
    st->MPI_ERROR = MPI_ERR_TRUNCATE;
  }
  return MPI_ERR_TRUNCATE;
}

/// Whether a probed message fits in count elements of type; `bytes` is its size.
inline bool fits(const MPI_Status& probed, int count, MPI_Datatype type, MPI_Count& bytes) {
  MPI_Get_elements_x(&probed, MPI_BYTE, &bytes);
  MPI_Count size = 0;
  MPI_Type_size_x(type, &size);
  return bytes <= size * count;
}

/// bounded_mrecv's exact check (the size of the type asked from MPI).
OOMPI_DETAIL_COLD inline int checked_mrecv(void* data, int count, MPI_Datatype type,
                                           MPI_Message* m, const MPI_Status& probed,
                                           MPI_Comm comm, MPI_Status* st) {
  MPI_Count bytes = 0;
  if (fits(probed, count, type, bytes)) return MPI_Mrecv(data, count, type, m, st);
  return truncated_mrecv(data, count, type, m, probed, bytes, comm, st);
}

/// MPI_Mrecv that never writes outside count elements of type at data. `min_size` is a lower
/// bound of the type's size in bytes (0: unknown): a message of at most count * min_size bytes
/// fits without asking MPI.
inline int bounded_mrecv(void* data, int count, MPI_Datatype type, MPI_Message* m,
                         const MPI_Status& probed, MPI_Comm comm, MPI_Status* st,
                         std::size_t min_size = 0) {
#if defined(OPEN_MPI)
  // Open MPI's public MPI_Status holds the message's size in bytes (_ucount, the same field
  // from 1.x to 5.0): reading it saves MPI_Get_count's checks and division on every receive.
  if (OOMPI_DETAIL_LIKELY(probed._ucount <= static_cast<std::size_t>(count) * min_size))
    return MPI_Mrecv(data, count, type, m, st);
#else
  (void)min_size;
  int n = MPI_UNDEFINED;
  MPI_Get_count(&probed, type, &n);  // whole elements (MPI_UNDEFINED: not whole, or > INT_MAX)
  if (OOMPI_DETAIL_LIKELY(n != MPI_UNDEFINED && n <= count))
    return MPI_Mrecv(data, count, type, m, st);
#endif
  return checked_mrecv(data, count, type, m, probed, comm, st);
}

#if OOMPI_RECV_GUARD
/// The run-time switch: true when OOMPI_RECV_GUARD=0 turned the guard off (zero-initialised,
/// so a receive before the variable is read is guarded).
inline bool recv_guard_off_by_environment() noexcept {
  const char* v = std::getenv("OOMPI_RECV_GUARD");
  return v && std::strcmp(v, "0") == 0;
}
inline std::atomic<bool> g_recv_guard_off{recv_guard_off_by_environment()};

// The last receive datatype MPI accepted, with (Open MPI) a lower bound of its size when it is
// predefined: the handle's address with 1 + log2(bound) in its low 3 bits (0: no bound; Open
// MPI's handles are addresses of 8-aligned objects). MPI_Mprobe checks source, tag and
// communicator but not the buffer: a null or uncommitted datatype must fail at once, as
// MPI_Recv does, not after waiting for a message. A receive from MPI_PROC_NULL makes MPI check
// it (once per new type: one compare on the hot path; a race between threads only costs an
// extra check). Only predefined types get a bound: they are never freed, so their handle never
// comes back as another type of another size.
inline std::atomic<std::uintptr_t> g_checked_recv_type{0};
#if defined(OPEN_MPI)
inline constexpr std::uintptr_t k_size_bits =
    sizeof(MPI_Datatype) == sizeof(std::uintptr_t) ? 7 : 0;
#else
inline constexpr std::uintptr_t k_size_bits = 0;
#endif

inline std::uintptr_t type_bits(MPI_Datatype type) noexcept {
  std::uintptr_t v = 0;
  std::memcpy(&v, &type, sizeof type < sizeof v ? sizeof type : sizeof v);
  return v;
}

/// The matched probe, the size check (with `seen`'s bound), MPI_Mrecv.
inline int mprobe_mrecv(void* data, int count, MPI_Datatype type, int source, int tag,
                        MPI_Comm comm, MPI_Status* st, std::uintptr_t seen) {
  MPI_Message m = MPI_MESSAGE_NULL;
  MPI_Status probed;
  const int rc = MPI_Mprobe(source, tag, comm, &m, &probed);
  if (OOMPI_DETAIL_UNLIKELY(rc != MPI_SUCCESS)) return rc;
  const std::uintptr_t bits = seen & k_size_bits;
  const std::size_t min_size = bits ? std::size_t{1} << ((bits - 1) & 7) : 0;
  return bounded_mrecv(data, count, type, &m, probed, comm, st, min_size);
}

OOMPI_DETAIL_COLD inline int check_then_recv(void* data, int count, MPI_Datatype type,
                                             int source, int tag, MPI_Comm comm,
                                             MPI_Status* st) {
  const int rc = MPI_Recv(data, count, type, MPI_PROC_NULL, tag, comm, MPI_STATUS_IGNORE);
  if (rc != MPI_SUCCESS) return rc;
  std::uintptr_t seen = type_bits(type);
  int ni = 0, na = 0, nt = 0, combiner = 0, size = 0;
  if (k_size_bits != 0 && (seen & k_size_bits) == 0 &&
      MPI_Type_get_envelope(type, &ni, &na, &nt, &combiner) == MPI_SUCCESS &&
      combiner == MPI_COMBINER_NAMED && MPI_Type_size(type, &size) == MPI_SUCCESS && size > 0) {
    std::uintptr_t log2 = 0;
    while (log2 < 6 && (2 << log2) <= size) ++log2;
    seen |= 1 + log2;
  }
  g_checked_recv_type.store(seen, std::memory_order_relaxed);
  return mprobe_mrecv(data, count, type, source, tag, comm, st, seen);
}
#endif

/// Whether blocking receives are guarded (see above).
inline bool recv_guard_on() noexcept {
#if OOMPI_RECV_GUARD
  return !g_recv_guard_off.load(std::memory_order_relaxed);
#else
  return false;
#endif
}

#if OOMPI_RECV_GUARD
/// The guarded receive: the datatype checked once, the matched probe, the size check, MPI_Mrecv.
/// Not inlined: a caller with the guard off then keeps the frame of a plain MPI_Recv.
OOMPI_DETAIL_NOINLINE inline int guarded_recv(void* data, int count, MPI_Datatype type,
                                              int source, int tag, MPI_Comm comm,
                                              MPI_Status* st) {
  const std::uintptr_t seen = g_checked_recv_type.load(std::memory_order_relaxed);
  if (OOMPI_DETAIL_UNLIKELY((seen & ~k_size_bits) != type_bits(type)))
    return check_then_recv(data, count, type, source, tag, comm, st);
  return mprobe_mrecv(data, count, type, source, tag, comm, st, seen);
}
#endif

/// MPI_Recv that never writes outside count elements of type at data (see above).
inline int bounded_recv(void* data, int count, MPI_Datatype type, int source, int tag,
                        MPI_Comm comm, MPI_Status* st) {
#if OOMPI_RECV_GUARD
  if (OOMPI_DETAIL_LIKELY(recv_guard_on()))
    return guarded_recv(data, count, type, source, tag, comm, st);
#endif
  return MPI_Recv(data, count, type, source, tag, comm, st);
}

/// MPI_Sendrecv whose receive is bounded: the send is started, the receive is bounded_recv,
/// then the send is waited for (also when the receive failed: the buffer stays the caller's).
/// Also on Open MPI without the guard: its MPI_Sendrecv posts the receive before the send, and
/// a message a rank sends itself into a receive posted first is truncated silently (no
/// MPI_ERR_TRUNCATE); sending first reports it.
inline int bounded_sendrecv(const void* sdata, int scount, MPI_Datatype stype, int dest,
                            int stag, void* rdata, int rcount, MPI_Datatype rtype, int source,
                            int rtag, MPI_Comm comm, MPI_Status* st) {
#if OOMPI_RECV_GUARD || defined(OPEN_MPI)
  MPI_Request r = MPI_REQUEST_NULL;
  int rc = MPI_Isend(sdata, scount, stype, dest, stag, comm, &r);
  if (rc != MPI_SUCCESS) return rc;
  rc = bounded_recv(rdata, rcount, rtype, source, rtag, comm, st);
  const int wrc = MPI_Wait(&r, MPI_STATUS_IGNORE);
  return rc != MPI_SUCCESS ? rc : wrc;
#else
  return MPI_Sendrecv(sdata, scount, stype, dest, stag, rdata, rcount, rtype, source, rtag, comm,
                      st);
#endif
}

/// MPI_Sendrecv_replace, bounded: the outgoing data is packed into a buffer of its own first.
inline int bounded_sendrecv_replace(void* data, int count, MPI_Datatype type, int dest, int stag,
                                    int source, int rtag, MPI_Comm comm, MPI_Status* st) {
#if OOMPI_RECV_GUARD || defined(OPEN_MPI)
  int packed = 0;
  int rc = MPI_Pack_size(count, type, comm, &packed);
  if (rc != MPI_SUCCESS) return rc;
  std::vector<char> out(static_cast<std::size_t>(packed));
  int pos = 0;
  rc = MPI_Pack(data, count, type, out.data(), packed, &pos, comm);
  if (rc != MPI_SUCCESS) return rc;
  return bounded_sendrecv(out.data(), pos, MPI_PACKED, dest, stag, data, count, type, source,
                          rtag, comm, st);
#else
  return MPI_Sendrecv_replace(data, count, type, dest, stag, source, rtag, comm, st);
#endif
}

}  // namespace detail
}  // namespace oompi

#endif  // OOMPI_DETAIL_RECV_GUARD_HPP
