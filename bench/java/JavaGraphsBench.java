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
 * java_objects_graphs (issue 28): object graphs other than the linked list of java_objects_list,
 * on the general (identity table) path of wire v1, against Kryo with references off (the fastest
 * Kryo, which cannot keep a shared or cyclic graph) and on (Kryo's default, which can).
 *
 * <p>Shapes (cases):
 * <ul>
 * <li>{@code tree_N}: a complete binary tree of N = 255, 4,095, 65,535 nodes
 *     {int id; double value; String name (8-12 ASCII chars); left; right}, sent as its root;
 * <li>{@code records_N}: a Record[] of N = 1,000, 100,000 {long id; String name (10-20 chars);
 *     double[4] values; boolean flag}, sent as the array (each element a reference);
 * <li>{@code dag_N}: N = 4,096 tree nodes in 64 layers of 64, node i of a layer linking to nodes
 *     i and i+1 (mod 64) of the next: every node below the first layer reached twice. Kryo
 *     without references would write it as a tree of 2^64 paths, so it is not measured there.
 * </ul>
 *
 * <p>Metrics as java_objects_list: {@code roundtrip_us} (rank 0 -> 1 -> 0, serialization and
 * rebuilding included: comm.osend/orecv for oompi, Output bytes sent with comm.send and read by
 * mprobe into a reused byte[] for Kryo) and {@code local_us} (encode + decode on rank 0 alone, no
 * MPI). Systems interleaved in an order rotated per round and case, an untimed warm-up, round 0
 * left out; the table gives medians of per-round ratios. JSON-lines records for bench/run.sh.
 *
 * <p>Options: --rounds=N (15) --first-round=R --quick --cases=tree_255,records_1000,...
 */
public final class JavaGraphsBench {
  static final String BENCH = "java_objects_graphs";

  // --- the shapes -----------------------------------------------------------------------------

  static final class TreeNode {
    @Transportable int id;
    @Transportable double value;
    @Transportable String name;
    @Transportable TreeNode left;
    @Transportable TreeNode right;
  }

  static final class Record {
    @Transportable long id;
    @Transportable String name;
    @Transportable double[] values;
    @Transportable boolean flag;
  }

  static final String LETTERS = "abcdefghijklmnopqrstuvwxyz0123456789";

  static String name(int id, int min, int spread) {
    int len = min + Math.floorMod(id * 7 + 3, spread + 1);
    StringBuilder sb = new StringBuilder(len);
    for (int k = 0; k < len; k++) sb.append(LETTERS.charAt(Math.floorMod(id * 31 + k * 17, LETTERS.length())));
    return sb.toString();
  }

  static TreeNode treeNode(int id) {
    TreeNode t = new TreeNode();
    t.id = id;
    t.value = id * 0.5 + 0.25;
    t.name = name(id, 8, 4);
    return t;
  }

  /** A complete binary tree of n = 2^d - 1 nodes, ids in breadth-first order. */
  static TreeNode tree(int n) {
    TreeNode[] all = new TreeNode[n];
    for (int i = 0; i < n; i++) all[i] = treeNode(i);
    for (int i = 0; i < n; i++) {
      if (2 * i + 1 < n) all[i].left = all[2 * i + 1];
      if (2 * i + 2 < n) all[i].right = all[2 * i + 2];
    }
    return all[0];
  }

  static final int DAG_WIDTH = 64;

  /** n nodes in layers of DAG_WIDTH; returns a root whose left is node 0 of the first layer
   *  and right node 1 (so the whole DAG is reachable). */
  static TreeNode dag(int n) {
    int layers = n / DAG_WIDTH;
    TreeNode[][] l = new TreeNode[layers][DAG_WIDTH];
    for (int d = layers - 1; d >= 0; d--)
      for (int i = 0; i < DAG_WIDTH; i++) {
        TreeNode t = treeNode(d * DAG_WIDTH + i + 1);
        if (d + 1 < layers) {
          t.left = l[d + 1][i];
          t.right = l[d + 1][(i + 1) % DAG_WIDTH];
        }
        l[d][i] = t;
      }
    TreeNode root = treeNode(0);
    root.left = l[0][0];
    root.right = l[0][1];
    return root;
  }

  static Record[] records(int n) {
    Record[] a = new Record[n];
    for (int i = 0; i < n; i++) {
      Record r = new Record();
      r.id = 1_000_000_007L * i;
      r.name = name(i, 10, 10);
      r.values = new double[] {i, i * 0.5, i * 0.25, -i};
      r.flag = i % 3 == 0;
      a[i] = r;
    }
    return a;
  }

  /** A checksum that sees every field and, through an identity walk, how many distinct nodes
   *  there are (a DAG copied as a tree would have more). */
  static long checksum(Object o) {
    if (o instanceof Record[]) {
      long s = 0;
      for (Record r : (Record[]) o)
        s = s * 31 + r.id + r.name.hashCode() + Double.hashCode(r.values[0] + r.values[1] + r.values[2] + r.values[3])
            + (r.flag ? 1 : 0);
      return s;
    }
    java.util.IdentityHashMap<TreeNode, Boolean> seen = new java.util.IdentityHashMap<>();
    ArrayList<TreeNode> todo = new ArrayList<>();
    todo.add((TreeNode) o);
    long s = 0;
    while (!todo.isEmpty()) {
      TreeNode t = todo.remove(todo.size() - 1);
      if (t == null || seen.put(t, Boolean.TRUE) != null) continue;
      s += t.id * 1_000_003L + Double.hashCode(t.value) + t.name.hashCode()
          + (t.left == null ? 0 : t.left.id) * 7L + (t.right == null ? 0 : t.right.id) * 13L;
      todo.add(t.left);
      todo.add(t.right);
    }
    return s * 100_003 + seen.size();
  }

  // --- the systems -----------------------------------------------------------------------------

  interface Sys {
    String name();
    void send(Comm c, Object x, int dest, int tag);
    Object recv(Comm c, Class<?> type, int source, int tag);
    byte[] encode(Object x);
    Object decode(byte[] b, Class<?> type);
  }

  static final Sys TRANSPORTABLE = new Sys() {
    public String name() { return "transportable"; }
    public void send(Comm c, Object x, int dest, int tag) { c.osend(x, dest, tag); }
    public Object recv(Comm c, Class<?> type, int source, int tag) { return c.orecv(type, source, tag); }
    public byte[] encode(Object x) { return Wire.encode(x); }
    public Object decode(byte[] b, Class<?> type) { return Wire.decode(b, type); }
  };

  /** Kryo as its users run it: the classes registered, one Kryo, Output and Input reused. */
  static final class KryoSys implements Sys {
    final String name;
    final Kryo kryo = new Kryo();
    final Output output = new Output(1 << 16, -1);
    final Input input = new Input();
    byte[] recvBuf = new byte[1 << 16];

    KryoSys(String name, boolean references) {
      this.name = name;
      kryo.setReferences(references);
      kryo.register(TreeNode.class);
      kryo.register(Record.class);
      kryo.register(Record[].class);
      kryo.register(double[].class);
    }

    public String name() { return name; }
    public void send(Comm c, Object x, int dest, int tag) {
      output.clear();
      kryo.writeObject(output, x);
      c.send(output.getBuffer(), 0, output.position(), dest, tag);
    }
    public Object recv(Comm c, Class<?> type, int source, int tag) {
      Message m = c.mprobe(source, tag);
      int n = (int) m.getCountBytes();
      if (recvBuf.length < n) recvBuf = new byte[Math.max(n, 2 * recvBuf.length)];
      m.recv(recvBuf);
      m.delete();
      input.setBuffer(recvBuf, 0, n);
      return kryo.readObject(input, type);
    }
    public byte[] encode(Object x) {
      output.clear();
      kryo.writeObject(output, x);
      return output.getBuffer();  // decode reads only what encode wrote
    }
    public Object decode(byte[] b, Class<?> type) {
      input.setBuffer(b, 0, output.position());
      return kryo.readObject(input, type);
    }
  }

  static final Sys KRYO = new KryoSys("kryo", false);
  static final Sys KRYO_REFS = new KryoSys("kryo_refs", true);
  static final Sys[] SYSTEMS = {KRYO, KRYO_REFS, TRANSPORTABLE};

  static final class Case {
    final String name;
    final Object value;
    final Class<?> type;
    final long sum;
    final int reps;
    final boolean shared;  // Kryo without references cannot carry it

    Case(String name, Object value, int units, boolean shared) {
      this.name = name;
      this.value = value;
      this.type = value.getClass();
      this.sum = checksum(value);
      this.reps = Math.max(2, 32768 / units);
      this.shared = shared;
    }
  }

  static Case make(String name) {
    int n = Integer.parseInt(name.substring(name.indexOf('_') + 1));
    if (name.startsWith("tree_")) return new Case(name, tree(n), n, false);
    if (name.startsWith("records_")) return new Case(name, records(n), n, false);
    if (name.startsWith("dag_")) return new Case(name, dag(n), n, true);
    throw new IllegalArgumentException("unknown case " + name);
  }

  // --- driver ----------------------------------------------------------------------------------

  static final List<String> out = new ArrayList<>();

  static void sample(String kase, String system, int round, String metric, double v) {
    out.add(String.format("{\"type\":\"sample\",\"bench\":\"%s\",\"case\":\"%s\",\"system\":\"%s\","
        + "\"round\":%d,\"metric\":\"%s\",\"value\":%.6g}", BENCH, kase, system, round, metric, v));
  }

  public static void main(String[] args) throws Exception {
    JavaObjectsBench.onBigStack(() -> run(args));  // Kryo recurses per level, wire v1 per left link
  }

  static void run(String[] args) {
    boolean quick = JavaObjectsBench.opt(args, "quick", null) != null;
    int rounds = Integer.parseInt(JavaObjectsBench.opt(args, "rounds", quick ? "2" : "15"));
    int first = Integer.parseInt(JavaObjectsBench.opt(args, "first-round", "0"));
    String[] names = JavaObjectsBench.opt(args, "cases",
        quick ? "tree_255,records_1000,dag_4096"
              : "tree_255,tree_4095,tree_65535,records_1000,records_100000,dag_4096").split(",");
    Case[] cases = new Case[names.length];
    for (int k = 0; k < names.length; k++) cases[k] = make(names[k]);
    try (Environment env = new Environment()) {
      Comm world = Comm.world();
      int rank = world.getRank();
      if (world.getSize() < 2) {
        if (rank == 0) System.out.println("{\"type\":\"error\",\"bench\":\"" + BENCH + "\",\"text\":\"needs 2 ranks\"}");
        return;
      }
      if (rank == 0) meta(cases);
      double[][][] trip = new double[SYSTEMS.length][cases.length][rounds];
      double[][][] local = new double[SYSTEMS.length][cases.length][rounds];
      for (int pass = 0; pass < (quick ? 1 : 3); pass++)
        for (Case c : cases)
          for (Sys s : SYSTEMS) {
            if (c.shared && s == KRYO) continue;
            int reps = quick ? 1 : c.reps;
            if (rank == 0) {
              Object x = c.value;
              for (int r = 0; r < reps; r++) {
                s.send(world, x, 1, 98);
                x = s.recv(world, c.type, 1, 98);
                x = s.decode(s.encode(x), c.type);
              }
              if (checksum(x) != c.sum) throw new AssertionError(s.name() + ": wrong copy of " + c.name);
            } else if (rank == 1) {
              for (int r = 0; r < reps; r++) s.send(world, s.recv(world, c.type, 0, 98), 0, 98);
            }
          }
      for (int round = 0; round < rounds; round++) {
        for (int k = 0; k < cases.length; k++) {
          Case c = cases[k];
          int reps = quick ? 1 : c.reps;
          for (int j = 0; j < SYSTEMS.length; j++) {
            int si = (j + round + k) % SYSTEMS.length;
            Sys s = SYSTEMS[si];
            if (c.shared && s == KRYO) continue;
            int tag = 100 + si;
            JavaObjectsBench.startBlock(world, rank);
            if (rank == 0) {
              Object x = c.value;
              long t0 = System.nanoTime();
              for (int r = 0; r < reps; r++) {
                s.send(world, x, 1, tag);
                x = s.recv(world, c.type, 1, tag);
              }
              long t1 = System.nanoTime();
              if (checksum(x) != c.sum) throw new AssertionError(s.name() + ": wrong graph back for " + c.name);
              trip[si][k][round] = (t1 - t0) / 1e3 / reps;
              Object y = c.value;
              long t2 = System.nanoTime();
              for (int r = 0; r < reps; r++) y = s.decode(s.encode(y), c.type);
              long t3 = System.nanoTime();
              if (checksum(y) != c.sum) throw new AssertionError(s.name() + ": wrong local copy of " + c.name);
              local[si][k][round] = (t3 - t2) / 1e3 / reps;
            } else if (rank == 1) {
              for (int r = 0; r < reps; r++) s.send(world, s.recv(world, c.type, 0, tag), 0, tag);
            }
          }
        }
      }
      world.barrier();
      if (rank == 0) {
        for (int si = 0; si < SYSTEMS.length; si++)
          for (int k = 0; k < cases.length; k++) {
            if (cases[k].shared && SYSTEMS[si] == KRYO) continue;
            for (int round = 1; round < rounds || (rounds == 1 && round == 0); round++) {
              int r = Math.min(round, rounds - 1);
              sample(cases[k].name, SYSTEMS[si].name(), first + r, "roundtrip_us", trip[si][k][r]);
              sample(cases[k].name, SYSTEMS[si].name(), first + r, "local_us", local[si][k][r]);
            }
          }
        for (String s : out) System.out.println(s);
        table(cases, rounds, trip, local);
      }
    }
  }

  static double ratio(double[] a, double[] b) {
    a = JavaObjectsBench.measured(a);
    b = JavaObjectsBench.measured(b);
    return JavaObjectsBench.median(JavaObjectsBench.ratios(a, b));
  }

  static void table(Case[] cases, int rounds, double[][][] trip, double[][][] local) {
    StringBuilder sb = new StringBuilder();
    sb.append("\n" + BENCH + ": rank 0 -> 1 -> 0 and local encode + decode; medians over ")
        .append(Math.max(1, rounds - 1)).append(" rounds (µs; ratios: medians of per-round ratios)\n");
    sb.append(String.format("%-15s | %9s %9s %9s %8s %8s | %9s %9s %9s %8s %8s%n", "case", "kryo", "kryo_ref",
        "transp.", "tr/kryo", "tr/k_ref", "loc kryo", "kryo_ref", "transp.", "tr/kryo", "tr/k_ref"));
    final int K = 0, KR = 1, T = 2;
    for (int k = 0; k < cases.length; k++) {
      boolean noKryo = cases[k].shared;
      sb.append(String.format("%-15s | %9.1f %9.1f %9.1f %7.3fx %7.3fx | %9.1f %9.1f %9.1f %7.3fx %7.3fx%n",
          cases[k].name,
          noKryo ? Double.NaN : JavaObjectsBench.median(JavaObjectsBench.measured(trip[K][k])),
          JavaObjectsBench.median(JavaObjectsBench.measured(trip[KR][k])),
          JavaObjectsBench.median(JavaObjectsBench.measured(trip[T][k])),
          noKryo ? Double.NaN : ratio(trip[T][k], trip[K][k]), ratio(trip[T][k], trip[KR][k]),
          noKryo ? Double.NaN : JavaObjectsBench.median(JavaObjectsBench.measured(local[K][k])),
          JavaObjectsBench.median(JavaObjectsBench.measured(local[KR][k])),
          JavaObjectsBench.median(JavaObjectsBench.measured(local[T][k])),
          noKryo ? Double.NaN : ratio(local[T][k], local[K][k]), ratio(local[T][k], local[KR][k])));
    }
    sb.append("targets: @Transportable / Kryo without references <= 1.0x on every tree and records case,"
        + " round trip and local (issue 28)\n");
    System.out.print(sb);
  }

  static void meta(Case[] cases) {
    StringBuilder targets = new StringBuilder("[");
    for (Case c : cases) {
      for (String metric : new String[] {"roundtrip_us", "local_us"}) {
        if (targets.length() > 1) targets.append(',');
        String base = c.shared ? "kryo_refs" : "kryo";
        targets.append("{\"metric\":\"").append(metric).append("\",\"case\":\"").append(c.name)
            .append("\",\"system\":\"transportable\",\"baseline\":\"").append(base).append("\",\"max_ratio\":1.0,")
            .append("\"text\":\"issue 28: @Transportable ").append(c.name).append(" ≤ 1.0× Kryo ")
            .append(c.shared ? "with references" : "without references")
            .append(metric.equals("local_us") ? " (encode + decode)\"}" : " (round trip)\"}");
      }
    }
    targets.append(']');
    out.add("{\"type\":\"meta\",\"bench\":\"" + BENCH + "\",\"title\":\"Java: binary trees, flat records and a "
        + "shared DAG, round trip between 2 ranks and local encode + decode (issue 28)\",\"baseline\":\"kryo\","
        + "\"systems\":[\"kryo\",\"kryo_refs\",\"transportable\"],\"system_labels\":{\"kryo\":\"Kryo "
        + JavaObjectsBench.KRYO_VERSION + ", references off (classes registered; Output bytes sent, mprobe + Input)\","
        + "\"kryo_refs\":\"Kryo " + JavaObjectsBench.KRYO_VERSION + ", references on (Kryo's default)\","
        + "\"transportable\":\"@Transportable: comm.osend / orecv (wire v1)\"},\"case_label\":\"shape\","
        + "\"metrics\":{\"roundtrip_us\":{\"label\":\"round trip\",\"unit\":\"µs\",\"better\":\"lower\"},"
        + "\"local_us\":{\"label\":\"encode + decode on one rank, no MPI\",\"unit\":\"µs\",\"better\":\"lower\"}},"
        + "\"targets\":" + targets + "}");
  }
}
