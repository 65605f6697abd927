#!/usr/bin/env bash
# Sets up a fresh Debian machine, builds oompi and runs the ring demo on 4 ranks.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j "$(nproc)"
flags=()
if mpirun --version 2>/dev/null | grep -q "Open MPI"; then
  flags=(--oversubscribe)
  [ "$(id -u)" -ne 0 ] || flags+=(--allow-run-as-root)
fi
mpirun -np 4 "${flags[@]}" build/examples/ring
