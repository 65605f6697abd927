package org.oompi.tests;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.oompi.Transportable;

/** The types of tests/golden (tests/interop/golden_types.hpp, python_tests/golden_types.py) in
 *  Java. Field order = wire order. */
public final class GoldenTypes {
  private GoldenTypes() {}

  /** struct point { double x, y; } */
  public static final class Point {
    @Transportable double x;
    @Transportable double y;

    public Point() {}

    public Point(double x, double y) {
      this.x = x;
      this.y = y;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Point && ((Point) o).x == x && ((Point) o).y == y;
    }

    @Override
    public int hashCode() {
      return Objects.hash(x, y);
    }

    @Override
    public String toString() {
      return "(" + x + ", " + y + ")";
    }
  }

  /** struct shape { string name; int64 id; bool closed; point origin; point[] corners;
   *  int32[] tags; float32 scale; uint8 layer; int16 depth; } (points by value). */
  public static final class Shape {
    @Transportable String name = "";
    @Transportable long id;
    @Transportable boolean closed;
    @Transportable(byValue = true) Point origin = new Point();
    @Transportable(byValue = true) List<Point> corners = new ArrayList<>();
    @Transportable int[] tags = new int[0];
    @Transportable float scale;
    @Transportable byte layer;   // uint8 on the wire: Byte.toUnsignedInt(layer)
    @Transportable short depth;
    String notSent = "default";  // not annotated: never travels

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof Shape)) return false;
      Shape s = (Shape) o;
      return name.equals(s.name) && id == s.id && closed == s.closed && origin.equals(s.origin)
          && corners.equals(s.corners) && Arrays.equals(tags, s.tags) && scale == s.scale && layer == s.layer
          && depth == s.depth;
    }

    @Override
    public int hashCode() {
      return Objects.hash(name, id);
    }

    @Override
    public String toString() {
      return "Shape{" + name + ", " + id + ", " + closed + ", " + origin + ", " + corners + ", "
          + Arrays.toString(tags) + ", " + scale + ", " + layer + ", " + depth + "}";
    }
  }

  /** struct list_node { int32[] data; list_node other, next; } (references; next last). */
  /** A list whose nodes hold no other reference (C++ reads it without identity tables). */
  public static class ChainNode {
    @Transportable int[] data = new int[0];
    @Transportable ChainNode next;

    public ChainNode() {}

    public ChainNode(int... data) {
      this.data = data;
    }
  }

  /** struct chain_item { string name; int64 id; bool flag; double weight; int32[] data;
   *  chain_item next; }: a chain type (docs/wire-format.md 2.1), sent as a compact chain. */
  public static final class ChainItem {
    @Transportable String name = "";
    @Transportable long id;
    @Transportable boolean flag;
    @Transportable double weight;
    @Transportable int[] data = new int[0];
    @Transportable ChainItem next;

    public ChainItem() {}

    public ChainItem(String name, long id, boolean flag, double weight, int... data) {
      this.name = name;
      this.id = id;
      this.flag = flag;
      this.weight = weight;
      this.data = data;
    }
  }

  public static class ListNode {
    @Transportable int[] data = new int[0];
    @Transportable ListNode other;
    @Transportable ListNode next;
    ListNode next2;  // not annotated (Motor's next2): arrives null

    public ListNode() {}

    public ListNode(int... data) {
      this.data = data;
    }
  }

  public static Shape goldenShape() {
    Shape s = new Shape();
    s.name = "triangle";
    s.id = -1234567890123L;
    s.closed = true;
    s.origin = new Point(0.5, -1.25);
    s.corners = new ArrayList<>(List.of(new Point(0, 0), new Point(4, 0), new Point(0, 3)));
    s.tags = new int[] {7, 11};
    s.scale = 2.5f;
    s.layer = (byte) 200;
    s.depth = -300;
    return s;
  }

  /** compact_chain.bin: 1 {"first", -5, true, 0.5, [1, 2, 3]} -> 2 {"", 2^40, false, -2.25,
   *  [0 .. 199]} -> 3 {"drei ✓", 7, true, 1e300, []} -> back to 2 */
  public static ChainItem goldenChain() {
    int[] range = new int[200];
    for (int i = 0; i < range.length; i++) range[i] = i;
    ChainItem a = new ChainItem("first", -5, true, 0.5, 1, 2, 3);
    ChainItem b = new ChainItem("", 1L << 40, false, -2.25, range);
    ChainItem c = new ChainItem("drei \u2713", 7, true, 1e300);
    a.next = b;
    b.next = c;
    c.next = b;
    return a;
  }

  /** a{[1,2], other c, next b}, b{[3], other c, next c}, c{[], other null, next a} */
  public static ListNode goldenGraph() {
    ListNode a = new ListNode(1, 2), b = new ListNode(3), c = new ListNode();
    a.other = c;
    a.next = b;
    b.other = c;
    b.next = c;
    c.next = a;
    return a;
  }
}
