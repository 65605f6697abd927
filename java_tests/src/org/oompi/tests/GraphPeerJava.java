package org.oompi.tests;

import static org.oompi.tests.PeerSupport.check;

import java.util.Arrays;
import org.oompi.Comm;
import org.oompi.tests.GoldenTypes.ChainNode;
import org.oompi.tests.GoldenTypes.ListNode;
import org.oompi.tests.GoldenTypes.Shape;

/**
 * The Java side of the MPMD test with tests/interop/graph_peer.cpp (rank 0, C++):
 *
 * <pre>mpirun -np 1 graph_peer : -np 1 java -cp oompi.jar:oompi-tests.jar org.oompi.tests.GraphPeerJava</pre>
 *
 * Receives the golden shape (tag 1, by value) and graph (tag 2, a reference) in wire format v1,
 * checks them, sends back the shape with id + 1 and name + "!" (tag 3), the graph with its data
 * times 10 (tag 4), a chain of 1000 nodes whose {@code other} is the head (tag 5) and a
 * 300-node {@code ChainNode} list closing on node 100 (tag 6). Any
 * mismatch aborts the job, so every rank's exit code says it.
 */
public final class GraphPeerJava {
  private GraphPeerJava() {}

  static void run(Comm world) {
    check(world.getSize() == 2 && world.getRank() == 1, "run as rank 1 of 2, after graph_peer");
    Shape shape = world.orecvValue(Shape.class, 0, 1);
    check(shape.equals(GoldenTypes.goldenShape()), "shape: got " + shape);
    ListNode a = world.orecv(ListNode.class, 0, 2);
    ListNode b = a.next, c = a.other;
    check(Arrays.equals(a.data, new int[] {1, 2}) && Arrays.equals(b.data, new int[] {3}) && c.data.length == 0,
        "graph data");
    check(b.other == c && b.next == c && c.next == a && c.other == null, "graph sharing");

    shape.id += 1;
    shape.name += "!";
    world.osendValue(shape, 0, 3);
    for (ListNode n : new ListNode[] {a, b, c})
      for (int i = 0; i < n.data.length; i++) n.data[i] *= 10;
    world.osend(a, 0, 4);

    ListNode head = new ListNode(0);
    head.other = head;
    ListNode tail = head;
    for (int i = 1; i < 1000; i++) {
      ListNode x = new ListNode(i);
      x.other = head;
      tail.next = x;
      tail = x;
    }
    world.osend(head, 0, 5);

    // 300 nodes, data [i, -i], the last linking back to node 100 (tag 6)
    ChainNode[] ring = new ChainNode[300];
    for (int i = 0; i < ring.length; i++) {
      ring[i] = new ChainNode(i, -i);
      if (i > 0) ring[i - 1].next = ring[i];
    }
    ring[299].next = ring[100];
    world.osend(ring[0], 0, 6);

    // a compact chain from C++ (tag 7): 300 nodes, data [i, 2i], the last linking back to node 7
    ChainNode got = world.orecv(ChainNode.class, 0, 7);
    ChainNode[] seen = new ChainNode[301];
    int n = 0;
    for (ChainNode p = got; p != null && n <= 300; p = p.next) seen[n++] = p;
    check(n == 301, "compact chain: not 300 nodes and a cycle");
    for (int i = 0; i < 300; i++)
      check(seen[i].data.length == 2 && seen[i].data[0] == i && seen[i].data[1] == 2 * i,
          "compact chain: data of node " + i);
    check(seen[300] == seen[7], "compact chain: the last node does not link back to node 7");
  }

  public static void main(String[] args) {
    PeerSupport.runPeer("graph_peer_java", GraphPeerJava::run);
  }
}
