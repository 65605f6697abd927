#!/usr/bin/env bash
# python.install: installs the build (`cmake --install`) into a scratch prefix, then runs a
# program that imports oompi from the installed site-packages directory, not the build tree,
# under the MPI launcher.
# Usage: install_check.sh <build-dir> <scratch-dir> <site-dir relative to prefix> <python>
#        <launcher and its flags...>
set -euo pipefail
build=$1 scratch=$2 site=$3 python=$4
shift 4
rm -rf "$scratch"
cmake --install "$build" --prefix "$scratch/prefix" >/dev/null
mkdir -p "$scratch/run"
cat > "$scratch/run/app.py" <<'PY'
import os, sys
import numpy as np
import oompi
assert os.path.realpath(oompi.__file__).startswith(os.path.realpath(sys.argv[1])), oompi.__file__
with oompi.Environment():
    world = oompi.Comm.world()
    total = np.zeros(1, dtype=np.int64)
    world.allreduce(np.array([world.rank + 1], dtype=np.int64), total, oompi.SUM)
    n = world.size
    assert total[0] == n * (n + 1) // 2, total
    req = world.iorecv((world.rank - 1) % n)  # nothing received until wait()
    # Without blocking: at 1 rank to this process itself, and a blocking send may wait until
    # its receive is posted (MPICH 4.0's send to oneself does).
    sent = world.iosend({"from": world.rank}, (world.rank + 1) % n)
    got = req.wait()
    sent.wait()
    assert got == {"from": (world.rank - 1) % n}, got
    if world.rank == 0:
        print("installed oompi works from", os.path.dirname(oompi.__file__))
PY
cd "$scratch/run"
PYTHONPATH="$scratch/prefix/$site" "$@" "$python" app.py "$scratch/prefix"
