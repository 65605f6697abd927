package org.oompi.tests;

import static org.oompi.tests.PeerSupport.check;
import static org.oompi.tests.PeerSupport.expectThrow;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BinaryOperator;
import org.oompi.Comm;
import org.oompi.SerializationException;
import org.oompi.tests.GoldenTypes.ListNode;
import org.oompi.tests.GoldenTypes.Shape;

/** The Java side of java.interop_collectives (tests/interop/coll_peer.cpp says what is
 *  exchanged, step by step): object collectives between a C++ rank 0 and these ranks 1 .. p - 1,
 *  on the same private communicator, with the same framing, split representation, reduction
 *  tree, large path and failure reports. Any mismatch aborts the job, so every rank's exit code says it. */
public final class CollPeerJava {
  private CollPeerJava() {}

  /** A class with no @Transportable field: it cannot travel. */
  static final class NotTransportable {
    int x;
  }

  /** The exception of the picky reduction function (steps 14 and 15). */
  static final class PickyException extends RuntimeException {
    PickyException(String m) {
      super(m);
    }
  }

  static void checkGathered(List<ListNode> all, int p, String what) {
    int k = 0;
    for (int r = 0; r < p; r++)
      for (int i = 0; i < r + 2; i++, k++) {
        check(k < all.size() && Arrays.equals(all.get(k).data, new int[] {100 * r + i}), what + ": element " + k);
        check(all.get(k).other != null && all.get(k).other == all.get(k - i).other && all.get(k).other.data[0] == -r,
            what + ": sharing within a slice");
      }
    check(k == all.size(), what + ": size " + all.size());
    check(all.get(0).other != all.get(2).other, what + ": slices share nothing");
  }

  static void inStep(Comm world, int n) {
    ListNode x = world.obcast(null, ListNode.class, 0);
    check(x != null && Arrays.equals(x.data, new int[] {1000 + n}), "in step after " + n + " (from 0)");
    int last = world.getSize() - 1;
    ListNode y = world.obcast(world.getRank() == last ? new ListNode(2000 + n) : null, ListNode.class, last);
    check(y != null && Arrays.equals(y.data, new int[] {2000 + n}), "in step after " + n + " (from L)");
  }

  // x_r of step 8 and its fold cat(a, b) = {a.data ++ b.data, other = itself, next = b}
  static ListNode leaf(int r) {
    ListNode x = new ListNode(r);
    x.other = x;
    return x;
  }

  static ListNode cat(ListNode a, ListNode b) {
    int[] d = Arrays.copyOf(a.data, a.data.length + b.data.length);
    System.arraycopy(b.data, 0, d, a.data.length, b.data.length);
    ListNode c = new ListNode(d);
    c.other = c;
    c.next = b;
    return c;
  }

  static void checkReduced(ListNode got, int p, String what) {
    int[] want = new int[p];
    for (int r = 0; r < p; r++) want[r] = r;
    check(got != null && Arrays.equals(got.data, want), what + ": data in rank order");
    check(got.other == got, what + ": other is the node itself");
    check(got.next != null && got.next.data[got.next.data.length - 1] == p - 1 && got.next.other == got.next,
        what + ": next is the last right operand");
  }

  static void round(Comm world) {
    int p = world.getSize(), me = world.getRank(), last = p - 1;

    // 1. obcast from 0: the golden graph
    ListNode a = world.obcast(null, ListNode.class, 0);
    ListNode b = a.next, c = a.other;
    check(Arrays.equals(a.data, new int[] {1, 2}) && Arrays.equals(b.data, new int[] {3}) && c.data.length == 0,
        "obcast: data");
    check(b.other == c && b.next == c && c.next == a && c.other == null, "obcast: sharing and cycle");

    // 2. obcast from L: a chain of 100
    ListNode head = null;
    if (me == last) {
      head = new ListNode(0);
      head.other = head;
      ListNode tail = head;
      for (int i = 1; i < 100; i++) {
        tail.next = new ListNode(i);
        tail = tail.next;
        tail.other = head;
      }
    }
    ListNode got = world.obcast(head, ListNode.class, last);
    if (me == last) check(got == head, "obcast at the root returns its object");
    int n = 0;
    for (ListNode q = got; q != null; q = q.next, n++)
      check(Arrays.equals(q.data, new int[] {n}) && q.other == got, "chain node " + n);
    check(n == 100, "chain length " + n);

    // 3. oscatter from 0: 2 of 2p + 1
    List<ListNode> mine = world.oscatter(null, ListNode.class, 0);
    int first = 3 + 2 * (me - 1);
    check(mine.size() == 2 && mine.get(0).data[0] == 10 + first && mine.get(1).data[0] == 11 + first,
        "oscatter: slice of " + mine.size());
    check(mine.get(0).other == mine.get(1).other && mine.get(0).other.data[0] == -1, "oscatter: sharing");

    // 4. ogather to 0 and to L, 5. oallgather: r + 2 nodes sharing one `other`
    ListNode own = new ListNode(-me);
    List<ListNode> contrib = new ArrayList<>();
    for (int i = 0; i < me + 2; i++) {
      ListNode x = new ListNode(100 * me + i);
      x.other = own;
      contrib.add(x);
    }
    check(world.ogather(contrib, ListNode.class, 0).isEmpty(), "ogather to 0: empty off the root");
    List<ListNode> atLast = world.ogather(contrib, ListNode.class, last);
    if (me == last) checkGathered(atLast, p, "ogather to L");
    else check(atLast.isEmpty(), "ogather to L: empty off the root");
    checkGathered(world.oallgather(contrib, ListNode.class), p, "oallgather");

    // 6. oscatterv from L, counts[i] = i + 1 (0 for L)
    List<ListNode> all = null;
    int[] counts = null;
    if (me == last) {
      counts = new int[p];
      all = new ArrayList<>();
      for (int i = 0; i < last; i++) counts[i] = i + 1;
      for (int k = 0; k < p * (p - 1) / 2; k++) all.add(new ListNode(77 + k));
    }
    List<ListNode> back = world.oscatterv(all, counts, ListNode.class, last);
    if (me == last) {
      check(back.isEmpty(), "oscatterv: nothing for the root");
    } else {
      int start = me * (me + 1) / 2;
      check(back.size() == me + 1, "oscatterv: slice of " + back.size());
      for (int i = 0; i <= me; i++) check(back.get(i).data[0] == 77 + start + i, "oscatterv: element " + i);
    }

    // 7. oalltoall: a cycle per pair, then strings
    ListNode[] out = new ListNode[p];
    for (int i = 0; i < p; i++) {
      ListNode x = new ListNode(me, i), y = new ListNode(i, me);
      x.next = y;
      y.next = x;
      x.other = x;
      y.other = x;
      out[i] = x;
    }
    ListNode[] in = world.oalltoall(out, ListNode.class);
    check(in.length == p, "oalltoall: size");
    for (int r = 0; r < p; r++) {
      ListNode x = in[r];
      String what = "oalltoall: from rank " + r;
      check(x != null && Arrays.equals(x.data, new int[] {r, me}) && x.other == x, what + ": first node");
      check(x.next != null && Arrays.equals(x.next.data, new int[] {me, r}) && x.next.next == x && x.next.other == x,
          what + ": cycle and sharing");
      check(x != out[r], what + ": a copy");
    }
    List<String> words = new ArrayList<>();
    for (int i = 0; i < p; i++) words.add(me + ">" + i);
    List<String> heard = world.oalltoall(words, String.class);
    for (int r = 0; r < p; r++) check(heard.get(r).equals(r + ">" + me), "oalltoall of strings from " + r);

    // 8. oreduce / oallreduce in rank order
    StringBuilder want = new StringBuilder();
    for (int r = 0; r < p; r++) want.append(r).append(';');
    BinaryOperator<String> concat = (x, y) -> x + y;
    String s = me + ";";
    check(world.oreduce(s, concat, 0) == null, "oreduce of strings to 0: null off the root");
    String atL = world.oreduce(s, concat, last);
    check(me == last ? want.toString().equals(atL) : atL == null, "oreduce of strings to L: " + atL);
    check(want.toString().equals(world.oallreduce(s, concat)), "oallreduce of strings");
    check(world.oreduce(leaf(me), ListNode.class, CollPeerJava::cat, 0) == null, "oreduce of nodes to 0: null off the root");
    ListNode r = world.oreduce(leaf(me), ListNode.class, CollPeerJava::cat, last);
    if (me == last) checkReduced(r, p, "oreduce of nodes to L");
    else check(r == null, "oreduce of nodes to L: null off the root");
    checkReduced(world.oallreduce(leaf(me), ListNode.class, CollPeerJava::cat), p, "oallreduce of nodes");
  }

  static void run(Comm world) {
    int p = world.getSize(), me = world.getRank(), last = p - 1;
    check(p >= 2 && me >= 1, "run as ranks 1 .. p - 1, after the C++ rank");
    round(world);
    // again on C++'s large path: the limit lowered to 64 bytes on every rank
    java.lang.reflect.Field limit;
    try {
      limit = Class.forName("org.oompi.ObjectTransport").getDeclaredField("objectIntLimit");
      limit.setAccessible(true);
      limit.set(null, 64L);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError("ObjectTransport.objectIntLimit", e);
    }
    try {
      round(world);
    } finally {
      try {
        limit.set(null, (long) Integer.MAX_VALUE);
      } catch (IllegalAccessException e) {
        throw new AssertionError(e);
      }
    }

    // 9. bad counts at the C++ root
    expectThrow("oscatterv, bad counts at 0", IllegalArgumentException.class,
        () -> world.oscatterv(null, null, ListNode.class, 0));
    inStep(world, 9);
    // 10. bad counts at a Java root (they do not add up)
    expectThrow("oscatterv, bad counts at L", IllegalArgumentException.class,
        () -> world.oscatterv(me == last ? List.of(new ListNode(1)) : null, me == last ? new int[p] : null,
            ListNode.class, last));
    inStep(world, 10);
    // 11. rank L cannot serialize its part (an element of another class)
    @SuppressWarnings({"unchecked", "rawtypes"})
    List<Shape> shapes = me == last ? (List) List.of("not a shape") : List.of(new Shape());
    expectThrow("ogather, rank L cannot serialize", me == last ? IllegalArgumentException.class : SerializationException.class,
        () -> world.ogather(shapes, Shape.class, 0));
    inStep(world, 11);
    // 12. C++ broadcasts a shape; these ranks ask for a type that cannot travel
    expectThrow("obcast as a type that cannot travel", IllegalArgumentException.class,
        () -> world.obcast(null, NotTransportable.class, 0));
    inStep(world, 12);
    // 13. oalltoall, one object too many at L
    List<String> words = new ArrayList<>();
    for (int i = 0; i < (me == last ? p + 1 : p); i++) words.add("x");
    expectThrow("oalltoall, wrong length at L", IllegalArgumentException.class, () -> world.oalltoall(words, String.class));
    inStep(world, 13);
    // 14. oallreduce, the function throws on rank T = L & (L - 1) when L's data comes in
    int thrower = last & (last - 1);
    BinaryOperator<ListNode> picky = (x, y) -> {
      if (y.data[y.data.length - 1] == last) throw new PickyException("picky: rank L's data");
      return cat(x, y);
    };
    expectThrow("oallreduce, the function throws on T", me == thrower ? PickyException.class : SerializationException.class,
        () -> world.oallreduce(leaf(me), ListNode.class, picky));
    inStep(world, 14);
    // 15. oreduce to L, the same: T throws its own, L a SerializationException, the others null
    if (me == thrower || me == last)
      expectThrow("oreduce to L, the function throws on T", me == thrower ? PickyException.class : SerializationException.class,
          () -> world.oreduce(leaf(me), ListNode.class, picky, last));
    else
      check(world.oreduce(leaf(me), ListNode.class, picky, last) == null, "oreduce to L: null off the root");
    inStep(world, 15);
  }

  public static void main(String[] args) {
    PeerSupport.runPeer("coll_peer (Java)", CollPeerJava::run);
  }
}
