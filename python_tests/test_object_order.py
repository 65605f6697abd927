"""Object receives match in posting order (issue 25): iorecv for the same source and tag take
their messages in the order they were posted, whatever order they are waited on or polled in;
wildcards, a blocking orecv after pending ones, a cancelled (or dropped) earlier receive, and
receives waited on from two threads. Each rank receives from its left neighbour."""
import threading

import pytest

import oompi
from conftest import skip_if_self_across_threads


@pytest.fixture
def ring():
    world = oompi.Comm.world()
    sends = []

    class Ring:
        w = world
        to = (world.rank + 1) % world.size
        frm = (world.rank - 1) % world.size

        def send(self, text, tag):
            sends.append(world.iosend(f"{tag}:{text}@{world.rank}", self.to, tag, type=str))

        def expected(self, text, tag):
            return f"{tag}:{text}@{self.frm}"

    yield Ring()
    for r in sends:
        r.wait()
    world.barrier()


def test_same_tag_waited_in_reverse(ring):
    reqs = [ring.w.iorecv(ring.frm, 5, type=str) for _ in range(4)]
    for i in range(4):
        ring.send(str(i), 5)
    got = [None] * 4
    for i in reversed(range(4)):
        got[i] = reqs[i].wait()
    assert got == [ring.expected(str(i), 5) for i in range(4)]


def test_polls_of_the_newest_first(ring):
    a, b, c = (ring.w.iorecv(ring.frm, 6, type=str) for _ in range(3))
    ring.w.barrier()
    assert c.test() == (False, None)
    ring.w.barrier()
    for x in "abc":
        ring.send(x, 6)
    while not c.test()[0]:
        pass
    while not b.test()[0]:
        pass
    assert (a.wait(), b.wait(), c.wait()) == tuple(ring.expected(x, 6) for x in "abc")


def test_wildcards_go_to_the_oldest_matching(ring):
    a = ring.w.iorecv(oompi.ANY_SOURCE, 7, type=str)
    b = ring.w.iorecv(ring.frm, oompi.ANY_TAG, type=str)
    c = ring.w.iorecv(ring.frm, 7, type=str)
    d = ring.w.iorecv(oompi.ANY_SOURCE, oompi.ANY_TAG, type=str)
    for text, tag in (("m1", 7), ("m2", 8), ("m3", 7), ("m4", 9)):
        ring.send(text, tag)
    assert d.wait() == ring.expected("m4", 9)
    assert d.status.tag == 9
    assert c.wait() == ring.expected("m3", 7)
    assert b.wait() == ring.expected("m2", 8)
    assert a.wait() == ring.expected("m1", 7)


def test_blocking_orecv_and_cancel(ring):
    a = ring.w.iorecv(ring.frm, 10, type=str)
    ring.send("first", 10)
    ring.send("second", 10)
    assert ring.w.orecv(ring.frm, 10, type=str) == ring.expected("second", 10)
    assert a.wait() == ring.expected("first", 10)

    dropped = ring.w.iorecv(ring.frm, 11, type=str)
    b = ring.w.iorecv(ring.frm, 11, type=str)
    dropped.cancel()
    ring.send("x", 11)
    ring.send("y", 11)
    assert b.wait() == ring.expected("x", 11)
    assert ring.w.orecv(ring.frm, 11, type=str) == ring.expected("y", 11)

    ring.w.iorecv(ring.frm, 12, type=str)  # dropped at once (no reference): withdrawn
    c = ring.w.iorecv(ring.frm, 12, type=str)
    ring.send("p", 12)
    assert c.wait() == ring.expected("p", 12)


def test_two_threads(ring):
    skip_if_self_across_threads(ring.w)  # (the suite runs with MPI_THREAD_MULTIPLE)
    for rnd in range(10):
        a = ring.w.iorecv(ring.frm, 14, type=str)
        b = ring.w.iorecv(ring.frm, 14, type=str)
        got = {}
        tb = threading.Thread(target=lambda: got.__setitem__("b", b.wait()))
        ta = threading.Thread(target=lambda: got.__setitem__("a", a.wait()))
        tb.start()
        ta.start()
        ring.send(f"a{rnd}", 14)
        ring.send(f"b{rnd}", 14)
        ta.join()
        tb.join()
        assert got == {"a": ring.expected(f"a{rnd}", 14), "b": ring.expected(f"b{rnd}", 14)}
