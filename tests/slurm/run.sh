#!/usr/bin/env bash
# One slurm.<lang>.<what> test, on the cluster of scripts/slurm.sh ($OOMPI_SLURM runs a command
# on its login node; scripts/test-slurm.sh sets it up). Exit 77 (skipped) without it.
#   run.sh job  <job script> <build-dir> <scratch-dir>
#       sbatch of the job script (it runs the program with mpirun, then with srun, 4 ranks
#       over 2 nodes): the job must end COMPLETED with exit code 0, every rank of both launches
#       print "ok", and the ranks lie 2 on each node.
#   run.sh fail <job script> <build-dir> <scratch-dir> -- <program command...>
#       the same job with the argument "fail" (the last rank exits with 3 while the others wait
#       in a barrier): the job must end FAILED with a non-zero exit code, not hang; then
#       `srun --mpi=pmix --kill-on-bad-exit=1 -N 2 -n 4 <program> fail` straight from the login
#       node must also end
#       non-zero.
set -euo pipefail
what=$1 job=$2 build=$3 scratch=$4
shift 4
[[ -n ${OOMPI_SLURM:-} ]] ||
  { echo "SKIPPED: no Slurm cluster here: run these tests with scripts/test-slurm.sh"; exit 77; }
rm -rf "$scratch"
mkdir -p "$scratch"
out=$scratch/job.out
args=()
[[ $what == fail ]] && args=(fail)
start=$SECONDS
id=$("$OOMPI_SLURM" sbatch --parsable --output="$out" --export=ALL,OOMPI_BUILD="$build" \
     "$job" "${args[@]}")
id=${id%%;*}
# Its state polled every second (sbatch --wait polls ever more rarely, up to 30 s late); a job
# that never ends is this test's timeout.
while :; do
  state=$("$OOMPI_SLURM" scontrol show job "$id" | grep -o 'JobState=[A-Z_]* \|ExitCode=[0-9:]*' |
          tr -d ' ' | tr '\n' ' ')
  case $state in
    JobState=PENDING*|JobState=CONFIGURING*|JobState=RUNNING*|JobState=COMPLETING*) sleep 1 ;;
    *) break ;;
  esac
done
rc=0
[[ $state == *"ExitCode=0:0 " ]] || rc=1
echo "== job $id: $state($((SECONDS - start)) s); its output:"
cat "$out"
echo "=="
if [[ $what == job ]]; then
  [[ $rc == 0 && $state == "JobState=COMPLETED ExitCode=0:0 " ]] ||
    { echo "FAILED: the job did not complete"; exit 1; }
  oks=$(grep -o 'rank [0-9]*: ok' "$out" | sort | uniq -c | awk '{print $1 "x" $3}' | tr '\n' ' ')
  [[ $oks == "2x0: 2x1: 2x2: 2x3: " ]] ||
    { echo "FAILED: ranks that said ok: $oks(want each of 0-3 twice: by mpirun, by srun)"; exit 1; }
  placement=$(grep -o ' of 4 on oompi-node[0-9]*' "$out" | sort | uniq -c | awk '{print $1, $NF}' | tr '\n' ' ')
  [[ $placement == "4 oompi-node1 4 oompi-node2 " ]] ||
    { echo "FAILED: ranks per node over both launches: $placement(want 4 on each)"; exit 1; }
  echo "slurm: ok, ranks per node over both launches: $placement"
else
  [[ $rc != 0 && $state == "JobState=FAILED "* && $state != *"ExitCode=0:0 "* ]] ||
    { echo "FAILED: a job with a failing rank must end FAILED, non-zero"; exit 1; }
  grep -q 'failing on purpose' "$out" || { echo "FAILED: the failing rank did not run"; exit 1; }
  [[ ${1:-} == -- ]] && shift
  echo "== srun --mpi=pmix --kill-on-bad-exit=1 -N 2 -n 4 $* fail"
  start=$SECONDS
  set +e
  (cd "$build" && OOMPI_BUILD=$build PYTHONPATH=$build/python \
     "$OOMPI_SLURM" srun --mpi=pmix --kill-on-bad-exit=1 -N 2 -n 4 --time=2 "$@" fail)
  rc=$?
  set -e
  echo "== srun exit $rc ($((SECONDS - start)) s)"
  [[ $rc != 0 ]] || { echo "FAILED: srun of a failing rank ended 0"; exit 1; }
  echo "slurm: ok, both failing jobs ended non-zero"
fi
