"""Pickled object collectives (no type=) on Python ranks 1 .. p - 1 against a rank 0 of another
language (C++: tests/interop/coll_peer.cpp, Java: PythonPeerJava.java, C#: PythonPeer.cs, which
run the same steps), with data large enough that a rank left out of a message would make its
sender wait (1 MiB; the split collectives at both limits). Rank 0 cannot read pickles: it refuses
every step, and must still take part in whatever messages the others send, so that nobody waits
and the next collective (in_step: typed obcasts from 0 and from L) matches.

  A. obcast from L of {"array": 1 MiB NumPy array (out of band), "bytes": 1 MiB (in band)}:
     rank 0 throws invalid argument (a Python rank pickles); the Python ranks get the object.
  B. oscatter from L of p items of 1 MiB each (one Scatterv); C. the same on the large path
     (OBJECT_INT_LIMIT = 64 on every rank: one message per rank, tag 14). Rank 0 throws invalid
     argument; the Python ranks get their item.
  D. obcast from 0 of a node with 2^18 ints: rank 0 succeeds, the Python ranks raise TypeError.
  E. oscatter from 0 of p such nodes on the large path: the same.
  F. oallgather, G. oalltoall, 1 MiB per rank, large path: rank 0 throws invalid argument, the
     Python ranks raise TypeError (the codes tell everyone before any bytes move).
  H. oallreduce of 1 MiB strings: rank 0 cannot read the pickles (its own serialization error),
     the Python ranks raise SerializationError.
"""
import numpy as np

import oompi
import oompi.objects as objects

BIG = 1 << 20
STEPS = 8  # A .. H


def _expect(what, kind, f):
    try:
        got = f()
    except kind as e:
        print("rank %d, %s: %s: %s" % (oompi.Comm.world().rank, what, type(e).__name__, e))
        return None
    except BaseException as e:
        raise AssertionError("%s: expected %s, got %r" % (what, kind.__name__, e)) from e
    raise AssertionError("%s: did not raise (returned %r)" % (what, type(got).__name__))


def _check(ok, what):
    if not ok:
        raise AssertionError(what)


def run(world, in_step, first):
    """Steps A .. H as first .. first + 7, each followed by in_step(world, n)."""
    p, me = world.size, world.rank
    last = p - 1
    n = first

    # A. obcast from L, pickled, with an out-of-band buffer
    obj = None
    if me == last:
        obj = {"array": np.full(BIG, 7, np.uint8), "bytes": b"b" * BIG}
    got = world.obcast(obj, last)
    _check(got is obj if me == last else
           (int(got["array"].sum()) == 7 * BIG and got["bytes"] == b"b" * BIG),
           "A. pickled obcast from L")
    in_step(world, n)
    n += 1

    # B. oscatter from L, pickled (Scatterv), C. on the large path
    for step, limit in (("B", 0x7FFFFFFF), ("C", 64)):
        objects.OBJECT_INT_LIMIT = limit
        try:
            items = [bytes([i]) * BIG for i in range(p)] if me == last else None
            mine = world.oscatter(items, last)
        finally:
            objects.OBJECT_INT_LIMIT = 0x7FFFFFFF
        _check(mine == bytes([me]) * BIG, step + ". pickled oscatter from L")
        in_step(world, n)
        n += 1

    # D. obcast from 0 (typed there) to pickling ranks
    _expect("D. obcast from rank 0, pickled here", TypeError, lambda: world.obcast(None, 0))
    in_step(world, n)
    n += 1

    objects.OBJECT_INT_LIMIT = 64  # E .. G on the large path
    try:
        # E. oscatter from 0 to pickling ranks
        _expect("E. oscatter from rank 0, pickled here", TypeError,
                lambda: world.oscatter(None, 0))
        in_step(world, n)
        n += 1
        # F. oallgather, G. oalltoall with pickling ranks
        _expect("F. oallgather, pickled here", TypeError,
                lambda: world.oallgather(b"f" * BIG))
        in_step(world, n)
        n += 1
        _expect("G. oalltoall, pickled here", TypeError,
                lambda: world.oalltoall([b"g" * BIG] * p))
        in_step(world, n)
        n += 1
    finally:
        objects.OBJECT_INT_LIMIT = 0x7FFFFFFF

    # H. oallreduce: rank 0 cannot read the pickles it receives
    _expect("H. oallreduce, pickled here", oompi.SerializationError,
            lambda: world.oallreduce("h" * BIG, lambda x, y: x + y))
    in_step(world, n)
    return n + 1
