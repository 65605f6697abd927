package org.oompi.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.DoubleBuffer;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.oompi.Buffers;
import org.oompi.Comm;
import org.oompi.CommFuture;
import org.oompi.Comparison;
import org.oompi.Datatype;
import org.oompi.DatatypeContents;
import org.oompi.DatatypeVector;
import org.oompi.DistGraphComm;
import org.oompi.GraphComm;
import org.oompi.Group;
import org.oompi.Info;
import org.oompi.Keyval;
import org.oompi.MPI;
import org.oompi.Op;
import org.oompi.Request;
import org.oompi.RequestVector;
import org.oompi.TopologyKind;

/**
 * Binding parity with the C++ core (issue 15): group rank ranges, reduceLocal, in-place
 * v-collectives, ireduceScatter, neighbour v-collectives; info objects, attributes, alltoallw,
 * graphs, idup, datatype contents, nonblocking calls on arrays; with their bad inputs.
 */
class ParityTest extends WorldTest {
  @Test
  void groupRanges() {
    try (Group g = world.getGroup(); Group evens = g.rangeIncl(new int[] {0, size - 1, 2});
         Group odds = g.rangeExcl(new int[] {0, size - 1, 2});
         Group backwards = g.rangeIncl(new int[] {size - 1, 0, -1})) {
      assertEquals((size + 1) / 2, evens.getSize());
      assertEquals(size / 2, odds.getSize());
      assertArrayEquals(new int[] {size - 1}, backwards.translateRanks(new int[] {0}, g));
      assertThrows(IllegalArgumentException.class, () -> g.rangeIncl(new int[] {0, 1}));
      assertThrows(IndexOutOfBoundsException.class, () -> g.rangeIncl(new int[] {0, size, 1}));
      assertThrows(IllegalArgumentException.class, () -> g.rangeIncl(new int[] {0, 0, 0}));
    }
  }

  @Test
  void reduceLocal() {
    long[] b = {10, 10, 10};
    Op.SUM.reduceLocal(new long[] {0, 1, 2}, b);
    assertArrayEquals(new long[] {10, 11, 12}, b);
    double[] c = {0, 0};
    Op.MAX.reduceLocal(new double[] {20, -1}, c);
    assertArrayEquals(new double[] {20, 0}, c);
    assertThrows(IllegalArgumentException.class,
        () -> Op.SUM.reduceLocal(new double[3], new double[4]));
    assertThrows(IllegalArgumentException.class,
        () -> Op.SUM.reduceLocal(new int[3], new double[3]));
  }

  @Test
  void inPlaceVCollectives() {
    int[] counts = new int[size];
    int[] displs = new int[size];
    int total = 0;
    for (int r = 0; r < size; r++) {
      counts[r] = r + 1;
      displs[r] = total;
      total += r + 1;
    }
    double[] expect = new double[total];
    for (int r = 0; r < size; r++) {
      for (int i = 0; i < counts[r]; i++) expect[displs[r] + i] = r;
    }
    double[] buf = new double[total];
    java.util.Arrays.fill(buf, -1);
    for (int i = 0; i < counts[rank]; i++) buf[displs[rank] + i] = rank;
    world.allgathervInPlace(buf, counts, displs);
    assertArrayEquals(expect, buf);

    double[] mine = new double[counts[rank]];
    java.util.Arrays.fill(mine, rank);
    double[] whole = new double[total];
    java.util.Arrays.fill(whole, -1);
    for (int i = 0; i < counts[0]; i++) whole[displs[0] + i] = 0;
    world.gathervInPlace(rank == 0 ? whole : mine, counts, displs, 0);
    if (rank == 0) assertArrayEquals(expect, whole);

    int[] ones = new int[size];
    int[] steps = new int[size];
    int[] blocks = new int[size];
    for (int r = 0; r < size; r++) {
      ones[r] = 1;
      steps[r] = r;
      blocks[r] = rank * 100 + r;
    }
    world.alltoallvInPlace(blocks, ones, steps);
    for (int r = 0; r < size; r++) assertEquals(r * 100 + rank, blocks[r]);

    int[] bad = counts.clone();
    bad[size - 1] += 5;
    assertThrows(IllegalArgumentException.class,
        () -> world.allgathervInPlace(new double[expect.length], bad, displs));
  }

  @Test
  void ireduceScatterOnDirectBuffers() {
    int[] counts = new int[size];
    int total = 0;
    for (int r = 0; r < size; r++) {
      counts[r] = r + 1;
      total += r + 1;
    }
    DoubleBuffer send = Buffers.newDoubleBuffer(total);
    for (int i = 0; i < total; i++) send.put(i, i + rank);
    DoubleBuffer mine = Buffers.newDoubleBuffer(counts[rank]);
    try (Request req = world.ireduceScatter(send, mine, counts, Op.SUM)) {
      req.waitFor();
    }
    int start = 0;
    for (int r = 0; r < rank; r++) start += counts[r];
    for (int i = 0; i < counts[rank]; i++) {
      double want = 0;
      for (int r = 0; r < size; r++) want += start + i + r;
      assertEquals(want, mine.get(i));
    }
  }

  @Test
  void neighbourVCollectives() {
    int left = (rank - 1 + size) % size;
    int right = (rank + 1) % size;
    try (DistGraphComm g = world.createDistGraph(new int[] {left}, new int[] {right})) {
      long[] got = new long[left + 2];
      java.util.Arrays.fill(got, -1);
      long[] out = new long[rank + 1];
      java.util.Arrays.fill(out, rank);
      g.neighborAllgatherv(out, got, new int[] {left + 1}, new int[] {1});
      assertEquals(-1, got[0]);
      for (int i = 1; i < got.length; i++) assertEquals(left, got[i]);
      int[] send = new int[rank + 1];
      java.util.Arrays.fill(send, rank);
      int[] into = new int[left + 1];
      g.neighborAlltoallv(send, new int[] {rank + 1}, new int[] {0}, into, new int[] {left + 1},
          new int[] {0});
      for (int v : into) assertEquals(left, v);
      assertThrows(IllegalArgumentException.class,
          () -> g.neighborAllgatherv(new double[1], new double[1], new int[] {1, 1}, new int[] {0, 0}));
    }
  }

  // --- second part ---------------------------------------------------------------------------

  @Test
  void infoObjects() {
    try (Info info = Info.create(); Info copy0 = Info.create()) {
      info.set("no_locks", "true");
      info.set("cb_nodes", "2");
      assertEquals(2, info.getSize());
      assertEquals("2", info.get("cb_nodes"));
      assertTrue(info.contains("no_locks"));
      assertTrue(info.keys().contains("cb_nodes"));
      Info copy = info.dup();
      assertTrue(info.remove("cb_nodes"));
      assertFalse(info.remove("cb_nodes"));
      assertEquals(1, info.getSize());
      assertEquals(2, copy.getSize());
      assertThrows(IndexOutOfBoundsException.class, () -> info.get("cb_nodes"));
      assertThrows(IllegalArgumentException.class, () -> info.set("", "x"));
      assertThrows(IllegalArgumentException.class, () -> info.set("k".repeat(1000), "x"));
      assertThrows(IllegalArgumentException.class, () -> info.set("k", ""));
      try (Comm c = world.dupWithInfo(copy)) {
        assertEquals(size, c.getSize());
        c.setInfo(info);
        try (Info got = c.getInfo()) {
          assertFalse(got.isNull());
        }
        assertThrows(IllegalArgumentException.class, () -> c.setInfo(new Info()));
      }
      copy.close();
      copy.close();  // idempotent
      assertThrows(IllegalStateException.class, () -> copy.get("cb_nodes"));
      assertThrows(IllegalStateException.class, () -> world.dupWithInfo(copy));
    }
  }

  @Test
  void attributes() {
    try (Keyval copied = Keyval.create(true); Keyval priv = Keyval.create(false)) {
      long big = (1L << 40) + rank;
      copied.set(world, big);
      priv.set(world, -7);
      assertEquals(big, copied.get(world));
      try (Comm d = world.dup()) {
        assertEquals(big, copied.get(d));
        assertFalse(priv.has(d));
        assertThrows(IndexOutOfBoundsException.class, () -> priv.get(d));
      }
      copied.set(world, 5);
      assertEquals(5, copied.get(world));
      assertTrue(copied.remove(world));
      assertFalse(copied.remove(world));
      assertTrue(priv.remove(world));
      copied.close();
      assertThrows(IllegalStateException.class, () -> copied.set(world, 1));
    }
    assertTrue(Comm.tagUb() >= 32767);
    assertTrue(Comm.appnum() >= -1);
    assertTrue(Comm.universeSize() == -1 || Comm.universeSize() >= 1);  // slots, not ranks
    Comm.wtimeIsGlobal();
  }

  /** alltoallw's exchange: to even peers 2 doubles, to odd peers one pair (per-peer datatypes,
   *  the same bytes); every peer receives pairs. */
  private final class WCase {
    final Datatype pair = Datatype.contiguous(2, Datatype.DOUBLE);
    final double[] send = new double[2 * size];
    final double[] recv = new double[2 * size];
    final DatatypeVector stypes = new DatatypeVector();
    final DatatypeVector rtypes = new DatatypeVector();
    final int[] scounts = new int[size], rcounts = new int[size], displs = new int[size];

    WCase() {
      for (int i = 0; i < send.length; i++) send[i] = i + 100 * rank;
      for (int r = 0; r < size; r++) {
        stypes.add(r % 2 == 0 ? Datatype.DOUBLE : pair);
        scounts[r] = r % 2 == 0 ? 2 : 1;
        rtypes.add(pair);
        rcounts[r] = 1;
        displs[r] = 16 * r;
      }
    }

    void check() {
      for (int r = 0; r < size; r++) {
        assertEquals(100 * r + 2 * rank, recv[2 * r]);
        assertEquals(100 * r + 2 * rank + 1, recv[2 * r + 1]);
      }
    }
  }

  @Test
  void alltoallw() {
    WCase w = new WCase();
    try (Datatype pair = w.pair) {
      double[] send = w.send, recv = w.recv;
      DatatypeVector stypes = w.stypes, rtypes = w.rtypes;
      int[] scounts = w.scounts, rcounts = w.rcounts, displs = w.displs;
      world.alltoallw(send, scounts, displs, stypes, recv, rcounts, displs, rtypes);
      w.check();
      int[] twos = new int[size];
      java.util.Arrays.fill(twos, 2);
      assertThrows(IllegalArgumentException.class,
          () -> world.alltoallw(send, scounts, displs, stypes, recv, twos, displs, rtypes));
      stypes.remove(size - 1);
      assertThrows(IllegalArgumentException.class,
          () -> world.alltoallw(send, scounts, displs, stypes, recv, rcounts, displs, rtypes));
    }
  }

  @Test
  void neighbourAlltoallw() {
    int left = (rank - 1 + size) % size;
    int right = (rank + 1) % size;
    try (DistGraphComm g = world.createDistGraph(new int[] {left}, new int[] {right})) {
      long[] into = new long[3];
      DatatypeVector longs = new DatatypeVector(new Datatype[] {Datatype.LONG});
      g.neighborAlltoallw(new long[] {rank, rank * 10L}, new int[] {2}, new long[] {0}, longs,
          into, new int[] {2}, new long[] {8}, longs);
      assertArrayEquals(new long[] {0, left, left * 10L}, into);
      assertThrows(IllegalArgumentException.class, () -> g.neighborAlltoallw(new long[2],
          new int[] {2, 1}, new long[] {0, 0}, longs, into, new int[] {2}, new long[] {8}, longs));
    }
  }

  /** ialltoallw on arrays (native copies, the receive copied back on completion), the type
   *  closed while pending (MPI keeps a type in use), collections forced meanwhile. */
  @Test
  void ialltoallw() {
    WCase w = new WCase();
    try (Request req = world.ialltoallw(w.send, w.scounts, w.displs, w.stypes, w.recv, w.rcounts,
                                        w.displs, w.rtypes)) {
      w.pair.close();
      System.gc();
      req.waitFor();
    }
    w.check();
    int[] displs = w.displs;
    double[] send = w.send;
    int[] twos = new int[size];
    java.util.Arrays.fill(twos, 2);
    DatatypeVector doubles = new DatatypeVector();
    for (int r = 0; r < size; r++) doubles.add(Datatype.DOUBLE);
    assertThrows(IllegalArgumentException.class, () -> world.ialltoallw(
        send, twos, displs, doubles, new double[2 * size - 1], twos, displs, doubles));
  }

  @Test
  void ineighbourAlltoallw() {
    int left = (rank - 1 + size) % size;
    int right = (rank + 1) % size;
    try (DistGraphComm g = world.createDistGraph(new int[] {left}, new int[] {right})) {
      long[] into = new long[3];
      DatatypeVector longs = new DatatypeVector(new Datatype[] {Datatype.LONG});
      try (Request req = g.ineighborAlltoallw(new long[] {rank, rank * 10L}, new int[] {2},
          new long[] {0}, longs, into, new int[] {2}, new long[] {8}, longs)) {
        req.waitFor();
      }
      assertArrayEquals(new long[] {0, left, left * 10L}, into);
      assertThrows(IllegalArgumentException.class, () -> g.ineighborAlltoallw(new long[2],
          new int[] {2, 1}, new long[] {0, 0}, longs, into, new int[] {2}, new long[] {8}, longs));
    }
  }

  @Test
  void graphTopology() {
    int[] index = new int[size];
    int[] edges = new int[2 * size];
    for (int i = 0; i < size; i++) {
      edges[2 * i] = (i - 1 + size) % size;
      edges[2 * i + 1] = (i + 1) % size;
      index[i] = 2 * (i + 1);
    }
    try (GraphComm g = world.createGraph(index, edges, false)) {
      assertEquals(TopologyKind.GRAPH, g.topology());
      assertEquals(size, g.nnodes());
      assertEquals(2 * size, g.nedges());
      assertArrayEquals(index, g.index());
      assertArrayEquals(edges, g.edges());
      assertEquals(2, g.neighborsCount(rank));
      int[] mine = {(rank - 1 + size) % size, (rank + 1) % size};
      assertArrayEquals(mine, g.neighbors());
      int[] got = new int[2];
      g.neighborAllgather(new int[] {rank}, got);
      assertArrayEquals(mine, got);
      assertThrows(IndexOutOfBoundsException.class, () -> g.neighborsCount(size));
    }
    assertThrows(IndexOutOfBoundsException.class,
        () -> world.createGraph(new int[] {1}, new int[] {size}, false));
    assertThrows(IllegalArgumentException.class,
        () -> world.createGraph(new int[] {2, 1}, new int[] {0, 0}, false));
  }

  @Test
  void idup() {
    CommFuture fut = world.idup();
    RequestVector reqs = new RequestVector(new Request[] {fut.getRequest()});
    Request.waitAll(reqs);
    try (Comm c = fut.get()) {
      assertEquals(size, c.getSize());
      assertEquals(Comparison.CONGRUENT, c.compare(world));
      double[] got = new double[1];
      c.allreduce(new double[] {1}, got, Op.SUM);
      assertEquals(size, got[0]);
    }
    try (Comm d = world.idup().get()) {  // get() waits itself
      assertEquals(rank, d.getRank());
    }
  }

  @Test
  void datatypeContents() {
    assertEquals(MPI.COMBINER_NAMED, Datatype.DOUBLE.combiner());
    assertEquals(0, Datatype.DOUBLE.contents().integers().length);
    try (Datatype v = Datatype.vector(3, 1, 2, Datatype.DOUBLE)) {
      DatatypeContents c = v.contents();
      assertEquals(MPI.COMBINER_VECTOR, c.getCombiner());
      assertArrayEquals(new int[] {3, 1, 2}, c.integers());
      assertEquals(0, c.addresses().length);
      assertEquals("MPI_DOUBLE", c.types().get(0).getName());
      try (Datatype st = Datatype.createStruct(new int[] {1, 2}, new long[] {0, 8},
               new DatatypeVector(new Datatype[] {Datatype.INT, v}))) {
        DatatypeContents sc = st.contents();
        assertEquals(MPI.COMBINER_STRUCT, sc.getCombiner());
        assertArrayEquals(new int[] {2, 1, 2}, sc.integers());
        assertArrayEquals(new long[] {0, 8}, sc.addresses());
        try (Datatype inner = sc.types().get(1)) {
          assertEquals(MPI.COMBINER_VECTOR, inner.combiner());
          assertEquals(v.getSize(), inner.getSize());
        }
      }
      v.close();
      assertThrows(IllegalStateException.class, v::contents);
    }
  }

  /** Nonblocking calls on primitive arrays work on native copies: collections (which move
   *  arrays) while they are pending change nothing. */
  @Test
  void nonblockingOnArraysSurviveGc() {
    int next = (rank + 1) % size;
    int prev = (rank - 1 + size) % size;
    int n = 1000;
    int[] in = new int[n];
    Request r = world.irecv(in, prev, 3);
    int[] out = new int[n];
    for (int i = 0; i < n; i++) out[i] = rank * n + i;
    Request s = world.isend(out, next, 3);
    double[] sum = new double[2];
    Request a = world.iallreduce(new double[] {rank, 1}, sum, Op.SUM);
    for (int k = 0; k < 3; k++) {
      byte[][] junk = new byte[200][];
      for (int j = 0; j < junk.length; j++) junk[j] = new byte[10_000];
      System.gc();
    }
    s.waitFor();
    assertEquals(4L * n, r.waitFor().getCountBytes());
    a.waitFor();
    for (int i = 0; i < n; i++) assertEquals(prev * n + i, in[i]);
    assertArrayEquals(new double[] {size * (size - 1) / 2.0, size}, sum);
    // A receive into an array the call refuses leaves no request behind (bad count).
    assertThrows(IllegalArgumentException.class,
        () -> world.ireduceScatter(new double[size], new double[3], new int[size], Op.SUM));
  }

  @Test
  void fileHints() throws Exception {
    long[] pid = {ProcessHandle.current().pid()};
    world.bcast(pid, 0);
    String p = System.getProperty("java.io.tmpdir") + "/oompi_jparity_" + pid[0] + ".bin";
    try (Info hints = Info.create()) {
      hints.set("access_style", "write_once");
      try (org.oompi.File f = org.oompi.File.open(world, p, MPI.MODE_CREATE | MPI.MODE_RDWR, hints)) {
        try (Info got = f.getInfo()) {
          assertTrue(got.getSize() >= 0);  // MPI may drop any hint
        }
        f.setInfo(hints);
        assertThrows(IllegalArgumentException.class, () -> f.setInfo(new Info()));
      }
      hints.close();
      assertThrows(IllegalStateException.class,
          () -> org.oompi.File.open(world, p, MPI.MODE_RDONLY, hints));
    } finally {
      world.barrier();
      if (rank == 0) java.nio.file.Files.deleteIfExists(java.nio.file.Path.of(p));
    }
  }
}
