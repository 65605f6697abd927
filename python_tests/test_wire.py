"""Transportable classes in wire format v1: the golden bytes of tests/golden, graphs with shared
and cyclic references, point to point and broadcast, the bad inputs."""
import os
import struct
import sys
from dataclasses import dataclass, field
from typing import Optional

import numpy as np
import pytest

import oompi

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden_types import (ChainItem, ChainNode, ListNode, Point, Shape, golden_chain,  # noqa: E402
                          golden_graph, golden_shape)

GOLDEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "golden")
sys.path.insert(0, GOLDEN)
import make_golden as mg  # noqa: E402  (the spec's byte helpers)


def golden(name):
    with open(os.path.join(GOLDEN, name), "rb") as f:
        return f.read()


@pytest.fixture
def world():
    return oompi.Comm.world()


def test_golden_bytes():
    assert oompi.wire.dumps([1, -2, 3, 2147483647, -2147483648], list[oompi.int32]) == \
        golden("int_vector.bin")
    assert oompi.wire.dumps(np.array([1, -2, 3, 2147483647, -2147483648], np.int32),
                            oompi.Array(oompi.int32)) == golden("int_vector.bin")
    s = "h\u00e9llo, w\u00f6rld \u2713"
    assert oompi.wire.dumps(s, str) == golden("string.bin")
    assert oompi.wire.loads(golden("string.bin"), str) == s
    assert oompi.wire.dumps(golden_shape()) == golden("nested_struct.bin")
    assert oompi.wire.loads(golden("nested_struct.bin"), Shape) == golden_shape()
    assert oompi.wire.dumps(golden_graph(), oompi.Ref(ListNode)) == \
        golden("shared_cyclic_list.bin")


def check_graph(a, scale=1):
    b, c = a.next, a.other
    assert a.data == [1 * scale, 2 * scale] and b.data == [3 * scale] and c.data == []
    assert b.other is c and b.next is c and c.next is a and c.other is None


def test_golden_graph_read():
    check_graph(oompi.wire.loads(golden("shared_cyclic_list.bin"), oompi.Ref(ListNode)))
    arr = oompi.wire.loads(golden("int_vector.bin"), oompi.Array(oompi.int32))
    assert arr.dtype == np.int32 and list(arr) == [1, -2, 3, 2147483647, -2147483648]


def test_p2p_and_bcast(world):
    nxt, prv = ring = (world.rank + 1) % world.size, (world.rank - 1) % world.size
    req = world.iosend(golden_graph(), nxt, 5, type=oompi.Ref(ListNode))
    check_graph(world.orecv(prv, 5, type=oompi.Ref(ListNode)))
    req.wait()
    shape = world.obcast(golden_shape() if world.rank == 0 else None, 0, type=Shape)
    assert shape == golden_shape()


def test_long_list_constant_stack():
    head = None
    for i in range(200_000):
        head = ListNode([i], None, head)
    data = oompi.wire.dumps(head, oompi.Ref(ListNode))
    got = oompi.wire.loads(data, oompi.Ref(ListNode))
    n = 0
    while got is not None:
        assert got.data == [199_999 - n]
        got, n = got.next, n + 1
    assert n == 200_000


@oompi.transportable(fields=("keep",))
@dataclass
class Partial:
    keep: oompi.uint16 = 0
    skip: str = "default"


def test_opt_in_fields():
    got = oompi.wire.loads(oompi.wire.dumps(Partial(7, "not sent")), Partial)
    assert got.keep == 7 and got.skip == "default"
    assert len(oompi.wire.dumps(Partial(7, "x"))) == 2


def test_bad_inputs():
    with pytest.raises(OverflowError):
        oompi.wire.dumps(Partial(70000))
    with pytest.raises(TypeError):
        oompi.wire.dumps(Partial("seven"))
    with pytest.raises(TypeError):
        oompi.wire.dumps(Point(0, 0), oompi.Ref(ListNode))
    with pytest.raises(TypeError):
        oompi.wire.dumps(object())
    g = golden("shared_cyclic_list.bin")
    with pytest.raises(ValueError, match="ends early"):
        oompi.wire.loads(g[:-3], oompi.Ref(ListNode))
    with pytest.raises(ValueError, match="left over"):
        oompi.wire.loads(g + b"\0", oompi.Ref(ListNode))
    with pytest.raises(ValueError, match="not seen yet"):
        oompi.wire.loads(b"\x05\x00\x00\x00", oompi.Ref(ListNode))
    with pytest.raises(ValueError, match="out of sequence"):
        oompi.wire.loads(b"\x02\x00\x00\x80", oompi.Ref(ListNode))
    with pytest.raises(ValueError, match="size too large"):
        oompi.wire.loads(b"\xff" * 8, list[oompi.int32])
    with pytest.raises(ValueError, match="bool"):
        oompi.wire.loads(b"\x02", bool)
    with pytest.raises(TypeError):
        @oompi.transportable
        @dataclass
        class Bad:
            x: dict = field(default_factory=dict)
        oompi.wire.dumps(Bad())


# --- wire 1.1 compact chains (docs/wire-format.md 2.1) -------------------------------------------
CHAIN = oompi.Ref(ChainItem)
MARK = struct.pack("<I", 0x80000000)


def check_golden_chain(a):
    b, c = a.next, a.next.next
    assert (a.name, a.id, a.flag, a.weight, a.data) == ("first", -5, True, 0.5, [1, 2, 3])
    assert (b.name, b.id, b.flag, b.weight, b.data) == ("", 1 << 40, False, -2.25,
                                                        list(range(200)))
    assert (c.name, c.id, c.flag, c.weight, c.data) == ("drei \u2713", 7, True, 1e300, [])
    assert c.next is b and b.next is c and a.next is b


def test_compact_chain_golden():
    check_golden_chain(oompi.wire.loads(golden("compact_chain.bin"), CHAIN))
    assert oompi.wire.dumps(golden_chain(), CHAIN) == golden("compact_chain.bin")


def test_compact_chain_reads_the_10_form():
    def node(name, id_, flag, weight, data):
        return mg.string(name) + mg.i64(id_) + mg.boolean(flag) + mg.f64(weight) + \
            mg.i32_array(data)
    old = (mg.ref_new(1) + node("first", -5, True, 0.5, [1, 2, 3]) +
           mg.ref_new(2) + node("", 1 << 40, False, -2.25, list(range(200))) +
           mg.ref_new(3) + node("drei \u2713", 7, True, 1e300, []) + mg.ref_old(2))
    assert len(old) == 940  # as the spec says
    check_golden_chain(oompi.wire.loads(old, CHAIN))
    # inside an array (a slice) a chain type keeps the 1.0 form both ways
    items = oompi.wire.dumps([golden_chain()], list[Optional[ChainItem]])
    assert items[8:12] == mg.ref_new(1)
    check_golden_chain(oompi.wire.loads(items, list[Optional[ChainItem]])[0])


# Chain types and not (2.1): the last field links to the class, every other field is a leaf.
@oompi.transportable
@dataclass(eq=False)
class Leaves:  # every kind of leaf
    a: oompi.uint8 = 0
    b: oompi.float32 = 0.0
    c: bytes = b""
    d: oompi.Array(oompi.float64) = field(default_factory=lambda: np.zeros(0))
    e: list[oompi.uint16] = field(default_factory=list)
    link: Optional["Leaves"] = None


@oompi.transportable
@dataclass(eq=False)
class LinkOnly:
    link: Optional["LinkOnly"] = None


@oompi.transportable
@dataclass(eq=False)
class LinkFirst:
    link: Optional["LinkFirst"] = None
    x: int = 0


@oompi.transportable
@dataclass(eq=False)
class Bools:  # an array of bool is not a leaf
    x: list[bool] = field(default_factory=list)
    link: Optional["Bools"] = None


@oompi.transportable
@dataclass(eq=False)
class Nested:  # nor is a struct, an array of strings (Words), a link to another class (Other)
    p: Point = field(default_factory=Point)
    link: Optional["Nested"] = None


@oompi.transportable
@dataclass(eq=False)
class Words:
    w: list[str] = field(default_factory=list)
    link: Optional["Words"] = None


@oompi.transportable
@dataclass(eq=False)
class Other:
    x: int = 0
    link: Optional[ChainNode] = None


@oompi.transportable(fields=("x", "link"))  # only the transported fields count
@dataclass(eq=False)
class OptIn:
    x: int = 0
    skipped: Point = field(default_factory=Point)
    link: Optional["OptIn"] = None


def test_chain_type_rule():
    for cls, chain in ((ChainItem, True), (ChainNode, True), (Leaves, True), (OptIn, True),
                       (ListNode, False), (LinkOnly, False), (LinkFirst, False), (Bools, False),
                       (Nested, False), (Words, False), (Other, False)):
        data = oompi.wire.dumps(cls(), oompi.Ref(cls))
        assert (data[:4] == MARK) == chain, cls.__name__
        assert isinstance(oompi.wire.loads(data, oompi.Ref(cls)), cls)
    data = oompi.wire.dumps(Leaves(7, 0.5, b"\xff", np.arange(3.0), [1, 65535]), oompi.Ref(Leaves))
    got = oompi.wire.loads(data, oompi.Ref(Leaves))
    assert (got.a, got.b, got.c, list(got.d), got.e, got.link) == \
        (7, 0.5, b"\xff", [0, 1, 2], [1, 65535], None)
    assert len(data) == 12 + 1 + 4 + 2 + 25 + 5  # sizes as one-byte varints


def chain_of(n, close=0, big=False):
    """n ChainItems, the last linking to item `close` (1-based; 0: None)."""
    nodes = [ChainItem("x" * (200 * big + i % 3), i - 5, i % 2 == 0, i / 4,
                       list(range(-i, 300 * big))) for i in range(n)]
    for x, y in zip(nodes, nodes[1:]):
        x.next = y
    nodes[-1].next = nodes[close - 1] if close else None
    return nodes[0]


def check_chain(a, n, close=0, big=False):
    first = a
    for i in range(n):
        assert (a.name, a.id, a.flag, a.weight, a.data) == \
            ("x" * (200 * big + i % 3), i - 5, i % 2 == 0, i / 4, list(range(-i, 300 * big)))
        if i == close - 1:
            target = a
        a = a.next if i + 1 < n else a
    assert a.next is (target if close else None)
    return first


SHAPES = [(1, 0, False), (1, 1, False), (5, 1, True), (7, 4, False), (6, 6, True),
          (300, 100, False), (4, 0, True)]  # one node, self-loop, full cycle, rho, ...


@pytest.mark.parametrize("n,close,big", SHAPES)
def test_compact_chain_shapes(n, close, big):
    data = oompi.wire.dumps(chain_of(n, close, big), CHAIN)
    assert data[:12] == MARK + struct.pack("<II", n, close)
    check_chain(oompi.wire.loads(data, CHAIN), n, close, big)
    if big:  # sizes of 200 and 300 + as two-byte varints
        assert data[12:14] == b"\xc8\x01"


def test_compact_chain_p2p(world):
    nxt, prv = (world.rank + 1) % world.size, (world.rank - 1) % world.size
    assert oompi.wire.dumps(None, CHAIN) == b"\0\0\0\0"
    for n, close, big in SHAPES:
        req = world.iosend(chain_of(n, close, big), nxt, 7, type=CHAIN)
        check_chain(world.orecv(prv, 7, type=CHAIN), n, close, big)
        req.wait()
    req = world.iosend(None, nxt, 7, type=CHAIN)  # (a blocking send to self may wait: MPICH)
    assert world.orecv(prv, 7, type=CHAIN) is None
    req.wait()
    # a receiver expecting a type that is not a chain type refuses it; the message is consumed
    req = world.iosend(golden_chain(), nxt, 7, type=CHAIN)
    with pytest.raises(ValueError, match="not a chain type"):
        world.orecv(prv, 7, type=oompi.Ref(ListNode))
    req.wait()
    got = world.obcast(golden_chain() if world.rank == 0 else None, 0, type=CHAIN)
    check_golden_chain(got)


def test_compact_chain_empty_and_null_leaves():
    a = ChainItem("", 0, False, 0.0, [], ChainItem("\u2713" * 50, 1, True, -0.0, [7]))
    got = oompi.wire.loads(oompi.wire.dumps(a, CHAIN), CHAIN)
    assert got.name == "" and got.data == [] and got.next.name == "\u2713" * 50
    # Python leaves are not nullable: None is refused as by the 1.0 writer
    for bad in (ChainItem(None), ChainItem("", data=None), ChainItem("", 0, False, 0.0, [],
                                                                     ChainItem(None))):
        with pytest.raises(TypeError):
            oompi.wire.dumps(bad, CHAIN)
        with pytest.raises(TypeError):
            oompi.wire.dumps([bad], list[Optional[ChainItem]])
    with pytest.raises(TypeError):  # a link to another class
        oompi.wire.dumps(ChainItem(next=ListNode()), CHAIN)


def test_compact_chain_million_nodes(world):
    if world.rank != 0:  # local: one rank is enough (CI time)
        return
    head = None
    for i in range(1_000_000):
        head = ChainNode([i] if i % 1000 == 0 else [], head)
    data = oompi.wire.dumps(head, oompi.Ref(ChainNode))
    assert len(data) == 12 + 1_000_000 + 1000 * 4
    del head
    got = oompi.wire.loads(data, oompi.Ref(ChainNode))
    n = 0
    while got is not None:
        assert got.data == ([999_999 - n] if n % 1000 == 999 else [])
        got, n = got.next, n + 1
    assert n == 1_000_000


def test_compact_chain_bad_input():
    g = golden("compact_chain.bin")
    for k in range(len(g)):  # every truncation
        with pytest.raises(ValueError):
            oompi.wire.loads(g[:k], CHAIN)
    head, nodes = g[:12], g[12:]
    cases = {
        "left over": g + b"\0",
        "0 nodes": MARK + struct.pack("<II", 0, 0),
        "more nodes than bytes": MARK + struct.pack("<II", 0xFFFFFFFF, 0) + nodes,
        "past its end": MARK + struct.pack("<II", 3, 4) + nodes,
        "shortest form": head + b"\x85\x00" + nodes[1:],   # size 5 in two bytes
        "10 bytes": head + b"\x85" + b"\x80" * 9 + b"\x00" + nodes[1:],
        "above 2\\^64": head + b"\xff" * 9 + b"\x02" + nodes[1:],
        "size too large": head + b"\xff" * 9 + b"\x01" + nodes[1:],
        "bool": g[:12 + 6 + 8] + b"\x02" + g[12 + 6 + 8 + 1:],
    }
    for what, bad in cases.items():
        with pytest.raises(ValueError, match=what):
            oompi.wire.loads(bad, CHAIN)
    with pytest.raises(ValueError):  # invalid UTF-8 in a name
        oompi.wire.loads(head + b"\x01\xff" + nodes[6:], CHAIN)
    # a compact chain where the value is not a reference to a chain type
    for t in (oompi.Ref(ListNode), oompi.Ref(Shape)):
        with pytest.raises(ValueError, match="not a chain type"):
            oompi.wire.loads(g, t)
    with pytest.raises(ValueError, match="out of sequence"):  # not at the start of a message
        oompi.wire.loads(struct.pack("<Q", 1) + g, list[Optional[ChainItem]])
    with pytest.raises(ValueError, match="out of sequence"):
        oompi.wire.loads(mg.ref_new(1) + mg.i32_array([]) + g, oompi.Ref(ListNode))
