"""The Python side of python.interop_collectives (tests/interop/coll_peer.cpp says what is
exchanged, step by step): object collectives between a C++ rank 0 and these ranks 1 .. p - 1,
with type= (wire v1), on the same private communicator, with the same framing, split
representation, reduction tree, large path and failure reports.

    mpirun -np 1 coll_peer : -np N-1 python3 coll_peer_python.py

Then steps 16-23 without type= (pickled_steps.py): coll_peer runs with --pickled and refuses
each one, taking part in every message these ranks send.

Any mismatch aborts the job, so every rank's exit code says it.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import oompi  # noqa: E402
import oompi.objects as objects  # noqa: E402
import pickled_steps  # noqa: E402
from golden_types import ListNode, Shape  # noqa: E402
from peer_support import chain_to_head, check, expect_raise, in_step, run_peer  # noqa: E402

NODE = oompi.Ref(ListNode)
NODES = list[NODE]  # a rank's slice in oscatter / ogather / oallgather


class NotTransportable:
    x = 0


class PickyError(RuntimeError):
    """The exception of the picky reduction function (steps 14 and 15)."""


def check_gathered(got, p, what):
    k = 0
    for r in range(p):
        for i in range(r + 2):
            check(k < len(got) and got[k].data == [100 * r + i], "%s: element %d" % (what, k))
            check(got[k].other is not None and got[k].other is got[k - i].other
                  and got[k].other.data == [-r], what + ": sharing within a slice")
            k += 1
    check(k == len(got), "%s: size %d" % (what, len(got)))
    check(got[0].other is not got[2].other, what + ": slices share nothing")


def leaf(r):
    x = ListNode([r])
    x.other = x
    return x


def cat(a, b):
    c = ListNode(a.data + b.data)
    c.other, c.next = c, b
    return c


def check_reduced(got, p, what):
    check(got is not None and got.data == list(range(p)), what + ": data in rank order")
    check(got.other is got, what + ": other is the node itself")
    check(got.next is not None and got.next.data[-1] == p - 1 and got.next.other is got.next,
          what + ": next is the last right operand")


def one_round(world):
    p, me = world.size, world.rank
    last = p - 1

    # 1. obcast from 0: the golden graph
    a = world.obcast(None, 0, type=NODE)
    b, c = a.next, a.other
    check(a.data == [1, 2] and b.data == [3] and c.data == [], "obcast: data")
    check(b.other is c and b.next is c and c.next is a and c.other is None,
          "obcast: sharing and cycle")

    # 2. obcast from L: a chain of 100
    head = chain_to_head(ListNode, 100) if me == last else None
    got = world.obcast(head, last, type=NODE)
    if me == last:
        check(got is head, "obcast at the root returns its object")
    n, q = 0, got
    while q is not None:
        check(q.data == [n] and q.other is got, "chain node %d" % n)
        q, n = q.next, n + 1
    check(n == 100, "chain length %d" % n)

    # 3. oscatter from 0: 2 of 2p + 1
    mine = world.oscatter(None, 0, type=NODES)
    first = 3 + 2 * (me - 1)
    check(len(mine) == 2 and mine[0].data == [10 + first] and mine[1].data == [11 + first],
          "oscatter: slice of %d" % len(mine))
    check(mine[0].other is mine[1].other and mine[0].other.data == [-1], "oscatter: sharing")

    # 4. ogather to 0 and to L, 5. oallgather: r + 2 nodes sharing one `other`
    own = ListNode([-me])
    contrib = [ListNode([100 * me + i], own) for i in range(me + 2)]
    check(world.ogather(contrib, 0, type=NODES) is None, "ogather to 0: None off the root")
    at_last = world.ogather(contrib, last, type=NODES)
    if me == last:
        check_gathered(at_last, p, "ogather to L")
    else:
        check(at_last is None, "ogather to L: None off the root")
    check_gathered(world.oallgather(contrib, type=NODES), p, "oallgather")

    # 6. oscatterv from L, counts[i] = i + 1 (0 for L)
    items = counts = None
    if me == last:
        counts = [i + 1 for i in range(last)] + [0]
        items = [ListNode([77 + k]) for k in range(p * (p - 1) // 2)]
    back = world.oscatterv(items, counts, last, type=NODE)
    if me == last:
        check(back == [], "oscatterv: nothing for the root")
    else:
        start = me * (me + 1) // 2
        check(len(back) == me + 1, "oscatterv: slice of %d" % len(back))
        for i in range(me + 1):
            check(back[i].data == [77 + start + i], "oscatterv: element %d" % i)

    # 7. oalltoall: a cycle per pair, then strings
    out = []
    for i in range(p):
        x, y = ListNode([me, i]), ListNode([i, me])
        x.next, y.next, x.other, y.other = y, x, x, x
        out.append(x)
    got = world.oalltoall(out, type=NODE)
    check(len(got) == p, "oalltoall: size")
    for r, x in enumerate(got):
        what = "oalltoall: from rank %d" % r
        check(x is not None and x.data == [r, me] and x.other is x, what + ": first node")
        check(x.next is not None and x.next.data == [me, r] and x.next.next is x
              and x.next.other is x, what + ": cycle and sharing")
        check(x is not out[r], what + ": a copy")
    heard = world.oalltoall(["%d>%d" % (me, i) for i in range(p)], type=str)
    for r in range(p):
        check(heard[r] == "%d>%d" % (r, me), "oalltoall of strings from %d" % r)

    # 8. oreduce / oallreduce in rank order
    want = "".join("%d;" % r for r in range(p))
    s = "%d;" % me
    check(world.oreduce(s, lambda x, y: x + y, 0, type=str) is None,
          "oreduce of strings to 0: None off the root")
    at_l = world.oreduce(s, lambda x, y: x + y, last, type=str)
    check(at_l == want if me == last else at_l is None, "oreduce of strings to L: %r" % at_l)
    check(world.oallreduce(s, lambda x, y: x + y, type=str) == want, "oallreduce of strings")
    check(world.oreduce(leaf(me), cat, 0, type=NODE) is None,
          "oreduce of nodes to 0: None off the root")
    r = world.oreduce(leaf(me), cat, last, type=NODE)
    if me == last:
        check_reduced(r, p, "oreduce of nodes to L")
    else:
        check(r is None, "oreduce of nodes to L: None off the root")
    check_reduced(world.oallreduce(leaf(me), cat, type=NODE), p, "oallreduce of nodes")


def run(world):
    p, me = world.size, world.rank
    last = p - 1
    check(p >= 2 and me >= 1, "run as ranks 1 .. p - 1, after the C++ rank")
    one_round(world)
    # again on C++'s large path: the limit lowered to 64 bytes on every rank
    objects.OBJECT_INT_LIMIT = 64
    try:
        one_round(world)
    finally:
        objects.OBJECT_INT_LIMIT = 0x7FFFFFFF

    # 9. bad counts at the C++ root
    expect_raise("oscatterv, bad counts at 0", ValueError,
                 lambda: world.oscatterv(None, None, 0, type=NODE))
    in_step(world, 9)
    # 10. bad counts at a Python root (they do not add up)
    expect_raise("oscatterv, bad counts at L", ValueError,
                 lambda: world.oscatterv([ListNode([1])] if me == last else None,
                                         [0] * p if me == last else None, last, type=NODE))
    in_step(world, 10)
    # 11. rank L cannot serialize its part (an element of another class)
    shapes = ["not a shape"] if me == last else [Shape()]
    expect_raise("ogather, rank L cannot serialize",
                 TypeError if me == last else oompi.SerializationError,
                 lambda: world.ogather(shapes, 0, type=list[Shape]))
    in_step(world, 11)
    # 12. C++ broadcasts a shape; these ranks ask for a type that cannot travel
    expect_raise("obcast as a type that cannot travel", TypeError,
                 lambda: world.obcast(None, 0, type=NotTransportable))
    in_step(world, 12)
    # 13. oalltoall, one object too many at L
    words = ["x"] * (p + 1 if me == last else p)
    expect_raise("oalltoall, wrong length at L", ValueError,
                 lambda: world.oalltoall(words, type=str))
    in_step(world, 13)
    # 14. oallreduce, the function raises on rank T = L & (L - 1) when L's data comes in
    thrower = last & (last - 1)

    def picky(x, y):
        if y.data[-1] == last:
            raise PickyError("picky: rank L's data")
        return cat(x, y)

    expect_raise("oallreduce, the function raises on T",
                 PickyError if me == thrower else oompi.SerializationError,
                 lambda: world.oallreduce(leaf(me), picky, type=NODE))
    in_step(world, 14)
    # 15. oreduce to L, the same: T raises its own, L a SerializationError, the others None
    if me in (thrower, last):
        expect_raise("oreduce to L, the function raises on T",
                     PickyError if me == thrower else oompi.SerializationError,
                     lambda: world.oreduce(leaf(me), picky, last, type=NODE))
    else:
        check(world.oreduce(leaf(me), picky, last, type=NODE) is None,
              "oreduce to L: None off the root")
    in_step(world, 15)
    # 16-23: these ranks pickle (no type=), with 1 MiB of data (pickled_steps.py says what)
    pickled_steps.run(world, in_step, 16)


run_peer("coll_peer (Python)", run)
