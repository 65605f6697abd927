"""Buffer collectives from Python (the facade's): rooted, v forms, in place, nonblocking, with
sequences and NumPy arrays for counts; the bad inputs."""
import numpy as np
import pytest

import oompi


def test_bcast_reduce_allreduce(world):
    n, me = world.size, world.rank
    a = np.arange(4.0) if me == 0 else np.zeros(4)
    world.bcast(a, 0)
    np.testing.assert_array_equal(a, np.arange(4.0))
    out = np.zeros(3, dtype=np.int64)
    world.reduce(np.full(3, me + 1, dtype=np.int64), out, oompi.SUM, n - 1)
    if me == n - 1:
        assert (out == n * (n + 1) // 2).all()
    b = np.array([me], dtype=np.int32)
    world.allreduce_in_place(b, oompi.MAX)
    assert b[0] == n - 1


def test_gather_scatter_v(world):
    n, me = world.size, world.rank
    got = np.zeros(n, dtype=np.int32) if me == 0 else np.zeros(0, dtype=np.int32)
    world.gather(np.array([me * 10], dtype=np.int32), got, 0)
    if me == 0:
        assert list(got) == [i * 10 for i in range(n)]
    counts = [i + 1 for i in range(n)]
    displs = np.cumsum([0] + counts[:-1]).tolist()
    total = sum(counts)
    allv = np.zeros(total)
    world.allgatherv(np.full(me + 1, float(me)), allv, counts, np.array(displs, dtype=np.int32))
    assert list(allv) == [float(i) for i in range(n) for _ in range(i + 1)]
    send = np.arange(total, dtype=np.float64) if me == 0 else np.zeros(0)
    mine = np.zeros(me + 1)
    world.scatterv(send, counts, displs, mine, 0)
    np.testing.assert_array_equal(mine, np.arange(displs[me], displs[me] + me + 1))


def test_alltoall_nonblocking(world):
    n, me = world.size, world.rank
    out = np.array([me * 100 + i for i in range(n)], dtype=np.int64)
    got = np.zeros(n, dtype=np.int64)
    world.alltoall(out, got)
    assert list(got) == [i * 100 + me for i in range(n)]
    a = np.array([me + 1.0])
    b = np.zeros(1)
    r = world.iallreduce(a, b, oompi.SUM)
    r.wait()
    assert b[0] == n * (n + 1) / 2
    world.ibarrier().wait()


def test_bad_inputs(world):
    with pytest.raises(ValueError):  # receive buffer of the wrong size, on every rank
        world.allgather(np.zeros(2), np.zeros(2 * world.size + 1))
    with pytest.raises(TypeError):
        world.allgatherv(np.zeros(1), np.zeros(world.size), "counts", [0] * world.size)
    with pytest.raises(Exception):
        world.bcast(np.zeros(1), world.size + 1)
