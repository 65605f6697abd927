"""Python objects over MPI: pickle 5 (out-of-band buffers), every object collective, nonblocking
receive of unknown size, the bad inputs."""
import numpy as np
import pytest

import oompi


@pytest.fixture
def world():
    return oompi.Comm.world()


def ring(world):
    return (world.rank + 1) % world.size, (world.rank - 1) % world.size


def test_osend_orecv_any_object(world):
    nxt, prv = ring(world)
    obj = {"rank": world.rank, "items": [1, 2.5, "three", (4,)], "none": None}
    req = world.iosend(obj, nxt, 11)
    got, st = world.orecv(prv, 11, with_status=True)
    req.wait()
    assert got == {"rank": prv, "items": [1, 2.5, "three", (4,)], "none": None}
    assert st.source == prv and st.tag == 11
    # keywords and ANY_SOURCE
    req = world.iosend([world.rank] * 3, nxt, 12)
    assert world.orecv(tag=12) == [prv] * 3
    req.wait()


def test_large_arrays_out_of_band(world):
    nxt, prv = ring(world)
    big = np.arange(200_000, dtype=np.float64) * (world.rank + 1)   # 1.6 MB: out of band
    small = np.arange(10, dtype=np.int16)                              # in band
    req = world.iosend({"big": big, "small": small, "view": big[::2]}, nxt, 13)
    got = world.orecv(prv, 13)
    req.wait()
    np.testing.assert_array_equal(got["big"], np.arange(200_000) * (prv + 1.0))
    np.testing.assert_array_equal(got["small"], np.arange(10))
    np.testing.assert_array_equal(got["view"], np.arange(0, 200_000, 2) * (prv + 1.0))
    assert got["big"].flags.writeable


def test_empty_and_bytes(world):
    nxt, prv = ring(world)
    for i, obj in enumerate([None, b"", "", [], b"x" * 100_000]):
        req = world.iosend(obj, nxt, 20 + i)
        assert world.orecv(prv, 20 + i) == obj
        req.wait()


def test_iorecv_unknown_size(world):
    nxt, prv = ring(world)
    r = world.iorecv(prv, 30)
    done, value = r.test()
    payload = "x" * (1000 * (world.rank + 1))
    s = world.iosend(payload, nxt, 30)
    assert r.wait() == "x" * (1000 * (prv + 1))
    assert r.status.source == prv
    assert r.test() == (True, "x" * (1000 * (prv + 1)))
    s.wait()
    with world.iorecv(prv, 31) as r2:
        s = world.iosend({1: 2}, nxt, 31)
    assert r2.wait() == {1: 2}
    s.wait()


def test_obcast(world):
    for root in range(world.size):
        obj = {"root": root, "a": np.full(100_000, root)} if world.rank == root else None
        got = world.obcast(obj, root)
        assert got["root"] == root
        assert (got["a"] == root).all()
    assert world.obcast("small" if world.rank == 0 else None) == "small"


def test_oscatter_ogather(world):
    n = world.size
    items = [{"to": i, "data": list(range(i))} for i in range(n)] if world.rank == 0 else None
    mine = world.oscatter(items, 0)
    assert mine == {"to": world.rank, "data": list(range(world.rank))}
    got = world.ogather(("from", world.rank), n - 1)
    if world.rank == n - 1:
        assert got == [("from", i) for i in range(n)]
    else:
        assert got is None


def test_oallgather_oalltoall(world):
    n = world.size
    assert world.oallgather(world.rank * "z") == [i * "z" for i in range(n)]
    got = world.oalltoall([(world.rank, i) for i in range(n)])
    assert got == [(i, world.rank) for i in range(n)]


def test_oreduce(world):
    n = world.size
    assert world.oallreduce(world.rank, oompi.SUM) == n * (n - 1) // 2
    assert world.oallreduce([world.rank], lambda a, b: a + b) == list(range(n))
    got = world.oreduce(world.rank + 1, oompi.PROD, 0)
    expect = 1
    for i in range(1, n + 1):
        expect *= i
    assert got == (expect if world.rank == 0 else None)
    assert world.oallreduce(world.rank, oompi.MAX) == n - 1


def test_bad_inputs(world):
    with pytest.raises(TypeError):
        world.osend({}, "one")
    with pytest.raises(TypeError):
        world.osend({})
    with pytest.raises(TypeError):
        world.orecv(0, 0, None, False, 5)
    with pytest.raises(TypeError):
        world.osend({}, 0, bogus=1)
    with pytest.raises(Exception):  # not picklable: nothing is sent
        world.osend(lambda: 0, 0, 40)
    with pytest.raises(oompi.MPIError) as e:
        world.osend(1, world.size + 3)
    assert e.value.error_class == oompi.ERR_RANK
    with pytest.raises(ValueError):  # checked on every rank before any MPI call
        world.oalltoall([1] * (world.size + 1))
    with pytest.raises(TypeError):
        world.oallreduce(1, "sum")
    with pytest.raises(ValueError):
        world.oallreduce(1, oompi.MAXLOC)
    # A buffer message received as an object: a clear error, not garbage.
    nxt, prv = ring(world)
    req = world.isend(np.zeros(4, dtype=np.int32), nxt, 41)
    with pytest.raises(ValueError, match="not a pickled object"):
        world.orecv(prv, 41)
    req.wait()
