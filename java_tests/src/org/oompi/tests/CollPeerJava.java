package org.oompi.tests;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.oompi.Comm;
import org.oompi.Environment;
import org.oompi.tests.GoldenTypes.ListNode;

/** The Java side of java.interop_collectives (java_tests/interop/coll_peer.cpp says what is
 *  exchanged): object collectives between a C++ rank 0 and this rank 1. */
public final class CollPeerJava {
  private CollPeerJava() {}

  static void check(boolean ok, String what) {
    if (!ok) throw new AssertionError(what);
  }

  static void checkGathered(List<ListNode> all, String what) {
    int k = 0;
    for (int r = 0; r < 2; r++)
      for (int i = 0; i < r + 2; i++, k++) {
        check(k < all.size() && Arrays.equals(all.get(k).data, new int[] {100 * r + i}), what + ": element " + k);
        check(all.get(k).other == all.get(k - i).other && all.get(k).other.data[0] == -r, what + ": sharing");
      }
    check(k == all.size(), what + ": size " + all.size());
  }

  static void run(Comm world) {
    check(world.getSize() == 2 && world.getRank() == 1, "run as rank 1 of 2");
    // 1. obcast from 0: the golden graph
    ListNode a = world.obcast(null, ListNode.class, 0);
    ListNode b = a.next, c = a.other;
    check(Arrays.equals(a.data, new int[] {1, 2}) && Arrays.equals(b.data, new int[] {3}) && c.data.length == 0,
        "obcast: data");
    check(b.other == c && b.next == c && c.next == a && c.other == null, "obcast: sharing and cycle");

    // 2. obcast from 1: a chain of 100
    ListNode head = new ListNode(0), tail = head;
    head.other = head;
    for (int i = 1; i < 100; i++) {
      tail.next = new ListNode(i);
      tail = tail.next;
      tail.other = head;
    }
    check(world.obcast(head, ListNode.class, 1) == head, "obcast at the root returns its object");

    // 3. oscatter from 0: 2 of 5
    List<ListNode> mine = world.oscatter(null, ListNode.class, 0);
    check(mine.size() == 2 && mine.get(0).data[0] == 13 && mine.get(1).data[0] == 14, "oscatter: slice");
    check(mine.get(0).other == mine.get(1).other && mine.get(0).other.data[0] == -1, "oscatter: sharing");

    // 4. ogather, 5. oallgather: 3 nodes sharing one `other`
    ListNode own = new ListNode(-1);
    List<ListNode> contrib = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      ListNode x = new ListNode(100 + i);
      x.other = own;
      contrib.add(x);
    }
    check(world.ogather(contrib, ListNode.class, 0).isEmpty(), "ogather: empty off the root");
    checkGathered(world.oallgather(contrib, ListNode.class), "oallgather");

    // 6. oscatterv from 1, counts {1, 0}
    List<ListNode> back = world.oscatterv(List.of(new ListNode(77)), new int[] {1, 0}, ListNode.class, 1);
    check(back.isEmpty(), "oscatterv: nothing for the root");
  }

  public static void main(String[] args) {
    try (Environment env = new Environment()) {
      try {
        run(Comm.world());
      } catch (Throwable t) {
        t.printStackTrace();
        System.err.flush();
        Environment.abort(1);
      }
    }
    System.out.println("coll_peer_java: ok");
  }
}
