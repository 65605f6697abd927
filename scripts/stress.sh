#!/usr/bin/env bash
# Stress runs of oompi, not part of the CTest suite (minutes, and gigabytes of memory): at each
# rank count (2 and 4), tests/stress/stress.cpp runs
#   requests  10,000 isends and 10,000 irecvs outstanding per rank (wait_all, wait_some, and
#             10,000 pending object sends and receives)
#   large     one 2.5 GiB message rank 0 -> 1 and one 2.5 GiB bcast, checksummed (oompi's
#             large-count path); skipped with a message when MemAvailable < ranks x 2.5 GiB + 1 GiB
#   soak      random sizes (0 B to 8 MiB) and random object graphs (shared and cyclic
#             references) by point to point, bcast, obcast and oallgather, each checked against
#             the sender's checksum, for --seconds (180); prints messages and bytes soaked
# Each program prints its figures and the peak RSS of a rank.
#
# Usage: scripts/stress.sh [--seconds S] [--ranks "2 4"] [build-dir]
# Exit code nonzero when any run fails or times out (each has a timeout).
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=180 ranks="2 4" build=build
while [[ $# -gt 0 ]]; do
  case $1 in
    --seconds) seconds=$2; shift 2 ;;
    --ranks) ranks=$2; shift 2 ;;
    -*) echo "stress: unknown option $1" >&2; exit 2 ;;
    *) build=$1; shift ;;
  esac
done
[[ -f $build/CMakeCache.txt ]] || cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo || exit 1
cmake --build "$build" --target stress -j "$(nproc)" || exit 1

mpirun=${MPIEXEC:-mpirun} flags=()
if "$mpirun" --version 2>/dev/null | grep -Eq "Open MPI|OpenRTE"; then
  flags=(--oversubscribe)  # more ranks than cores
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi

failed=0
run() {  # run <timeout> <np> <mode> [options]
  local limit=$1 np=$2 start=$SECONDS
  shift 2
  echo "== stress $* at $np ranks"
  timeout -k 10 "$limit" "$mpirun" -np "$np" "${flags[@]}" "$build/tests/stress/stress" "$@"
  local rc=$?
  echo "== stress $1 at $np ranks: exit code $rc, $((SECONDS - start)) s wall"
  ((rc == 124)) && echo "== TIMEOUT after $limit s"
  ((rc == 0)) || failed=1
}
for np in $ranks; do
  run 600 "$np" requests
  run 1200 "$np" large
  run $((${seconds%.*} + 300)) "$np" soak --seconds "$seconds"
done
((failed)) && echo "stress: FAILED (see above)" || echo "stress: all runs ok"
exit $failed
