"""The first slice of the Python binding, end to end, at any number of ranks."""
import array
import gc
import threading

import numpy as np
import pytest

import oompi
from conftest import ring, skip_if_self_across_threads


def test_environment(world):
    assert oompi.Environment.initialized()
    assert not oompi.Environment.finalized()
    assert 0 <= world.rank < world.size
    assert oompi.Environment.processor_name()
    t0 = oompi.wtime()
    assert oompi.wtime() >= t0
    assert oompi.Comm.self_().size == 1
    assert oompi.Comm.self_().rank == 0


def test_ring_with_numpy(world):
    nxt, prv = ring(world)
    out = np.array([world.rank, world.rank + 0.5, -world.rank])
    got = np.zeros(3)
    st = world.sendrecv(out, nxt, 7, got, prv, 7)
    np.testing.assert_array_equal(got, [prv, prv + 0.5, -prv])
    assert st.source == prv and st.tag == 7
    assert st.get_count(oompi.DOUBLE) == 3


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32,
                                   np.int64, np.uint64, np.float32, np.float64, np.complex64,
                                   np.complex128, np.bool_])
def test_every_numpy_type(world, dtype):
    nxt, prv = ring(world)
    out = (np.arange(5) + world.rank).astype(dtype)
    got = np.zeros(5, dtype=dtype)
    world.sendrecv(out, nxt, 8, got, prv, 8)
    np.testing.assert_array_equal(got, (np.arange(5) + prv).astype(dtype))


def test_slices_bytearray_memoryview(world):
    nxt, prv = ring(world)
    # A contiguous slice of a 2-D array is used in place; the rest stays untouched.
    grid = np.full((3, 4), -1, dtype=np.int32)
    row = np.arange(4, dtype=np.int32) + 10 * world.rank
    world.sendrecv(row, nxt, 9, grid[1], prv, 9)
    np.testing.assert_array_equal(grid[1], np.arange(4) + 10 * prv)
    assert (grid[0] == -1).all() and (grid[2] == -1).all()

    b = bytearray(6)
    world.sendrecv(bytes([world.rank] * 3), nxt, 10, memoryview(b)[2:5], prv, 10)
    assert b == bytes([0, 0, prv, prv, prv, 0])

    a = array.array("d", [world.rank * 2.0])
    got = array.array("d", [0.0])
    world.sendrecv(a, nxt, 11, got, prv, 11)
    assert got[0] == prv * 2.0


def test_nonblocking(world):
    nxt, prv = ring(world)
    out = np.array([world.rank, world.rank * 2], dtype=np.int64)
    got = np.zeros(2, dtype=np.int64)
    r = world.irecv(got, prv, 21)
    s = world.isend(out, nxt, 21)
    st = r.wait()
    s.wait()
    assert st.source == prv
    np.testing.assert_array_equal(got, [prv, prv * 2])
    assert not r.is_pending()
    assert r.test() is not None


def test_nonblocking_keeps_the_buffer_alive(world):
    nxt, prv = ring(world)
    r = world.irecv(np.zeros(1000), prv, 22)  # the only reference is the request's
    s = world.isend(np.full(1000, float(world.rank)), nxt, 22)
    gc.collect()
    s.wait()
    st = r.wait()
    assert st.get_count(oompi.DOUBLE) == 1000


def test_test_loop(world):
    nxt, prv = ring(world)
    got = np.zeros(1, dtype=np.int32)
    with world.irecv(got, prv, 23) as r:
        world.send(np.array([world.rank + 1000], dtype=np.int32), nxt, 23)
        st = None
        while st is None:
            st = r.test()
    assert st.tag == 23 and got[0] == prv + 1000


def test_allreduce_sum(world):
    out = np.zeros(2, dtype=np.int64)
    world.allreduce(np.array([world.rank, 1], dtype=np.int64), out, oompi.SUM)
    n = world.size
    np.testing.assert_array_equal(out, [n * (n - 1) // 2, n])
    x = np.array([world.rank + 1.0])
    world.allreduce_in_place(x, oompi.Op.MAX)
    assert x[0] == n


def test_bcast_and_barrier(world):
    v = np.array([42.0, 43.0]) if world.rank == 0 else np.zeros(2)
    world.bcast(v, 0)
    np.testing.assert_array_equal(v, [42.0, 43.0])
    world.barrier()


def test_probe(world):
    # Sent without blocking: a blocking send to oneself may wait until its receive is posted
    # (MPICH 4.0's does).
    sent = world.isend(np.array([1, 2, 3], dtype=np.int16), world.rank, 31)
    st = world.probe(world.rank, 31)
    n = st.get_count(oompi.INT16)
    assert n == 3
    got = np.empty(n, dtype=np.int16)
    world.recv(got, world.rank, 31)
    sent.wait()
    np.testing.assert_array_equal(got, [1, 2, 3])
    assert world.iprobe(world.rank, 32) is None


def test_bad_buffers(world):
    nxt, prv = ring(world)
    with pytest.raises(TypeError, match="buffer protocol"):
        world.send("not a buffer", nxt, 0)
    with pytest.raises(ValueError, match="read-only"):
        world.recv(b"immutable", prv, 0)
    with pytest.raises(ValueError, match="contiguous"):
        world.send(np.zeros((4, 4))[:, 1], nxt, 0)
    with pytest.raises(ValueError, match="byte order"):
        world.send(np.zeros(2, dtype=">f8"), nxt, 0)
    with pytest.raises(ValueError, match="receive buffer holds 3 elements, 2 are needed"):
        world.allreduce(np.zeros(2), np.zeros(3), oompi.SUM)


def test_mpi_errors(world):
    # Receiving 4 ints into room for 2: MPI_ERR_TRUNCATE.
    s = world.isend(np.arange(4, dtype=np.int32), world.rank, 41)
    with pytest.raises(oompi.MPIError) as info:
        world.recv(np.zeros(2, dtype=np.int32), world.rank, 41)
    assert info.value.error_class == oompi.ERR_TRUNCATE
    assert info.value.routine == "MPI_Recv"
    s.wait()
    with pytest.raises(oompi.MPIError) as info:
        world.send(np.zeros(1), world.size, 0)
    assert info.value.error_class == oompi.ERR_RANK
    assert isinstance(info.value, RuntimeError)
    # A nonblocking call that fails at once releases its buffer.
    b = bytearray(4)
    with pytest.raises(oompi.MPIError):
        world.isend(b, world.size, 0)
    b.extend(b"x")  # not exported any more


def test_closed_handles(world):
    c = world.dup()
    assert c.size == world.size
    c.close()
    c.close()  # idempotent
    with pytest.raises(oompi.ClosedError):
        c.barrier()
    with pytest.raises(RuntimeError):
        c.rank

    with world.dup() as d:
        y = np.zeros(1, dtype=np.int32)
        d.allreduce(np.array([world.rank], dtype=np.int32), y, oompi.SUM)
        assert y[0] == world.size * (world.size - 1) // 2
    with pytest.raises(oompi.ClosedError):
        d.barrier()

    t = oompi.Datatype.contiguous(3, oompi.INT32)
    assert t.size == 12
    t.close()
    with pytest.raises(oompi.ClosedError):
        t.size
    oompi.INT32.close()  # builtins are shared constants: closing one does nothing
    assert oompi.INT32.size == 4


def test_gil_released_in_blocking_calls(world):
    # A receive blocks in MPI; another Python thread must be able to run and send: to the
    # partner rank (0-1, 2-3, ...), whose receive waits for it likewise; alone, to itself.
    skip_if_self_across_threads(world)
    peer = world.rank ^ 1 if world.rank ^ 1 < world.size else world.rank
    got = np.zeros(1)

    def sender():
        world.send(np.array([7.0 + world.rank]), peer, 51)

    t = threading.Thread(target=sender)
    t.start()
    world.recv(got, peer, 51)
    t.join()
    assert got[0] == 7.0 + peer


def test_dropped_request_keeps_its_buffer_until_completion(world):
    # A pending receive whose request is dropped: the buffer stays exported (so it cannot be
    # freed or resized) until MPI completes the operation; then it is released.
    b = bytearray(8)
    r = world.irecv(b, world.rank, 77)
    del r
    gc.collect()
    with pytest.raises(BufferError):
        b.extend(b"x")  # still held by the orphaned request
    world.send(bytes(range(8)), world.rank, 77)
    # The MPI thread completes orphans at its next call that starts an operation.
    s = world.isend(np.zeros(1), world.rank, 78)
    world.recv(np.zeros(1), world.rank, 78)
    s.wait()
    for _ in range(100):  # the orphan may need a few polls to complete
        try:
            b.extend(b"x")
            break
        except BufferError:
            world.isend(np.zeros(1), world.rank, 79).wait()
            world.recv(np.zeros(1), world.rank, 79)
    assert bytes(b[:8]) == bytes(range(8))
    assert len(b) == 9


def test_dropped_datatypes_are_freed_later(world):
    # Derived types dropped without close() are freed on the MPI thread at the next call that
    # creates a handle, exactly once (never a builtin, never twice).
    for _ in range(50):
        t = oompi.Datatype.contiguous(2, oompi.INT32)
        assert t.size == 8
        del t
    gc.collect()
    kept = oompi.Datatype.vector(2, 1, 2, oompi.DOUBLE)  # drains the deferred frees
    assert kept.size == 16 and kept.extent == 24
    got = np.zeros(2, dtype=np.int32)
    world.sendrecv(np.array([1, 2], dtype=np.int32), world.rank, 5, got, world.rank, 5)
    assert list(got) == [1, 2]
    kept.close()
