// Native side of the language benches (org.oompi.BenchSupport, Oompi.BenchSupport): the raw C
// baseline run inside the managed process (same buffers, same run, interleaved with the
// language's systems) and the probes of the crossing-cost tables. Not part of the API users
// program against.
#ifndef OOMPI_SWIG_BENCH_SUPPORT_HPP
#define OOMPI_SWIG_BENCH_SUPPORT_HPP

#include <oompi/op.hpp>
#include <oompi/rt/rt.hpp>

#include <mpi.h>

#include <cstdint>

namespace oompi::bench {

struct bench_support {
  /// iters round trips of the buffer's bytes with `peer` over MPI_COMM_WORLD, written as a C
  /// programmer would (MPI_Send / MPI_Recv with MPI_STATUS_IGNORE). Returns seconds.
  static double raw_pingpong(rt::buffer& buf, int peer, int iters, bool starter) {
    void* p = buf.data;
    const int bytes = static_cast<int>(buf.count * buf.extent);
    const double t0 = MPI_Wtime();
    for (int i = 0; i < iters; ++i) {
      if (starter) {
        MPI_Send(p, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
        MPI_Recv(p, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(p, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(p, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
      }
    }
    return MPI_Wtime() - t0;
  }
  /// iters of MPI_Allreduce (MPI_SUM) of the send buffer's doubles over MPI_COMM_WORLD, as a C
  /// programmer would write it (the baseline of bench/csharp/MpiNet.cs). Returns seconds.
  static double raw_allreduce_sum(const rt::buffer& send, rt::buffer& recv, int iters) {
    const int n = static_cast<int>(send.count * send.extent / sizeof(double));
    const double t0 = MPI_Wtime();
    for (int i = 0; i < iters; ++i)
      MPI_Allreduce(send.data, recv.data, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return MPI_Wtime() - t0;
  }
  /// raw_pingpong with MPI_Isend / MPI_Irecv + MPI_Wait (MPI_STATUS_IGNORE): the floor of any
  /// binding's nonblocking path (the Java bench's raw_c_nonblocking).
  static double raw_nonblocking_pingpong(rt::buffer& buf, int peer, int iters, bool starter) {
    void* p = buf.data;
    const int bytes = static_cast<int>(buf.count * buf.extent);
    MPI_Request r;
    const double t0 = MPI_Wtime();
    for (int i = 0; i < iters; ++i) {
      if (starter) {
        MPI_Isend(p, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        MPI_Irecv(p, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
      } else {
        MPI_Irecv(p, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        MPI_Isend(p, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
      }
    }
    return MPI_Wtime() - t0;
  }
  /// iters of MPI_Irecv from this rank + MPI_Isend to it + MPI_Wait of both (MPI_STATUS_IGNORE)
  /// over MPI_COMM_WORLD: one process, no peer, so a binding's cost per request is most of what
  /// differs from it (JavaBench --self). Returns seconds.
  static double raw_nonblocking_self(rt::buffer& recv, const rt::buffer& send, int iters) {
    int me = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    const int bytes = static_cast<int>(send.count * send.extent);
    MPI_Request r, s;
    const double t0 = MPI_Wtime();
    for (int i = 0; i < iters; ++i) {
      MPI_Irecv(recv.data, bytes, MPI_BYTE, me, 0, MPI_COMM_WORLD, &r);
      MPI_Isend(send.data, bytes, MPI_BYTE, me, 0, MPI_COMM_WORLD, &s);
      MPI_Wait(&s, MPI_STATUS_IGNORE);
      MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    return MPI_Wtime() - t0;
  }
  /// raw_nonblocking_self through the facade's bare-handle calls, which the Java light
  /// requests make (comm::isend_native/irecv_native, request::wait_native and its status):
  /// the C++ share of the binding's cost per request.
  static double facade_nonblocking_self(const rt::comm& c, rt::buffer& recv,
                                        const rt::buffer& send, int iters) {
    const int me = c.rank();
    std::int64_t sink = 0;
    const double t0 = MPI_Wtime();
    for (int i = 0; i < iters; ++i) {
      MPI_Request r = c.irecv_native(recv, me, 0);
      MPI_Request s = c.isend_native(send, me, 0);
      sink += rt::request::wait_native(s).count_bytes();
      sink += rt::request::wait_native(r).count_bytes();
    }
    return MPI_Wtime() - t0 + (sink < 0 ? 1 : 0);
  }
  /// The raw C baseline of the RMA benches: a window over the buffer's bytes (MPI_Win_create,
  /// disp_unit 1, collective over MPI_COMM_WORLD; the memory must stay where it is until
  /// raw_win_free), returned as its Fortran handle (an int in every MPI).
  static std::int64_t raw_win_create(rt::buffer& mem) {
    MPI_Win w = MPI_WIN_NULL;
    MPI_Win_create(mem.data, static_cast<MPI_Aint>(mem.count * mem.extent), 1, MPI_INFO_NULL,
                   MPI_COMM_WORLD, &w);
    MPI_Win_fence(0, w);
    return MPI_Win_c2f(w);
  }
  static void raw_win_free(std::int64_t win) {
    MPI_Win w = MPI_Win_f2c(static_cast<MPI_Fint>(win));
    MPI_Win_free(&w);
  }
  /// iters MPI_Put (put) or MPI_Get of the buffer's bytes to / from `peer`'s window at 0, each
  /// followed by MPI_Win_fence(0), written as a C programmer would. Returns seconds.
  static double raw_rma_fence(std::int64_t win, rt::buffer& buf, int peer, int iters, bool put) {
    MPI_Win w = MPI_Win_f2c(static_cast<MPI_Fint>(win));
    void* p = buf.data;
    const int n = static_cast<int>(buf.count * buf.extent);
    const double t0 = MPI_Wtime();
    for (int i = 0; i < iters; ++i) {
      if (put) MPI_Put(p, n, MPI_BYTE, peer, 0, n, MPI_BYTE, w);
      else MPI_Get(p, n, MPI_BYTE, peer, 0, n, MPI_BYTE, w);
      MPI_Win_fence(0, w);
    }
    return MPI_Wtime() - t0;
  }
  /// The crossing-cost probes: a call that does nothing, one with int arguments.
  static void null_call() {}
  static int int_args(int a, int b, int c) { return a ^ b ^ c; }
  /// iters upcalls of fn.call (director) with count elements at address; C++ side of the loop.
  static void upcall_loop(rt::user_function& fn, rt::buffer& buf, int count,
                          const rt::datatype& type, int iters) {
    const auto address = static_cast<std::int64_t>(reinterpret_cast<std::intptr_t>(buf.data));
    for (int i = 0; i < iters; ++i) fn.call(address, address, count, type.size(), type);
  }
  /// iters MPI_Reduce_local calls of `count` elements through op (a user op: MPI calls the
  /// trampoline, which calls the managed function).
  static void reduce_local_loop(const rt::op& o, const rt::buffer& in, rt::buffer& inout,
                                int count, const rt::datatype& type, int iters) {
    MPI_Op h = o.core("reduce_local").native();
    MPI_Datatype t = type.native("reduce_local");
    for (int i = 0; i < iters; ++i)
      MPI_Reduce_local(in.data, inout.data, count, t, h);
  }
  /// iters of MPI_Allreduce (MPI_SUM) of the buffers' doubles over MPI_COMM_WORLD, as a C
  /// programmer would write it (issue 24's allreduce bench). Returns seconds.
  static double raw_allreduce_doubles(const rt::buffer& in, rt::buffer& out, int iters) {
    const int n = static_cast<int>(in.count * in.extent / sizeof(double));
    const double t0 = MPI_Wtime();
    for (int i = 0; i < iters; ++i)
      MPI_Allreduce(in.data, out.data, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return MPI_Wtime() - t0;
  }
};

}  // namespace oompi::bench

#endif  // OOMPI_SWIG_BENCH_SUPPORT_HPP
