"""Ranks 1 .. p - 1 of python.interop_java (java_tests/.../PythonPeerJava.java is rank 0):
object collectives between Python ranks and a Java rank, no C++ rank in the job.

    mpirun -np 1 java ... org.oompi.tests.PythonPeerJava : -np N-1 python3 java_peer_python.py

Steps 1-6 pass type= (wire v1: the framing Java shares with C++ and C#): obcast from either
side, ogather to Java and to Python, oallgather of shapes, oreduce to either side, oallreduce.
Steps 7-9 leave type= out (pickled), which Java cannot read: ogather and oallreduce fail on every
rank, obcast from Java fails on the Python ranks (the root hears nothing back); after each, an
obcast from both sides shows that the ranks are still in step. Steps 10-17 (pickled_steps.py):
more pickled calls with 1 MiB of data, some from a pickling Python root, which Java refuses while
taking part in every message. Any mismatch aborts the job.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import oompi  # noqa: E402
import pickled_steps  # noqa: E402
from golden_types import ListNode, Shape, golden_shape  # noqa: E402
from peer_support import check, in_step, run_peer  # noqa: E402
import peer_support  # noqa: E402

NODE = oompi.Ref(ListNode)


def expect_raise(what, kind, f):
    """peer_support.expect_raise, printing what was raised beside the Java rank's output."""
    e = peer_support.expect_raise(what, kind, f)
    print("rank %d, %s: %s: %s" % (oompi.Comm.world().rank, what, type(e).__name__, e))


def contribution(r):
    own = ListNode([-r])
    return [ListNode([10 * r + i], own) for i in range(r + 1)]


def cat(a, b):
    return ListNode(a.data + b.data, None, b)


def run(world):
    p, me = world.size, world.rank
    last = p - 1
    check(p >= 2 and me >= 1, "run as ranks 1 .. p - 1, after the Java rank")

    # 1. obcast from 0 (Java): the golden graph
    a = world.obcast(None, 0, type=NODE)
    b, c = a.next, a.other
    check(a.data == [1, 2] and b.data == [3] and c.data == [], "obcast from Java: data")
    check(b.other is c and b.next is c and c.next is a and c.other is None,
          "obcast from Java: sharing and cycle")
    # 2. obcast from L (Python): the golden shape with id + L (Java's objects are references)
    s = golden_shape()
    s.id += last
    got = world.obcast(s if me == last else None, last, type=oompi.Ref(Shape))
    check(got == s, "obcast from Python: %r" % (got,))
    # 3. ogather to 0 (Java), 4. to L (Python): r + 1 nodes from rank r, sharing one `other`
    nodes = list[NODE]
    check(world.ogather(contribution(me), 0, type=nodes) is None, "ogather to 0: None here")
    at_last = world.ogather(contribution(me), last, type=nodes)
    if me == last:
        k = 0
        for r in range(p):
            for i in range(r + 1):
                check(at_last[k].data == [10 * r + i], "ogather to L: element %d" % k)
                check(at_last[k].other is at_last[k - i].other
                      and at_last[k].other.data == [-r], "ogather to L: sharing")
                k += 1
        check(k == len(at_last), "ogather to L: size %d" % len(at_last))
    else:
        check(at_last is None, "ogather to L: None off the root")
    # 5. oallgather of shapes, one per rank (type= the element: this rank passes one)
    mine = golden_shape()
    mine.id = me
    shapes = world.oallgather(mine, type=oompi.Ref(Shape))
    check([x.id for x in shapes] == list(range(p)) and shapes[me] == mine, "oallgather")
    # 6. oreduce of nodes to 0 and to L in rank order, oallreduce of strings
    check(world.oreduce(ListNode([me]), cat, 0, type=NODE) is None, "oreduce to 0: None here")
    red = world.oreduce(ListNode([me]), cat, last, type=NODE)
    if me == last:
        check(red.data == list(range(p)) and red.next.data[-1] == last, "oreduce to L")
    else:
        check(red is None, "oreduce to L: None off the root")
    want = "".join("%d;" % r for r in range(p))
    check(world.oallreduce("%d;" % me, lambda x, y: x + y, type=str) == want, "oallreduce")

    # Unsupported: no type= here, so pickled. 7. ogather: every rank raises at once
    expect_raise("ogather, pickled here", TypeError,
                 lambda: world.ogather({"rank": me}, 0))
    in_step(world, 7)
    # 8. obcast from Java: these ranks take part, then raise
    expect_raise("obcast from Java, pickled here", TypeError, lambda: world.obcast(None, 0))
    in_step(world, 8)
    # 9. oallreduce: Java cannot read the pickles; every rank hears of it
    expect_raise("oallreduce, pickled here", oompi.SerializationError,
                 lambda: world.oallreduce([me], lambda x, y: x + y))
    in_step(world, 9)
    # 10-17: pickled, with 1 MiB of data (pickled_steps.py says what)
    pickled_steps.run(world, in_step, 10)


run_peer("java_peer_python", run)
