package org.oompi.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import static org.oompi.tests.ObjectsTest.*;
import static org.oompi.tests.CompactChainsTest.*;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BinaryOperator;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.oompi.Comm;
import org.oompi.MPI;
import org.oompi.Buffers;
import org.oompi.ObjectRequest;
import org.oompi.Request;
import org.oompi.SerializationException;
import org.oompi.Transportable;
import org.oompi.tests.GoldenTypes.ChainItem;
import org.oompi.tests.GoldenTypes.ListNode;
import org.oompi.tests.GoldenTypes.Shape;

/** @Transportable object graphs between ranks: osend/orecv, iosend/iorecv and the object
 *  collectives (obcast, oscatter, ogather, oallgather, oalltoall, oreduce, the split path). */
@ExtendWith(MpiExtension.class)
@TestMethodOrder(MethodOrderer.MethodName.class)
class ObjectTransfersTest {
  private final Comm world = Comm.world();
  private final int rank = world.getRank();
  private final int size = world.getSize();
  private final int next = (rank + 1) % size, prev = (rank + size - 1) % size;

  // --- between ranks --------------------------------------------------------------------------

  /**
   * Even ranks send first, odd ranks receive first: no deadlock for large messages. At 1 rank
   * the message goes to this process itself, and a blocking send may wait until its receive is
   * posted (MPICH 4.0's send to oneself does): there the same message goes out with `isend`.
   */
  private static java.nio.ByteBuffer direct(byte[] bytes) {
    return Buffers.newByteBuffer(bytes.length).put(bytes).flip();
  }

  private <T> T ring(Runnable send, java.util.function.Supplier<Request> isend,
                     java.util.function.Supplier<T> recv) {
    if (next == rank) {
      Request sent = isend.get();
      T got = recv.get();
      sent.waitFor();
      return got;
    }
    if (rank % 2 == 0) {
      send.run();
      return recv.get();
    }
    T got = recv.get();
    send.run();
    return got;
  }

  @Test
  void b01_graphsAroundTheRing() {
    ListNode a = GoldenTypes.goldenGraph();
    for (ListNode n : new ListNode[] {a, a.next, a.other}) for (int i = 0; i < n.data.length; i++) n.data[i] *= rank + 1;
    ListNode got = ring(() -> world.osend(a, next, 5), () -> world.iosend(a, next, 5), () -> world.orecv(ListNode.class, prev, 5));
    checkGoldenGraph(got, prev + 1);

    Shape s = GoldenTypes.goldenShape();
    s.id += rank;
    s.name += "ü" + rank;
    Shape gs = ring(() -> world.osendValue(s, next, 6), () -> world.iosendValue(s, next, 6), () -> world.orecvValue(Shape.class, prev, 6));
    Shape expect = GoldenTypes.goldenShape();
    expect.id += prev;
    expect.name += "ü" + prev;
    assertEquals(expect, gs);

    // null, strings, arrays, any source
    assertNull(ring(() -> world.osend(null, next, 7), () -> world.iosend(null, next, 7), () -> world.orecv(ListNode.class, prev, 7)));
    String text = "rank " + rank + " says ✓ 日本語";
    assertEquals("rank " + prev + " says ✓ 日本語", ring(() -> world.osend(text, next, 8), () -> world.iosend(text, next, 8), () -> world.orecv(String.class, MPI.ANY_SOURCE, 8)));
    ListNode[] arr = {a, null, a.other};
    ListNode[] back = ring(() -> world.osend(arr, next, 9), () -> world.iosend(arr, next, 9), () -> world.orecv(ListNode[].class, prev, 9));
    assertNull(back[1]);
    assertSame(back[0].other, back[2]);
    assertNull(world.orecv(ListNode.class, MPI.PROC_NULL, 1));
  }

  @Test
  void b02_longListsAndBigMessages() {
    if (size == 1) return;  // a send to self of megabytes would wait for its own receive
    int n = 100_000;
    ListNode head = chain(n);
    for (ListNode p = head; p != null; p = p.next) p.data[0] *= rank + 1;
    ListNode got = ring(() -> world.osend(head, next, 10), () -> world.iosend(head, next, 10), () -> world.orecv(ListNode.class, prev, 10));
    checkChain(got, n, prev + 1);
    double[] big = new double[1 << 20];
    Arrays.fill(big, rank);
    double[] gb = ring(() -> world.osend(big, next, 11), () -> world.iosend(big, next, 11), () -> world.orecv(double[].class, prev, 11));
    assertEquals(1 << 20, gb.length);
    assertEquals(prev, gb[12345]);
  }

  @Test
  void b03_corruptMessageIsRefusedAndConsumed() {
    byte[] garbage = {(byte) 0x81, 0, 0, (byte) 0x80, 1, 2};
    ring(() -> world.send(garbage, next, 12), () -> world.isend(direct(garbage), next, 12), () -> {
      assertThrows(SerializationException.class, () -> world.orecv(ListNode.class, prev, 12));
      return null;
    });
    // the bad message was taken off the queue: the next one arrives
    assertEquals(Integer.valueOf(prev), ring(() -> world.osend(rank, next, 12), () -> world.iosend(rank, next, 12), () -> world.orecv(Integer.class, prev, 12)));
  }

  @Test
  void c01_obcast() {
    for (int root : new int[] {0, size - 1}) {
      ListNode mine = rank == root ? chain(1000) : null;
      ListNode got = world.obcast(mine, ListNode.class, root);
      if (rank == root) assertSame(mine, got);
      checkChain(got, 1000, 1);
      Shape s = world.obcast(rank == root ? GoldenTypes.goldenShape() : new Shape(), root);
      assertEquals(GoldenTypes.goldenShape(), s);
    }
    assertNull(world.obcast(null, ListNode.class, 0));
    // the root cannot serialize: every rank throws, none waits
    Other bad = new Other();
    bad.node = new ListNode() {};
    Other arg = rank == 0 ? bad : null;
    SerializationException e = assertThrows(SerializationException.class, () -> world.obcast(arg, Other.class, 0));
    if (rank != 0) assertTrue(e.getMessage().contains("another rank"), e.getMessage());
    // still in step
    assertEquals(Integer.valueOf(5), world.obcast(rank == 0 ? 5 : null, Integer.class, 0));
    // obcast(obj, root) takes the class from obj: null on a non-root rank is refused there,
    // after the broadcast (so no rank is left waiting)
    Shape root = GoldenTypes.goldenShape();
    if (rank == 0) {
      assertSame(root, world.obcast(root, 0));
    } else {
      IllegalArgumentException iae = assertThrows(IllegalArgumentException.class, () -> world.obcast((Shape) null, 0));
      assertTrue(iae.getMessage().contains("obcast(obj, type, root)"), iae.getMessage());
    }
    assertEquals(Integer.valueOf(6), world.obcast(rank == 0 ? 6 : null, Integer.class, 0));
  }

  @Test
  void c02_oscatter() {
    int total = 3 * size + 1;
    List<ListNode> all = null;
    ListNode shared = new ListNode(-1);
    if (rank == 0) {
      all = new ArrayList<>();
      for (int i = 0; i < total; i++) {
        ListNode x = new ListNode(i);
        x.other = shared;
        all.add(x);
      }
      all.set(1, null);
    }
    List<ListNode> mine = world.oscatter(all, ListNode.class, 0);
    int count = total / size + (rank < total % size ? 1 : 0);
    int first = 0;
    for (int r = 0; r < rank; r++) first += total / size + (r < total % size ? 1 : 0);
    assertEquals(count, mine.size());
    ListNode sharedHere = null;
    for (int i = 0; i < count; i++) {
      int g = first + i;
      if (g == 1) {
        assertNull(mine.get(i));
        continue;
      }
      assertEquals(g, mine.get(i).data[0]);
      if (sharedHere == null) sharedHere = mine.get(i).other;
      assertSame(sharedHere, mine.get(i).other);  // shared within a slice
      assertEquals(-1, sharedHere.data[0]);
    }

    int[] counts = new int[size];
    counts[size - 1] = 4;
    List<String> strs = rank == 0 ? List.of("a", "b", "ç", "d") : null;
    List<String> got = world.oscatterv(strs, counts, String.class, 0);
    assertEquals(rank == size - 1 ? List.of("a", "b", "ç", "d") : List.of(), got);

    // bad counts at the root: every rank throws IllegalArgumentException
    int[] bad = new int[size];
    bad[0] = 99;
    assertThrows(IllegalArgumentException.class, () -> world.oscatterv(strs, bad, String.class, 0));
  }

  @Test
  void c03_ogatherAndOallgather() {
    List<ListNode> mine = new ArrayList<>();
    ListNode s = new ListNode(rank);
    for (int i = 0; i <= rank; i++) {
      ListNode x = new ListNode(rank * 100 + i);
      x.other = s;
      mine.add(x);
    }
    List<ListNode> got = world.ogather(mine, ListNode.class, 0);
    List<ListNode> all = world.oallgather(mine, ListNode.class);
    for (List<ListNode> list : rank == 0 ? List.of(got, all) : List.of(all)) {
      int k = 0;
      for (int r = 0; r < size; r++)
        for (int i = 0; i <= r; i++, k++) {
          assertEquals(r * 100 + i, list.get(k).data[0]);
          assertEquals(r, list.get(k).other.data[0]);
          assertSame(list.get(k - i).other, list.get(k).other);
        }
      assertEquals(k, list.size());
    }
    if (rank != 0) assertTrue(got.isEmpty());
    // one rank's list cannot be written: all ranks throw
    List<ListNode> bad = new ArrayList<>();
    if (rank == size - 1) bad.add(new ListNode() {});
    assertThrows(SerializationException.class, () -> world.oallgather(bad, ListNode.class));
  }
  /** Compact chains between ranks (osend/iosend, obcast, oalltoall: a message's value). */
  @Test
  void b05_compactChainsAroundTheRing() throws IOException {
    // the message osend puts on the wire is the compact chain of the golden file
    ChainItem gold = GoldenTypes.goldenChain();
    byte[] raw = ring(() -> world.osend(gold, next, 16), () -> world.iosend(gold, next, 16), () -> {
      org.oompi.Message m = world.mprobe(prev, 16);
      byte[] b = new byte[(int) m.getCountBytes()];
      m.recv(b);
      m.delete();
      return b;
    });
    assertArrayEquals(golden("compact_chain.bin"), raw);
    try (ObjectRequest<ChainItem> f = world.iorecv(ChainItem.class, prev, 17);
         Request sent = world.iosend(gold, next, 17)) {
      checkItems(new ChainItem[] {gold, gold.next, gold.next.next}, 2, f.get(), "iorecv");
      sent.waitFor();
    }
    ChainItem g = GoldenTypes.goldenChain();
    g.id += rank;
    g.next.next.name += rank;
    ChainItem got = ring(() -> world.osend(g, next, 13), () -> world.iosend(g, next, 13),
        () -> world.orecv(ChainItem.class, prev, 13));
    assertEquals(-5 + prev, got.id);
    assertEquals("drei \u2713" + prev, got.next.next.name);
    assertSame(got.next, got.next.next.next);
    assertNull(ring(() -> world.osend(null, next, 14), () -> world.iosend(null, next, 14),
        () -> world.orecv(ChainItem.class, prev, 14)));
    for (int[] shape : new int[][] {{1, 0}, {1, 1}, {5, 1}, {5, 3}, {10_000, 5_000}}) {
      int k = shape[0], close = shape[1];
      ChainItem[] x = items(k, close);
      x[0].id = rank;
      ChainItem back = ring(() -> world.osend(x[0], next, 15), () -> world.iosend(x[0], next, 15),
          () -> world.orecv(ChainItem.class, prev, 15));
      x[0].id = prev;
      checkItems(x, close, back, "k=" + k + " close=" + close);
    }
    ChainItem[] x = items(7, 4);
    checkItems(x, 4, world.obcast(rank == size - 1 ? x[0] : null, ChainItem.class, size - 1), "obcast");
    List<ChainItem> mine = new ArrayList<>();
    for (int r = 0; r < size; r++) mine.add(items(r + 1, r % 2)[0]);
    List<ChainItem> all = world.oalltoall(mine, ChainItem.class);
    for (int r = 0; r < size; r++) checkItems(items(rank + 1, rank % 2), rank % 2, all.get(r), "oalltoall from " + r);
  }

  // --- nonblocking object transfers ---------------------------------------------------------

  @Test
  void b04_iosendAndIorecv() {
    // posted before the message exists: polled until it has arrived
    ObjectRequest<ListNode> pending = world.iorecv(ListNode.class, prev, 20);
    ListNode a = GoldenTypes.goldenGraph();
    for (ListNode n : new ListNode[] {a, a.next, a.other}) for (int i = 0; i < n.data.length; i++) n.data[i] *= rank + 1;
    try (Request sent = world.iosend(a, next, 20)) {
      a.data = new int[] {-99};  // serialized when iosend returned: later changes do not travel
      while (!pending.test()) Thread.onSpinWait();
      sent.waitFor();
    }
    assertTrue(pending.isCompleted());
    checkGoldenGraph(pending.get(), prev + 1);
    assertEquals(prev, pending.getStatus().getSource());
    assertEquals(20, pending.getStatus().getTag());
    pending.close();

    // by value, waited for; a big message
    try (ObjectRequest<Shape> shape = world.iorecvValue(Shape.class, prev, 21);
         ObjectRequest<int[]> big = world.iorecv(int[].class, prev, 22)) {
      int[] numbers = new int[200_000];
      for (int i = 0; i < numbers.length; i++) numbers[i] = i ^ rank;
      try (Request s1 = world.iosendValue(GoldenTypes.goldenShape(), next, 21); Request s2 = world.iosend(numbers, next, 22)) {
        assertEquals(GoldenTypes.goldenShape(), shape.waitFor());
        int[] got = big.get();
        assertEquals(numbers.length, got.length);
        for (int i = 0; i < got.length; i++) assertEquals(i ^ prev, got[i]);
        s1.waitFor();
        s2.waitFor();
      }
    }

    // from PROC_NULL: null at once
    try (ObjectRequest<ListNode> none = world.iorecv(ListNode.class, MPI.PROC_NULL, 1)) {
      assertTrue(none.test());
      assertNull(none.get());
      assertEquals(MPI.PROC_NULL, none.getStatus().getSource());
    }

    // closed before anything matched: it just stops probing, the message stays for orecv
    world.iorecv(String.class, prev, 23).close();
    try (Request r = world.iosend("still there " + rank, next, 23)) {
      assertEquals("still there " + prev, world.orecv(String.class, prev, 23));
      r.waitFor();
    }

    // corrupt bytes: SerializationException from waitFor, the next message is fine
    byte[] garbage = {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0x7f};
    ObjectRequest<ListNode> bad = world.iorecv(ListNode.class, prev, 24);
    ring(() -> world.send(garbage, next, 24), () -> world.isend(direct(garbage), next, 24), () -> assertThrows(SerializationException.class, bad::waitFor));
    assertThrows(SerializationException.class, bad::waitFor);  // again: the same failure
    bad.close();
    try (Request r = world.iosend(rank, next, 24)) {
      assertEquals(Integer.valueOf(prev), world.iorecv(Integer.class, prev, 24).get());
      r.waitFor();
    }

    // bad input, refused before anything travels
    assertThrows(NullPointerException.class, () -> world.iorecv(null, prev, 25));
    assertThrows(IllegalArgumentException.class, () -> world.iorecv(Thread.class, prev, 25));
    Other o = new Other();
    o.node = new ListNode() {};
    assertThrows(SerializationException.class, () -> world.iosend(o, next, 25));
    assertThrows(IllegalArgumentException.class, () -> world.iosend(new StringBuilder(), next, 25));
  }

  // --- oalltoall ----------------------------------------------------------------------------

  /** What rank `from` sends rank `to` in c04: a cycle x <-> y, x.other = x, y.other = a node
   *  all of `from`'s elements share. */
  static ListNode pair(int from, int to, ListNode common) {
    ListNode x = new ListNode(from, to), y = new ListNode(to, from);
    x.next = y;
    y.next = x;
    x.other = x;
    y.other = common;
    return x;
  }

  void checkPair(ListNode x, int from, int to) {
    assertArrayEquals(new int[] {from, to}, x.data);
    assertSame(x, x.other);
    assertArrayEquals(new int[] {to, from}, x.next.data);
    assertSame(x, x.next.next);
    assertArrayEquals(new int[] {-from}, x.next.other.data);
  }

  private void alltoallRound() {
    ListNode common = new ListNode(-rank);
    List<ListNode> out = new ArrayList<>();
    for (int i = 0; i < size; i++) out.add(pair(rank, i, common));
    List<ListNode> in = world.oalltoall(out, ListNode.class);
    assertEquals(size, in.size());
    for (int r = 0; r < size; r++) checkPair(in.get(r), r, rank);
    // each element is its own graph: what the elements shared arrives as copies
    if (size == 1) assertTrue(in.get(0) != out.get(0));
    ListNode[] arr = world.oalltoall(out.toArray(new ListNode[0]), ListNode.class);
    for (int r = 0; r < size; r++) checkPair(arr[r], r, rank);

    List<String> words = new ArrayList<>();
    for (int i = 0; i < size; i++) words.add(rank + "→" + i);
    List<String> heard = world.oalltoall(words, String.class);
    for (int r = 0; r < size; r++) assertEquals(r + "→" + rank, heard.get(r));
    // null references, and elements of very different sizes
    List<ListNode> blocks = new ArrayList<>();
    for (int i = 0; i < size; i++) blocks.add(i % 2 == 1 ? null : new ListNode(new int[1000 * (rank + 1) + i]));
    List<ListNode> got = world.oalltoall(blocks, ListNode.class);
    for (int r = 0; r < size; r++)
      if (rank % 2 == 1) assertNull(got.get(r));
      else assertEquals(1000 * (r + 1) + rank, got.get(r).data.length);
  }

  @Test
  void c04_oalltoall() throws Exception {
    alltoallRound();
    // C++'s large path (one message per pair, tag 14 on the private communicator), with the
    // limit lowered as C++'s tests do: same results, and a user message with tag 14 is not taken
    java.lang.reflect.Field limit = Class.forName("org.oompi.ObjectTransport").getDeclaredField("objectIntLimit");
    limit.setAccessible(true);
    int last = size - 1;
    byte[] user = {42, (byte) rank};
    java.nio.ByteBuffer ub = java.nio.ByteBuffer.allocateDirect(2).order(java.nio.ByteOrder.nativeOrder());
    ub.put(user).flip();
    try (Request pending = world.isend(ub, last, 14)) {
      limit.set(null, 64L);
      try {
        alltoallRound();
      } finally {
        limit.set(null, (long) Integer.MAX_VALUE);
      }
      if (rank == last)
        for (int r = 0; r < size; r++) {
          byte[] got = new byte[2];
          world.recv(got, r, 14);
          assertArrayEquals(new byte[] {42, (byte) r}, got);
        }
      pending.waitFor();
    }
  }

  @Test
  void c05_oalltoallBadInput() {
    int last = size - 1;
    List<String> ok = new ArrayList<>();
    for (int i = 0; i < size; i++) ok.add("x" + i);
    // the wrong length on one rank: IllegalArgumentException on every rank
    List<String> longer = new ArrayList<>(ok);
    longer.add("one too many");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> world.oalltoall(rank == last ? longer : ok, String.class));
    assertTrue(e.getMessage().contains(rank == last ? "one object per rank" : "another rank"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> world.oalltoall(rank == last ? null : ok, String.class));
    assertThrows(IllegalArgumentException.class,
        () -> world.oalltoall(rank == last ? new String[size + 1] : new String[size], String.class));
    // no element class on one rank: NullPointerException there, IllegalArgumentException elsewhere
    if (rank == last) assertThrows(NullPointerException.class, () -> world.oalltoall(ok, null));
    else assertThrows(IllegalArgumentException.class, () -> world.oalltoall(ok, String.class));
    // an element that cannot be written on one rank: SerializationException everywhere (there:
    // its own, naming the problem)
    List<Other> others = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      Other o = new Other();
      o.node = i == 0 && rank == last ? new ListNode() {} : new ListNode(i);
      others.add(o);
    }
    SerializationException se = assertThrows(SerializationException.class, () -> world.oalltoall(others, Other.class));
    assertEquals(rank != last, se.getMessage().contains("another rank"), se.getMessage());
    // null where the type has no null (a String): IllegalArgumentException there
    List<String> withNull = new ArrayList<>(ok);
    withNull.set(0, null);
    if (rank == last) {
      e = assertThrows(IllegalArgumentException.class, () -> world.oalltoall(withNull, String.class));
      assertTrue(e.getMessage().contains("null"), e.getMessage());
    } else {
      assertThrows(SerializationException.class, () -> world.oalltoall(ok, String.class));
    }
    // an element of another class than the list's on one rank
    List<ListNode> fine = new ArrayList<>();
    for (int i = 0; i < size; i++) fine.add(new ListNode(i));
    @SuppressWarnings({"unchecked", "rawtypes"})
    List<ListNode> wrongClass = rank == last ? (List) new ArrayList<>(ok) : fine;
    if (rank == last) {
      e = assertThrows(IllegalArgumentException.class, () -> world.oalltoall(wrongClass, ListNode.class));
      assertTrue(e.getMessage().contains("java.lang.String"), e.getMessage());
    } else {
      assertThrows(SerializationException.class, () -> world.oalltoall(wrongClass, ListNode.class));
    }
    // still in step
    List<Integer> mine = new ArrayList<>();
    for (int i = 0; i < size; i++) mine.add(rank * 10 + i);
    List<Integer> got = world.oalltoall(mine, Integer.class);
    for (int r = 0; r < size; r++) assertEquals(r * 10 + rank, got.get(r));
  }

  // --- oreduce / oallreduce -----------------------------------------------------------------

  /** c06's fold: {a.data ++ b.data, other = itself, next = b} (not commutative); the same
   *  fold as the interop peers' step 8. */
  static ListNode cat(ListNode a, ListNode b) {
    return CollPeerJava.cat(a, b);
  }

  static ListNode leaf(int r) {
    ListNode x = new ListNode(r, -r);
    x.other = x;
    return x;
  }

  /** The fold of leaf(0) .. leaf(p - 1) in rank order, computed here without MPI. */
  static int[] expectedData(int p) {
    int[] d = new int[2 * p];
    for (int r = 0; r < p; r++) {
      d[2 * r] = r;
      d[2 * r + 1] = -r;
    }
    return d;
  }

  void checkReduced(ListNode got) {
    assertArrayEquals(expectedData(size), got.data);
    assertSame(got, got.other);  // cyclic: the result refers to itself
    if (size > 1) {
      assertSame(got.next, got.next.other);
      assertEquals(-(size - 1), got.next.data[got.next.data.length - 1]);
    }
  }

  @Test
  void c06_oreduceAndOallreduce() {
    StringBuilder want = new StringBuilder();
    for (int r = 0; r < size; r++) want.append(r).append(';');
    BinaryOperator<String> concat = (x, y) -> x + y;
    for (int root : new int[] {0, size - 1, size / 2}) {
      String got = world.oreduce(rank + ";", concat, root);
      if (rank == root) assertEquals(want.toString(), got);
      else assertNull(got);
      ListNode n = world.oreduce(leaf(rank), ListNode.class, ObjectTransfersTest::cat, root);
      if (rank == root) checkReduced(n);
      else assertNull(n);
    }
    assertEquals(want.toString(), world.oallreduce(rank + ";", concat));
    checkReduced(world.oallreduce(leaf(rank), ListNode.class, ObjectTransfersTest::cat));
    assertEquals(Integer.valueOf(size * (size - 1) / 2), world.oallreduce(rank, Integer::sum));
    // a function that returns null: a null reference travels (one rank: a copy of its object)
    ListNode none = world.oallreduce(leaf(rank), ListNode.class, (x, y) -> null);
    if (size == 1) checkReduced(none);
    else assertNull(none);
    // one rank: the result is a copy, as in C++
    ListNode mine = leaf(rank);
    ListNode same = world.oallreduce(mine, ListNode.class, ObjectTransfersTest::cat);
    if (size == 1) assertTrue(same != mine);
  }

  @Test
  void c07_reductionFailures() {
    int last = size - 1;
    BinaryOperator<String> concat = (x, y) -> x + y;
    // a root that is not a rank: IllegalArgumentException everywhere, nothing sent
    for (int bad : new int[] {-1, size}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> world.oreduce("x", concat, bad));
      assertTrue(e.getMessage().contains("root"), e.getMessage());
    }
    // a null operator on one rank: NullPointerException there, SerializationException elsewhere
    if (rank == last) assertThrows(NullPointerException.class, () -> world.oallreduce("x", null));
    else assertThrows(SerializationException.class, () -> world.oallreduce("x", concat));
    // obj null and no class on one rank: IllegalArgumentException there
    if (rank == last) assertThrows(IllegalArgumentException.class, () -> world.oallreduce((String) null, concat));
    else assertThrows(SerializationException.class, () -> world.oallreduce("x", concat));
    // an object that cannot be written on one rank (rank 0 at size 1: its copy fails)
    Other o = new Other();
    o.node = new ListNode() {};
    Other fine = new Other();
    SerializationException se = assertThrows(SerializationException.class,
        () -> world.oallreduce(rank == last ? o : fine, Other.class, (x, y) -> x));
    assertEquals(rank != last, se.getMessage().contains("another rank"), se.getMessage());

    if (size > 1) {
      // the operator throws on one rank (the one that folds in the last rank's object): that
      // rank throws its exception, every other rank SerializationException
      int thrower = last & (last - 1);
      BinaryOperator<ListNode> picky = (x, y) -> {
        if (y.data[0] == last) throw new IllegalStateException("picky: " + Arrays.toString(y.data));
        return cat(x, y);
      };
      if (rank == thrower) {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> world.oallreduce(leaf(rank), ListNode.class, picky));
        assertTrue(e.getMessage().startsWith("picky"), e.getMessage());
      } else {
        SerializationException e = assertThrows(SerializationException.class,
            () -> world.oallreduce(leaf(rank), ListNode.class, picky));
        assertTrue(e.getMessage().contains("failed on another rank"), e.getMessage());
      }
      // oreduce to the last rank: the thrower throws, the root throws, the others return null
      if (rank == thrower) assertThrows(IllegalStateException.class, () -> world.oreduce(leaf(rank), ListNode.class, picky, last));
      else if (rank == last) assertThrows(SerializationException.class, () -> world.oreduce(leaf(rank), ListNode.class, picky, last));
      else assertNull(world.oreduce(leaf(rank), ListNode.class, picky, last));
      // an Error thrown by the operator is rethrown as it is
      BinaryOperator<ListNode> assertive = (x, y) -> {
        throw new AssertionError("from the operator");
      };
      if (rank % 2 == 0 && rank + 1 < size)
        assertThrows(AssertionError.class, () -> world.oallreduce(leaf(rank), ListNode.class, assertive));
      else
        assertThrows(SerializationException.class, () -> world.oallreduce(leaf(rank), ListNode.class, assertive));
    }
    // still in step
    assertEquals(Integer.valueOf(size), world.oallreduce(1, Integer::sum));
  }
  /** The split collectives on C++'s large path (limit lowered to 64 bytes as C++'s tests do):
   *  the same results, and a user message with the large path's tag 14 is never taken. */
  @Test
  void c08_splitCollectivesOnTheLargePath() throws Exception {
    java.lang.reflect.Field limit = Class.forName("org.oompi.ObjectTransport").getDeclaredField("objectIntLimit");
    limit.setAccessible(true);
    int last = size - 1;
    java.nio.ByteBuffer ub = java.nio.ByteBuffer.allocateDirect(2).order(java.nio.ByteOrder.nativeOrder());
    ub.put(new byte[] {43, (byte) rank}).flip();
    try (Request pending = world.isend(ub, last, 14)) {
      limit.set(null, 64L);
      try {
        List<ListNode> nodes = null;
        if (rank == 0) {
          nodes = new ArrayList<>();
          ListNode shared = new ListNode(-1);
          for (int i = 0; i < 3 * size; i++) {
            ListNode x = new ListNode(i, i, i, i);
            x.other = shared;
            nodes.add(x);
          }
        }
        List<ListNode> mine = world.oscatter(nodes, ListNode.class, 0);
        assertEquals(3, mine.size());
        for (int i = 0; i < 3; i++) assertEquals(3 * rank + i, mine.get(i).data[0]);
        assertSame(mine.get(0).other, mine.get(2).other);
        ListNode shared = new ListNode(-rank);
        List<ListNode> contrib = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
          ListNode x = new ListNode(10 * rank + i);
          x.other = shared;
          contrib.add(x);
        }
        List<ListNode> atLast = world.ogather(contrib, ListNode.class, last);
        List<ListNode> everywhere = world.oallgather(contrib, ListNode.class);
        for (List<ListNode> all : rank == last ? List.of(atLast, everywhere) : List.of(everywhere)) {
          assertEquals(5 * size, all.size());
          for (int k = 0; k < all.size(); k++) {
            assertEquals(10 * (k / 5) + k % 5, all.get(k).data[0]);
            assertSame(all.get(k - k % 5).other, all.get(k).other);
            assertEquals(-(k / 5), all.get(k).other.data[0]);
          }
        }
        if (rank != last) assertTrue(atLast.isEmpty());
        // bad counts on the large path are still reported to every rank
        int[] bad = new int[size];
        bad[0] = 99;
        assertThrows(IllegalArgumentException.class, () -> world.oscatterv(List.of("a"), bad, String.class, 0));
        ListNode big = world.obcast(rank == 0 ? new ListNode(new int[100]) : null, ListNode.class, 0);
        assertEquals(100, big.data.length);
      } finally {
        limit.set(null, (long) Integer.MAX_VALUE);
      }
      if (rank == last)
        for (int r = 0; r < size; r++) {
          byte[] got = new byte[2];
          world.recv(got, r, 14);
          assertArrayEquals(new byte[] {43, (byte) r}, got);
        }
      pending.waitFor();
    }
  }
}
