package org.oompi.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.oompi.Comm;
import org.oompi.Request;
import org.oompi.SerializationException;
import org.oompi.Transportable;
import org.oompi.Wire;
import org.oompi.tests.GoldenTypes.ListNode;
import org.oompi.tests.GoldenTypes.Point;
import org.oompi.tests.GoldenTypes.Shape;

/** @Transportable object graphs: wire v1 against the golden files, bad input, linear chains and
 *  threads (CompactChainsTest: wire v1.1 chains; ObjectTransfersTest: between ranks). */
@ExtendWith(MpiExtension.class)
@TestMethodOrder(MethodOrderer.MethodName.class)
class ObjectsTest {
  private final Comm world = Comm.world();
  private final int rank = world.getRank();
  private final int size = world.getSize();
  private final int next = (rank + 1) % size, prev = (rank + size - 1) % size;

  static byte[] golden(String name) throws IOException {
    String dir = System.getenv("OOMPI_GOLDEN_DIR");
    assertNotNull(dir, "OOMPI_GOLDEN_DIR (tests/golden) must be set");
    return Files.readAllBytes(Path.of(dir, name));
  }

  // --- types used below ---------------------------------------------------------------------

  enum Color { RED, GREEN, BLUE }

  static final class Everything {
    @Transportable boolean z = true;
    @Transportable byte b = -5;
    @Transportable short s = -300;
    @Transportable char c = 'é';
    @Transportable int i = 123456789;
    @Transportable long l = Long.MIN_VALUE + 7;
    @Transportable float f = Float.NaN;
    @Transportable double d = -0.0;
    @Transportable Integer boxed = 42;
    @Transportable String text = "ünïcödé ✓ 𝄞";
    @Transportable Color color = Color.BLUE;
    @Transportable boolean[] zs = {true, false, true};
    @Transportable byte[] bs = {1, -2, 3};
    @Transportable short[] ss = {-1, 2};
    @Transportable char[] cs = {'a', '✓'};
    @Transportable long[] ls = {Long.MAX_VALUE, 0};
    @Transportable float[] fs = {1.5f, -2.25f};
    @Transportable double[] ds = {Math.PI, Double.MIN_VALUE};
    @Transportable String[] strings = {"", "a", "日本"};
    @Transportable int[][] matrix = {{1, 2}, {}, {3}};
    @Transportable List<String> names = new ArrayList<>(List.of("x", "yy"));
    @Transportable LinkedList<Integer> linked = new LinkedList<>(List.of(1, 2, 3));
    @Transportable List<List<Double>> nested = List.of(List.of(1.0), List.of());
    @Transportable ListNode[] nodes = new ListNode[0];
    @Transportable List<ListNode> nodeList = new ArrayList<>();
    int notSent = 99;

    void check(Everything o) {
      assertEquals(z, o.z);
      assertEquals(b, o.b);
      assertEquals(s, o.s);
      assertEquals(c, o.c);
      assertEquals(i, o.i);
      assertEquals(l, o.l);
      assertEquals(Float.floatToRawIntBits(f), Float.floatToRawIntBits(o.f));
      assertEquals(Double.doubleToRawLongBits(d), Double.doubleToRawLongBits(o.d));
      assertEquals(boxed, o.boxed);
      assertEquals(text, o.text);
      assertEquals(color, o.color);
      assertArrayEquals(zs, o.zs);
      assertArrayEquals(bs, o.bs);
      assertArrayEquals(ss, o.ss);
      assertArrayEquals(cs, o.cs);
      assertArrayEquals(ls, o.ls);
      assertArrayEquals(fs, o.fs);
      assertArrayEquals(ds, o.ds);
      assertArrayEquals(strings, o.strings);
      assertTrue(Arrays.deepEquals(matrix, o.matrix));
      assertEquals(names, o.names);
      assertEquals(linked, o.linked);
      assertTrue(o.linked instanceof LinkedList);
      assertEquals(nested, o.nested);
    }
  }

  /** A class whose last field is not the self link: deep chains recurse. */
  static final class Deep {
    @Transportable Deep child;
    @Transportable int depth;
  }

  static final class Other {
    @Transportable ListNode node;
    @Transportable Point point;  // a reference to a Point
  }

  static final class NoDefaultConstructor {
    @Transportable int x;
    NoDefaultConstructor(int x) { this.x = x; }
  }

  static final class HoldsPlain {
    @Transportable Object something;
  }

  static class Base {
    @Transportable int a = 1;
  }

  static final class Derived extends Base {
    @Transportable String b = "two";
    int c = 3;
  }

  static final class Doubly {
    @Transportable int value;
    @Transportable Doubly prev;
    @Transportable Doubly next;
  }

  static ListNode chain(int n) {
    ListNode head = new ListNode(0);
    head.other = head;
    ListNode tail = head;
    for (int i = 1; i < n; i++) {
      ListNode x = new ListNode(i);
      x.other = head;
      tail.next = x;
      tail = x;
    }
    return head;
  }

  static void checkChain(ListNode head, int n, int factor) {
    int i = 0;
    for (ListNode p = head; p != null; p = p.next, i++) {
      assertEquals(i * factor, p.data[0]);
      assertSame(head, p.other);
    }
    assertEquals(n, i);
  }

  static void checkGoldenGraph(ListNode a, int factor) {
    ListNode b = a.next, c = a.other;
    assertArrayEquals(new int[] {factor, 2 * factor}, a.data);
    assertArrayEquals(new int[] {3 * factor}, b.data);
    assertArrayEquals(new int[0], c.data);
    assertSame(c, b.other);
    assertSame(c, b.next);
    assertSame(a, c.next);
    assertNull(c.other);
    assertNull(a.next2);
  }

  // --- wire format v1 against the golden files ----------------------------------------------

  @Test
  void a01_goldenBytesWritten() throws IOException {
    assertArrayEquals(golden("int_vector.bin"), Wire.encode(new int[] {1, -2, 3, 2147483647, -2147483648}));
    assertArrayEquals(golden("string.bin"), Wire.encode("h\u00e9llo, w\u00f6rld \u2713"));
    assertArrayEquals(golden("nested_struct.bin"), Wire.encodeValue(GoldenTypes.goldenShape()));
    assertArrayEquals(golden("shared_cyclic_list.bin"), Wire.encode(GoldenTypes.goldenGraph()));
    assertArrayEquals(golden("int_vector.bin"), Wire.encode(new Integer[] {1, -2, 3, 2147483647, -2147483648}));
  }

  @Test
  void a02_goldenBytesRead() throws IOException {
    assertArrayEquals(new int[] {1, -2, 3, 2147483647, -2147483648}, Wire.decode(golden("int_vector.bin"), int[].class));
    assertEquals("h\u00e9llo, w\u00f6rld \u2713", Wire.decode(golden("string.bin"), String.class));
    Shape s = Wire.decodeValue(golden("nested_struct.bin"), Shape.class);
    assertEquals(GoldenTypes.goldenShape(), s);
    assertEquals(200, Byte.toUnsignedInt(s.layer));
    assertEquals("default", s.notSent);
    checkGoldenGraph(Wire.decode(golden("shared_cyclic_list.bin"), ListNode.class), 1);
  }

  @Test
  void a03_everyKindRoundTrips() {
    Everything e = new Everything();
    ListNode g = GoldenTypes.goldenGraph();
    e.nodes = new ListNode[] {g, null, g.other, g};
    e.nodeList.add(g.next);
    e.nodeList.add(null);
    e.notSent = -1;
    Everything back = Wire.decode(Wire.encode(e), Everything.class);
    e.check(back);
    assertEquals(99, back.notSent);
    checkGoldenGraph(back.nodes[0], 1);
    assertNull(back.nodes[1]);
    assertSame(back.nodes[0].other, back.nodes[2]);
    assertSame(back.nodes[0], back.nodes[3]);
    assertSame(back.nodes[0].next, back.nodeList.get(0));  // one id counter per message
    assertNull(back.nodeList.get(1));

    Derived d = new Derived();
    d.a = 10;
    d.b = "twenty";
    d.c = 30;
    Derived d2 = Wire.decode(Wire.encode(d), Derived.class);
    assertEquals(10, d2.a);
    assertEquals("twenty", d2.b);
    assertEquals(3, d2.c);
    // superclass fields first: i32 a, then the string
    byte[] bytes = Wire.encodeValue(d);
    assertEquals(4 + 8 + 6, bytes.length);
    assertEquals(10, bytes[0]);

    assertNull(Wire.decode(Wire.encode(null), ListNode.class));
    assertArrayEquals(new byte[4], Wire.encode(null));
    assertEquals(Long.valueOf(-3), Wire.decode(Wire.encode(-3L), Long.class));
    assertEquals(Integer.valueOf(7), Wire.decode(Wire.encode(7), int.class));
    String[] strs = {"α", "", "✓✓"};
    assertArrayEquals(strs, Wire.decode(Wire.encode(strs), String[].class));
    List<ListNode> list = Arrays.asList(g, g.next, null);
    List<ListNode> back2 = Wire.decodeList(Wire.encodeList(list, ListNode.class), ListNode.class);
    checkGoldenGraph(back2.get(0), 1);
    assertSame(back2.get(0).next, back2.get(1));
    assertNull(back2.get(2));

    Doubly x = new Doubly(), y = new Doubly(), z = new Doubly();
    x.next = y; y.prev = x; y.next = z; z.prev = y;
    x.value = 1; y.value = 2; z.value = 3;
    Doubly bx = Wire.decode(Wire.encode(x), Doubly.class);
    assertEquals(3, bx.next.next.value);
    assertSame(bx, bx.next.prev);
    assertSame(bx.next, bx.next.next.prev);
  }

  @Test
  void a04_deepListsUseNoStack() {
    int n = 1_000_000;
    ListNode head = new ListNode(0), tail = head;
    for (int i = 1; i < n; i++) {
      tail.next = new ListNode(i);
      tail = tail.next;
    }
    byte[] bytes = Wire.encode(head);
    assertEquals((long) n * (4 + 8 + 4 + 4) + 4, bytes.length);  // id, data, value, other; final null
    ListNode back = Wire.decode(bytes, ListNode.class);
    int i = 0;
    for (ListNode p = back; p != null; p = p.next, i++) assertEquals(i, p.data[0]);
    assertEquals(n, i);

    // A chain through a field that is not last recurses: too deep is a clear error, not a crash.
    Deep d = new Deep();
    for (int k = 0; k < 1_000_000; k++) {
      Deep up = new Deep();
      up.child = d;
      up.depth = k;
      d = up;
    }
    Deep top = d;
    SerializationException e = assertThrows(SerializationException.class, () -> Wire.encode(top));
    assertTrue(e.getMessage().contains("nests too deeply"), e.getMessage());
  }

  // --- bad input and bad types ----------------------------------------------------------------

  @Test
  void a05_corruptAndTruncatedInputFailsClearly() throws IOException {
    byte[] graph = golden("shared_cyclic_list.bin");
    for (int n = 0; n < graph.length; n++) {
      byte[] cut = Arrays.copyOf(graph, n);
      assertThrows(SerializationException.class, () -> Wire.decode(cut, ListNode.class), "prefix " + n);
    }
    byte[] longer = Arrays.copyOf(graph, graph.length + 1);
    assertTrue(assertThrows(SerializationException.class, () -> Wire.decode(longer, ListNode.class))
        .getMessage().contains("left over"));
    // a huge size: rejected before anything is allocated
    byte[] huge = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x7F, 0, 0, 0, 0, 1, 2, 3, 4};
    assertTrue(assertThrows(SerializationException.class, () -> Wire.decode(huge, int[].class))
        .getMessage().contains("size"));
    byte[] hugeU64 = {-1, -1, -1, -1, -1, -1, -1, -1};
    assertThrows(SerializationException.class, () -> Wire.decode(hugeU64, String.class));
    assertThrows(SerializationException.class, () -> Wire.decode(hugeU64, ListNode[].class));
    // a bool byte other than 0/1
    byte[] shape = golden("nested_struct.bin");
    byte[] badBool = shape.clone();
    badBool[8 + 8 + 8] = 2;  // name (8 + 8 bytes), id (8), then closed
    assertTrue(assertThrows(SerializationException.class, () -> Wire.decodeValue(badBool, Shape.class))
        .getMessage().contains("bool"));
    // a new id that is not the next one; a back-reference to an id not seen yet
    byte[] badId = graph.clone();
    badId[0] = 2;
    assertTrue(assertThrows(SerializationException.class, () -> Wire.decode(badId, ListNode.class))
        .getMessage().contains("new object id"));
    byte[] forward = {5, 0, 0, 0};
    assertTrue(assertThrows(SerializationException.class, () -> Wire.decode(forward, ListNode.class))
        .getMessage().contains("before it was sent"));
    // a back-reference to an object of another class than the field expects
    Other o = new Other();
    o.node = new ListNode(1);
    o.point = new Point(1, 2);
    byte[] ob = Wire.encode(o);
    // Other(1){ node: ListNode(2){...}, point: Point(3) } -> make point refer back to object 2
    byte[] wrong = Arrays.copyOf(ob, ob.length - 16);
    int at = wrong.length - 4;
    wrong[at] = 2; wrong[at + 1] = 0; wrong[at + 2] = 0; wrong[at + 3] = 0;
    assertTrue(assertThrows(SerializationException.class, () -> Wire.decode(wrong, Other.class))
        .getMessage().contains("expects"));
    // random damage: a SerializationException or a value, never anything else, never a hang
    Random rnd = new Random(42 + rank);
    byte[][] seeds = {graph, shape, golden("string.bin"), Wire.encode(new Everything())};
    for (int k = 0; k < 3000; k++) {
      byte[] src = seeds[k % seeds.length];
      byte[] b = src.clone();
      for (int j = 1 + rnd.nextInt(3); j > 0; j--) b[rnd.nextInt(b.length)] = (byte) rnd.nextInt(256);
      Class<?> t = k % 4 == 0 ? ListNode.class : k % 4 == 1 ? Shape.class : k % 4 == 2 ? String.class : Everything.class;
      try {
        if (t == Shape.class) Wire.decodeValue(b, Shape.class);
        else Wire.decode(b, t);
      } catch (SerializationException expected) {
        // fine
      }
    }
  }

  @Test
  void a06_unsupportedTypesAreRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Wire.encode(new Object()));
    assertTrue(e.getMessage().contains("java.lang.Object"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> world.osend(new StringBuilder("x"), rank, 1));
    assertTrue(e.getMessage().contains("java.lang.StringBuilder"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> world.orecv(Thread.class, rank, 1));
    assertTrue(e.getMessage().contains("java.lang.Thread"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Wire.encode(new NoDefaultConstructor(1)));
    assertTrue(e.getMessage().contains("no-argument constructor"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Wire.encode(new HoldsPlain()));
    assertTrue(e.getMessage().contains("something"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Wire.encode(new ArrayList<>()));
    assertTrue(e.getMessage().contains("element"), e.getMessage());
    assertTrue(Wire.isTransportable(ListNode.class));
    assertTrue(Wire.isTransportable(Derived.class));
    assertTrue(!Wire.isTransportable(String.class));

    // nulls the format has no encoding for; a subclass where a class is declared
    Shape s = GoldenTypes.goldenShape();
    s.name = null;
    assertTrue(assertThrows(SerializationException.class, () -> Wire.encodeValue(s)).getMessage().contains("String"));
    Shape s2 = GoldenTypes.goldenShape();
    s2.origin = null;
    assertThrows(SerializationException.class, () -> Wire.encodeValue(s2));
    assertThrows(IllegalArgumentException.class, () -> Wire.encodeValue(null));
    Base holder = new Base();
    Other bad = new Other();
    bad.node = new ListNode() {};  // an anonymous subclass of ListNode
    assertTrue(assertThrows(SerializationException.class, () -> Wire.encode(bad)).getMessage().contains("declared"));
    assertEquals(1, holder.a);
  }

  static class Link {
    @Transportable int[] data;
    @Transportable Link next;
  }

  /** Not a chain type (boolean[] is no leaf), but linear: the 1.0 form without the table. */
  static final class FlagLink {
    @Transportable boolean[] data;
    @Transportable FlagLink next;
  }

  static final class Tag {
    @Transportable int v;
  }

  static final class TaggedLink {
    @Transportable Tag tag;
    @Transportable TaggedLink next;
  }

  static java.nio.ByteBuffer le(int n) {
    return java.nio.ByteBuffer.allocate(n).order(java.nio.ByteOrder.LITTLE_ENDIAN);
  }

  /** Chains whose only path to their class is the tail link are written without the identity
   *  table (WirePlan.writeRoot): the same bytes, cycles closed at the right node. A chain type
   *  (Link) is written as a compact chain (wire 1.1), and its 1.0 form still reads. */
  @Test
  void a07_linearChainsAndCycles() {
    for (int k = 1; k <= 12; k++) {
      for (int m = -1; m < k; m++) {
        String what = "k=" + k + " cycle to " + m;
        Link[] nodes = new Link[k];
        FlagLink[] flags = new FlagLink[k];
        for (int i = 0; i < k; i++) {
          nodes[i] = new Link();
          nodes[i].data = new int[] {i};
          flags[i] = new FlagLink();
          flags[i].data = new boolean[] {i % 2 == 1};
          if (i > 0) nodes[i - 1].next = nodes[i];
          if (i > 0) flags[i - 1].next = flags[i];
        }
        if (m >= 0) nodes[k - 1].next = nodes[m];
        if (m >= 0) flags[k - 1].next = flags[m];
        java.nio.ByteBuffer compact = le(12 + k * 5).putInt(0x80000000).putInt(k).putInt(m + 1);
        java.nio.ByteBuffer v10 = le(k * 16 + 4), bools = le(k * 13 + 4);
        for (int i = 0; i < k; i++) {
          compact.put((byte) 1).putInt(i);
          v10.putInt(0x80000000 | (i + 1)).putLong(1).putInt(i);
          bools.putInt(0x80000000 | (i + 1)).putLong(1).put((byte) (i % 2));
        }
        v10.putInt(m >= 0 ? m + 1 : 0);
        bools.putInt(m >= 0 ? m + 1 : 0);
        assertArrayEquals(compact.array(), Wire.encode(nodes[0]), what);
        assertArrayEquals(bools.array(), Wire.encode(flags[0]), what);
        for (byte[] bytes : new byte[][] {compact.array(), v10.array()}) {
          Link p = Wire.decode(bytes, Link.class);
          Link[] got = new Link[k];
          for (int i = 0; i < k; i++, p = p.next) {
            got[i] = p;
            assertEquals(i, p.data[0], what);
          }
          assertSame(m >= 0 ? got[m] : null, got[k - 1].next, what);
        }
        FlagLink f = Wire.decode(bools.array(), FlagLink.class);
        FlagLink[] got = new FlagLink[k];
        for (int i = 0; i < k; i++, f = f.next) {
          got[i] = f;
          assertEquals(i % 2 == 1, f.data[0], what);
        }
        assertSame(m >= 0 ? got[m] : null, got[k - 1].next, what);
      }
    }
    // shared objects of another class hanging off the chain: ids interleave with the nodes'
    Tag t1 = new Tag(), t2 = new Tag();
    t1.v = 7;
    t2.v = 8;
    TaggedLink a = new TaggedLink(), b = new TaggedLink(), c = new TaggedLink();
    a.tag = t1; a.next = b;
    b.tag = t2; b.next = c;
    c.tag = t1; c.next = b;
    java.nio.ByteBuffer want = le(4 + 8 + 4 + 8 + 4 + 4 + 4);
    want.putInt(0x80000001).putInt(0x80000002).putInt(7)   // a, t1
        .putInt(0x80000003).putInt(0x80000004).putInt(8)   // b, t2
        .putInt(0x80000005).putInt(2)                      // c, t1 again
        .putInt(3);                                        // c.next = b
    assertArrayEquals(want.array(), Wire.encode(a));
    TaggedLink ba = Wire.decode(want.array(), TaggedLink.class);
    assertSame(ba.tag, ba.next.next.tag);
    assertSame(ba.next, ba.next.next.next);
    assertEquals(8, ba.next.tag.v);
    // a chain node of a subclass is refused as before
    Link x = new Link();
    x.data = new int[0];
    x.next = new Link() {};
    assertThrows(SerializationException.class, () -> Wire.encode(x));
    // and long chains still take no stack
    Link head = new Link(), tail = head;
    head.data = new int[0];
    for (int i = 0; i < 1_000_000; i++) {
      tail.next = new Link();
      tail = tail.next;
      tail.data = new int[0];
    }
    tail.next = head.next;  // a cycle over a million nodes
    byte[] million = Wire.encode(head);
    assertEquals(12 + 1_000_001, million.length);  // header, then one byte per node (size 0)
    Link back = Wire.decode(million, Link.class);
    Link p = back.next;
    for (int i = 0; i < 1_000_000; i++) p = p.next;
    assertSame(back.next, p);
  }

  static final class FirstUsedByThreads {
    @Transportable String name = "";
    @Transportable List<FirstUsedByThreads> children = new ArrayList<>();
    @Transportable FirstUsedByThreads next;
  }

  /** Several threads build a class's plan at once and send objects to this very rank (small
   *  messages, distinct tags; matched probes keep each thread's message its own). */
  @Test
  void a08_threads() throws Exception {
    int threads = 4, rounds = 200;
    List<Throwable> errors = java.util.Collections.synchronizedList(new ArrayList<>());
    java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
    List<Thread> ts = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      final int id = t;
      Thread th = new Thread(() -> {
        try {
          start.await();
          for (int i = 0; i < rounds; i++) {
            FirstUsedByThreads x = new FirstUsedByThreads();
            x.name = "t" + id + "/" + i;
            FirstUsedByThreads child = new FirstUsedByThreads();
            child.next = x;
            x.children.add(child);
            x.children.add(child);
            FirstUsedByThreads back = Wire.decode(Wire.encode(x), FirstUsedByThreads.class);
            assertSame(back, back.children.get(1).next);
            // Sent without blocking: a blocking send to oneself may wait until its receive is
            // posted (MPICH 4.0's does).
            Request sent = world.iosend(x, rank, 200 + id);
            FirstUsedByThreads got = world.orecv(FirstUsedByThreads.class, rank, 200 + id);
            sent.waitFor();
            assertEquals(x.name, got.name);
            assertSame(got.children.get(0), got.children.get(1));
            assertSame(got, got.children.get(0).next);
          }
        } catch (Throwable e) {
          errors.add(e);
        }
      });
      th.start();
      ts.add(th);
    }
    start.countDown();
    for (Thread th : ts) th.join();
    if (!errors.isEmpty()) throw new AssertionError(errors.get(0));
  }

}
