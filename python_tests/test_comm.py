"""Communicators, groups, topologies and intercommunicators from Python, with the bad inputs."""
import numpy as np
import pytest

import oompi


def test_split_and_compare(world):
    n, me = world.size, world.rank
    with world.split(me % 2, -me) as half:
        assert half.size == (n + 1 - me % 2) // 2
        assert half.rank == (n - 1 - me) // 2
        total = np.zeros(1, dtype=np.int32)
        half.allreduce(np.ones(1, dtype=np.int32), total, oompi.SUM)
        assert total[0] == half.size
        assert world.compare(half) == (oompi.Comparison.CONGRUENT if n == 1
                                       else oompi.Comparison.UNEQUAL)
    assert half.is_null()
    with pytest.raises(oompi.ClosedError):
        half.barrier()
    none = world.split(oompi.UNDEFINED if me == 0 else 1)
    assert none.is_null() == (me == 0)
    if not none.is_null():
        none.close()
    with pytest.raises(ValueError):
        world.split(-3)


def test_groups(world):
    n, me = world.size, world.rank
    with world.get_group() as g:
        assert (g.size, g.rank) == (n, me)
        first = g.incl([0])
        assert first.rank == (0 if me == 0 else oompi.UNDEFINED)
        rest = g.set_difference(first)
        assert rest.size == n - 1
        assert g.compare(first.set_union(rest)) == oompi.Comparison.IDENT
        assert list(g.translate_ranks([0], rest)) == [oompi.UNDEFINED]
        with pytest.raises(IndexError):
            g.incl([n])
        with pytest.raises(ValueError):
            g.incl([0, 0])
        sub = world.create(first)
        assert sub.is_null() == (me != 0)
        if me == 0:
            sub.close()
    with pytest.raises(oompi.ClosedError):
        g.size
    dup = world.dup()
    dup.name = "py-dup"
    assert dup.name == "py-dup"
    assert world.compare(dup) == oompi.Comparison.CONGRUENT
    dup.close()


def test_cartesian_ring_and_torus_shift(world):
    n = world.size
    dims = oompi.CartComm.dims_create(n, [0])
    assert list(dims) == [n]
    with world.create_cart(dims, [True]) as ring:
        assert ring.topology() == oompi.TopologyKind.CARTESIAN
        assert ring.ndims == 1 and list(ring.periods()) == [1]
        me = ring.rank
        assert list(ring.coords()) == [me]
        s = ring.shift(0, 1)
        assert (s.source, s.dest) == ((me - 1) % n, (me + 1) % n)
        got = np.full(2, -1, dtype=np.int32)
        ring.neighbor_allgather(np.array([me], dtype=np.int32), got)
        assert list(got) == [(me - 1) % n, (me + 1) % n]
        out, into = np.array([me * 1.5]), np.zeros(1)
        ring.sendrecv(out, s.dest, 0, into, s.source, 0)
        assert into[0] == s.source * 1.5
        with pytest.raises(IndexError):
            ring.shift(3)
        with pytest.raises(ValueError):
            ring.neighbor_allgather(np.zeros(1), np.zeros(5))
    with pytest.raises(ValueError):
        world.create_cart([n], [0, 1])
    with pytest.raises(TypeError):
        world.create_cart("ab", [0])


def test_dist_graph(world):
    n, me = world.size, world.rank
    with world.create_dist_graph([(me - 1) % n], [(me + 1) % n]) as g:
        assert list(g.sources()) == [(me - 1) % n]
        assert (g.in_degree, g.out_degree) == (1, 1)
        got = np.zeros(1, dtype=np.int64)
        req = g.ineighbor_alltoall(np.array([me], dtype=np.int64), got)
        req.wait()
        assert got[0] == (me - 1) % n


def test_intercomm(world):
    n, me = world.size, world.rank
    if n < 2:
        pytest.skip("an intercommunicator needs two disjoint groups (2 ranks or more)")
    color = 0 if me < n // 2 else 1
    half = world.split(color, me)
    with half.create_intercomm(0, world, n // 2 if color == 0 else 0, 9) as x:
        assert x.is_inter()
        assert x.remote_size == (n - n // 2 if color == 0 else n // 2)
        if half.rank == 0:
            into = np.zeros(1, dtype=np.int32)
            x.sendrecv(np.array([color], dtype=np.int32), 0, 0, into, 0, 0)
            assert into[0] == 1 - color
        x.barrier()
        total = np.zeros(1, dtype=np.int64)
        x.allreduce(np.array([me], dtype=np.int64), total, oompi.SUM)
        lo = (n // 2) * (n // 2 - 1) // 2
        assert total[0] == (n * (n - 1) // 2 - lo if color == 0 else lo)  # the other group's
        with pytest.raises(RuntimeError):
            x.allreduce_in_place(total, oompi.SUM)
        with x.merge(color == 1) as merged:
            assert (merged.size, merged.rank) == (n, me)
    half.close()
