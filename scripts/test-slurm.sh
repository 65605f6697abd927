#!/usr/bin/env bash
# The slurm.* tests: oompi jobs in C++, Java, C# and Python on a real Slurm cluster of two nodes
# made on this machine (scripts/slurm.sh: slurmctld, two slurmd in network namespaces, munge),
# each submitted with sbatch (mpirun in the allocation, then srun --mpi=pmix; 4 ranks over 2
# nodes) and once with a failing rank, which must end the job FAILED, not hang. Needs root.
# Not part of CI's suite (.ci/run): see the README's "Running on a cluster".
# Usage: scripts/test-slurm.sh [build-dir]   (default: build-slurm; CI passes its build-ci)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-slurm}
bash scripts/setup.sh
bash scripts/setup.sh --slurm
# A build directory of its own leaves out what the jobs do not run; an existing one (CI's, after
# scripts/test.sh) keeps its settings and builds only the job programs.
if [[ -f $build/CMakeCache.txt ]]; then
  cmake -S . -B "$build" -DOOMPI_SLURM_TESTS=ON
else
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOOMPI_SLURM_TESTS=ON \
    -DOOMPI_BUILD_EXAMPLES=OFF -DOOMPI_BUILD_BENCH=OFF
fi
cmake --build "$build" -j "$(nproc)" --target oompi_slurm_jobs
rc=0
bash scripts/slurm.sh run -- ctest --test-dir "$build" -L slurm --output-on-failure || rc=$?
if [[ $rc == 77 ]]; then  # scripts/slurm.sh said why: not root, no namespaces, no Slurm
  echo "test-slurm: SKIPPED: this machine cannot host the cluster (the reason is above)"
  exit 0
fi
exit "$rc"
