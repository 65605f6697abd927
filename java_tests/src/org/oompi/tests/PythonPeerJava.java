package org.oompi.tests;

import static org.oompi.tests.PeerSupport.check;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BinaryOperator;
import org.oompi.Comm;
import org.oompi.SerializationException;
import org.oompi.tests.GoldenTypes.ListNode;
import org.oompi.tests.GoldenTypes.Shape;

/**
 * Rank 0 of python.interop_java (python_tests/java_peer_python.py is ranks 1 .. p - 1): object
 * collectives between a Java rank and Python ranks, no C++ rank in the job. Python passes type=
 * (wire v1), so both run C++'s framing on the private object communicator. Then three calls where
 * Python pickles (no type=): each fails fast on every rank that can tell (here, all), and the
 * ranks stay in step. Then steps 10-17 (python_tests/pickled_steps.py): more pickled calls, with
 * 1 MiB of data, some from a pickling Python root. Any mismatch aborts the job.
 */
public final class PythonPeerJava {
  private PythonPeerJava() {}

  /** PeerSupport.expectThrow, printing what was thrown beside the Python ranks' output. */
  static void expectThrow(String what, Class<? extends Throwable> type, Runnable f) {
    System.out.println("rank 0, " + what + ": " + PeerSupport.expectThrow(what, type, f));
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
    pickled(world, 10);
  }

  static void setLimit(long value) {
    try {
      java.lang.reflect.Field limit = Class.forName("org.oompi.ObjectTransport").getDeclaredField("objectIntLimit");
      limit.setAccessible(true);
      limit.set(null, value);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError("ObjectTransport.objectIntLimit", e);
    }
  }

  /** Steps A-H of python_tests/pickled_steps.py as steps first .. first + 7: the Python ranks
   *  pickle, with 1 MiB of data; this rank refuses each step and takes part in every message. */
  static void pickled(Comm world, int first) {
    int p = world.getSize(), last = p - 1, n = first;
    // A. obcast from L (a pickle with an out-of-band buffer)
    expectThrow("A. pickled obcast from L", IllegalArgumentException.class,
        () -> world.obcast(null, ListNode.class, last));
    inStep(world, n++);
    // B. oscatter from L (Scatterv), C. on the large path
    for (long limit : new long[] {Integer.MAX_VALUE, 64}) {
      setLimit(limit);
      try {
        expectThrow("B/C. pickled oscatter from L", IllegalArgumentException.class,
            () -> world.oscatter(null, ListNode.class, last));
      } finally {
        setLimit(Integer.MAX_VALUE);
      }
      inStep(world, n++);
    }
    // D. obcast from here to pickling ranks: this rank succeeds, they throw
    ListNode big = new ListNode(new int[1 << 18]);
    world.obcast(big, ListNode.class, 0);
    inStep(world, n++);
    setLimit(64);  // E .. G on the large path
    try {
      // E. oscatter from here
      List<ListNode> kept = world.oscatter(java.util.Collections.nCopies(p, big), ListNode.class, 0);
      check(kept.size() == 1 && kept.get(0).data.length == 1 << 18, "E. oscatter: rank 0's slice");
      inStep(world, n++);
      // F. oallgather, G. oalltoall
      expectThrow("F. oallgather, Python pickles", IllegalArgumentException.class,
          () -> world.oallgather(List.of(big), ListNode.class));
      inStep(world, n++);
      expectThrow("G. oalltoall, Python pickles", IllegalArgumentException.class,
          () -> world.oalltoall(java.util.Collections.nCopies(p, big), ListNode.class));
    } finally {
      setLimit(Integer.MAX_VALUE);
    }
    inStep(world, n++);
    // H. oallreduce: this rank cannot read the pickles it receives
    BinaryOperator<String> concat = (x, y) -> x + y;
    expectThrow("H. oallreduce, Python pickles", SerializationException.class,
        () -> world.oallreduce("h".repeat(1 << 20), concat));
    inStep(world, n++);
  }

  public static void main(String[] args) {
    PeerSupport.runPeer("python_peer (Java)", world -> {
      run(world);
      System.out.println("python_peer (Java): ok");  // rank 0, the only Java rank
    });
  }
}
