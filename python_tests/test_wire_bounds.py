"""The wire decoder allocates by what a message can hold, not by what it claims (issue 25): a
mismatched or crafted message is a ValueError with memory a small multiple of its size
(tracemalloc's peak around the read). Before the bounds a nest of lists, each level claiming
every byte left, grew with the square of the message (64 KiB: 256 MiB)."""
import struct
import tracemalloc
from dataclasses import dataclass, field

import numpy as np
import pytest

import oompi


@oompi.transportable
@dataclass(eq=False)
class Nest:
    inner: list["Nest"] = field(default_factory=list)
    name: str = ""


@oompi.transportable
@dataclass(eq=False)
class Sample:
    t: float = 0.0
    values: list[float] = field(default_factory=list)


def claiming_all(length):
    """Every level claims as many elements as bytes are left."""
    return b"".join(struct.pack("<Q", length - at - 8) for at in range(0, length, 8))


def claiming_most(length, unit=16):
    """Every level claims as many as the bounded reader lets it (its worst case)."""
    out, claimed = [], 0
    for at in range(0, length, 8):
        left = length - at - 8
        n = max(1, max(0, left - claimed) // unit)
        claimed += n * unit - unit
        out.append(struct.pack("<Q", n))
    return b"".join(out)


def peak_of(fn):
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        fn()
        return tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()


def rejected(data, t):
    def read():
        with pytest.raises(ValueError):
            oompi.wire.loads(data, t)
    return peak_of(read)


@pytest.mark.parametrize("length", [16384, 65536])
@pytest.mark.parametrize("craft", [claiming_all, claiming_most])
def test_nested_lists_memory_linear(length, craft):
    peak = rejected(craft(length), Nest)
    assert peak <= 16 * length + (1 << 20), f"peak {peak} bytes for a message of {length}"


def test_mismatched_type_rejected_cheaply():
    data = oompi.wire.dumps(np.arange(262144, dtype=np.int32), oompi.Array(oompi.int32))
    assert rejected(data, list[Sample]) <= 1 << 20
    assert rejected(data, list[list[oompi.int64]]) <= 4 << 20
    assert rejected(struct.pack("<Q", 1 << 20) + bytes(64), list[str]) <= 1 << 16


def test_valid_nesting_round_trips():
    n = Nest([Nest([], "a"), Nest([Nest([], "deep")], "b"), Nest()], "root")
    data = oompi.wire.dumps(n)
    back = oompi.wire.loads(data, Nest)
    assert [k.name for k in back.inner] == ["a", "b", ""]
    assert back.inner[1].inner[0].name == "deep"
    assert oompi.wire.dumps(back) == data
    grid = [[1, 2], [], [3]]
    assert oompi.wire.loads(oompi.wire.dumps(grid, list[list[oompi.int16]]),
                            list[list[oompi.int16]]) == grid


def test_over_mpi_a_crafted_message_is_a_value_error():
    world = oompi.Comm.world()
    to, frm = (world.rank + 1) % world.size, (world.rank - 1) % world.size
    data = np.frombuffer(claiming_all(65536), np.uint8)
    req = world.isend(data, to, 41)
    peak = 0
    try:
        def recv():
            with pytest.raises(ValueError):
                world.orecv(frm, 41, type=Nest)
        peak = peak_of(recv)
    finally:
        req.wait()
    assert peak <= 16 * 65536 + (1 << 20) + 65536
    world.barrier()
