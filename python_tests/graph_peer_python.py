"""The Python side of the MPMD test with tests/interop/graph_peer.cpp (rank 0, C++):

    mpirun -np 1 graph_peer : -np 1 python3 graph_peer_python.py

Receives the golden shape (tag 1, by value) and graph (tag 2, a reference) in wire format v1,
checks them, sends back the shape with id + 1 and name + "!" (tag 3), the graph with its data
times 10 (tag 4), a chain of 1000 nodes whose `other` is the head (tag 5) and a 300-node
ChainNode list closing on node 100 (tag 6). Any mismatch
aborts the job, so the exit code of every rank says it.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import oompi  # noqa: E402
from golden_types import ChainNode, ListNode, Shape, golden_shape  # noqa: E402
from peer_support import chain_to_head, check, run_peer  # noqa: E402


def main(world):
    check(world.size == 2 and world.rank == 1, "run as rank 1 of 2, after graph_peer")
    node = oompi.Ref(ListNode)
    shape = world.orecv(0, 1, type=Shape)
    check(shape == golden_shape(), "shape: got %r" % (shape,))
    a = world.orecv(0, 2, type=node)
    b, c = a.next, a.other
    check(a.data == [1, 2] and b.data == [3] and c.data == [], "graph data")
    check(b.other is c and b.next is c and c.next is a and c.other is None, "graph sharing")

    shape.id += 1
    shape.name += "!"
    world.osend(shape, 0, 3, type=Shape)
    for n in (a, b, c):
        n.data = [x * 10 for x in n.data]
    world.osend(a, 0, 4, type=node)

    world.osend(chain_to_head(ListNode, 1000), 0, 5, type=node)

    # 300 nodes, data [i, -i], the last linking back to node 100 (tag 6)
    ring = [ChainNode([i, -i]) for i in range(300)]
    for x, y in zip(ring, ring[1:]):
        x.next = y
    ring[-1].next = ring[100]
    world.osend(ring[0], 0, 6, type=oompi.Ref(ChainNode))

    # a compact chain from C++ (tag 7): 300 nodes, data [i, 2i], closing on node 7
    p, seen = world.orecv(0, 7, type=oompi.Ref(ChainNode)), []
    while p is not None and len(seen) <= 300:
        seen.append(p)
        p = p.next
    check(len(seen) == 301, "compact chain: not 300 nodes and a cycle")
    check(all(list(seen[i].data) == [i, 2 * i] for i in range(300)), "compact chain: data")
    check(seen[300] is seen[7], "compact chain: the last node does not link back to node 7")


run_peer("graph_peer_python", main)
