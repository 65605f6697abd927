"""Transportable classes in wire format v1: the golden bytes of tests/golden, graphs with shared
and cyclic references, point to point and broadcast, the bad inputs."""
import os
import sys
from dataclasses import dataclass, field
from typing import Optional

import numpy as np
import pytest

import oompi

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden_types import ListNode, Point, Shape, golden_graph, golden_shape  # noqa: E402

GOLDEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "golden")


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
