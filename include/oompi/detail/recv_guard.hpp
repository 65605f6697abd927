#ifndef OOMPI_DETAIL_RECV_GUARD_HPP
#define OOMPI_DETAIL_RECV_GUARD_HPP

// A receive never writes outside the memory its caller named.
//
// MPI fails a message larger than the receive buffer with MPI_ERR_TRUNCATE. Open MPI 4.1 (pml
// ob1) reports it, but for a message above the transport's eager limit (about 4 KB over shared
// memory, where vader copies it with CMA; more over TCP) it first writes the WHOLE message from
// the buffer's start, past its end, whatever the receive count (a 1-element receive of a 5 KB
// message writes 5 KB). In a JVM, .NET or NumPy array that is heap corruption. MPICH 4.0 writes
// nothing outside the buffer. So, unless the MPI is MPICH, a blocking receive takes the message
// with a matched probe first (MPI_Mprobe: the same message MPI_Recv would match, and no other
// thread can take it), compares its size with the buffer, then receives it (MPI_Mrecv). A
// message that does not fit is received into a staging buffer of its own size; the elements
// that fit are unpacked into the caller's buffer and the call fails with MPI_ERR_TRUNCATE (the
// status, when asked for, holds the message's true size and MPI_ERR_TRUNCATE).
//
// A posted nonblocking receive (irecv, recv_init) cannot be guarded: the size is unknown until
// it matches, and matching it later (an Improbe in test/wait) would change which receive gets
// which message and deadlock the usual irecv-then-send exchange of large messages. Its buffer
// must hold any message that can match it. Matched receives (mrecv, imrecv) know the size.
//
// -DOOMPI_RECV_GUARD=0 / =1 overrides the choice (0: MPI_Recv directly, as a C program does).

#include "../buffer.hpp"

#include <mpi.h>

#include <atomic>
#include <climits>
#include <cstddef>
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

/// Whether a probed message fits in count elements of type; `bytes` is its size when it does
/// not. One MPI_Get_count on the hot path (whole elements, MPI_UNDEFINED when not a whole
/// number or more than INT_MAX); the exact byte sizes only when that cannot tell.
inline bool fits(const MPI_Status& probed, int count, MPI_Datatype type, MPI_Count& bytes) {
  int n = MPI_UNDEFINED;
  MPI_Get_count(&probed, type, &n);
  if (OOMPI_DETAIL_LIKELY(n != MPI_UNDEFINED && n <= count)) return true;
  MPI_Count size = 0;
  MPI_Type_size_x(type, &size);
  MPI_Get_elements_x(&probed, MPI_BYTE, &bytes);
  return bytes <= size * count;
}

/// MPI_Mrecv that never writes outside count elements of type at data.
inline int bounded_mrecv(void* data, int count, MPI_Datatype type, MPI_Message* m,
                         const MPI_Status& probed, MPI_Comm comm, MPI_Status* st) {
  MPI_Count bytes = 0;
  if (OOMPI_DETAIL_LIKELY(fits(probed, count, type, bytes)))
    return MPI_Mrecv(data, count, type, m, st);
  return truncated_mrecv(data, count, type, m, probed, bytes, comm, st);
}

#if OOMPI_RECV_GUARD
// The last receive datatype MPI accepted. MPI_Mprobe checks source, tag and communicator but not
// the buffer: a null or uncommitted datatype must fail at once, as MPI_Recv does, not after
// waiting for a message. A receive from MPI_PROC_NULL makes MPI check it (once per new type:
// one compare on the hot path; a race between threads only costs an extra check).
inline std::atomic<MPI_Datatype> g_checked_recv_type{MPI_BYTE};

OOMPI_DETAIL_COLD inline int check_recv_type(void* data, int count, MPI_Datatype type, int tag,
                                             MPI_Comm comm) {
  const int rc = MPI_Recv(data, count, type, MPI_PROC_NULL, tag, comm, MPI_STATUS_IGNORE);
  if (rc == MPI_SUCCESS) g_checked_recv_type.store(type, std::memory_order_relaxed);
  return rc;
}
#endif

/// MPI_Recv that never writes outside count elements of type at data (see above).
inline int bounded_recv(void* data, int count, MPI_Datatype type, int source, int tag,
                        MPI_Comm comm, MPI_Status* st) {
#if OOMPI_RECV_GUARD
  if (OOMPI_DETAIL_UNLIKELY(type != g_checked_recv_type.load(std::memory_order_relaxed))) {
    if (const int rc = check_recv_type(data, count, type, tag, comm); rc != MPI_SUCCESS)
      return rc;
  }
  MPI_Message m = MPI_MESSAGE_NULL;
  MPI_Status probed;
  const int rc = MPI_Mprobe(source, tag, comm, &m, &probed);
  if (OOMPI_DETAIL_UNLIKELY(rc != MPI_SUCCESS)) return rc;
  return bounded_mrecv(data, count, type, &m, probed, comm, st);
#else
  return MPI_Recv(data, count, type, source, tag, comm, st);
#endif
}

/// MPI_Sendrecv whose receive is bounded: the send is started, the receive is bounded_recv,
/// then the send is waited for (also when the receive failed: the buffer stays the caller's).
inline int bounded_sendrecv(const void* sdata, int scount, MPI_Datatype stype, int dest,
                            int stag, void* rdata, int rcount, MPI_Datatype rtype, int source,
                            int rtag, MPI_Comm comm, MPI_Status* st) {
#if OOMPI_RECV_GUARD
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
#if OOMPI_RECV_GUARD
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
