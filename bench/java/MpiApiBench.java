import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.util.ArrayList;
import java.util.List;
import org.oompi.BenchSupport;
import org.oompi.Buffers;
import org.oompi.Comm;
import org.oompi.Environment;

/**
 * Issue 24: what Open MPI's Java API (package mpi, oompi-mpi.jar) costs over oompi's own Java
 * API, both beside raw C in the same run. JSON-lines records as in docs/bench.md.
 *
 * mpi_api_pingpong (ranks 0 and 1): 8 B and 4 MiB round trips; systems raw_c (MPI_Send/MPI_Recv
 * in a C loop in this process), oompi_direct (Comm.send/recv of a direct ByteBuffer),
 * mpi_api_direct (mpi.Comm.send/recv of the same buffer, count bytes of MPI.BYTE), oompi_array
 * and mpi_api_array (a byte[]). mpi_api_allreduce (every rank): MPI_Allreduce of 8 doubles,
 * raw_c, oompi_direct (Comm.allreduce of DoubleBuffers), mpi_api_direct (mpi allReduce of the
 * same buffers), mpi_api_array (of double[]). Each round runs one block per system, the order
 * rotated per round, after warm-up rounds; rank 0 records the samples.
 *
 * Options: --rounds=N --quick
 *
 * --self (rank 0 alone, nothing else runs): the layer's own cost without a peer: 8 B irecv from
 * self + isend to self + two waits, sendRecv to self, blocking send + recv to self (the ping-pong's
 * calls; 8 B goes eagerly), allreduce of 8 doubles, through org.oompi and through package mpi,
 * blocks alternated; prints the fastest block's ns per iteration of each (a plain line, robust to
 * a loaded machine).
 */
public final class MpiApiBench {
  static final List<String> out = new ArrayList<>();

  static void sample(String bench, String kase, String system, int round, String metric, double v) {
    out.add(String.format("{\"type\":\"sample\",\"bench\":\"%s\",\"case\":\"%s\",\"system\":\"%s\","
        + "\"round\":%d,\"metric\":\"%s\",\"value\":%.6g}", bench, kase, system, round, metric, v));
  }

  public static void main(String[] args) throws Exception {
    boolean quick = BenchArgs.opt(args, "quick", null) != null;
    int rounds = Integer.parseInt(BenchArgs.opt(args, "rounds", quick ? "2" : "15"));
    mpi.MPI.Init(args);  // oompi's Environment underneath: org.oompi's calls work as well
    Comm world = Comm.world();
    int rank = world.getRank(), size = world.getSize();
    if (BenchArgs.opt(args, "self", null) != null) {
      if (rank == 0) self(world);
      mpi.MPI.Finalize();
      return;
    }
    if (rank == 0) meta();
    ByteBuffer big = Buffers.newByteBuffer(4 << 20);
    byte[] bigArray = new byte[4 << 20];
    for (int r = -3; r < rounds; r++) {  // negative rounds: warm-up, not recorded
      if (size >= 2 && rank < 2) {
        for (int bytes : new int[] {8, 4 << 20}) {
          ByteBuffer d = big.duplicate().clear().limit(bytes).slice();
          byte[] a = bytes == bigArray.length ? bigArray : new byte[bytes];
          pingpongRound(world, rank, d, a, bytes, quick, r);
        }
      }
      world.barrier();
      allreduceRound(world, rank, quick, r);
    }
    world.barrier();
    if (rank == 0) for (String s : out) System.out.println(s);
    mpi.MPI.Finalize();
  }

  static void self(Comm w) throws mpi.MPIException {
    mpi.Intracomm mw = mpi.MPI.COMM_WORLD;
    ByteBuffer s = Buffers.newByteBuffer(8), r = Buffers.newByteBuffer(8);
    int n = 100000;
    double[] best = {1e9, 1e9, 1e9, 1e9, 1e9, 1e9, 1e9, 1e9, 1e9, 1e9};
    for (int b = 0; b < 30; b++) {
      double t0 = Environment.wtime();
      for (int i = 0; i < n; i++) {
        try (org.oompi.Request q = w.irecv(r, 0, 0); org.oompi.Request p = w.isend(s, 0, 0)) {
          p.waitFor();
          q.waitFor();
        }
      }
      best[0] = Math.min(best[0], (Environment.wtime() - t0) / n);
      t0 = Environment.wtime();
      for (int i = 0; i < n; i++) {
        mpi.Request q = mw.iRecv(r, 8, mpi.MPI.BYTE, 0, 0), p = mw.iSend(s, 8, mpi.MPI.BYTE, 0, 0);
        p.waitFor();
        q.waitFor();
      }
      best[1] = Math.min(best[1], (Environment.wtime() - t0) / n);
      t0 = Environment.wtime();
      for (int i = 0; i < n; i++) w.sendrecv(s, 0, 1, r, 0, 1);
      best[2] = Math.min(best[2], (Environment.wtime() - t0) / n);
      t0 = Environment.wtime();
      for (int i = 0; i < n; i++) mw.sendRecv(s, 8, mpi.MPI.BYTE, 0, 1, r, 8, mpi.MPI.BYTE, 0, 1);
      best[3] = Math.min(best[3], (Environment.wtime() - t0) / n);
      // allreduce of 8 doubles on one rank: the call's own cost, direct buffers and arrays
      t0 = Environment.wtime();
      for (int i = 0; i < n; i++) w.allreduce(in, res, org.oompi.Op.SUM);
      best[4] = Math.min(best[4], (Environment.wtime() - t0) / n);
      t0 = Environment.wtime();
      for (int i = 0; i < n; i++) mw.allReduce(in, res, N, mpi.MPI.DOUBLE, mpi.MPI.SUM);
      best[5] = Math.min(best[5], (Environment.wtime() - t0) / n);
      t0 = Environment.wtime();
      for (int i = 0; i < n; i++) w.allreduce(inA, resA, org.oompi.Op.SUM);
      best[6] = Math.min(best[6], (Environment.wtime() - t0) / n);
      t0 = Environment.wtime();
      for (int i = 0; i < n; i++) mw.allReduce(inA, resA, N, mpi.MPI.DOUBLE, mpi.MPI.SUM);
      best[7] = Math.min(best[7], (Environment.wtime() - t0) / n);
      // blocking send + recv to self (8 B goes eagerly): the ping-pong's own calls
      t0 = Environment.wtime();
      for (int i = 0; i < n; i++) { w.send(s, 0, 2); w.recv(r, 0, 2); }
      best[8] = Math.min(best[8], (Environment.wtime() - t0) / n);
      t0 = Environment.wtime();
      for (int i = 0; i < n; i++) { mw.send(s, 8, mpi.MPI.BYTE, 0, 2); mw.recv(r, 8, mpi.MPI.BYTE, 0, 2); }
      best[9] = Math.min(best[9], (Environment.wtime() - t0) / n);
    }
    System.out.printf("self 8 B, fastest of 30 blocks of %d: isend/irecv + 2 waits: oompi %.0f ns, "
        + "mpi %.0f ns (%.3fx); sendrecv: oompi %.0f ns, mpi %.0f ns (%.3fx)%n", n, best[0] * 1e9,
        best[1] * 1e9, best[1] / best[0], best[2] * 1e9, best[3] * 1e9, best[3] / best[2]);
    System.out.printf("self allreduce of %d doubles: direct oompi %.0f ns, mpi %.0f ns (%.3fx); "
        + "arrays oompi %.0f ns, mpi %.0f ns (%.3fx)%n", N, best[4] * 1e9, best[5] * 1e9,
        best[5] / best[4], best[6] * 1e9, best[7] * 1e9, best[7] / best[6]);
    System.out.printf("self 8 B send + recv: oompi %.0f ns, mpi %.0f ns (%.3fx)%n", best[8] * 1e9,
        best[9] * 1e9, best[9] / best[8]);
  }

  static final String[] PP = {"raw_c", "oompi_direct", "mpi_api_direct", "oompi_array", "mpi_api_array"};

  static void pingpongRound(Comm world, int rank, ByteBuffer d, byte[] a, int bytes, boolean quick,
                            int r) throws mpi.MPIException {
    int peer = 1 - rank;
    boolean starter = rank == 0;
    int iters = bytes <= 4096 ? (quick ? 200 : 4000) : (quick ? 4 : 16);
    mpi.Intracomm mw = mpi.MPI.COMM_WORLD;
    for (int k = 0; k < PP.length; k++) {
      String sys = PP[Math.floorMod(k + r, PP.length)];
      world.barrier();
      double t0 = Environment.wtime(), t;
      switch (sys) {
        case "raw_c":
          t = BenchSupport.rawPingpong(d, peer, iters, starter);
          break;
        case "oompi_direct":
        case "oompi_array": {
          Object buf = sys.equals("oompi_direct") ? d : a;
          for (int i = 0; i < iters; i++) {
            if (starter) { world.send(buf, peer, 0); world.recv(buf, peer, 0); }
            else { world.recv(buf, peer, 0); world.send(buf, peer, 0); }
          }
          t = Environment.wtime() - t0;
          break;
        }
        default: {
          Object buf = sys.equals("mpi_api_direct") ? d : a;
          for (int i = 0; i < iters; i++) {
            if (starter) {
              mw.send(buf, bytes, mpi.MPI.BYTE, peer, 0);
              mw.recv(buf, bytes, mpi.MPI.BYTE, peer, 0);
            } else {
              mw.recv(buf, bytes, mpi.MPI.BYTE, peer, 0);
              mw.send(buf, bytes, mpi.MPI.BYTE, peer, 0);
            }
          }
          t = Environment.wtime() - t0;
        }
      }
      if (starter && r >= 0) {
        double oneWay = t / iters / 2;
        sample("mpi_api_pingpong", Integer.toString(bytes), sys, r, "latency_us", oneWay * 1e6);
        sample("mpi_api_pingpong", Integer.toString(bytes), sys, r, "bandwidth_MBps", bytes / oneWay / 1e6);
      }
    }
  }

  static final String[] AR = {"raw_c", "oompi_direct", "mpi_api_direct", "mpi_api_array"};
  static final int N = 8;
  static final DoubleBuffer in = Buffers.newDoubleBuffer(N), res = Buffers.newDoubleBuffer(N);
  static final double[] inA = new double[N], resA = new double[N];

  static void allreduceRound(Comm world, int rank, boolean quick, int r) throws mpi.MPIException {
    int iters = quick ? 200 : 4000;
    mpi.Intracomm mw = mpi.MPI.COMM_WORLD;
    for (int i = 0; i < N; i++) { in.put(i, rank + i); inA[i] = rank + i; }
    for (int k = 0; k < AR.length; k++) {
      String sys = AR[Math.floorMod(k + r, AR.length)];
      world.barrier();
      double t0 = Environment.wtime(), t;
      switch (sys) {
        case "raw_c":
          t = BenchSupport.rawAllreduceDoubles(in, res, iters);
          break;
        case "oompi_direct":
          for (int i = 0; i < iters; i++) world.allreduce(in, res, org.oompi.Op.SUM);
          t = Environment.wtime() - t0;
          break;
        case "mpi_api_direct":
          for (int i = 0; i < iters; i++) mw.allReduce(in, res, N, mpi.MPI.DOUBLE, mpi.MPI.SUM);
          t = Environment.wtime() - t0;
          break;
        default:
          for (int i = 0; i < iters; i++) mw.allReduce(inA, resA, N, mpi.MPI.DOUBLE, mpi.MPI.SUM);
          t = Environment.wtime() - t0;
      }
      if (rank == 0 && r >= 0)
        sample("mpi_api_allreduce", Integer.toString(8 * N), sys, r, "latency_us", t / iters * 1e6);
    }
  }

  static void meta() {
    out.add("{\"type\":\"meta\",\"bench\":\"mpi_api_pingpong\",\"title\":\"Open MPI's Java API (package mpi) "
        + "over oompi: ping-pong between 2 ranks (issue 24)\",\"baseline\":\"raw_c\",\"systems\":[\"raw_c\","
        + "\"oompi_direct\",\"mpi_api_direct\",\"oompi_array\",\"mpi_api_array\"],\"system_labels\":{"
        + "\"raw_c\":\"MPI_Send/MPI_Recv (C loop in the JVM process)\",\"oompi_direct\":\"org.oompi "
        + "comm.send/recv, direct ByteBuffer\",\"mpi_api_direct\":\"mpi COMM_WORLD.send/recv(buf, n, "
        + "MPI.BYTE, ...), direct ByteBuffer\",\"oompi_array\":\"org.oompi comm.send/recv, byte[]\","
        + "\"mpi_api_array\":\"mpi send/recv, byte[]\"},\"case_label\":\"message size\",\"case_format\":\"bytes\","
        + "\"metrics\":{\"latency_us\":{\"label\":\"one-way latency\",\"unit\":\"µs\",\"better\":\"lower\",\"plot\":\"loglog\"},"
        + "\"bandwidth_MBps\":{\"label\":\"bandwidth\",\"unit\":\"MB/s\",\"better\":\"higher\",\"plot\":\"loglog\"}},"
        + "\"targets\":[],\"notes\":[\"issue 24: the mpi layer costs at most 5% over oompi's own API "
        + "(mpi_api_direct / oompi_direct)\"]}");
    out.add("{\"type\":\"meta\",\"bench\":\"mpi_api_allreduce\",\"title\":\"Open MPI's Java API over oompi: "
        + "allreduce of 8 doubles (issue 24)\",\"baseline\":\"raw_c\",\"systems\":[\"raw_c\",\"oompi_direct\","
        + "\"mpi_api_direct\",\"mpi_api_array\"],\"case_label\":\"message size\",\"case_format\":\"bytes\","
        + "\"metrics\":{\"latency_us\":{\"label\":\"time per allreduce\",\"unit\":\"µs\",\"better\":\"lower\"}},"
        + "\"targets\":[],\"notes\":[]}");
  }
}
