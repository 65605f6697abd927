import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.oompi.BenchSupport;
import org.oompi.Buffers;
import org.oompi.Comm;
import org.oompi.Environment;
import org.oompi.Request;
import org.oompi.ThreadLevel;

/**
 * java_slices (issue 29): ping-pong of a 4 KiB, 64 KiB and 4 MiB slice in the middle of a
 * 64 MiB byte[] (comm.send(a, off, n, ...) / comm.recv(a, off, n, ...)) against the same size
 * in a direct ByteBuffer (comm.send/recv) and raw C (MPI_Send/MPI_Recv in a C loop inside this
 * JVM, BenchSupport.rawPingpong, on the direct buffer's memory). Each round runs one block per
 * system and size, order rotated per round; rank 0 times the blocks. JSON-lines records as in
 * docs/bench.md, then (rank 0, stderr) the medians over the rounds of the per-round ratios.
 *
 * Options: --rounds=N --first-round=R --quick --sizes=4096,65536 --systems=raw_c,java_slice
 * --slice-divisor=D (the slice systems run 1/D of the iterations: the binding before issue 29
 * copied the whole 64 MiB array at every call, tens of ms each) --level=FUNNELED (MPI's thread
 * level, MULTIPLE by default as new Environment(); on JDK 17 a send pins a large range only
 * below MULTIPLE, and copies it otherwise) --shift=S (the range starts S bytes before the
 * middle: 3 by default, an unaligned start; 0 aligned).
 *
 * --self (rank 0 alone): the binding's own cost without a peer, in thread CPU time (a loaded
 * machine's descheduling does not count), per call of one process sending to itself with the
 * other side posted first: a blocking send of the slice (the receive into a direct buffer
 * posted first), a blocking receive into it (the send from a direct buffer posted first), and
 * irecv + isend of slices + two waits, each against the same through direct buffers and raw C
 * (MPI_Irecv + MPI_Isend + waits on direct buffers); blocks interleaved, median per block of
 * the ratio to raw C. Prints plain lines (stderr).
 *
 * OOMPI_JAVA_COPY=region: the binding copies ranges with the JVM's region calls (as before the
 * copies that avoid glibc's slow memcpy distances on AMD; docs/bindings.md), for comparison.
 *
 * JDK 22+: pass -XX:+UseG1GC to measure region pinning. Under mpirun's default binding a rank
 * sees one core and the JVM picks the Serial collector, which locks the GC while an array is
 * pinned, so the binding copies there as on JDK 17 (docs/bindings.md).
 */
public final class JavaSliceBench {
  static final int ARRAY = 64 << 20;
  static final List<Object[]> samples = new ArrayList<>();
  /** The range starts this many bytes before the middle (3 by default: not aligned). */
  static int shift;

  static String opt(String[] args, String key, String dflt) {
    for (String a : args) if (a.startsWith("--" + key + "=")) return a.substring(key.length() + 3);
    for (String a : args) if (a.equals("--" + key)) return "1";
    return dflt;
  }

  public static void main(String[] args) {
    boolean quick = opt(args, "quick", null) != null;
    int rounds = Integer.parseInt(opt(args, "rounds", quick ? "2" : "15"));
    int first = Integer.parseInt(opt(args, "first-round", "0"));
    int divisor = Integer.parseInt(opt(args, "slice-divisor", "1"));
    shift = Integer.parseInt(opt(args, "shift", "3"));
    int[] sizes = {4096, 65536, 4 << 20};
    String[] systems = {"raw_c", "java_direct", "java_slice", "java_nonblocking", "java_slice_nonblocking"};
    String s = opt(args, "sizes", null), y = opt(args, "systems", null);
    if (s != null) sizes = Arrays.stream(s.split(",")).mapToInt(Integer::parseInt).toArray();
    if (y != null) systems = y.split(",");
    // MPI's thread level: on JDK 17 large ranges of sends are pinned below MULTIPLE only
    ThreadLevel level = ThreadLevel.valueOf(opt(args, "level", "MULTIPLE"));
    try (Environment env = new Environment(level)) {
      Comm world = Comm.world();
      int rank = world.getRank();
      if (opt(args, "self", null) != null) {
        if (rank == 0) SelfCost.run(world, sizes, rounds, level);
        world.barrier();
        return;
      }
      if (rank == 0) meta();
      if (world.getSize() >= 2 && rank < 2) {
        ByteBuffer direct = Buffers.newByteBuffer(4 << 20);
        byte[] big = new byte[ARRAY];
        for (int i = 0; i < big.length; i += 4096) big[i] = (byte) i;
        int warm = quick ? 1 : 3;
        for (int r = first - warm; r < first + rounds; r++)
          round(world, rank, sizes, systems, direct, big, quick, divisor, r, r >= first);
      }
      world.barrier();
      if (rank == 0) {
        for (Object[] x : samples)
          System.out.println(String.format("{\"type\":\"sample\",\"bench\":\"java_slices\",\"case\":\"%s\","
              + "\"system\":\"%s\",\"round\":%d,\"metric\":\"latency_us\",\"value\":%.6g}", x));
        summary(sizes, systems);
      }
    } catch (RuntimeException e) {
      e.printStackTrace();
      Environment.abort(1);
    }
  }

  static void meta() {
    System.out.println("{\"type\":\"meta\",\"bench\":\"java_slices\",\"title\":\"Java ping-pong of a"
        + " slice of a 64 MiB byte[] (issue 29)\",\"baseline\":\"raw_c\",\"systems\":[\"raw_c\","
        + "\"java_direct\",\"java_slice\",\"java_nonblocking\",\"java_slice_nonblocking\"],"
        + "\"system_labels\":{\"raw_c\":\"MPI_Send/MPI_Recv (C loop in the JVM process)\","
        + "\"java_direct\":\"comm.send/recv, direct ByteBuffer of the size\","
        + "\"java_slice\":\"comm.send/recv(a, off, n, ...), the middle of a 64 MiB byte[]\","
        + "\"java_nonblocking\":\"comm.isend/irecv + waitFor, direct ByteBuffer of the size\","
        + "\"java_slice_nonblocking\":\"comm.isend/irecv(a, off, n, ...) + waitFor, the middle of a 64 MiB byte[]\"},"
        + "\"case_label\":\"message size\",\"case_format\":\"bytes\","
        + "\"metrics\":{\"latency_us\":{\"label\":\"one-way latency\",\"unit\":\"µs\",\"better\":\"lower\",\"plot\":\"loglog\"}},"
        + "\"targets\":[{\"metric\":\"latency_us\",\"case\":\"4194304\",\"system\":\"java_slice\",\"max_ratio\":1.1,"
        + "\"text\":\"issue 29: a slice costs what it carries (compare with java_direct: ≤ 1.1× it at every size)\"}]}");
  }

  static int itersFor(int bytes, boolean quick) {
    int n = bytes <= 4096 ? 4000 : (int) Math.max(8, Math.min(2000, (64L << 20) / bytes / 2));
    return quick ? Math.max(4, n / 20) : n;
  }

  static void round(Comm world, int rank, int[] sizes, String[] systems, ByteBuffer direct, byte[] big,
      boolean quick, int divisor, int r, boolean record) {
    int peer = 1 - rank;
    boolean starter = rank == 0;
    for (int bytes : sizes) {
      ByteBuffer d = direct.duplicate().clear().limit(bytes);
      int off = ARRAY / 2 - bytes / 2 - shift;  // the middle, not aligned (by default)
      for (int k = 0; k < systems.length; k++) {
        String sys = systems[Math.floorMod(k + r, systems.length)];
        int iters = itersFor(bytes, quick);
        if (sys.contains("slice")) iters = Math.max(2, iters / divisor);
        world.barrier();
        double t0 = Environment.wtime(), t;
        switch (sys) {
          case "raw_c":
            t = BenchSupport.rawPingpong(d, peer, iters, starter);
            break;
          case "java_direct":
            for (int i = 0; i < iters; i++) {
              if (starter) {
                world.send(d, peer, 0);
                world.recv(d, peer, 0);
              } else {
                world.recv(d, peer, 0);
                world.send(d, peer, 0);
              }
            }
            t = Environment.wtime() - t0;
            break;
          case "java_slice":
            for (int i = 0; i < iters; i++) {
              if (starter) {
                world.send(big, off, bytes, peer, 0);
                world.recv(big, off, bytes, peer, 0);
              } else {
                world.recv(big, off, bytes, peer, 0);
                world.send(big, off, bytes, peer, 0);
              }
            }
            t = Environment.wtime() - t0;
            break;
          default:
            t = Nonblocking.run(world, sys, d, big, off, bytes, peer, iters, starter);
        }
        if (starter && record) samples.add(new Object[] {Integer.toString(bytes), sys, r, t / iters / 2 * 1e6});
      }
    }
  }

  /** Medians over the rounds of the per-round ratios (stderr: a plain summary). */
  static void summary(int[] sizes, String[] systems) {
    for (int bytes : sizes) {
      StringBuilder line = new StringBuilder(String.format("%8d B:", bytes));
      for (String sys : systems) {
        if (sys.equals("raw_c")) continue;
        List<Double> vsRaw = new ArrayList<>(), vsDirect = new ArrayList<>();
        List<Double> own = new ArrayList<>();
        String ref = sys.contains("nonblocking") ? "java_nonblocking" : "java_direct";
        for (Object[] x : samples) {
          if (!x[0].equals(Integer.toString(bytes)) || !x[1].equals(sys)) continue;
          double v = (double) x[3];
          own.add(v);
          Double raw = find(Integer.toString(bytes), "raw_c", (int) x[2]);
          Double dir = find(Integer.toString(bytes), ref, (int) x[2]);
          if (raw != null) vsRaw.add(v / raw);
          if (dir != null && !ref.equals(sys)) vsDirect.add(v / dir);
        }
        if (own.isEmpty()) continue;
        line.append(String.format("  %s %.1f us (%.2fx raw_c", sys, median(own), median(vsRaw)));
        if (!vsDirect.isEmpty()) line.append(String.format(", %.2fx %s", median(vsDirect), ref));
        line.append(")");
      }
      System.err.println(line);
    }
  }

  static Double find(String kase, String sys, int round) {
    for (Object[] x : samples)
      if (x[0].equals(kase) && x[1].equals(sys) && (int) x[2] == round) return (double) x[3];
    return null;
  }

  static double median(List<Double> v) {
    if (v.isEmpty()) return Double.NaN;
    double[] a = v.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
  }
}

/** The nonblocking systems: isend/irecv + waitFor, one request at a time. */
final class Nonblocking {
  static double run(Comm world, String sys, ByteBuffer d, byte[] big, int off, int bytes, int peer,
      int iters, boolean starter) {
    double t0 = Environment.wtime();
    if (sys.equals("java_slice_nonblocking")) {
      for (int i = 0; i < iters; i++) {
        if (starter) {
          try (Request s = world.isend(big, off, bytes, peer, 0)) { s.waitFor(); }
          try (Request q = world.irecv(big, off, bytes, peer, 0)) { q.waitFor(); }
        } else {
          try (Request q = world.irecv(big, off, bytes, peer, 0)) { q.waitFor(); }
          try (Request s = world.isend(big, off, bytes, peer, 0)) { s.waitFor(); }
        }
      }
    } else {
      for (int i = 0; i < iters; i++) {
        if (starter) {
          try (Request s = world.isend(d, peer, 0)) { s.waitFor(); }
          try (Request q = world.irecv(d, peer, 0)) { q.waitFor(); }
        } else {
          try (Request q = world.irecv(d, peer, 0)) { q.waitFor(); }
          try (Request s = world.isend(d, peer, 0)) { s.waitFor(); }
        }
      }
    }
    return Environment.wtime() - t0;
  }
}

/** --self: thread CPU time per call, one process sending to itself (see the class comment). */
final class SelfCost {
  static final String[] SYSTEMS = {"raw_c", "direct_send", "slice_send", "direct_recv", "slice_recv",
      "direct_nonblocking", "slice_nonblocking"};

  static long cpu() {
    return java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
  }

  static void run(Comm w, int[] sizes, int rounds, ThreadLevel level) {
    int me = w.getRank();
    byte[] big = new byte[JavaSliceBench.ARRAY];
    for (int i = 0; i < big.length; i += 4096) big[i] = (byte) i;
    ByteBuffer src = Buffers.newByteBuffer(4 << 20), dst = Buffers.newByteBuffer(4 << 20);
    for (int bytes : sizes) {
      int off = JavaSliceBench.ARRAY / 2 - bytes / 2 - JavaSliceBench.shift;
      ByteBuffer s = src.duplicate().clear().limit(bytes), d = dst.duplicate().clear().limit(bytes);
      int iters = bytes <= 4096 ? 2000 : bytes <= 65536 ? 400 : 20;
      java.util.Map<String, List<Double>> perCall = new java.util.LinkedHashMap<>();
      for (int r = -3; r < Math.max(rounds, 5) * 3; r++) {
        for (int k = 0; k < SYSTEMS.length; k++) {
          String sys = SYSTEMS[Math.floorMod(k + r, SYSTEMS.length)];
          long t0 = cpu();
          block(w, sys, big, off, bytes, s, d, me, iters);
          double ns = (cpu() - t0) / (double) iters;
          if (r >= 0) perCall.computeIfAbsent(sys, x -> new ArrayList<>()).add(ns);
        }
      }
      StringBuilder line = new StringBuilder(String.format("self %s %8d B (thread CPU, median of %d"
          + " blocks of %d): ", level, bytes, perCall.get("raw_c").size(), iters));
      double raw = JavaSliceBench.median(perCall.get("raw_c"));
      for (String sys : SYSTEMS) {
        double v = JavaSliceBench.median(perCall.get(sys));
        line.append(String.format(" %s %.2f us (%.2fx raw)", sys, v / 1e3, v / raw));
      }
      line.append(String.format("; slice/direct: send %.2f, recv %.2f, nonblocking %.2f",
          ratio(perCall, "slice_send", "direct_send"), ratio(perCall, "slice_recv", "direct_recv"),
          ratio(perCall, "slice_nonblocking", "direct_nonblocking")));
      System.err.println(line);
    }
  }

  /** The median over the blocks of a/b (the blocks of a round run back to back). */
  static double ratio(java.util.Map<String, List<Double>> m, String a, String b) {
    List<Double> x = m.get(a), y = m.get(b), q = new ArrayList<>();
    for (int i = 0; i < Math.min(x.size(), y.size()); i++) q.add(x.get(i) / y.get(i));
    return JavaSliceBench.median(q);
  }

  static void block(Comm w, String sys, byte[] big, int off, int n, ByteBuffer s, ByteBuffer d,
      int me, int iters) {
    boolean send = sys.endsWith("send"), slice = sys.startsWith("slice");
    switch (sys) {
      case "raw_c":
        BenchSupport.rawNonblockingSelf(d, s, iters);
        return;
      case "direct_send":
      case "slice_send":
      case "direct_recv":
      case "slice_recv":  // the other side posted first (nonblocking, a direct buffer)
        for (int i = 0; i < iters; i++) {
          try (Request q = send ? w.irecv(d, me, 1) : w.isend(s, me, 1)) {
            if (send && slice) w.send(big, off, n, me, 1);
            else if (send) w.send(s, me, 1);
            else if (slice) w.recv(big, off, n, me, 1);
            else w.recv(d, me, 1);
            q.waitFor();
          }
        }
        return;
      default:  // direct_nonblocking, slice_nonblocking (from one slice of the array into the next)
        for (int i = 0; i < iters; i++) {
          try (Request q = slice ? w.irecv(big, off + n, n, me, 4) : w.irecv(d, me, 4);
               Request t = slice ? w.isend(big, off, n, me, 4) : w.isend(s, me, 4)) {
            t.waitFor();
            q.waitFor();
          }
        }
    }
  }
}
