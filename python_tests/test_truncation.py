"""A truncated receive into a slice of a larger array (issue 14): oompi.MPIError with
ERR_TRUNCATE, nothing outside the slice written, the slice holding the message's first elements
(or unchanged: MPI specifies neither).
Open MPI 4.1 alone writes a message above its eager limit (1000 and 100000 doubles here) past
the slice; oompi.Environment sets pml_ob1_max_rdma_per_request=0 before MPI_Init so that it does
not (Environment.receive_protection() "mpi"), or guards blocking receives ("guard").
Ring: at 1 rank each rank sends to itself, sends first."""
import os

import numpy as np
import pytest

import oompi
from conftest import ring

SENTINEL = -7.0
OFFSET = 4
SIZES = [10, 1000, 100000]


def message(n):
    return np.arange(2 * n, dtype=np.float64) + 0.5


def sentinels(n):
    return np.full(3 * n + 8, SENTINEL)


def check_slice(a, n):
    outside = np.concatenate([a[:OFFSET], a[OFFSET + n:]])
    assert np.count_nonzero(outside != SENTINEL) == 0, "written outside the slice"
    # The message's first n elements (the guard, Open MPI) or unchanged (MPICH writes nothing).
    inside = a[OFFSET:OFFSET + n]
    assert np.array_equal(inside, message(n)[:n]) or np.all(inside == SENTINEL)


def expect_truncate(f):
    with pytest.raises(oompi.MPIError) as info:
        f()
    assert info.value.error_class == oompi.ERR_TRUNCATE


def truncated_into_slice(world, n, tag, receive):
    """Sends 2n doubles to the right with `tag` while receive(a) takes the message from the left
    into a slice of n elements of `a`, a fresh array of sentinels: ERR_TRUNCATE, and nothing
    outside the slice written."""
    right, left = ring(world)
    a = sentinels(n)
    s = world.isend(message(n), right, tag)
    expect_truncate(lambda: receive(a))
    s.wait()
    check_slice(a, n)


@pytest.mark.parametrize("n", SIZES)
def test_recv_into_a_slice(world, n):
    _, left = ring(world)
    truncated_into_slice(world, n, 1, lambda a: world.recv(a[OFFSET:OFFSET + n], left, 1))
    # A memoryview slice too.
    truncated_into_slice(world, n, 2,
                         lambda a: world.recv(memoryview(a)[OFFSET:OFFSET + n], left, 2))


@pytest.mark.parametrize("n", SIZES)
def test_matched_probe_into_a_slice(world, n):
    right, left = ring(world)
    a = sentinels(n)
    s = world.isend(message(n), right, 3)
    msg = world.mprobe(left, 3)
    assert msg.count_bytes == 16 * n
    expect_truncate(lambda: msg.recv(a[OFFSET:OFFSET + n]))
    s.wait()
    check_slice(a, n)
    # Nonblocking: the matched size is known, so it fails at the call.
    b = sentinels(n)
    s = world.isend(message(n), right, 4)
    msg = world.mprobe(left, 4)
    expect_truncate(lambda: msg.irecv(b[OFFSET:OFFSET + n]).wait())
    s.wait()
    check_slice(b, n)


@pytest.mark.parametrize("n", SIZES)
def test_sendrecv_into_a_slice(world, n):
    right, left = ring(world)
    a = sentinels(n)
    expect_truncate(lambda: world.sendrecv(message(n), right, 5, a[OFFSET:OFFSET + n], left, 5))
    check_slice(a, n)
    # sendrecv_replace: sends the slice's n sentinels, receives the 2n-element message.
    b = sentinels(n)
    got = sentinels(n)
    s = world.isend(message(n), right, 6)
    r = world.irecv(got, left, 7)
    expect_truncate(lambda: world.sendrecv_replace(b[OFFSET:OFFSET + n], right, 7, left, 6))
    s.wait()
    r.wait()
    check_slice(b, n)


def test_protection_is_reported():
    """What the environment did to the MPI, and why (the registration says what it must be)."""
    mode = oompi.Environment.receive_protection()
    why = oompi.Environment.receive_protection_reason()
    assert mode in ("mpi", "guard", "none")
    assert why
    assert oompi.Environment.receive_guard() == (mode == "guard"), why
    expect = os.environ.get("OOMPI_TEST_EXPECT_PROTECTION")
    if expect is not None:
        assert mode == expect, why


CANARY = 0x5A


def landing(nbytes):
    return np.full(nbytes + 65, CANARY, dtype=np.uint8)


def written_after(a):
    return int(np.count_nonzero(a[1:] != CANARY))


@pytest.mark.parametrize("nbytes", [4 << 10, 64 << 10, 4 << 20])
def test_too_large_into_one_element(world, nbytes):
    """A too-large message into a 1-byte receive: blocking, sendrecv, nonblocking, persistent;
    ERR_TRUNCATE and not one byte after the receive buffer written. Nonblocking and persistent
    receives are plain MPI: checked where the MPI itself stops at the buffer's end ("mpi")."""
    right, left = ring(world)
    msg = np.full(nbytes, ord("m"), dtype=np.uint8)
    a = landing(nbytes)
    s = world.isend(msg, right, 21)
    expect_truncate(lambda: world.recv(a[:1], left, 21))
    s.wait()
    assert written_after(a) == 0
    b = landing(nbytes)
    expect_truncate(lambda: world.sendrecv(msg, right, 22, b[:1], left, 22))
    assert written_after(b) == 0
    if oompi.Environment.receive_protection() != "mpi":
        pytest.skip("irecv and recv_init are not guarded where the MPI does not stop at the "
                    "buffer's end")
    c = landing(nbytes)
    s = world.isend(msg, right, 23)  # first: to itself, a receive posted first is silent
    r = world.irecv(c[:1], left, 23)
    expect_truncate(r.wait)
    s.wait()
    assert written_after(c) == 0
    d = landing(nbytes)
    with world.recv_init(d[:1], left, 24) as p:
        s = world.isend(msg, right, 24)
        p.start()
        expect_truncate(p.wait)
        s.wait()
    assert written_after(d) == 0


def test_receive_guard_switch(world):
    """Environment.set_receive_guard: off, a message that fits as usual (and where the MPI stops
    at the buffer's end, a larger one writes nothing outside the slice; elsewhere Open MPI writes
    it past: the plain C control c.truncation_control shows that); on, nothing outside."""
    right, left = ring(world)
    was_on = oompi.Environment.receive_guard()
    n = 100000
    try:
        oompi.Environment.set_receive_guard(False)
        assert not oompi.Environment.receive_guard()
        a = sentinels(n)
        s = world.isend(message(n)[:n].copy(), right, 6)
        assert world.recv(a[OFFSET:OFFSET + n], left, 6).count_bytes == 8 * n
        s.wait()
        check_slice(a, n)
        if oompi.Environment.receive_protection() == "mpi":
            truncated_into_slice(world, n, 7, lambda a: world.recv(a[OFFSET:OFFSET + n], left, 7))
        oompi.Environment.set_receive_guard(True)
        truncated_into_slice(world, n, 8, lambda a: world.recv(a[OFFSET:OFFSET + n], left, 8))
    finally:
        oompi.Environment.set_receive_guard(was_on)
