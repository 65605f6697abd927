"""Ranks 1 .. p - 1 of python.interop_csharp (csharp_tests/PythonPeer.cs is rank 0): a C# rank
and Python ranks in one job, no C++ rank.

    mpirun -np 1 dotnet OompiTests.dll python_peer : -np N-1 python3 csharp_peer_python.py

A typed obcast from both sides (in_step), then the pickled steps A-H of pickled_steps.py (1 MiB
of data, some from a pickling Python root), which C# refuses while taking part in every message;
an obcast from both sides after each shows the ranks are still in step. Any mismatch aborts.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import pickled_steps  # noqa: E402
from peer_support import check, in_step, run_peer  # noqa: E402


def run(world):
    check(world.size >= 2 and world.rank >= 1, "run as ranks 1 .. p - 1, after the C# rank")
    in_step(world, 0)
    pickled_steps.run(world, in_step, 1)


run_peer("csharp_peer_python", run)
