#!/usr/bin/env bash
# Builds oompi against MPICH, installed beside the default Open MPI and reached by its own names
# (FindMPI's hints), in a second build dir, and runs the whole suite there with CTest. The tests
# are named mpich.<lang>.<area>.np<N> and carry the label `mpich`.
# Usage: scripts/test-mpich.sh [build-dir]   (default: build-mpich)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-mpich}
start=$SECONDS
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DMPI_C_COMPILER=mpicc.mpich -DMPI_CXX_COMPILER=mpicxx.mpich \
  -DMPIEXEC_EXECUTABLE="$(command -v mpiexec.mpich)" -DOOMPI_TEST_PREFIX=mpich.
cmake --build "$build" -j "$(nproc)"
built=$SECONDS
rc=0
ctest --test-dir "$build" --output-on-failure -j "$(nproc)" || rc=$?
echo "test-mpich: build $((built - start)) s, tests $((SECONDS - built)) s"
exit $rc
