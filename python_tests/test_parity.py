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


# --- second part: info, attributes, alltoallw, graphs, idup, datatype contents ---------------

def test_info_objects(world):
    info = oompi.Info.create()
    info.set("no_locks", "true")
    info.set("cb_nodes", "2")
    assert info.size == 2 and sorted(info.keys()) == ["cb_nodes", "no_locks"]
    assert info.get("cb_nodes") == "2" and info.contains("no_locks")
    copy = info.dup()
    assert info.remove("cb_nodes") and not info.remove("cb_nodes")
    assert info.size == 1 and copy.size == 2          # dup is independent
    assert info.get("cb_nodes") is None and info.get("cb_nodes", "4") == "4"  # as dict.get
    with pytest.raises(KeyError):
        info["cb_nodes"]                               # not set
    with pytest.raises(KeyError):
        del info["cb_nodes"]
    info["striping_factor"] = "4"                      # a mapping too
    assert "striping_factor" in info and 42 not in info and len(info) == 2
    assert dict(info.items()) == {"no_locks": "true", "striping_factor": "4"}
    assert sorted(info) == ["no_locks", "striping_factor"]
    del info["striping_factor"]
    with pytest.raises(ValueError):
        info.set("", "x")                              # empty key
    with pytest.raises(ValueError):
        info.set("k" * 1000, "x")                      # longer than MPI_MAX_INFO_KEY
    with pytest.raises(ValueError):
        info.set("k", "")                              # empty value
    # Hints on communicators.
    with world.dup_with_info(copy) as c:
        assert c.size == world.size
        c.set_info(info)
        got = c.get_info()
        assert isinstance(got, oompi.Info)
        got.close()
        with pytest.raises(ValueError):
            c.set_info(oompi.Info())                   # null info
    assert oompi.Info().is_null()
    copy.close()
    copy.close()                                       # idempotent
    with pytest.raises(oompi.ClosedError):
        copy.get("cb_nodes")
    with pytest.raises(oompi.ClosedError):
        world.dup_with_info(copy)
    info.close()


def test_attributes(world):
    copied = oompi.Keyval.create(True)
    private = oompi.Keyval.create(False)
    big = (1 << 40) + world.rank
    copied.set(world, big)
    private.set(world, -7)
    assert copied.get(world) == big and private.get(world) == -7
    with world.dup() as d:
        assert copied.has(d) and copied.get(d) == big  # copied by dup
        assert not private.has(d)                       # not copied
        with pytest.raises(IndexError):
            private.get(d)
    copied.set(world, 5)                               # replaces
    assert copied.get(world) == 5
    assert copied.remove(world) and not copied.remove(world)
    assert private.remove(world)
    copied.close()
    private.close()
    with pytest.raises(oompi.ClosedError):
        copied.set(world, 1)
    # Predefined attributes.
    assert oompi.Comm.tag_ub() >= 32767
    assert oompi.Comm.wtime_is_global() in (True, False)
    assert oompi.Comm.appnum() >= -1
    assert oompi.Comm.universe_size() == -1 or oompi.Comm.universe_size() >= 1  # slots, not ranks


def test_alltoallw(world):
    n, me = world.size, world.rank
    pair = oompi.Datatype.contiguous(2, oompi.DOUBLE)
    send = np.arange(2 * n, dtype=np.float64) + 100 * me
    recv = np.full(2 * n, -1.0)
    # To even peers 2 doubles, to odd peers one pair: per-peer datatypes, the same bytes.
    stypes = [oompi.DOUBLE if r % 2 == 0 else pair for r in range(n)]
    scounts = [2 if r % 2 == 0 else 1 for r in range(n)]
    displs = [16 * r for r in range(n)]
    world.alltoallw(send, scounts, displs, stypes, recv, [1] * n, displs, [pair] * n)
    expect = np.concatenate([[100 * r + 2 * me, 100 * r + 2 * me + 1] for r in range(n)])
    assert np.array_equal(recv, expect)
    with pytest.raises(ValueError):                    # last block past the receive buffer
        world.alltoallw(send, scounts, displs, stypes, recv, [2] * n, displs, [pair] * n)
    with pytest.raises(ValueError):                    # one type missing
        world.alltoallw(send, scounts, displs, stypes[:-1], recv, [1] * n, displs, [pair] * n)
    pair.close()
    with pytest.raises(oompi.ClosedError):
        world.alltoallw(send, scounts, displs, [pair] * n, recv, [1] * n, displs, [pair] * n)


def test_neighbor_alltoallw(world):
    n, me = world.size, world.rank
    left, right = (me - 1) % n, (me + 1) % n
    with world.create_dist_graph([left], [right]) as g:
        send = np.array([me, me * 10], dtype=np.int64)
        into = np.zeros(3, dtype=np.int64)
        g.neighbor_alltoallw(send, [2], [0], [oompi.INT64], into, [2], [8], [oompi.INT64])
        assert list(into) == [0, left, left * 10]
        with pytest.raises(ValueError):
            g.neighbor_alltoallw(send, [2, 1], [0, 0], [oompi.INT64] * 2, into, [2], [8],
                                 [oompi.INT64])


def test_ialltoallw(world):
    n, me = world.size, world.rank
    pair = oompi.Datatype.contiguous(2, oompi.DOUBLE)
    recv = np.full(2 * n, -1.0)
    stypes = [oompi.DOUBLE if r % 2 == 0 else pair for r in range(n)]
    scounts = [2 if r % 2 == 0 else 1 for r in range(n)]
    displs = [16 * r for r in range(n)]
    # A temporary send array and lists: the request holds what MPI still reads.
    req = world.ialltoallw(np.arange(2 * n, dtype=np.float64) + 100 * me, scounts, displs,
                           stypes, recv, [1] * n, displs, [pair] * n)
    pair.close()                                       # MPI keeps a type in use alive
    req.wait()
    expect = np.concatenate([[100 * r + 2 * me, 100 * r + 2 * me + 1] for r in range(n)])
    assert np.array_equal(recv, expect)
    with pytest.raises(ValueError):                    # last block past the receive buffer
        world.ialltoallw(recv, [2] * n, displs, [oompi.DOUBLE] * n, recv[:-1], [2] * n, displs,
                         [oompi.DOUBLE] * n)
    with pytest.raises(oompi.ClosedError):             # closed before the call
        world.ialltoallw(recv, [1] * n, displs, [pair] * n, recv, [1] * n, displs, [pair] * n)


def test_ineighbor_alltoallw(world):
    n, me = world.size, world.rank
    left, right = (me - 1) % n, (me + 1) % n
    with world.create_dist_graph([left], [right]) as g:
        into = np.zeros(3, dtype=np.int64)
        req = g.ineighbor_alltoallw(np.array([me, me * 10], dtype=np.int64), [2], [0],
                                    [oompi.INT64], into, [2], [8], [oompi.INT64])
        req.wait()
        assert list(into) == [0, left, left * 10]
        with pytest.raises(ValueError):                # two blocks for one out-neighbour
            g.ineighbor_alltoallw(into, [2, 1], [0, 0], [oompi.INT64] * 2, into, [2], [8],
                                  [oompi.INT64])


def ring(n):
    index, edges = [], []
    for i in range(n):
        edges += [(i - 1) % n, (i + 1) % n]
        index.append(len(edges))
    return index, edges


def test_graph_topology(world):
    n, me = world.size, world.rank
    index, edges = ring(n)
    with world.create_graph(index, edges) as g:
        assert g.topology() == oompi.TopologyKind.GRAPH
        assert (g.nnodes(), g.nedges()) == (n, 2 * n)
        assert list(g.index()) == index and list(g.edges()) == edges
        assert g.neighbors_count(me) == 2
        assert list(g.neighbors()) == [(me - 1) % n, (me + 1) % n]
        got = np.zeros(2, dtype=np.int32)
        g.neighbor_allgather(np.array([me], dtype=np.int32), got)
        assert list(got) == [(me - 1) % n, (me + 1) % n]
        with pytest.raises(IndexError):
            g.neighbors_count(n)                       # no such node
    with pytest.raises(IndexError):
        world.create_graph([1], [n])                   # edge to a node outside the graph
    with pytest.raises(ValueError):
        world.create_graph([2, 1], [0, 0])             # index decreasing
    with pytest.raises(ValueError):
        world.create_graph(list(range(1, n + 2)), [0] * (n + 1))  # more nodes than processes


def test_idup(world):
    fut = world.idup()
    req = fut.get_request()
    oompi.Request.wait_all([req])
    c = fut.get()
    assert c is not None and fut.get().size == world.size
    got = np.zeros(1)
    c.allreduce(np.ones(1), got, oompi.SUM)
    assert got[0] == world.size
    assert c.compare(world) == oompi.Comparison.CONGRUENT
    c.close()
    # get() without waiting first waits itself.
    with world.idup().get() as d:
        assert d.rank == world.rank
    with pytest.raises(oompi.ClosedError):
        c.barrier()


def test_datatype_contents():
    assert oompi.DOUBLE.combiner() == oompi.COMBINER_NAMED
    named = oompi.DOUBLE.contents()
    assert named.combiner == oompi.COMBINER_NAMED and list(named.integers()) == []
    with oompi.Datatype.vector(3, 1, 2, oompi.DOUBLE) as v:
        c = v.contents()
        assert v.combiner() == oompi.COMBINER_VECTOR == c.combiner
        assert list(c.integers()) == [3, 1, 2] and list(c.addresses()) == []
        (base,) = c.types()
        assert base.combiner() == oompi.COMBINER_NAMED and base.name == "MPI_DOUBLE"
        with oompi.Datatype.create_struct([1, 2], [0, 8], [oompi.INT32, v]) as s:
            c = s.contents()
            assert c.combiner == oompi.COMBINER_STRUCT
            assert list(c.integers()) == [2, 1, 2] and list(c.addresses()) == [0, 8]
            t = c.types()
            assert t[1].combiner() == oompi.COMBINER_VECTOR and t[1].size == v.size
            t[1].close()                               # a new handle of its own
        with oompi.Datatype.hvector(2, 1, 24, oompi.INT32) as h:
            assert list(h.contents().addresses()) == [24]
    with pytest.raises(oompi.ClosedError):
        v.contents()


def test_file_hints(world):
    import os
    import tempfile
    pid = np.array([os.getpid()], dtype=np.int64)
    world.bcast(pid, 0)
    p = os.path.join(tempfile.gettempdir(), f"oompi_pyparity_{pid[0]}.bin")
    hints = oompi.Info.create()
    hints.set("access_style", "write_once")
    try:
        with oompi.File.open(world, p, oompi.MODE_CREATE | oompi.MODE_RDWR, hints) as f:
            got = f.get_info()
            assert isinstance(got, oompi.Info) and got.size >= 0   # MPI may drop any hint
            got.close()
            f.set_info(hints)
            with pytest.raises(ValueError):
                f.set_info(oompi.Info())                           # null info
        hints.close()
        with pytest.raises(oompi.ClosedError):
            oompi.File.open(world, p, oompi.MODE_RDONLY, hints)
    finally:
        world.barrier()
        if world.rank == 0 and os.path.exists(p):
            os.remove(p)
