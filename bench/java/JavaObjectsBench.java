import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.oompi.Comm;
import org.oompi.Environment;
import org.oompi.Message;
import org.oompi.Transportable;
import org.oompi.Wire;
import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;

/**
 * java_objects_list (issue 5): seed 004's linked list of N = 1, 4, 16, ..., 16384 nodes carrying
 * 4 KiB of ints in all (1024 ints spread evenly, as bench_objects.cpp), sent from rank 0 to rank
 * 1 and back; serialization, rebuilding the received list and sending it back included.
 *
 * Systems: {@code java_serialization} (baseline: ObjectOutputStream over a ByteArrayOutputStream,
 * the byte[] sent with comm.send, received with mprobe + a byte[] of the message's size, read
 * with ObjectInputStream), {@code kryo} (issue 16's peer: Kryo from Debian's libkryo-java, Node
 * registered, one Kryo/Output/Input reused, the Output's bytes sent with comm.send(buf, 0, n, ...),
 * received with mprobe into a reused byte[]) and {@code transportable} (comm.osend / orecv, wire
 * format v1).
 * Metrics: {@code roundtrip_us}, and {@code local_us} (the same serialize + rebuild on rank 0
 * alone, no MPI; rank 1 sleeps meanwhile). An untimed warm-up pass, then blocks of a few round
 * trips, systems interleaved in an order rotated per round, round 0 left out; the table gives the median over rounds of the per-round ratio
 * java_serialization / transportable. Runs on a thread with a 512 MiB stack (Java serialization
 * recurses once per node). JSON-lines records (docs/bench.md), then the table.
 *
 * Options: --rounds=N (25) --first-round=R --quick --sizes=1,4,...
 */
public final class JavaObjectsBench {
  static final int TOTAL_INTS = 1024;
  /** Passed by bench/java/CMakeLists.txt (the Debian package's version). */
  static final String KRYO_VERSION = System.getProperty("oompi.kryo.version", "(libkryo-java)");

  /** Motor's LinkedArray: data and next travel, next2 does not. */
  static final class Node implements Serializable {
    private static final long serialVersionUID = 1L;
    @Transportable int[] data;
    @Transportable Node next;
    transient Node next2;
  }

  static Node makeList(int n) {
    Node head = null;
    for (int i = n - 1; i >= 0; i--) {
      Node x = new Node();
      int from = (int) ((long) i * TOTAL_INTS / n), to = (int) ((long) (i + 1) * TOTAL_INTS / n);
      x.data = new int[to - from];
      for (int k = from; k < to; k++) x.data[k - from] = k;
      x.next = head;
      head = x;
    }
    return head;
  }

  static long checksum(Node head) {
    long s = 0, count = 0;
    for (Node p = head; p != null; p = p.next, count++) for (int v : p.data) s += v;
    return s * 100003 + count;
  }

  // --- the two systems ----------------------------------------------------------------------

  interface Sys {
    String name();
    void send(Comm c, Node head, int dest, int tag);
    Node recv(Comm c, int source, int tag);
    byte[] encode(Node head);
    Node decode(byte[] b);
  }

  static final Sys TRANSPORTABLE = new Sys() {
    public String name() { return "transportable"; }
    public void send(Comm c, Node head, int dest, int tag) { c.osend(head, dest, tag); }
    public Node recv(Comm c, int source, int tag) { return c.orecv(Node.class, source, tag); }
    public byte[] encode(Node head) { return Wire.encode(head); }
    public Node decode(byte[] b) { return Wire.decode(b, Node.class); }
  };

  static final Sys JAVA_SERIALIZATION = new Sys() {
    public String name() { return "java_serialization"; }
    public void send(Comm c, Node head, int dest, int tag) {
      byte[] b = encode(head);
      c.send(b, dest, tag);
    }
    public Node recv(Comm c, int source, int tag) {
      Message m = c.mprobe(source, tag);
      byte[] b = new byte[(int) m.getCountBytes()];
      m.recv(b);
      m.delete();
      return decode(b);
    }
    public byte[] encode(Node head) {
      try {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
          out.writeObject(head);
        }
        return bytes.toByteArray();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    public Node decode(byte[] b) {
      try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(b))) {
        return (Node) in.readObject();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException(e);
      }
    }
  };

  /** Kryo as its users run it: one Kryo instance with the classes registered (no class names in
   *  the stream), a reused Output and Input, reference tracking left on (Kryo's default, so
   *  shared and cyclic graphs survive, as in wire v1). */
  static final Sys KRYO = new Sys() {
    final Kryo kryo = new Kryo();
    final Output output = new Output(1 << 16, -1);
    final Input input = new Input();
    byte[] recvBuf = new byte[1 << 16];
    {
      kryo.register(Node.class);
      kryo.register(int[].class);
    }
    public String name() { return "kryo"; }
    public void send(Comm c, Node head, int dest, int tag) {
      output.clear();
      kryo.writeObject(output, head);
      c.send(output.getBuffer(), 0, output.position(), dest, tag);
    }
    public Node recv(Comm c, int source, int tag) {
      Message m = c.mprobe(source, tag);
      int n = (int) m.getCountBytes();
      if (recvBuf.length < n) recvBuf = new byte[Math.max(n, 2 * recvBuf.length)];
      m.recv(recvBuf);
      m.delete();
      input.setBuffer(recvBuf, 0, n);
      return kryo.readObject(input, Node.class);
    }
    public byte[] encode(Node head) {
      output.clear();
      kryo.writeObject(output, head);
      return output.getBuffer();  // decode reads only what encode wrote
    }
    public Node decode(byte[] b) {
      input.setBuffer(b, 0, output.position());
      return kryo.readObject(input, Node.class);
    }
  };

  static final Sys[] SYSTEMS = {JAVA_SERIALIZATION, KRYO, TRANSPORTABLE};
  static final int BASE = 0, PEER = 1, OOMPI = 2;

  // --- driver -------------------------------------------------------------------------------

  static String opt(String[] args, String key, String dflt) {
    for (String a : args) if (a.startsWith("--" + key + "=")) return a.substring(key.length() + 3);
    for (String a : args) if (a.equals("--" + key)) return "1";
    return dflt;
  }

  static final List<String> out = new ArrayList<>();

  static void sample(String kase, String system, int round, String metric, double v) {
    out.add(String.format("{\"type\":\"sample\",\"bench\":\"java_objects_list\",\"case\":\"%s\",\"system\":\"%s\","
        + "\"round\":%d,\"metric\":\"%s\",\"value\":%.6g}", kase, system, round, metric, v));
  }

  static final int GO_TAG = 99;
  static final byte[] GO = new byte[1];

  static void waitQuietly(Comm world, int source, int tag) {
    while (world.iprobe(source, tag) == null) {
      try {
        Thread.sleep(0, 200_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
    world.recv(new byte[1], source, tag);
  }

  /** Block start: rank 1 waits for rank 0's go without spinning (it sleeps while rank 0
   *  measures the local serialize + rebuild of the previous block). Rank 0 starts its clock only
   *  once rank 1 is awake (it answers the go): a sleeping peer's wake-up latency must not land
   *  in the first round trip of the block. */
  static void startBlock(Comm world, int rank) {
    if (rank == 0) {
      world.send(GO, 1, GO_TAG);
      world.recv(new byte[1], 1, GO_TAG);
    } else if (rank == 1) {
      waitQuietly(world, 0, GO_TAG);
      world.send(GO, 0, GO_TAG);
    }
  }

  /** Round trips per block: short blocks, more of them for small lists. At least ~1 ms per
   *  block for the faster system: with 8 round trips of 256 nodes, the first (cold caches after
   *  the peer's sleep) made up most of the block. */
  static int reps(int n, boolean quick) {
    int r = Math.max(2, 8192 / n);
    return quick ? Math.max(1, r / 16) : r;
  }

  public static void main(String[] args) throws Exception {
    onBigStack(() -> run(args));
  }

  /** Runs body on a thread with a 512 MiB stack (Java serialization and Kryo recurse once per
   *  node or level); a failure aborts the MPI job, so that the peer rank does not wait. */
  static void onBigStack(Runnable body) throws InterruptedException {
    Throwable[] failure = new Throwable[1];
    Thread t = new Thread(null, () -> {
      try {
        body.run();
      } catch (Throwable e) {
        failure[0] = e;
      }
    }, "bench", 512L << 20);
    t.start();
    t.join();
    if (failure[0] != null) {
      failure[0].printStackTrace();
      Environment.abort(1);
    }
  }

  static void run(String[] args) {
    boolean quick = opt(args, "quick", null) != null;
    int rounds = Integer.parseInt(opt(args, "rounds", quick ? "2" : "25"));
    int first = Integer.parseInt(opt(args, "first-round", "0"));
    int[] sizes = Arrays.stream(opt(args, "sizes", "1,4,16,64,256,1024,4096,16384").split(","))
        .mapToInt(Integer::parseInt).toArray();
    try (Environment env = new Environment()) {
      Comm world = Comm.world();
      int rank = world.getRank();
      if (world.getSize() < 2) {
        if (rank == 0) System.out.println("{\"type\":\"error\",\"bench\":\"java_objects_list\",\"text\":\"needs 2 ranks\"}");
        return;
      }
      if (rank == 0) meta(sizes);
      // [system][size][round]
      double[][][] trip = new double[SYSTEMS.length][sizes.length][rounds];
      double[][][] local = new double[SYSTEMS.length][sizes.length][rounds];
      Node[] lists = new Node[sizes.length];
      long[] sums = new long[sizes.length];
      for (int k = 0; k < sizes.length; k++) {
        lists[k] = makeList(sizes[k]);
        sums[k] = checksum(lists[k]);
      }
      // Warm-up (untimed): every system and size once, so the JIT has compiled both paths.
      for (int pass = 0; pass < (quick ? 0 : 3); pass++)
        for (int k = 0; k < sizes.length; k++)
          for (Sys s : SYSTEMS) {
            if (rank == 0) {
              Node h = lists[k];
              for (int r = 0; r < reps(sizes[k], quick); r++) {
                s.send(world, h, 1, 98);
                h = s.recv(world, 1, 98);
                h = s.decode(s.encode(h));
              }
            } else if (rank == 1) {
              for (int r = 0; r < reps(sizes[k], quick); r++) s.send(world, s.recv(world, 0, 98), 0, 98);
            }
          }
      for (int round = 0; round < rounds; round++) {
        for (int k = 0; k < sizes.length; k++) {
          int n = sizes[k], reps = reps(n, quick);
          for (int j = 0; j < SYSTEMS.length; j++) {
            int si = (j + round + k) % SYSTEMS.length;  // order rotated per round and size
            Sys s = SYSTEMS[si];
            int tag = 100 + si;
            startBlock(world, rank);
            if (rank == 0) {
              Node head = lists[k];
              long t0 = System.nanoTime();
              for (int r = 0; r < reps; r++) {
                s.send(world, head, 1, tag);
                head = s.recv(world, 1, tag);
              }
              long t1 = System.nanoTime();
              if (checksum(head) != sums[k]) throw new AssertionError(s.name() + ": wrong list back at N=" + n);
              trip[si][k][round] = (t1 - t0) / 1e3 / reps;
              // the same serialize + rebuild without MPI (rank 1 sleeps, waiting for the next go)
              Node h = lists[k];
              long t2 = System.nanoTime();
              for (int r = 0; r < reps; r++) h = s.decode(s.encode(h));
              long t3 = System.nanoTime();
              if (checksum(h) != sums[k]) throw new AssertionError(s.name() + ": wrong local copy at N=" + n);
              local[si][k][round] = (t3 - t2) / 1e3 / reps;
            } else if (rank == 1) {
              for (int r = 0; r < reps; r++) s.send(world, s.recv(world, 0, tag), 0, tag);
            }
          }
        }
      }
      world.barrier();
      if (rank == 0) {
        for (int si = 0; si < SYSTEMS.length; si++)
          for (int k = 0; k < sizes.length; k++)
            for (int round = 1; round < rounds || (rounds == 1 && round == 0); round++) {
              int r = Math.min(round, rounds - 1);
              sample(String.valueOf(sizes[k]), SYSTEMS[si].name(), first + r, "roundtrip_us", trip[si][k][r]);
              sample(String.valueOf(sizes[k]), SYSTEMS[si].name(), first + r, "local_us", local[si][k][r]);
            }
        for (String s : out) System.out.println(s);
        table(sizes, rounds, trip, local);
      }
    }
  }

  static double median(double[] v) {
    double[] c = v.clone();
    Arrays.sort(c);
    int n = c.length;
    return n == 0 ? Double.NaN : n % 2 == 1 ? c[n / 2] : 0.5 * (c[n / 2 - 1] + c[n / 2]);
  }

  /** Median over rounds (warm-up round 0 left out when there are more) of per-round values. */
  static double[] measured(double[] perRound) {
    return perRound.length > 1 ? Arrays.copyOfRange(perRound, 1, perRound.length) : perRound;
  }

  static double[] ratios(double[] a, double[] b) {
    double[] r = new double[a.length];
    for (int i = 0; i < a.length; i++) r[i] = a[i] / b[i];
    return r;
  }

  static void table(int[] sizes, int rounds, double[][][] trip, double[][][] local) {
    StringBuilder sb = new StringBuilder();
    sb.append("\njava_objects_list: linked list, 4 KiB of ints in all, rank 0 -> 1 -> 0; medians over ")
        .append(Math.max(1, rounds - 1)).append(" rounds (µs; ratios: medians of per-round ratios)\n");
    sb.append(String.format("%7s | %10s %10s %10s %9s %9s | %10s %10s %10s %9s %9s%n", "N", "OOS", "kryo",
        "transp.", "OOS/tr", "tr/kryo", "local OOS", "kryo", "transp.", "OOS/tr", "tr/kryo"));
    for (int k = 0; k < sizes.length; k++) {
      double[][] t = {measured(trip[BASE][k]), measured(trip[PEER][k]), measured(trip[OOMPI][k])};
      double[][] l = {measured(local[BASE][k]), measured(local[PEER][k]), measured(local[OOMPI][k])};
      sb.append(String.format("%7d | %10.1f %10.1f %10.1f %8.2fx %8.3fx | %10.1f %10.1f %10.1f %8.2fx %8.3fx%n",
          sizes[k], median(t[0]), median(t[1]), median(t[2]), median(ratios(t[0], t[2])),
          median(ratios(t[2], t[1])), median(l[0]), median(l[1]), median(l[2]), median(ratios(l[0], l[2])),
          median(ratios(l[2], l[1]))));
    }
    sb.append("targets: ObjectOutputStream / @Transportable >= 7x at N >= 256 (issue 5);"
        + " @Transportable / Kryo <= 1.0x at N >= 256 (issue 16)\n");
    System.out.print(sb);
  }

  static void meta(int[] sizes) {
    StringBuilder targets = new StringBuilder("[");
    for (int n : sizes) {
      if (n < 256) continue;
      if (targets.length() > 1) targets.append(',');
      targets.append("{\"metric\":\"roundtrip_us\",\"case\":\"").append(n)
          .append("\",\"system\":\"transportable\",\"max_ratio\":0.142857,\"text\":\"issue 5: @Transportable list of ")
          .append(n).append(" nodes at least 7x faster than ObjectOutputStream (round trip)\"}");
      targets.append(",{\"metric\":\"roundtrip_us\",\"case\":\"").append(n)
          .append("\",\"system\":\"transportable\",\"baseline\":\"kryo\",\"max_ratio\":1.0,")
          .append("\"text\":\"issue 16: @Transportable list of ").append(n)
          .append(" nodes ≤ 1.0× Kryo + MPI (round trip)\"}");
    }
    targets.append(']');
    out.add("{\"type\":\"meta\",\"bench\":\"java_objects_list\",\"title\":\"Java: linked list of N nodes, 4 KiB of ints"
        + " in all, round trip between 2 ranks (issue 5)\",\"baseline\":\"java_serialization\","
        + "\"systems\":[\"java_serialization\",\"kryo\",\"transportable\"],\"system_labels\":{\"java_serialization\":"
        + "\"ObjectOutputStream + byte[] send, mprobe + ObjectInputStream\",\"kryo\":\"Kryo " + KRYO_VERSION
        + " (Node and int[] registered, references on; Output bytes sent, mprobe + Input)\",\"transportable\":"
        + "\"@Transportable: comm.osend / orecv (wire v1)\"},\"case_label\":\"nodes\","
        + "\"metrics\":{\"roundtrip_us\":{\"label\":\"round trip\",\"unit\":\"µs\",\"better\":\"lower\",\"plot\":\"loglog\"},"
        + "\"local_us\":{\"label\":\"serialize + rebuild on one rank, no MPI\",\"unit\":\"µs\",\"better\":\"lower\","
        + "\"plot\":\"loglog\"}},\"targets\":" + targets + "}");
  }
}
