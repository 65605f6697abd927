"""Ranks 1 .. p - 1 of python.interop_csharp (csharp_tests/PythonPeer.cs is rank 0): a C# rank
and Python ranks in one job, no C++ rank.

    mpirun -np 1 dotnet OompiTests.dll python_peer : -np N-1 python3 csharp_peer_python.py

A typed obcast from both sides (in_step), then the pickled steps A-H of pickled_steps.py (1 MiB
of data, some from a pickling Python root), which C# refuses while taking part in every message;
an obcast from both sides after each shows the ranks are still in step. Any mismatch aborts.
"""
import os
import sys
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import oompi  # noqa: E402
import pickled_steps  # noqa: E402
from golden_types import ListNode  # noqa: E402

NODE = oompi.Ref(ListNode)


def in_step(world, n):
    x = world.obcast(None, 0, type=NODE)
    if x is None or x.data != [1000 + n]:
        raise AssertionError("in step after %d (from 0)" % n)
    last = world.size - 1
    y = world.obcast(ListNode([2000 + n]) if world.rank == last else None, last, type=NODE)
    if y.data != [2000 + n]:
        raise AssertionError("in step after %d (from L)" % n)


with oompi.Environment() as env:
    world = oompi.Comm.world()
    try:
        if world.size < 2 or world.rank < 1:
            raise AssertionError("run as ranks 1 .. p - 1, after the C# rank")
        in_step(world, 0)
        pickled_steps.run(world, in_step, 1)
    except BaseException:
        print("csharp_peer_python (rank %d): FAILED" % world.rank, file=sys.stderr)
        traceback.print_exc()
        sys.stderr.flush()
        oompi.Environment.abort(1)
    if world.rank == world.size - 1:
        print("csharp_peer_python: ok")
