"""Deep and corrupt input: object graphs linked through a field that is not the last one
(10^5 nodes), lists nested in lists, objects too deep to pickle, corrupt messages from another
rank. Deep input round-trips or raises ValueError; a corrupt message raises ValueError and the
communicator stays usable. Never a crash."""
import pickle
import struct
from dataclasses import dataclass, field
from typing import Optional

import numpy as np
import pytest

import oompi

N = 100_000


@oompi.transportable
@dataclass(eq=False)
class Back:
    prev: Optional["Back"] = None  # first field: a chain through it is not tail-linked
    val: oompi.int32 = 0


@oompi.transportable
@dataclass(eq=False)
class Nest:
    kids: list["Nest"] = field(default_factory=list)  # by value, then another field
    depth: oompi.int32 = 0


@oompi.transportable
@dataclass(eq=False)
class RefNest:
    kids: list[Optional["RefNest"]] = field(default_factory=list)
    depth: oompi.int32 = 0


@pytest.fixture
def world():
    return oompi.Comm.world()


def ring(world):
    return (world.rank + 1) % world.size, (world.rank - 1) % world.size


def chain(n):
    head = None
    for i in range(n):
        head = Back(head, i)
    return head


def check_chain(head, n):
    k = n
    while head is not None:
        k -= 1
        assert head.val == k
        head = head.prev
    assert k == 0


def nest(cls, n):
    top = cls([], n)
    for d in range(n - 1, -1, -1):
        top = cls([top], d)
    return top


def check_nest(top, n):
    for d in range(n):
        assert top.depth == d and len(top.kids) == 1
        top = top.kids[0]
    assert top.depth == n and top.kids == []


def test_chain_through_first_field_round_trips():
    data = oompi.wire.dumps(chain(N), oompi.Ref(Back))
    assert len(data) == 8 * N + 4
    check_chain(oompi.wire.loads(data, oompi.Ref(Back)), N)


def test_nested_lists_round_trip():
    for cls, t in ((Nest, Nest), (RefNest, oompi.Ref(RefNest))):
        got = oompi.wire.loads(oompi.wire.dumps(nest(cls, N), t), t)
        check_nest(got, N)
    deep = [7]
    t = oompi.List(oompi.int32)
    for _ in range(200):  # a type as deep as the annotations' recursion allows, about
        deep = [deep, []]
        t = oompi.List(t)
    assert oompi.wire.loads(oompi.wire.dumps(deep, t), t) == deep


def test_deep_graph_point_to_point(world):
    nxt, prv = ring(world)
    req = world.iosend(chain(N), nxt, 60, type=oompi.Ref(Back))
    check_chain(world.orecv(prv, 60, type=oompi.Ref(Back)), N)
    req.wait()
    req = world.iosend(nest(Nest, N), nxt, 61, type=Nest)
    check_nest(world.orecv(prv, 61, type=Nest), N)
    req.wait()


def test_cycle_by_value_is_an_error():
    a = Nest([], 0)
    a.kids.append(a)  # by value: no end
    with pytest.raises(ValueError, match="nested"):
        oompi.wire.dumps(a)


def test_type_nested_too_deeply_is_a_type_error():
    t = oompi.int32
    for _ in range(5000):
        t = list[t]
    with pytest.raises(TypeError, match="nested too deeply"):
        oompi.wire.dumps([], t)


def test_too_deep_to_pickle(world):
    deep = []
    for _ in range(N):
        deep = [deep]
    me = world.rank
    # Every sending path: ValueError (the pickle module's RecursionError is its cause), and
    # nothing is sent.
    for send in (world.osend, world.ossend, world.iosend):
        with pytest.raises(ValueError, match="nested too deeply") as e:
            send(deep, me, 62)
        assert not isinstance(e.value, RecursionError)
        assert isinstance(e.value.__cause__, RecursionError)
    sent = world.iosend("after", me, 62)  # a blocking send to oneself may wait (MPICH's does)
    assert world.orecv(me, 62) == "after"
    sent.wait()


def corrupt_frames():
    """(frames, type) sent by a sender with send(); each makes orecv raise ValueError."""
    pickled = pickle.dumps({"a": np.arange(3)}, 5)
    oob = pickle.dumps({"b": pickle.PickleBuffer(bytearray(b"x" * 100))}, 5,
                       buffer_callback=lambda b: False)
    deep = b"".join(struct.pack("<IQ", (k + 1) | 0x80000000, 0) for k in range(N))
    from golden_types import ListNode  # noqa: F401 (sys.path: see test_wire.py)
    return [
        ([b"\x80\x05garbage"], None),                          # a pickle that is not one
        ([pickled[:len(pickled) // 2]], None),                 # a truncated pickle
        ([b"OOB1\xff\xff\xff\x0f" + pickled], None),           # 2^28 buffers in a short frame
        ([b"OOB1\x01\x00"], None),                             # a header cut short
        ([b"OOB1" + struct.pack("<IQ", 1, 2 ** 62) + oob, b"y" * 50], None),  # wrong size
        ([b"OOB1" + struct.pack("<IQ", 1, 50) + b"\x80\x05junk", b"y" * 50], None),
        ([deep], "ListNode"),                                  # nested 10^5 deep, cut off
        ([b"\x05\x00\x00\x00"], "ListNode"),                   # an id not seen yet
        ([struct.pack("<I", 0x80000001) + b"\xff" * 8], "ListNode"),  # a huge size
    ]


def test_corrupt_messages_from_another_rank(world):
    import os
    import sys
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from golden_types import ListNode, golden_graph
    nxt, prv = ring(world)
    for k, (frames, t) in enumerate(corrupt_frames()):
        tag = 70 + k
        reqs = [world.isend(f, nxt, tag) for f in frames]
        with pytest.raises(ValueError):
            world.orecv(prv, tag, type=oompi.Ref(ListNode) if t else None)
        for r in reqs:
            r.wait()
        # The communicator, and the same tag, still work.
        req = world.iosend({"k": k}, nxt, tag)
        assert world.orecv(prv, tag) == {"k": k}
        req.wait()
        req = world.iosend(golden_graph(), nxt, tag, type=oompi.Ref(ListNode))
        assert world.orecv(prv, tag, type=oompi.Ref(ListNode)).next.next.next.data == [1, 2]
        req.wait()
