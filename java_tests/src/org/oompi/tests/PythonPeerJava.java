package org.oompi.tests;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BinaryOperator;
import org.oompi.Comm;
import org.oompi.Environment;
import org.oompi.SerializationException;
import org.oompi.tests.GoldenTypes.ListNode;
import org.oompi.tests.GoldenTypes.Shape;

/**
 * Rank 0 of python.interop_java (python_tests/java_peer_python.py is ranks 1 .. p - 1): object
 * collectives between a Java rank and Python ranks, no C++ rank in the job. Python passes type=
 * (wire v1), so both run C++'s framing on the private object communicator. Then three calls where
 * Python pickles (no type=): each fails fast on every rank that can tell (here, all), and the
 * ranks stay in step. Any mismatch aborts the job.
 */
public final class PythonPeerJava {
  private PythonPeerJava() {}

  static void check(boolean ok, String what) {
    if (!ok) throw new AssertionError(what);
  }

  static void expectThrow(String what, Class<? extends Throwable> type, Runnable f) {
    try {
      f.run();
    } catch (Throwable t) {
      if (type.isInstance(t)) {
        System.out.println("rank 0, " + what + ": " + t);
        return;
      }
      throw new AssertionError(what + ": expected " + type.getSimpleName() + ", got " + t, t);
    }
    throw new AssertionError(what + ": did not throw");
  }

  static void inStep(Comm world, int n) {
    ListNode x = world.obcast(new ListNode(1000 + n), ListNode.class, 0);
    check(x.data[0] == 1000 + n, "in step after " + n + " (from 0)");
    ListNode y = world.obcast(null, ListNode.class, world.getSize() - 1);
    check(y != null && Arrays.equals(y.data, new int[] {2000 + n}), "in step after " + n + " (from L)");
  }

  static List<ListNode> contribution(int r) {
    ListNode own = new ListNode(-r);
    List<ListNode> out = new ArrayList<>();
    for (int i = 0; i < r + 1; i++) {
      ListNode x = new ListNode(10 * r + i);
      x.other = own;
      out.add(x);
    }
    return out;
  }

  static ListNode cat(ListNode a, ListNode b) {
    int[] d = Arrays.copyOf(a.data, a.data.length + b.data.length);
    System.arraycopy(b.data, 0, d, a.data.length, b.data.length);
    ListNode c = new ListNode(d);
    c.next = b;
    return c;
  }

  static void run(Comm world) {
    int p = world.getSize(), last = p - 1;
    check(p >= 2 && world.getRank() == 0, "run as rank 0, before the Python ranks");

    // 1. obcast from 0 (Java): the golden graph
    world.obcast(GoldenTypes.goldenGraph(), ListNode.class, 0);
    // 2. obcast from L (Python): the golden shape with id + L
    Shape s = world.obcast(null, Shape.class, last);
    Shape want = GoldenTypes.goldenShape();
    want.id += last;
    check(want.equals(s), "obcast from Python: " + s);
    // 3. ogather to 0 (Java), 4. to L (Python): r + 1 nodes from rank r, sharing one `other`
    List<ListNode> all = world.ogather(contribution(0), ListNode.class, 0);
    int k = 0;
    for (int r = 0; r < p; r++)
      for (int i = 0; i < r + 1; i++, k++) {
        check(all.get(k).data[0] == 10 * r + i, "ogather: element " + k);
        check(all.get(k).other == all.get(k - i).other && all.get(k).other.data[0] == -r, "ogather: sharing");
      }
    check(k == all.size(), "ogather: size " + all.size());
    check(world.ogather(contribution(0), ListNode.class, last).isEmpty(), "ogather to L: empty off the root");
    // 5. oallgather of shapes, one per rank (id = rank)
    Shape mine = GoldenTypes.goldenShape();
    mine.id = 0;
    List<Shape> shapes = world.oallgather(List.of(mine), Shape.class);
    check(shapes.size() == p, "oallgather: size");
    for (int r = 0; r < p; r++) check(shapes.get(r).id == r && shapes.get(r).name.equals("triangle"), "oallgather: " + r);
    // 6. oreduce of nodes to 0 and to L in rank order, oallreduce of strings
    ListNode red = world.oreduce(new ListNode(0), ListNode.class, PythonPeerJava::cat, 0);
    int[] order = new int[p];
    for (int r = 0; r < p; r++) order[r] = r;
    check(red != null && Arrays.equals(red.data, order) && red.next.data[red.next.data.length - 1] == last,
        "oreduce to 0");
    check(world.oreduce(new ListNode(0), ListNode.class, PythonPeerJava::cat, last) == null, "oreduce to L: null");
    StringBuilder cat = new StringBuilder();
    for (int r = 0; r < p; r++) cat.append(r).append(';');
    BinaryOperator<String> concat = (x, y) -> x + y;
    check(cat.toString().equals(world.oallreduce("0;", concat)), "oallreduce of strings");

    // Unsupported: Python pickles (no type=). 7. ogather: every rank throws at once
    expectThrow("ogather, Python pickles", IllegalArgumentException.class,
        () -> world.ogather(contribution(0), ListNode.class, 0));
    inStep(world, 7);
    // 8. obcast from Java: Java cannot tell (it hears nothing back), the Python ranks throw
    world.obcast(new ListNode(8), ListNode.class, 0);
    inStep(world, 8);
    // 9. oallreduce: Java cannot read the pickles it receives, the Python ranks hear of it
    expectThrow("oallreduce, Python pickles", SerializationException.class,
        () -> world.oallreduce(new ListNode(0), ListNode.class, PythonPeerJava::cat));
    inStep(world, 9);
  }

  public static void main(String[] args) {
    try (Environment env = new Environment()) {
      Comm world = Comm.world();
      try {
        run(world);
      } catch (Throwable t) {
        System.err.println("python_peer (Java): FAILED");
        t.printStackTrace();
        System.err.flush();
        Environment.abort(1);
      }
      System.out.println("python_peer (Java): ok");
    }
  }
}
