"""What the Python ranks of the MPMD tests share (graph_peer_python, coll_peer_python,
java_peer_python, csharp_peer_python): a run in which any exception aborts the whole job, since
the other language's ranks may be waiting in a call this rank will never make (the job's exit
code is the verdict), and the checks that raise."""
import sys
import traceback

import oompi
from golden_types import ListNode

NODE = oompi.Ref(ListNode)


def check(ok, what):
    if not ok:
        raise AssertionError(what)


def expect_raise(what, kind, f):
    """Calls f, which must raise a `kind`; returns what it raised."""
    try:
        f()
    except kind as e:
        return e
    except BaseException as e:
        raise AssertionError("%s: expected %s, got %r" % (what, kind.__name__, e)) from e
    raise AssertionError(what + ": did not raise")


def in_step(world, n):
    """After step n, typed obcasts from rank 0 (the other language's) and from the last rank show
    that the ranks are still in step (pickled_steps.py runs it after each of its steps)."""
    x = world.obcast(None, 0, type=NODE)
    check(x is not None and x.data == [1000 + n], "in step after %d (from 0)" % n)
    last = world.size - 1
    y = world.obcast(ListNode([2000 + n]) if world.rank == last else None, last, type=NODE)
    check(y is not None and y.data == [2000 + n], "in step after %d (from L)" % n)


def run_peer(name, body):
    """Runs body(world) under MPI; aborts the job with exit code 1 when it raises, else the last
    rank prints "<name>: ok"."""
    with oompi.Environment():
        world = oompi.Comm.world()
        try:
            body(world)
        except BaseException:
            print("%s (rank %d): FAILED" % (name, world.rank), file=sys.stderr)
            traceback.print_exc()
            sys.stderr.flush()
            oompi.Environment.abort(1)
        if world.rank == world.size - 1:
            print("%s: ok" % name)


def chain_to_head(node_type, n):
    """A chain of n nodes with data [0] .. [n - 1], every node's `other` the head."""
    head = node_type([0])
    head.other = head
    tail = head
    for i in range(1, n):
        tail.next = node_type([i], head)
        tail = tail.next
    return head
