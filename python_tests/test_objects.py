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


# --- collectives in C++'s framing (objects.py; tests/interop/coll_peer.cpp with other languages)

from golden_types import ListNode, Shape, golden_shape  # noqa: E402
import oompi.objects as objects  # noqa: E402

NODE = oompi.Ref(ListNode)


@pytest.fixture(params=["small", "large path"])
def limit(request):
    """Every test below twice: as is, and with the large-path limit lowered to 64 bytes (the
    split collectives and oalltoall then move their bytes point to point, as C++ does)."""
    if request.param == "large path":
        objects.OBJECT_INT_LIMIT = 64
    yield request.param
    objects.OBJECT_INT_LIMIT = 0x7FFFFFFF


def test_typed_collectives(world, limit):
    n, me = world.size, world.rank
    shape = world.obcast(golden_shape() if me == n - 1 else None, n - 1, type=Shape)
    assert shape == golden_shape()
    # oscatter with type=list[T]: C++'s even blocks (the first len % n ranks get one more)
    items = [ListNode([i]) for i in range(2 * n + 1)] if me == 0 else None
    mine = world.oscatter(items, 0, type=list[NODE])
    first = 2 * me + min(me, 1)
    assert [x.data for x in mine] == [[first + i] for i in range(3 if me == 0 else 2)]
    # type=T: one element per rank; ogather/oallgather of lists of shared nodes
    assert world.oscatter([str(i) for i in range(n)] if me == 0 else None, 0, type=str) == str(me)
    own = ListNode([-me])
    part = [ListNode([10 * me + i], own) for i in range(me + 1)]
    got = world.oallgather(part, type=list[NODE])
    assert [x.data[0] for x in got] == [10 * r + i for r in range(n) for i in range(r + 1)]
    assert got[-1].other is got[-n].other  # shared within the last rank's slice
    assert n == 1 or got[0].other is not got[-1].other  # slices share nothing
    at_root = world.ogather(me, n - 1, type=oompi.int32)
    assert at_root == (list(range(n)) if me == n - 1 else None)
    back = world.oscatterv([ListNode([k]) for k in range(n * (n + 1) // 2)] if me == 0 else None,
                           list(range(1, n + 1)) if me == 0 else None, 0, type=NODE)
    assert [x.data[0] for x in back] == list(range(me * (me + 1) // 2, (me + 1) * (me + 2) // 2))
    got = world.oalltoall(["%d>%d" % (me, i) for i in range(n)], type=str)
    assert got == ["%d>%d" % (r, me) for r in range(n)]
    total = world.oallreduce(ListNode([me]), lambda a, b: ListNode(a.data + b.data), type=NODE)
    assert total.data == list(range(n))
    assert world.oreduce("%d;" % me, lambda a, b: a + b, n - 1, type=str) == (
        "".join("%d;" % r for r in range(n)) if me == n - 1 else None)


def test_pickled_large_path(world, limit):
    n, me = world.size, world.rank
    assert world.oallgather({"r": me, "pad": "x" * 100}) == [{"r": r, "pad": "x" * 100}
                                                            for r in range(n)]
    assert world.oscatter([[i] * 50 for i in range(n)] if me == 0 else None, 0) == [me] * 50
    assert world.oscatterv(list(range(n)) if me == 0 else None, [1] * n, 0) == [me]
    assert world.oalltoall([(me, i, "y" * 100) for i in range(n)]) == [(i, me, "y" * 100)
                                                                    for i in range(n)]


def test_failures_reach_every_rank(world):
    """A failure on one rank makes every rank raise (before, the others waited forever)."""
    n, me = world.size, world.rank
    # the root's items have the wrong length: ValueError at the root and on every other rank
    with pytest.raises(ValueError):
        world.oscatter([1] * (n + 1) if me == 0 else None, 0)
    # the last rank's object cannot be pickled
    with pytest.raises(Exception) as e:
        world.ogather((lambda: 0) if me == n - 1 else me, 0)
    if me != n - 1:
        assert isinstance(e.value, oompi.SerializationError)
    # the function raises on one rank (the one that folds in the last rank's value)
    def picky(a, b):
        if b == n - 1:
            raise KeyError("picky")
        return a + b
    if n > 1:
        with pytest.raises(KeyError if me == (n - 1) & (n - 2) else oompi.SerializationError):
            world.oallreduce(me, picky)
    assert world.obcast("in step", 0) == "in step"


def test_pickled_and_typed_do_not_mix(world):
    """One rank with type=, the others pickling: every rank raises a TypeError at once."""
    n, me = world.size, world.rank
    if n == 1:
        return
    typed = me == n - 1
    with pytest.raises(TypeError, match="type= on every rank"):
        world.oallgather(ListNode([me]), type=NODE if typed else None)
    with pytest.raises(TypeError, match="type= on every rank"):
        world.oalltoall(["x"] * n, type=str if typed else None)
    # obcast, oscatter: the receivers raise (after taking the root's bytes, so the root is not
    # left waiting); the root hears nothing back and returns
    if not typed:
        assert world.obcast("z" if me == 0 else None, 0) == "z"
    else:
        with pytest.raises(TypeError, match="type= on every rank"):  # the root pickles
            world.obcast(None, 0, type=str)
    if me == n - 1:
        assert world.oscatter([str(i) for i in range(n)], n - 1, type=str) == str(me)
    else:
        with pytest.raises(TypeError, match="type= on every rank"):  # the root has type=
            world.oscatter(None, n - 1)
    assert world.obcast("in step", 0) == "in step"
