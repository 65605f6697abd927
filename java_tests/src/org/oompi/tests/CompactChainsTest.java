package org.oompi.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import static org.oompi.tests.ObjectsTest.*;

import java.io.IOException;
import java.util.Arrays;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.oompi.SerializationException;
import org.oompi.Transportable;
import org.oompi.Wire;
import org.oompi.tests.GoldenTypes.ChainItem;
import org.oompi.tests.GoldenTypes.ListNode;
import org.oompi.tests.GoldenTypes.Point;
import org.oompi.tests.GoldenTypes.Shape;

/** Compact chains (wire v1.1, docs/wire-format.md 2.1): golden bytes, every shape, bad input. */
@TestMethodOrder(MethodOrderer.MethodName.class)
class CompactChainsTest extends WorldTest {
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
}
