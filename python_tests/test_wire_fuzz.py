"""The wire v1 decoder (oompi_wire.hpp) and the first frame of a pickled object fed mutated
valid messages: each decodes to something or raises ValueError, nothing else (no MemoryError
for a huge size, no SystemError, no crash, no hang). Deterministic: the mutations come from a
seeded generator (the same on every run; each rank takes its own seed)."""
import os
import pickle
import random
import struct
import sys
from dataclasses import dataclass, field
from typing import Optional

import numpy as np

import oompi
from oompi import objects as _objects

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden_types import ChainItem, ListNode, Shape, golden_graph, golden_shape  # noqa: E402

MUTATIONS = int(os.environ.get("OOMPI_FUZZ_MUTATIONS", "100000"))


@oompi.transportable
@dataclass(eq=False)
class Mixed:
    flag: bool = False
    i8: oompi.int8 = 0
    u16: oompi.uint16 = 0
    u32: oompi.uint32 = 0
    i64: int = 0
    u64: oompi.uint64 = 0
    f32: oompi.float32 = 0.0
    f64: float = 0.0
    text: str = ""
    raw: bytes = b""
    ints: oompi.Array(oompi.int32) = field(default_factory=lambda: np.zeros(0, np.int32))
    reals: oompi.Array(oompi.float64) = field(default_factory=lambda: np.zeros(0))
    words: list[str] = field(default_factory=list)
    grid: list[list[oompi.int16]] = field(default_factory=list)


@oompi.transportable
@dataclass(eq=False)
class Tree:
    """Children by reference in a list, then more fields: nothing is tail-linked."""
    kids: list[Optional["Tree"]] = field(default_factory=list)
    parent: Optional["Tree"] = None
    name: str = ""
    shapes: list[Shape] = field(default_factory=list)


def corpus():
    """(bytes, type) pairs of valid messages."""
    out = [(oompi.wire.dumps(golden_graph(), oompi.Ref(ListNode)), oompi.Ref(ListNode)),
           (oompi.wire.dumps(golden_shape()), Shape)]
    m = Mixed(True, -5, 65000, 4000000000, -(2 ** 40), 2 ** 63, 1.5, -2.25, "h\u00e9llo",
              b"\x00\x01\xff", np.arange(5, dtype=np.int32), np.linspace(0, 1, 3),
              ["a", "", "\u2713"], [[1, 2], [], [-3]])
    out.append((oompi.wire.dumps(m), Mixed))
    out.append((oompi.wire.dumps(m, oompi.Ref(Mixed)), oompi.Ref(Mixed)))
    root = Tree(name="root", shapes=[golden_shape()])
    a, b = Tree(parent=root, name="a"), Tree(parent=root, name="b")
    root.kids = [a, b, a, None]
    a.kids = [Tree(parent=a, name="leaf"), root]
    out.append((oompi.wire.dumps(root, oompi.Ref(Tree)), oompi.Ref(Tree)))
    out.append((oompi.wire.dumps([[1, 2, 3], [4], []], list[list[oompi.int32]]),
                list[list[oompi.int32]]))
    out.append((oompi.wire.dumps(["x" * 10, "", "yz"], list[str]), list[str]))
    out.append((oompi.wire.dumps(np.arange(6.0), oompi.Array(oompi.float64)),
                oompi.Array(oompi.float64)))
    out.append((oompi.wire.dumps([golden_graph(), None], list[Optional[ListNode]]),
                list[Optional[ListNode]]))
    # wire 1.1 compact chains: the golden one (a rho) and a longer one ending in None with
    # two-byte varint sizes
    golden = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "golden")
    with open(os.path.join(golden, "compact_chain.bin"), "rb") as f:
        out.append((f.read(), oompi.Ref(ChainItem)))
    head = None
    for i in range(6):
        head = ChainItem("n" * (130 * (i % 2)), -i, i % 3 == 0, i / 3, list(range(i * 30)), head)
    out.append((oompi.wire.dumps(head, oompi.Ref(ChainItem)), oompi.Ref(ChainItem)))
    return out


HUGE = [2 ** 64 - 1, 2 ** 63, 2 ** 62 + 7, 2 ** 32, 2 ** 31, 0xFFFFFFFF, 1 << 40]
IDS = [0x80000000, 0xFFFFFFFF, 0x7FFFFFFF, 0x80000002, 0x80000100, 2, 3, 1000]


def mutate(rng, data):
    b = bytearray(data)
    n = len(b)
    kind = rng.randrange(9)
    if kind == 0 and n:  # bit flips
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(n)
            b[i] ^= 1 << rng.randrange(8)
    elif kind == 1:  # truncation
        del b[rng.randrange(n + 1):]
    elif kind == 2 and n >= 8:  # a huge size field anywhere
        i = rng.randrange(n - 7)
        b[i:i + 8] = struct.pack("<Q", rng.choice(HUGE))
    elif kind == 3 and n >= 4:  # a bogus reference id
        i = rng.randrange(n - 3)
        b[i:i + 4] = struct.pack("<I", rng.choice(IDS))
    elif kind == 4 and n:  # random bytes
        for _ in range(rng.randint(1, 8)):
            b[rng.randrange(n)] = rng.randrange(256)
    elif kind == 5:  # junk inserted
        i = rng.randrange(n + 1)
        b[i:i] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 12)))
    elif kind == 6 and n:  # a slice removed
        i = rng.randrange(n)
        del b[i:i + rng.randint(1, 16)]
    elif kind == 7 and n:  # a slice repeated
        i = rng.randrange(n)
        j = min(n, i + rng.randint(1, 24))
        b[j:j] = b[i:j] * rng.randint(1, 50)
    else:  # two mutations
        return mutate(rng, mutate(rng, bytes(b)))
    return bytes(b)


def deep_prefix(rng):
    """A corrupt ListNode graph nested through `other` (not the last field) 10^4 .. 2 * 10^5
    deep, cut off anywhere: a decoder that recurses overflows the C stack."""
    depth = rng.randint(10_000, 200_000)
    level = b"".join(struct.pack("<IQ", (k + 1) | 0x80000000, 0) for k in range(depth))
    return level[:rng.randrange(len(level) + 1)]


def test_wire_decoder_fuzz():
    rng = random.Random(1234 + oompi.Comm.world().rank)
    messages = corpus()
    for data, t in messages:  # the corpus itself decodes
        oompi.wire.loads(data, t)
    decoded = rejected = 0
    for k in range(MUTATIONS):
        data, t = messages[k % len(messages)]
        if k % 5000 == 0:
            bad, t = deep_prefix(rng), oompi.Ref(ListNode)
        else:
            bad = mutate(rng, data)
        try:
            oompi.wire.loads(bad, t)
            decoded += 1
        except ValueError:
            rejected += 1
        # Anything else (MemoryError, SystemError, TypeError, ...) fails the test here.
    assert decoded + rejected == MUTATIONS
    assert rejected > MUTATIONS // 2  # the mutations do reach the checks
    print("wire fuzz: %d mutated messages, %d decoded, %d rejected with ValueError"
          % (MUTATIONS, decoded, rejected))


def test_pickle_first_frame_fuzz():
    # The first frame of a pickled object as orecv reads it. Its b"OOB1" header's buffer count
    # and sizes mutated: ValueError, or sizes that fit in the frame (the buffers themselves are
    # received at the size they arrive with, never allocated from a header). And every
    # truncation of plain pickles: ValueError (the pickle module's own errors are wrapped).
    # (Random mutations inside pickle data are not fed: the pickle module is not made for
    # corrupt input and may allocate whatever a corrupt length says.)
    rng = random.Random(99 + oompi.Comm.world().rank)
    pickled = pickle.dumps({"buf": pickle.PickleBuffer(bytearray(100)), "n": 3}, 5,
                           buffer_callback=lambda b: False)
    frames = [b"OOB1" + struct.pack("<I%dQ" % k, k, *([100] * k)) + pickled for k in (1, 2, 3)]
    count = rejected = 0
    for k in range(MUTATIONS // 5):
        frame = frames[k % len(frames)]
        head = len(frame) - len(pickled)
        bad = b"OOB1" + mutate(rng, frame[4:head]) + pickled
        try:
            obj, rest = _objects._decode_first(bad)
            if rest is not None:
                assert 8 + 8 * len(rest[0]) <= len(bad)
        except ValueError:
            rejected += 1
        count += 1
    plain = [pickle.dumps(x, 5) for x in ({"a": [1, 2.5, "x"], "b": (None, True)},
                                          list(range(50)), "s" * 40, {1: {2: {3: []}}})]
    for p in plain:
        for n in range(len(p)):
            try:
                _objects._decode_first(p[:n])
                raise AssertionError("a truncated pickle decoded")
            except ValueError:
                count += 1
    assert rejected > 0
    print("pickle first-frame fuzz: %d mutated frames (%d headers rejected)" % (count, rejected))
