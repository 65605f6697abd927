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
import org.oompi.Status;
import org.oompi.Transportable;
import org.oompi.Wire;
import org.oompi.tests.GoldenTypes.ChainItem;
import org.oompi.tests.GoldenTypes.ListNode;
import org.oompi.tests.GoldenTypes.Point;
import org.oompi.tests.GoldenTypes.Shape;

/** @Transportable object graphs: wire v1 against the golden files, bad input, and
 *  osend/orecv/obcast/oscatter/ogather between ranks. */
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

  // --- compact chains (wire v1.1, docs/wire-format.md 2.1) -----------------------------------

  /** Every leaf kind in a chain type. */
  static final class Leaves {
    @Transportable byte b = -1;
    @Transportable short s = -300;
    @Transportable char c = '✓';
    @Transportable int i = -7;
    @Transportable long l = Long.MIN_VALUE;
    @Transportable float f = Float.NaN;
    @Transportable Boolean z = true;
    @Transportable Integer boxed = 1 << 30;
    @Transportable String t = "grüße";
    @Transportable byte[] bs = new byte[130];
    @Transportable short[] ss = {1, -2};
    @Transportable char[] cs = {'a', 'é'};
    @Transportable long[] ls = {1L << 60};
    @Transportable float[] fs = new float[40];
    @Transportable double[] ds = {-0.0, Math.E};
    @Transportable Leaves next;
  }

  static class ChainBase {
    @Transportable int a;
  }

  /** A chain type whose leaf is inherited. */
  static final class SubChain extends ChainBase {
    @Transportable SubChain next;
  }

  // not chain types: an enum, no other field, two links, a boolean[], a nested struct
  static final class EnumChain {
    @Transportable Color color = Color.RED;
    @Transportable EnumChain next;
  }

  static final class OnlyLink {
    @Transportable OnlyLink next;
  }

  static final class BoolsChain {
    @Transportable boolean[] z = {};
    @Transportable BoolsChain next;
  }

  static final class PointChain {
    @Transportable(byValue = true) Point p = new Point();
    @Transportable PointChain next;
  }

  static final class HoldsChain {
    @Transportable ChainItem item;
  }

  /** k ChainItems, the last linking to node close (1-based; 0: null). */
  static ChainItem[] items(int k, int close) {
    ChainItem[] x = new ChainItem[k];
    for (int i = 0; i < k; i++) {
      int[] data = new int[i * 7 % 40];
      for (int j = 0; j < data.length; j++) data[j] = i * 1000 + j;
      x[i] = new ChainItem(i % 3 == 0 ? "" : "n" + i + (i % 2 == 0 ? " ✓" : ""), ((long) i << 33) - i, i % 2 == 0,
          i * -0.25, data);
      if (i > 0) x[i - 1].next = x[i];
    }
    if (close > 0) x[k - 1].next = x[close - 1];
    return x;
  }

  static void checkItems(ChainItem[] want, int close, ChainItem got, String what) {
    int k = want.length;
    ChainItem[] seen = new ChainItem[k];
    for (int i = 0; i < k; i++, got = got.next) {
      assertNotNull(got, what + ": node " + i);
      seen[i] = got;
      assertEquals(want[i].name, got.name, what);
      assertEquals(want[i].id, got.id, what);
      assertEquals(want[i].flag, got.flag, what);
      assertEquals(Double.doubleToRawLongBits(want[i].weight), Double.doubleToRawLongBits(got.weight), what);
      assertArrayEquals(want[i].data, got.data, what);
    }
    assertSame(close == 0 ? null : seen[close - 1], seen[k - 1].next, what);
  }

  /** The test's own writer of the two forms (section 2.1 and section 2), for comparison. */
  static byte[] encodeItems(ChainItem[] x, int close, boolean compact) {
    long n = 16;
    for (ChainItem c : x) n += 4 + 10 + 3L * c.name.length() + 17 + 10 + 4L * c.data.length;
    java.nio.ByteBuffer b = le((int) n);
    if (compact) b.putInt(0x80000000).putInt(x.length).putInt(close);
    for (int i = 0; i < x.length; i++) {
      byte[] name = x[i].name.getBytes(java.nio.charset.StandardCharsets.UTF_8);
      if (!compact) b.putInt(0x80000000 | (i + 1));
      putSize(b, name.length, compact);
      b.put(name).putLong(x[i].id).put((byte) (x[i].flag ? 1 : 0)).putDouble(x[i].weight);
      putSize(b, x[i].data.length, compact);
      for (int v : x[i].data) b.putInt(v);
    }
    if (!compact) b.putInt(close);
    return Arrays.copyOf(b.array(), b.position());
  }

  static void putSize(java.nio.ByteBuffer b, long n, boolean varint) {
    if (!varint) {
      b.putLong(n);
      return;
    }
    for (; n >= 0x80; n >>>= 7) b.put((byte) (n | 0x80));
    b.put((byte) n);
  }

  @Test
  void a09_compactChainGolden() throws IOException {
    byte[] g = golden("compact_chain.bin");
    assertEquals(895, g.length);
    assertArrayEquals(g, Wire.encode(GoldenTypes.goldenChain()));
    ChainItem a = Wire.decode(g, ChainItem.class), b = a.next, c = b.next;
    assertEquals("first", a.name);
    assertEquals(-5, a.id);
    assertTrue(a.flag);
    assertEquals(0.5, a.weight);
    assertArrayEquals(new int[] {1, 2, 3}, a.data);
    assertEquals("", b.name);
    assertEquals(1L << 40, b.id);
    assertTrue(!b.flag);
    assertEquals(-2.25, b.weight);
    assertEquals(200, b.data.length);
    for (int i = 0; i < 200; i++) assertEquals(i, b.data[i]);
    assertEquals("drei \u2713", c.name);
    assertEquals(7, c.id);
    assertTrue(c.flag);
    assertEquals(1e300, c.weight);
    assertArrayEquals(new int[0], c.data);
    assertSame(b, c.next);  // node 3 links back to node 2
    // the same graph in the 1.0 form reads the same
    ChainItem[] x = {GoldenTypes.goldenChain(), null, null};
    x[1] = x[0].next;
    x[2] = x[1].next;
    assertArrayEquals(g, encodeItems(x, 2, true));
    checkItems(x, 2, Wire.decode(encodeItems(x, 2, false), ChainItem.class), "golden in the 1.0 form");
  }

  @Test
  void a10_compactChainShapes() {
    // 1 node, self-loops (close = n), full cycles (close = 1), rho shapes, null ends
    for (int k = 1; k <= 6; k++)
      for (int close = 0; close <= k; close++) {
        String what = "k=" + k + " close=" + close;
        ChainItem[] x = items(k, close);
        byte[] bytes = Wire.encode(x[0]);
        assertArrayEquals(encodeItems(x, close, true), bytes, what);
        checkItems(x, close, Wire.decode(bytes, ChainItem.class), what);
        checkItems(x, close, Wire.decode(encodeItems(x, close, false), ChainItem.class), what + " (1.0 form)");
      }
    // null root: the null reference of section 2
    assertArrayEquals(new byte[4], Wire.encode(null));
    assertNull(Wire.decode(new byte[4], ChainItem.class));
    // sizes of two and three varint bytes
    ChainItem[] big = items(3, 0);
    big[1].name = "é".repeat(200);  // 400 bytes: 90 03
    big[1].data = new int[20000];   // A0 9C 01
    big[2].name = "x".repeat(128);  // 80 01
    byte[] bytes = Wire.encode(big[0]);
    assertArrayEquals(encodeItems(big, 0, true), bytes);
    checkItems(big, 0, Wire.decode(bytes, ChainItem.class), "long sizes");
    // nulls have no encoding, as in the 1.0 form
    ChainItem[] nul = items(2, 0);
    nul[1].name = null;
    assertTrue(assertThrows(SerializationException.class, () -> Wire.encode(nul[0])).getMessage().contains("String"));
    nul[1].name = "";
    nul[1].data = null;
    assertTrue(assertThrows(SerializationException.class, () -> Wire.encode(nul[0])).getMessage().contains("int[]"));
    // every leaf kind, an inherited leaf
    Leaves l = new Leaves(), l2 = new Leaves();
    l.next = l2;
    l2.t = "";
    l2.bs = new byte[] {9};
    l2.next = l;
    byte[] lb = Wire.encode(l);
    assertEquals(0x80000000, le(4).put(lb, 0, 4).getInt(0));
    Leaves lback = Wire.decode(lb, Leaves.class);
    assertSame(lback, lback.next.next);
    assertEquals(Long.MIN_VALUE, lback.l);
    assertEquals('✓', lback.c);
    assertTrue(Float.isNaN(lback.f));
    assertEquals(Integer.valueOf(1 << 30), lback.boxed);
    assertEquals("grüße", lback.t);
    assertEquals(130, lback.bs.length);
    assertArrayEquals(new char[] {'a', 'é'}, lback.cs);
    assertArrayEquals(new long[] {1L << 60}, lback.ls);
    assertEquals(40, lback.fs.length);
    assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(lback.ds[0]));
    assertArrayEquals(new byte[] {9}, lback.next.bs);
    SubChain s1 = new SubChain(), s2 = new SubChain();
    s1.a = 5;
    s2.a = 6;
    s1.next = s2;
    byte[] sb = Wire.encode(s1);
    assertArrayEquals(le(20).putInt(0x80000000).putInt(2).putInt(0).putInt(5).putInt(6).array(), sb);
    assertEquals(6, Wire.decode(sb, SubChain.class).next.a);
    // types that are not chain types keep the 1.0 form
    for (Object o : new Object[] {new EnumChain(), new OnlyLink(), new BoolsChain(), new PointChain(), new ListNode(1)})
      assertEquals(0x80000001, le(4).put(Wire.encode(o), 0, 4).getInt(0), o.getClass().getName());
  }

  @Test
  void a11_compactChainBadInput() throws IOException {
    byte[] g = golden("compact_chain.bin");
    for (int n = 0; n < g.length; n++) {
      byte[] cut = Arrays.copyOf(g, n);
      assertThrows(SerializationException.class, () -> Wire.decode(cut, ChainItem.class), "prefix " + n);
    }
    byte[] longer = Arrays.copyOf(g, g.length + 1);
    assertTrue(assertThrows(SerializationException.class, () -> Wire.decode(longer, ChainItem.class))
        .getMessage().contains("left over"));
    // n = 0, n above the bytes left after close (883), close > n
    for (int[] nc : new int[][] {{0, 0}, {884, 2}, {-1, 2}, {3, 4}, {3, -1}}) {
      byte[] b = g.clone();
      le(8).putInt(nc[0]).putInt(nc[1]).flip().get(b, 4, 8);
      assertTrue(assertThrows(SerializationException.class, () -> Wire.decode(b, ChainItem.class))
          .getMessage().contains("compact chain of"), Arrays.toString(nc));
    }
    // n larger than the message's nodes, but within the bytes left: truncated
    byte[] more = g.clone();
    more[4] = 4;
    assertThrows(SerializationException.class, () -> Wire.decode(more, ChainItem.class));
    // varints: not shortest, longer than 10 bytes, above 2^64 - 1, above a Java array, above the bytes left
    String[] sizes = {"8000", "FF00", "80808080808080808080" + "01", "FFFFFFFFFFFFFFFFFF02",
        "FFFFFFFFFFFFFFFFFF01", "8080808008", "7F"};
    String[] says = {"shortest", "shortest", "longer than 10", "above 2^64", "Java array", "Java array", "left"};
    for (int k = 0; k < sizes.length; k++) {
      java.nio.ByteBuffer b = le(64).putInt(0x80000000).putInt(1).putInt(0);
      for (int i = 0; i < sizes[k].length(); i += 2) b.put((byte) Integer.parseInt(sizes[k].substring(i, i + 2), 16));
      b.put(new byte[17]).put((byte) 0);  // id, flag, weight, data []
      byte[] m = Arrays.copyOf(b.array(), b.position());
      String msg = assertThrows(SerializationException.class, () -> Wire.decode(m, ChainItem.class)).getMessage();
      assertTrue(msg.contains(says[k]), sizes[k] + ": " + msg);
    }
    // the same 1-node message with a valid size reads (so the cases above fail for their size)
    byte[] ok = {0, 0, 0, (byte) 0x80, 1, 0, 0, 0, 0, 0, 0, 0, 1, 'x', 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    assertEquals("x", Wire.decode(ok, ChainItem.class).name);
    // an int[] size above the bytes left / 4 (node 3's, the last byte); a bool byte other
    // than 0/1 (node 1's flag)
    byte[] lastData = g.clone();
    lastData[g.length - 1] = 1;
    assertTrue(assertThrows(SerializationException.class, () -> Wire.decode(lastData, ChainItem.class))
        .getMessage().contains("size 1"));
    byte[] badBool = g.clone();
    badBool[12 + 6 + 8] = 2;
    assertTrue(assertThrows(SerializationException.class, () -> Wire.decode(badBool, ChainItem.class))
        .getMessage().contains("bool"));
    // a compact chain where the type is not a chain type
    for (Class<?> t : new Class<?>[] {EnumChain.class, OnlyLink.class, BoolsChain.class, PointChain.class, ListNode.class,
        HoldsChain.class, Shape.class})
      assertTrue(assertThrows(SerializationException.class, () -> Wire.decode(g, t)).getMessage()
          .contains("not a chain type"), t.getName());
    // nor anywhere but as a message's value: a field, a slice of the split collectives
    byte[] field = new byte[4 + g.length];
    le(4).putInt(0x80000001).flip().get(field, 0, 4);
    System.arraycopy(g, 0, field, 4, g.length);
    assertTrue(assertThrows(SerializationException.class, () -> Wire.decode(field, HoldsChain.class)).getMessage()
        .contains("compact chain may only"));
    byte[] slice = new byte[8 + g.length];
    slice[0] = 1;
    System.arraycopy(g, 0, slice, 8, g.length);
    assertThrows(SerializationException.class, () -> Wire.decodeList(slice, ChainItem.class));
    assertThrows(SerializationException.class, () -> Wire.decode(slice, ChainItem[].class));
  }

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
      ListNode n = world.oreduce(leaf(rank), ListNode.class, ObjectsTest::cat, root);
      if (rank == root) checkReduced(n);
      else assertNull(n);
    }
    assertEquals(want.toString(), world.oallreduce(rank + ";", concat));
    checkReduced(world.oallreduce(leaf(rank), ListNode.class, ObjectsTest::cat));
    assertEquals(Integer.valueOf(size * (size - 1) / 2), world.oallreduce(rank, Integer::sum));
    // a function that returns null: a null reference travels (one rank: a copy of its object)
    ListNode none = world.oallreduce(leaf(rank), ListNode.class, (x, y) -> null);
    if (size == 1) checkReduced(none);
    else assertNull(none);
    // one rank: the result is a copy, as in C++
    ListNode mine = leaf(rank);
    ListNode same = world.oallreduce(mine, ListNode.class, ObjectsTest::cat);
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
