#!/usr/bin/env bash
# Builds oompi against MPICH, installed beside the default Open MPI and reached by its own names
# (FindMPI's hints), in a second build dir, and runs the suite there with CTest. The tests are
# named mpich.<lang>.<area>.np<N> and carry the label `mpich`.
# Usage: scripts/test-mpich.sh [--core] [build-dir]   (default: build-mpich)
#   --core   the C++ core only (tests and examples; no bindings, no benches): what CI runs.
# Extra ctest arguments can be given in CTEST_ARGS.
set -euo pipefail
cd "$(dirname "$0")/.."
scope=()
if [[ ${1:-} == --core ]]; then
  scope=(-DOOMPI_BUILD_BINDINGS=OFF -DOOMPI_BUILD_BENCH=OFF)
  shift
fi
build=${1:-build-mpich}
start=$SECONDS
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DMPI_C_COMPILER=mpicc.mpich -DMPI_CXX_COMPILER=mpicxx.mpich \
  -DMPIEXEC_EXECUTABLE="$(command -v mpiexec.mpich)" -DOOMPI_TEST_PREFIX=mpich. "${scope[@]}"
cmake --build "$build" -j "$(nproc)"
built=$SECONDS
rc=0
read -r -a extra <<< "${CTEST_ARGS:-}"  # split on blanks, no globbing of the regexes
ctest --test-dir "$build" --output-on-failure -j "$(nproc)" "${extra[@]}" || rc=$?
echo "test-mpich: build $((built - start)) s, tests $((SECONDS - built)) s"
exit $rc
