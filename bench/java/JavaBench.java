import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.oompi.BenchSupport;
import org.oompi.Buffers;
import org.oompi.Comm;
import org.oompi.Datatype;
import org.oompi.Environment;
import org.oompi.Op;
import org.oompi.Request;
import org.oompi.NativeUserFunction;
import org.oompi.UserFunction;

/**
 * Java benches (issue 5), JSON-lines records as in docs/bench.md.
 *
 * java_pingpong: ranks 0 and 1 bounce 8 B ... 4 MiB; systems raw_c (MPI_Send/MPI_Recv in a C
 * loop inside this process, through liboompi_java), java_direct (Comm.send/recv of a direct
 * ByteBuffer), java_array (of a byte[]). Each round runs one block per system and size, order
 * rotated per round; rank 0 times the blocks. The same buffer memory for raw_c and java_direct.
 *
 * java_crossing (rank 0 alone): ns per call of a null downcall, a downcall with 3 int
 * arguments, a director upcall (C++ calling UserFunction.call) and MPI_Reduce_local of one int
 * through a user op written in Java.
 *
 * Options: --rounds=N --first-round=R --quick --sizes=8,1024 --systems=raw_c,java_nonblocking
 * (a subset, for quick comparisons; the default is every size and system)
 *
 * --self[=blocks] (rank 0 alone, nothing else runs): the nonblocking path without a peer, 8 B
 * irecv from self + isend to self + two waitFor (try-with-resources) against the same in C
 * (MPI_Irecv/MPI_Isend/MPI_Wait, BenchSupport.rawNonblockingSelf), blocks alternated; prints
 * the fastest block's ns per iteration of each (a plain line, robust to a loaded machine).
 */
public final class JavaBench {
  static final List<String> out = new ArrayList<>();
  /** Samples, formatted only at the end: formatting them between blocks made the JIT compile
   *  String.format's code while the next blocks were timed (two ranks on two cores: a compiler
   *  thread takes a rank's core). */
  static final List<Object[]> samples = new ArrayList<>();

  static void sample(String bench, String kase, String system, int round, String metric, double v) {
    samples.add(new Object[] {bench, kase, system, round, metric, v});
  }

  static String format(Object[] s) {
    return String.format("{\"type\":\"sample\",\"bench\":\"%s\",\"case\":\"%s\",\"system\":\"%s\","
        + "\"round\":%d,\"metric\":\"%s\",\"value\":%.6g}", s);
  }

  /** A user op: sum of ints, over the addresses MPI passes. */
  static final class SumInts extends NativeUserFunction {
    long calls;
    @Override
    public void call(long in, long inout, int count, long extent, Datatype type) {
      calls++;
    }
  }

  /** The same sum over UserFunction's ByteBuffer views (seed 000, Fig. 13). */
  static final class SumIntViews extends UserFunction {
    long calls;
    @Override
    public void call(ByteBuffer in, ByteBuffer inOut, int count, Datatype type) {
      calls++;
      for (int i = 0; i < count; i++) inOut.putInt(4 * i, inOut.getInt(4 * i) + in.getInt(4 * i));
    }
  }

  public static void main(String[] args) {
    boolean quick = BenchArgs.opt(args, "quick", null) != null;
    int rounds = Integer.parseInt(BenchArgs.opt(args, "rounds", quick ? "2" : "20"));
    int first = Integer.parseInt(BenchArgs.opt(args, "first-round", "0"));
    try (Environment env = new Environment()) {
      Comm world = Comm.world();
      int rank = world.getRank();
      int size = world.getSize();
      if (BenchArgs.opt(args, "self", null) != null) {
        if (rank == 0) self(world, Integer.parseInt(BenchArgs.opt(args, "self", "1")));
        return;
      }
      if (rank == 0) meta();
      if (size >= 2 && rank < 2) pingpong(world, rank, quick, rounds, first, args);
      world.barrier();
      if (rank == 0 && BenchArgs.opt(args, "systems", null) == null) crossing(quick, rounds, first);
      world.barrier();
      if (rank == 0) {
        for (String s : out) System.out.println(s);
        for (Object[] s : samples) System.out.println(format(s));
      }
    } catch (RuntimeException e) {
      e.printStackTrace();
      Environment.abort(1);
    }
  }

  static void meta() {
    out.add("{\"type\":\"meta\",\"bench\":\"java_pingpong\",\"title\":\"Java ping-pong between 2 ranks"
        + " (issue 5)\",\"baseline\":\"raw_c\",\"systems\":[\"raw_c\",\"java_direct\",\"java_array\",\"java_port_direct\",\"java_port_array\",\"java_port_direct_unguarded\",\"java_nonblocking\",\"raw_c_nonblocking\"],"
        + "\"system_labels\":{\"raw_c\":\"MPI_Send/MPI_Recv (C loop in the JVM process)\","
        + "\"java_direct\":\"comm.send/recv, direct ByteBuffer\",\"java_array\":\"comm.send/recv, byte[]\",\"java_port_direct\":\"port.send/recv (no Status), direct ByteBuffer\",\"java_port_array\":\"port.send/recv (no Status), byte[]\","
        + "\"java_port_direct_unguarded\":\"java_port_direct with Environment.setReceiveGuard(false)\","
        + "\"java_nonblocking\":\"comm.isend/irecv + waitFor (try-with-resources), direct ByteBuffer\","
        + "\"raw_c_nonblocking\":\"MPI_Isend/MPI_Irecv + MPI_Wait (C loop in the JVM process), the floor of java_nonblocking\"},"
        + "\"case_label\":\"message size\",\"case_format\":\"bytes\","
        + "\"metrics\":{\"latency_us\":{\"label\":\"one-way latency\",\"unit\":\"µs\",\"better\":\"lower\",\"plot\":\"loglog\"},"
        + "\"bandwidth_MBps\":{\"label\":\"bandwidth\",\"unit\":\"MB/s\",\"better\":\"higher\",\"plot\":\"loglog\"}},"
        + "\"targets\":[{\"metric\":\"latency_us\",\"case\":\"8\",\"system\":\"java_port_direct\",\"max_ratio\":1.15,"
        + "\"text\":\"issue 5: 8-byte latency ≤ 1.15× raw C, direct buffer (port)\"},"
        + "{\"metric\":\"latency_us\",\"case\":\"8\",\"system\":\"java_port_array\",\"max_ratio\":1.3,"
        + "\"text\":\"issue 5: 8-byte latency ≤ 1.3× raw C, array (port)\"},"
        + "{\"metric\":\"latency_us\",\"case\":\"8\",\"system\":\"java_direct\",\"max_ratio\":1.15,"
        + "\"text\":\"issue 5: 8-byte latency ≤ 1.15× raw C, direct buffer (comm.recv with Status)\"},"
        + "{\"metric\":\"latency_us\",\"case\":\"8\",\"system\":\"java_nonblocking\",\"max_ratio\":1.5,"
        + "\"text\":\"issue 16: 8-byte Isend/Irecv + Wait ≤ 1.5× raw C (same process and run)\"},"
        + "{\"metric\":\"bandwidth_MBps\",\"case\":\"4194304\",\"system\":\"java_direct\",\"min_ratio\":0.95,"
        + "\"text\":\"issue 5: 4 MiB bandwidth ≥ 0.95× raw C, direct buffer\"}],"
        + "\"notes\":[\"raw C runs inside the Java process (a C loop in liboompi_java), interleaved with the Java systems\"]}");
    out.add("{\"type\":\"meta\",\"bench\":\"java_crossing\",\"title\":\"Java crossing costs (rank 0)\","
        + "\"baseline\":\"java\",\"systems\":[\"java\"],\"case_label\":\"crossing\",\"case_format\":\"text\","
        + "\"metrics\":{\"ns_per_call\":{\"label\":\"time per call\",\"unit\":\"ns\",\"better\":\"lower\"}},"
        + "\"notes\":[\"null and int-argument downcalls through the SWIG wrapper (with its exception handler);"
        + " director upcall = C++ calling NativeUserFunction.call (4 arguments + a Datatype proxy);"
        + " user op = MPI_Reduce_local of 1 int through a Java NativeUserFunction (addresses), and through a UserFunction over two ByteBuffer views\"]}");
  }

  static void self(Comm world, int blocks) {
    blocks = Math.max(blocks, 200);
    int iters = 2000, me = world.getRank();
    ByteBuffer rb = Buffers.newByteBuffer(8), sb = Buffers.newByteBuffer(8);
    // Warm-up, not measured: about two seconds, so that the JIT has compiled the loop (a few
    // hundred blocks are over before it has).
    for (double end = Environment.wtime() + 2; Environment.wtime() < end; ) selfBlock(world, rb, sb, me, iters);
    double rawBest = Double.MAX_VALUE, javaBest = Double.MAX_VALUE, facadeBest = Double.MAX_VALUE;
    for (int b = 0; b < blocks; b++) {
      rawBest = Math.min(rawBest, BenchSupport.rawNonblockingSelf(rb, sb, iters));
      facadeBest = Math.min(facadeBest, BenchSupport.facadeNonblockingSelf(world, rb, sb, iters));
      javaBest = Math.min(javaBest, selfBlock(world, rb, sb, me, iters));
    }
    System.out.printf("self 8 B irecv+isend+2 waitFor, fastest of %d blocks of %d: raw_c %.1f ns,"
        + " facade (C++) %.1f ns, java %.1f ns, java - raw_c %.1f ns (%.2fx)%n", blocks, iters,
        rawBest / iters * 1e9, facadeBest / iters * 1e9, javaBest / iters * 1e9,
        (javaBest - rawBest) / iters * 1e9, javaBest / rawBest);
  }

  static double selfBlock(Comm world, ByteBuffer rb, ByteBuffer sb, int me, int iters) {
    double t0 = Environment.wtime();
    for (int i = 0; i < iters; i++) {
      try (Request q = world.irecv(rb, me, 0); Request s = world.isend(sb, me, 0)) {
        s.waitFor();
        q.waitFor();
      }
    }
    return Environment.wtime() - t0;
  }

  static int itersFor(int bytes, boolean quick) {
    int n = bytes <= 4096 ? 4000 : (int) Math.max(8, Math.min(2000, (64L << 20) / bytes / 2));
    return quick ? Math.max(4, n / 20) : n;
  }

  static void pingpong(Comm world, int rank, boolean quick, int rounds, int first, String[] args) {
    int[] sizes = {8, 1024, 65536, 1 << 20, 4 << 20};
    String[] systems = {"raw_c", "java_direct", "java_array", "java_port_direct", "java_port_array",
        "java_port_direct_unguarded", "java_nonblocking", "raw_c_nonblocking"};
    String sizeList = BenchArgs.opt(args, "sizes", null), systemList = BenchArgs.opt(args, "systems", null);
    if (sizeList != null)
      sizes = java.util.Arrays.stream(sizeList.split(",")).mapToInt(Integer::parseInt).toArray();
    if (systemList != null) systems = systemList.split(",");
    ByteBuffer direct = Buffers.newByteBuffer(4 << 20);
    byte[] array = new byte[4 << 20];
    int[] sz = sizes;
    String[] sys = systems;
    // The warm-up runs the same code, recording included (a branch first taken in the first
    // measured round made C2 recompile the loop there); its samples are dropped.
    int mark = samples.size();
    warmUp(world, quick, () -> pingpongRound(world, rank, sz, sys, direct, array, quick, first - 1));
    samples.subList(mark, samples.size()).clear();
    for (int r = first; r < first + rounds; r++)
      pingpongRound(world, rank, sz, sys, direct, array, quick, r);
  }

  /**
   * Warm-up rounds until the JIT is quiet: no rank compiled anything during the last two (at
   * least 3, at most 60 rounds). One round was too few: C2 was still compiling (the bench's
   * loops, then what they call) for seconds, a compiler thread on one of the two cores the
   * ranks spin on, and the 8-byte figures measured that (java_nonblocking 1.6-2.0x raw C
   * against 1.2-1.3x once quiet). Then the heap as a running program has it: a full
   * collection (the warm-up's garbage), then the young generation filled once, so that its
   * pages have been touched: otherwise the measured rounds took the first-touch page faults
   * as soon as their allocations passed the warm-up's high-water mark (java_nonblocking went
   * from 1.2 to 1.6x raw C from about the 11th round on; -XX:+AlwaysPreTouch did the same as
   * this). The steady state is what JMH measures and what a long MPI run sees; what the
   * measured blocks allocate and collect still counts.
   */
  static void warmUp(Comm world, boolean quick, Runnable round) {
    java.lang.management.CompilationMXBean jit = java.lang.management.ManagementFactory.getCompilationMXBean();
    int[] busy = new int[1], anyBusy = new int[1];
    for (int w = 0, quiet = 0; w < (quick ? 1 : 60); w++) {
      long before = jit.getTotalCompilationTime();
      round.run();
      busy[0] = jit.getTotalCompilationTime() != before ? 1 : 0;
      world.allreduce(busy, anyBusy, Op.MAX);
      quiet = anyBusy[0] == 0 ? quiet + 1 : 0;
      if (w >= 2 && quiet >= 2) break;
    }
    System.gc();
    if (!quick) touchYoungGeneration();
    world.barrier();
  }

  static volatile Object sink;

  /** Allocates until a collection runs (at most 8 GiB): every page of the young generation used. */
  static void touchYoungGeneration() {
    long before = collections();
    for (int i = 0; i < 8192 && collections() == before; i++) sink = new byte[1 << 20];
    sink = null;
  }

  static long collections() {
    long n = 0;
    for (java.lang.management.GarbageCollectorMXBean gc
        : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans())
      n += Math.max(gc.getCollectionCount(), 0);
    return n;
  }

  static void pingpongRound(Comm world, int rank, int[] sizes, String[] systems, ByteBuffer direct,
      byte[] array, boolean quick, int r) {
    int peer = 1 - rank;
    boolean starter = rank == 0;
    for (int bytes : sizes) {
      ByteBuffer d = direct.duplicate().clear().limit(bytes);
      byte[] a = bytes == array.length ? array : new byte[bytes];
      int iters = itersFor(bytes, quick);
      for (int k = 0; k < systems.length; k++) {
        String sys = systems[Math.floorMod(k + r, systems.length)];
        world.barrier();
        double t;
        if (sys.equals("raw_c")) {
          t = BenchSupport.rawPingpong(d, peer, iters, starter);
        } else if (sys.equals("raw_c_nonblocking")) {
          t = BenchSupport.rawNonblockingPingpong(d, peer, iters, starter);
        } else if (sys.equals("java_nonblocking")) {
          double t0 = Environment.wtime();
          for (int i = 0; i < iters; i++) {
            if (starter) {
              try (Request s = world.isend(d, peer, 0)) { s.waitFor(); }
              try (Request q = world.irecv(d, peer, 0)) { q.waitFor(); }
            } else {
              try (Request q = world.irecv(d, peer, 0)) { q.waitFor(); }
              try (Request s = world.isend(d, peer, 0)) { s.waitFor(); }
            }
          }
          t = Environment.wtime() - t0;
        } else if (sys.startsWith("java_port")) {
          Object buf = sys.startsWith("java_port_direct") ? d : a;
          org.oompi.Port port = world.port(peer);
          // The receive guard's cost: the same receives as plain MPI_Recv (both ranks). Where the
          // environment found the MPI safe (issue 25) the guard is off already; the state is
          // restored afterwards, so the other systems run as a user's program does.
          boolean unguarded = sys.endsWith("_unguarded");
          boolean guardWas = Environment.receiveGuard();
          if (unguarded) Environment.setReceiveGuard(false);
          double t0 = Environment.wtime();
          if (starter) {
            for (int i = 0; i < iters; i++) {
              port.send(buf);
              port.recv(buf);
            }
          } else {
            for (int i = 0; i < iters; i++) {
              port.recv(buf);
              port.send(buf);
            }
          }
          t = Environment.wtime() - t0;
          if (unguarded) Environment.setReceiveGuard(guardWas);
        } else {
          Object buf = sys.equals("java_direct") ? d : a;
          double t0 = Environment.wtime();
          if (starter) {
            for (int i = 0; i < iters; i++) {
              world.send(buf, peer, 0);
              world.recv(buf, peer, 0);
            }
          } else {
            for (int i = 0; i < iters; i++) {
              world.recv(buf, peer, 0);
              world.send(buf, peer, 0);
            }
          }
          t = Environment.wtime() - t0;
        }
        if (starter) {
          double oneWay = t / iters / 2;
          sample("java_pingpong", Integer.toString(bytes), sys, r, "latency_us", oneWay * 1e6);
          if (bytes >= 65536)
            sample("java_pingpong", Integer.toString(bytes), sys, r, "bandwidth_MBps", bytes / oneWay / 1e6);
        }
      }
    }
  }

  static void crossing(boolean quick, int rounds, int first) {
    int iters = quick ? 20000 : 2_000_000;
    ByteBuffer one = Buffers.newByteBuffer(4);
    ByteBuffer two = Buffers.newByteBuffer(4);
    SumInts fn = new SumInts();
    Op op = Op.create(fn, true);
    SumIntViews views = new SumIntViews();
    Op viewOp = new Op(views, true);
    try {
      for (int r = first - 1; r < first + rounds; r++) {
        long t0 = System.nanoTime();
        for (int i = 0; i < iters; i++) BenchSupport.nullCall();
        long t1 = System.nanoTime();
        int acc = 0;
        for (int i = 0; i < iters; i++) acc += BenchSupport.intArgs(i, acc, 7);
        long t2 = System.nanoTime();
        int upIters = iters / 10;
        BenchSupport.upcallLoop(fn, one, 1, Datatype.INT, upIters);
        long t3 = System.nanoTime();
        BenchSupport.reduceLocalLoop(op, one, two, 1, Datatype.INT, upIters);
        long t4 = System.nanoTime();
        BenchSupport.reduceLocalLoop(viewOp, one, two, 1, Datatype.INT, upIters);
        long t5 = System.nanoTime();
        if (acc == 42) System.err.print("");
        if (r >= first) {
          sample("java_crossing", "null downcall", "java", r, "ns_per_call", (t1 - t0) / (double) iters);
          sample("java_crossing", "downcall, 3 int args", "java", r, "ns_per_call", (t2 - t1) / (double) iters);
          sample("java_crossing", "director upcall", "java", r, "ns_per_call", (t3 - t2) / (double) upIters);
          sample("java_crossing", "user op, 1 element", "java", r, "ns_per_call", (t4 - t3) / (double) upIters);
          sample("java_crossing", "user op, 1 element, ByteBuffer views", "java", r, "ns_per_call", (t5 - t4) / (double) upIters);
        }
      }
    } finally {
      op.close();
      viewOp.close();
    }
    if (views.calls == 0) throw new IllegalStateException("the view function was never called");
    if (fn.calls == 0) throw new IllegalStateException("the user function was never called");
  }
}
