package org.oompi.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.oompi.Op;
import org.oompi.SerializationException;
import org.oompi.Transportable;
import org.oompi.Wire;

/**
 * Wire v1 decoding of bad input: deep graphs (10^5 levels through a field that is not the last
 * one, through lists) round-trip or fail with SerializationException in the encoder and in the
 * decoder, never a StackOverflowError; a corpus of mutated valid messages (bit flips,
 * truncations, huge sizes, bogus ids, ..., compact chains among them) decodes to an object or a SerializationException,
 * never another Throwable (OutOfMemoryError, NegativeArraySizeException, ClassCastException,
 * ...); corrupt bytes from another rank make orecv throw and leave the communicator usable.
 */
@TestMethodOrder(MethodOrderer.MethodName.class)
class WireFuzzTest extends WorldTest {
  /** Mutated messages over all ranks (each rank decodes its share). */
  static final int MUTATIONS = 120_000;
  static final int DEEP = 100_000;

  // --- types ----------------------------------------------------------------------------------

  enum Kind { A, B, C }

  /** A graph node: shared and cyclic references, the self link last. */
  public static final class Node {
    @Transportable String label = "";
    @Transportable int[] data = new int[0];
    @Transportable Node other;
    @Transportable Node next;
  }

  /** A chain through a field that is not the last one (head), and a back link (prev). */
  public static final class Chain {
    @Transportable Chain head;
    @Transportable Chain prev;
    @Transportable long value;
    @Transportable Chain next;
  }

  public static final class Point {
    @Transportable double x;
    @Transportable double y;
  }

  public static final class Everything {
    @Transportable boolean z = true;
    @Transportable byte b = -5;
    @Transportable short s = -300;
    @Transportable char c = 'é';
    @Transportable int i = 1 << 20;
    @Transportable long l = -1L << 40;
    @Transportable float f = 1.5f;
    @Transportable double d = -2.25;
    @Transportable String text = "grüße";
    @Transportable Kind kind = Kind.C;
    @Transportable Integer boxed = 42;
    @Transportable double[][] matrix = {{1, 2}, {3}};
    @Transportable String[] words = {"a", "", "ccc"};
    @Transportable List<List<String>> nested = new ArrayList<>();
    @Transportable LinkedList<Long> longs = new LinkedList<>();
    @Transportable(byValue = true) Point origin = new Point();
    @Transportable(byValue = true) List<Point> corners = new ArrayList<>();
    @Transportable Node graph;
  }

  /** Nesting through lists: a tree whose depth is data, not type. */
  public static final class Tree {
    @Transportable int value;
    @Transportable List<Tree> kids = new ArrayList<>();
  }

  // --- valid messages -------------------------------------------------------------------------

  static Node graph(int n) {
    Node[] nodes = new Node[n];
    for (int k = 0; k < n; k++) {
      nodes[k] = new Node();
      nodes[k].label = "node " + k;
      nodes[k].data = new int[] {k, -k, k * k};
    }
    for (int k = 0; k < n; k++) {
      nodes[k].next = k + 1 < n ? nodes[k + 1] : nodes[0];  // a cycle
      nodes[k].other = nodes[(k * 7 + 3) % n];  // shared
    }
    return nodes[0];
  }

  static Chain chain(int n) {
    Chain first = new Chain(), p = first;
    first.head = first;
    for (int k = 1; k < n; k++) {
      Chain c = new Chain();
      c.value = k;
      c.head = first;
      c.prev = p;
      p.next = c;
      p = c;
    }
    return first;
  }

  static Everything everything() {
    Everything e = new Everything();
    e.nested.add(List.of("x", "yy"));
    e.nested.add(new ArrayList<>());
    e.longs.add(7L);
    e.longs.add(-8L);
    for (int k = 0; k < 3; k++) {
      Point p = new Point();
      p.x = k;
      p.y = -k;
      e.corners.add(p);
    }
    e.graph = graph(4);
    return e;
  }

  static Tree tree(int depth, int fan) {
    Tree t = new Tree();
    t.value = depth;
    if (depth > 0) for (int k = 0; k < fan; k++) t.kids.add(tree(depth - 1, fan));
    return t;
  }

  /** A valid message and the class that reads it. */
  record Sample(byte[] bytes, Class<?> type, boolean byValue) {}

  static List<Sample> corpus() {
    List<Sample> out = new ArrayList<>();
    out.add(new Sample(Wire.encode(graph(6)), Node.class, false));
    out.add(new Sample(Wire.encode(chain(12)), Chain.class, false));
    out.add(new Sample(Wire.encode(everything()), Everything.class, false));
    out.add(new Sample(Wire.encodeValue(everything()), Everything.class, true));
    out.add(new Sample(Wire.encode(tree(3, 3)), Tree.class, false));
    out.add(new Sample(Wire.encode("a string ✓"), String.class, false));
    out.add(new Sample(Wire.encode(new int[] {1, 2, 3, -4}), int[].class, false));
    out.add(new Sample(Wire.encode(new String[][] {{"a"}, {"bc", "d"}, {}}), String[][].class, false));
    out.add(new Sample(Wire.encode(new long[][] {{1L << 50}, {}}), long[][].class, false));
    // compact chains (wire 1.1): tests/golden/compact_chain.bin, and one ending in null with
    // sizes of two varint bytes
    out.add(new Sample(Wire.encode(GoldenTypes.goldenChain()), GoldenTypes.ChainItem.class, false));
    GoldenTypes.ChainItem c = new GoldenTypes.ChainItem("\u00e9".repeat(70), 1, false, 2, new int[130]);
    c.next = new GoldenTypes.ChainItem("", -1, true, 0);
    out.add(new Sample(Wire.encode(c), GoldenTypes.ChainItem.class, false));
    return out;
  }

  // --- deep input -----------------------------------------------------------------------------

  /** Encoding and decoding: the same graph back, or a SerializationException (caught here). */
  private static <T> T roundTripOrClearError(Object graph, Class<T> type, String what) {
    byte[] bytes;
    try {
      bytes = Wire.encode(graph);
    } catch (SerializationException e) {
      assertTrue(e.getMessage().contains("nests too deeply"), what + ": " + e.getMessage());
      System.out.println("WireFuzzTest: " + what + ": encoder: " + e.getMessage());
      return null;
    }
    try {
      return Wire.decode(bytes, type);
    } catch (SerializationException e) {
      assertTrue(e.getMessage().contains("nests too deeply"), what + ": " + e.getMessage());
      System.out.println("WireFuzzTest: " + what + ": decoder: " + e.getMessage());
      return null;
    }
  }

  @Test
  void a01_deepChainsRoundTripOrFailClearly() {
    // 10^5 nodes from the first: next (last field) iterates, head and prev point back
    Chain back = roundTripOrClearError(chain(DEEP), Chain.class, "chain from its head");
    if (back != null) {
      int k = 0;
      for (Chain p = back; p != null; p = p.next, k++) {
        assertEquals(k, p.value);
        assertSame(back, p.head);
      }
      assertEquals(DEEP, k);
    }
    // from the last node: prev (not the last field) leads through all 10^5
    Chain last = chain(DEEP);
    while (last.next != null) last = last.next;
    Chain fromLast = roundTripOrClearError(last, Chain.class, "chain from its last node");
    if (fromLast != null) assertEquals(DEEP - 1, fromLast.value);
    // a chain through head only (every node's head is the next one): the first field recurses
    Chain h = new Chain();
    for (int k = 0; k < DEEP; k++) {
      Chain up = new Chain();
      up.head = h;
      up.value = k;
      h = up;
    }
    roundTripOrClearError(h, Chain.class, "chain through head");
    // nesting through lists
    Tree t = new Tree();
    for (int k = 0; k < DEEP; k++) {
      Tree up = new Tree();
      up.value = k;
      up.kids.add(t);
      t = up;
    }
    roundTripOrClearError(t, Tree.class, "10^5 nested lists");
  }

  /** Hand-made deep messages the encoder may refuse to make: the decoder alone. */
  @Test
  void a02_deepMessagesDecodeOrFailClearly() {
    // Chain through head: ids 1..n each followed by its head, the innermost head null, then
    // each node's prev (null), value and next (null) on the way out.
    int n = DEEP;
    ByteBuffer b = ByteBuffer.allocate(n * 4 + 4 + n * (4 + 8 + 4)).order(ByteOrder.LITTLE_ENDIAN);
    for (int k = 1; k <= n; k++) b.putInt(k | 0x80000000);  // new object k
    b.putInt(0);
    for (int k = 0; k < n; k++) b.putInt(0).putLong(k).putInt(0);
    decodeOrClearError(b.array(), Chain.class, "hand-made chain through head");

    // Trees nested through one-element lists: value, size 1, value, size 1, ..., size 0
    ByteBuffer t = ByteBuffer.allocate(4 + n * (4 + 4 + 8) + 4 + 8).order(ByteOrder.LITTLE_ENDIAN);
    t.putInt(1 | 0x80000000);  // the root: new object 1
    for (int k = 0; k < n; k++) t.putInt(k).putLong(1).putInt((k + 2) | 0x80000000);
    t.putInt(n).putLong(0);
    decodeOrClearError(t.array(), Tree.class, "hand-made nested lists");
  }

  private static void decodeOrClearError(byte[] bytes, Class<?> type, String what) {
    try {
      Wire.decode(bytes, type);
    } catch (SerializationException e) {
      System.out.println("WireFuzzTest: " + what + ": " + e.getMessage());
      assertTrue(e.getMessage().contains("nests too deeply"), what + ": " + e.getMessage());
    }
  }

  // --- mutations ------------------------------------------------------------------------------

  /** Mutation number i of sample s (deterministic). */
  static byte[] mutate(byte[] s, int i, Random r) {
    byte[] m = s.clone();
    int len = m.length;
    switch (i % 9) {
      case 0: {  // one bit
        if (len > 0) m[r.nextInt(len)] ^= (byte) (1 << r.nextInt(8));
        return m;
      }
      case 1: {  // a few bytes
        for (int k = 1 + r.nextInt(8); k > 0 && len > 0; k--) m[r.nextInt(len)] = (byte) r.nextInt(256);
        return m;
      }
      case 2:  // truncated
        return Arrays.copyOf(m, len == 0 ? 0 : r.nextInt(len));
      case 3: {  // a huge or negative u64 size wherever one might be
        if (len >= 8) {
          long[] huge = {-1L, Long.MAX_VALUE, 1L << 31, (1L << 31) - 1, 1L << 40, Integer.MAX_VALUE - 8L, 1L << 62};
          ByteBuffer.wrap(m).order(ByteOrder.LITTLE_ENDIAN).putLong(r.nextInt(len - 7), huge[r.nextInt(huge.length)]);
        }
        return m;
      }
      case 4: {  // a bogus id (or i32) at some offset
        if (len >= 4) {
          int[] ids = {-1, Integer.MIN_VALUE, Integer.MAX_VALUE, 1, 2, 3, 1000, 1 << 20, -7};
          ByteBuffer.wrap(m).order(ByteOrder.LITTLE_ENDIAN).putInt(r.nextInt(len - 3), ids[r.nextInt(ids.length)]);
        }
        return m;
      }
      case 5: {  // a range duplicated (longer message)
        if (len == 0) return m;
        int from = r.nextInt(len), n = 1 + r.nextInt(Math.min(32, len - from));
        byte[] out = new byte[len + n];
        int at = r.nextInt(len + 1);
        System.arraycopy(m, 0, out, 0, at);
        System.arraycopy(m, from, out, at, n);
        System.arraycopy(m, at, out, at + n, len - at);
        return out;
      }
      case 6: {  // a range deleted
        if (len == 0) return m;
        int from = r.nextInt(len), n = 1 + r.nextInt(Math.min(16, len - from));
        byte[] out = new byte[len - n];
        System.arraycopy(m, 0, out, 0, from);
        System.arraycopy(m, from + n, out, from, len - from - n);
        return out;
      }
      case 7: {  // garbage appended, or random bytes of the same length
        if (r.nextBoolean()) {
          byte[] out = Arrays.copyOf(m, len + 1 + r.nextInt(16));
          for (int k = len; k < out.length; k++) out[k] = (byte) r.nextInt(256);
          return out;
        }
        r.nextBytes(m);
        return m;
      }
      default: {  // a 4-byte word swapped with another one
        if (len >= 8) {
          int a = r.nextInt(len - 3), c = r.nextInt(len - 3);
          byte[] w = Arrays.copyOfRange(m, a, a + 4);
          System.arraycopy(m, c, m, a, 4);
          System.arraycopy(w, 0, m, c, 4);
        }
        return m;
      }
    }
  }

  @Test
  void a03_mutatedMessagesDecodeOrFailClearly() {
    List<Sample> corpus = corpus();
    for (Sample s : corpus) {  // the corpus itself is valid
      Object back = s.byValue() ? Wire.decodeValue(s.bytes(), s.type()) : Wire.decode(s.bytes(), s.type());
      assertTrue(back != null && s.type().isInstance(back));
    }
    long decoded = 0, refused = 0;
    List<String> bad = new ArrayList<>();
    for (int i = rank; i < MUTATIONS; i += size) {
      Sample s = corpus.get(i % corpus.size());
      Random r = new Random(i * 0x9E3779B97F4A7C15L);
      byte[] m = mutate(s.bytes(), i / corpus.size(), r);
      try {
        Object o = s.byValue() ? Wire.decodeValue(m, s.type()) : Wire.decode(m, s.type());
        if (o != null && !s.type().isInstance(o)) bad.add("mutation " + i + ": a " + o.getClass().getName());
        decoded++;
      } catch (SerializationException e) {
        refused++;
      } catch (Throwable e) {  // anything else is a bug: OOM, NegativeArraySize, ClassCast, ...
        if (bad.size() < 10) bad.add("mutation " + i + " of sample " + i % corpus.size() + ": " + e);
        else bad.add("...");
      }
    }
    long[] counts = {decoded, refused, bad.size()};
    long[] total = new long[3];
    world.allreduce(counts, total, Op.SUM);
    if (rank == 0)
      System.out.println("WireFuzzTest: " + (total[0] + total[1] + total[2]) + " mutated messages: " + total[0]
          + " decoded, " + total[1] + " SerializationException, " + total[2] + " other");
    assertTrue(total[0] + total[1] + total[2] >= 100_000);
    assertTrue(bad.isEmpty(), String.join("\n", bad.subList(0, Math.min(bad.size(), 11))));
  }

  // --- corrupt messages between ranks -----------------------------------------------------------

  @Test
  void a04_corruptBytesFromAnotherRankFailOnTheReceiver() {
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    byte[] good = Wire.encode(graph(5));
    List<byte[]> corrupt = new ArrayList<>();
    corrupt.add(Arrays.copyOf(good, good.length - 3));  // truncated
    corrupt.add(Arrays.copyOf(good, good.length + 5));  // bytes left over
    byte[] hugeSize = good.clone();  // the first label's size (after the root's id)
    ByteBuffer.wrap(hugeSize).order(ByteOrder.LITTLE_ENDIAN).putLong(4, -1L);
    corrupt.add(hugeSize);
    byte[] bogusId = good.clone();  // the root's id: a new object that is not number 1
    ByteBuffer.wrap(bogusId).order(ByteOrder.LITTLE_ENDIAN).putInt(0, 7 | 0x80000000);
    corrupt.add(bogusId);
    corrupt.add(new byte[0]);
    // At 1 rank to this process itself: sent without blocking there, as a blocking send may wait
    // until its receive is posted (MPICH 4.0's send to oneself does).
    boolean toSelf = next == rank;
    for (int k = 0; k < corrupt.size(); k++) {
      // raw bytes as an object message (tag 30 + k), received as a Node
      byte[] bytes = corrupt.get(k);
      org.oompi.Request sent = null;
      if (toSelf)
        sent = world.isend(org.oompi.Buffers.newByteBuffer(bytes.length).put(bytes).flip(), next, 30 + k);
      else
        world.send(bytes, next, 30 + k);
      final int tag = 30 + k;
      assertThrows(SerializationException.class, () -> world.orecv(Node.class, prev, tag), "corrupt message " + k);
      if (sent != null) sent.waitFor();
    }
    // the communicator (and this thread's orecv state) still works
    org.oompi.Request sent = toSelf ? world.iosend(graph(5), next, 40) : null;
    if (!toSelf) world.osend(graph(5), next, 40);
    Node back = world.orecv(Node.class, prev, 40);
    if (sent != null) sent.waitFor();
    assertEquals("node 0", back.label);
    assertSame(back, back.next.next.next.next.next);
    world.barrier();
    assertNull(world.orecv(Node.class, org.oompi.MPI.PROC_NULL, 0));
  }
}
