"""The golden types of tests/golden (tests/test_serialization.cpp namespace golden), in Python."""
from dataclasses import dataclass, field
from typing import Optional

import oompi


@oompi.transportable
@dataclass
class Point:
    x: float = 0.0
    y: float = 0.0


@oompi.transportable
@dataclass
class Shape:
    name: str = ""
    id: oompi.int64 = 0
    closed: bool = False
    origin: Point = field(default_factory=Point)
    corners: list[Point] = field(default_factory=list)
    tags: list[oompi.int32] = field(default_factory=list)
    scale: oompi.float32 = 0.0
    layer: oompi.uint8 = 0
    depth: oompi.int16 = 0


@oompi.transportable
@dataclass(eq=False)
class ListNode:
    data: list[oompi.int32] = field(default_factory=list)
    other: Optional["ListNode"] = None
    next: Optional["ListNode"] = None


@oompi.transportable
@dataclass(eq=False)
class ChainNode:
    """A list whose nodes hold no other reference (C++ reads it without identity tables)."""
    data: list[oompi.int32] = field(default_factory=list)
    next: Optional["ChainNode"] = None


@oompi.transportable
@dataclass(eq=False)
class ChainItem:
    """chain_item of tests/golden/compact_chain.bin: a chain type (docs/wire-format.md 2.1)."""
    name: str = ""
    id: oompi.int64 = 0
    flag: bool = False
    weight: float = 0.0
    data: list[oompi.int32] = field(default_factory=list)
    next: Optional["ChainItem"] = None


def golden_shape():
    return Shape("triangle", -1234567890123, True, Point(0.5, -1.25),
                 [Point(0, 0), Point(4, 0), Point(0, 3)], [7, 11], 2.5, 200, -300)


def golden_graph():
    """a{[1,2], other c, next b}, b{[3], other c, next c}, c{[], other None, next a}"""
    a, b, c = ListNode([1, 2]), ListNode([3]), ListNode([])
    a.other, a.next = c, b
    b.other, b.next = c, c
    c.next = a
    return a


def golden_chain():
    """1 {"first", -5, true, 0.5, [1, 2, 3]} -> 2 {"", 2^40, false, -2.25, [0 .. 199]}
    -> 3 {"drei \u2713", 7, true, 1e300, []} -> back to 2"""
    a = ChainItem("first", -5, True, 0.5, [1, 2, 3])
    b = ChainItem("", 1 << 40, False, -2.25, list(range(200)))
    c = ChainItem("drei \u2713", 7, True, 1e300, [])
    a.next, b.next, c.next = b, c, b
    return a
