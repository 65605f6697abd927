"""Binding parity with the C++ core (issue 15): group rank ranges, reduce_local, in-place
v-collectives, ireduce_scatter, neighbour v-collectives; with their bad inputs."""
import numpy as np
import pytest

import oompi


@pytest.fixture
def world():
    return oompi.Comm.world()


def test_group_range_incl_and_excl(world):
    n = world.size
    with world.get_group() as g:
        evens = g.range_incl([0, n - 1, 2])
        assert evens.size == (n + 1) // 2
        assert list(g.translate_ranks(list(range(0, n, 2)), evens)) == list(range(evens.size))
        odds = g.range_excl([0, n - 1, 2])
        assert odds.size == n // 2
        backwards = g.range_incl([n - 1, 0, -1])
        assert list(backwards.translate_ranks([0], g)) == [n - 1]
        with pytest.raises(ValueError):
            g.range_incl([0, 1])          # not triplets
        with pytest.raises(IndexError):
            g.range_incl([0, n, 1])        # last outside the group
        with pytest.raises(ValueError):
            g.range_incl([0, 0, 0])        # zero stride


def test_reduce_local():
    a = np.arange(5, dtype=np.int64)
    b = np.full(5, 10, dtype=np.int64)
    oompi.SUM.reduce_local(a, b)
    assert list(b) == [10, 11, 12, 13, 14]
    oompi.MAX.reduce_local(np.array([20.0, -1.0]), c := np.array([0.0, 0.0]))
    assert list(c) == [20.0, 0.0]
    with pytest.raises(ValueError):
        oompi.SUM.reduce_local(np.zeros(3), np.zeros(4))
    with pytest.raises(ValueError):
        oompi.SUM.reduce_local(np.zeros(3, dtype=np.int32), np.zeros(3))


def layout(n):
    counts = [r + 1 for r in range(n)]
    displs = [sum(counts[:r]) for r in range(n)]
    return counts, displs, sum(counts)


def test_in_place_v_collectives(world):
    n, me = world.size, world.rank
    counts, displs, total = layout(n)
    expect = np.concatenate([np.full(r + 1, float(r)) for r in range(n)])
    buf = np.full(total, -1.0)
    buf[displs[me]:displs[me] + counts[me]] = me
    world.allgatherv_in_place(buf, counts, displs)
    assert np.array_equal(buf, expect)

    buf = np.full(total, -1.0)
    buf[displs[me]:displs[me] + counts[me]] = me
    world.gatherv_in_place(buf if me == 0 else buf[displs[me]:displs[me] + counts[me]],
                           counts, displs, 0)
    if me == 0:
        assert np.array_equal(buf, expect)

    # alltoallv in place: block r of every rank goes to rank r; counts the same for both sides.
    c = [1] * n
    d = list(range(n))
    buf = np.array([me * 100 + r for r in range(n)], dtype=np.int32)
    world.alltoallv_in_place(buf, c, d)
    assert list(buf) == [r * 100 + me for r in range(n)]

    with pytest.raises(ValueError):
        world.allgatherv_in_place(np.zeros(total), counts[:-1] + [counts[-1] + 5], displs)


def test_ireduce_scatter(world):
    n, me = world.size, world.rank
    counts = [r + 1 for r in range(n)]
    send = np.arange(sum(counts), dtype=np.float64) + me
    mine = np.zeros(counts[me])
    req = world.ireduce_scatter(send, mine, counts, oompi.SUM)
    req.wait()
    start = sum(counts[:me])
    full = sum(np.arange(sum(counts), dtype=np.float64) + r for r in range(n))
    assert np.array_equal(mine, full[start:start + counts[me]])
    with pytest.raises(ValueError):
        world.ireduce_scatter(send, np.zeros(counts[me] + 1), counts, oompi.SUM)


def test_neighbor_v_collectives(world):
    n, me = world.size, world.rank
    left, right = (me - 1) % n, (me + 1) % n
    with world.create_dist_graph([left], [right]) as g:
        # allgatherv: my one in-neighbour sends left + 1 values.
        got = np.full(left + 2, -1, dtype=np.int64)
        g.neighbor_allgatherv(np.full(me + 1, me, dtype=np.int64), got, [left + 1], [1])
        assert list(got) == [-1] + [left] * (left + 1)
        # alltoallv: one block to the right, one from the left.
        out = np.full(me + 1, me, dtype=np.int32)
        into = np.zeros(left + 1, dtype=np.int32)
        g.neighbor_alltoallv(out, [me + 1], [0], into, [left + 1], [0])
        assert list(into) == [left] * (left + 1)
        with pytest.raises(ValueError):
            g.neighbor_allgatherv(np.zeros(1), np.zeros(1), [1, 1], [0, 0])
