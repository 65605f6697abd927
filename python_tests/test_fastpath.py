"""The vectorcall send/recv/sendrecv/osend/orecv: keywords, every kind of buffer, Status as a
value, threads (the GIL is released while another thread exists), the bad inputs."""
import threading

import numpy as np
import pytest

import oompi
from conftest import skip_if_self_across_threads


def test_keywords_and_status(world):
    me = world.rank
    out = np.arange(3, dtype=np.float64) + me
    got = np.zeros(3)
    r = world.irecv(got, me, 3)
    world.send(buf=out, dest=me, tag=3)
    st = r.wait()
    np.testing.assert_array_equal(got, out)
    world.send(out, me, tag=4) if False else None
    st2 = world.sendrecv(out, me, 5, got, me, 5)
    assert st2.source == me and st2.tag == 5 and st2.count_bytes == 24 and not st2.cancelled
    assert st2.get_count(oompi.DOUBLE) == 3
    with pytest.raises(ArithmeticError):
        st2.get_count(oompi.Datatype.contiguous(5, oompi.DOUBLE))
    assert st2 == world.sendrecv(out, me, 5, got, me, 5)
    assert "source=%d" % me in repr(st2)
    with pytest.raises(AttributeError):
        st2.source = 3


def test_numpy_shapes_and_kinds(world):
    me = world.rank
    grid = np.arange(12, dtype=np.int32).reshape(3, 4)
    got = np.zeros((3, 4), dtype=np.int32)
    world.sendrecv(grid, me, 6, got, me, 6)
    np.testing.assert_array_equal(got, grid)
    big_endian = np.arange(3, dtype=">i4")
    with pytest.raises(ValueError, match="format"):
        world.send(big_endian, me, 7)
    with pytest.raises(ValueError, match="contiguous"):
        world.send(grid[:, 1], me, 7)
    ro = np.arange(3.0)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        world.recv(ro, me, 7)
    with pytest.raises(ValueError):
        world.send(np.array(["a"]), me, 7)


def test_bad_arguments(world):
    a = np.zeros(2)
    with pytest.raises(TypeError, match="dest"):
        world.send(a, "1")
    with pytest.raises(TypeError):
        world.send(a)
    with pytest.raises(TypeError):
        world.send(a, 0, 0, 0)
    with pytest.raises(TypeError, match="unexpected keyword"):
        world.send(a, 0, dst=1)
    with pytest.raises(TypeError, match="multiple values"):
        world.send(a, 0, dest=1)
    with pytest.raises(OverflowError):
        world.send(a, 2 ** 40)
    with pytest.raises(TypeError, match="buffer protocol"):
        world.send([1.0, 2.0], 0)
    with pytest.raises(oompi.MPIError) as e:
        world.send(a, world.size + 5)
    assert e.value.error_class == oompi.ERR_RANK
    with pytest.raises(TypeError):
        oompi.Comm.send(object(), a, 0)
    c = world.dup()
    c.close()
    with pytest.raises(oompi.ClosedError):
        c.send(a, 0)
    with pytest.raises(oompi.ClosedError):
        c.osend(1, 0)


def test_threads_release_the_gil(world):
    # A receive blocked in one thread while this thread sends: needs the GIL released.
    # With the partner rank (0-1, 2-3, ...); alone, with itself.
    skip_if_self_across_threads(world)
    me = world.rank
    peer = me ^ 1 if me ^ 1 < world.size else me
    got = np.zeros(4, dtype=np.int64)
    result = []

    def receiver():
        result.append(world.recv(got, peer, 9))
        result.append(world.orecv(peer, 10))

    t = threading.Thread(target=receiver)
    t.start()
    world.send(np.arange(4, dtype=np.int64) + me, peer, 9)
    req = world.iosend({"hello": me}, peer, 10)
    t.join(30)
    req.wait()
    assert not t.is_alive()
    assert result[0].source == peer and list(got) == [peer, peer + 1, peer + 2, peer + 3]
    assert result[1] == {"hello": peer}


def test_communicator_cache_follows_proxies(world):
    # The fast paths cache the facade communicator of the last proxies used (weak references):
    # a dead proxy's entry must never serve a new proxy, even one at the same address, and
    # alternating communicators must each reach their own.
    me = world.rank
    out = np.arange(4, dtype=np.int32)
    got = np.zeros(4, dtype=np.int32)
    # To this process itself, so one side of each exchange does not block: a blocking send to
    # oneself may wait until its receive is posted (MPICH 4.0's does).
    for i in range(300):
        c = world.dup()
        r = c.irecv(got, me, i % 7)
        c.send(out + i, me, i % 7)
        r.wait()
        np.testing.assert_array_equal(got, out + i)
        s = c.isend(out - i, me, i % 7)
        st = c.recv(got, me, i % 7)
        s.wait()
        assert st.tag == i % 7
        np.testing.assert_array_equal(got, out - i)
        c.close()
        with pytest.raises(oompi.ClosedError):
            c.send(out, me, 0)
        del c
    comms = [world.dup() for _ in range(6)]  # more than the cache holds, in turn
    for rnd in range(3):
        sent = [c.isend(out + k, me, k) for k, c in enumerate(comms)]
        for k, c in reversed(list(enumerate(comms))):
            c.recv(got, me, k)
            np.testing.assert_array_equal(got, out + k)
        oompi.Request.wait_all(sent)
        gots = [np.zeros(4, dtype=np.int32) for _ in comms]
        recvs = [c.irecv(gots[k], me, k) for k, c in enumerate(comms)]
        for k, c in reversed(list(enumerate(comms))):
            c.send(out + k, me, k)
        oompi.Request.wait_all(recvs)
        for k in range(len(comms)):
            np.testing.assert_array_equal(gots[k], out + k)
    for c in comms:
        c.close()
