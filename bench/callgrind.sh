#!/usr/bin/env bash
# Instructions per round trip under callgrind, as result records (JSON lines) on stdout.
#
#   callgrind.sh --bench=NAME [--ranks=N] [--keep=DIR] -- PROGRAM --mode=count [ARGS...]
#
# Runs PROGRAM under `valgrind --tool=callgrind` on N ranks (2 by default), collecting only
# inside its bench_measured_* functions, then callgrind.py turns the per-system dumps into
# records. The launcher comes from OOMPI_BENCH_MPIEXEC (set by bench/run.sh), else mpirun.
# With --keep=DIR (run.sh passes $OOMPI_BENCH_WORK) the dumps stay there for callgrind_annotate.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bench="" ranks=2 keep=""
while [ $# -gt 0 ]; do
  case "$1" in
    --bench=*) bench="${1#*=}" ;;
    --ranks=*) ranks="${1#*=}" ;;
    --keep=*) keep="${1#*=}" ;;
    --) shift; break ;;
    *) echo "callgrind.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
[ -n "$bench" ] && [ $# -gt 0 ] || { echo "usage: callgrind.sh --bench=NAME -- PROGRAM ARGS" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "callgrind.sh: valgrind is not installed" >&2; exit 3; }

python="${OOMPI_BENCH_PYTHON:-/usr/bin/python3}"
[ -x "$python" ] || python=python3
if [ -z "$keep" ] && [ -n "${OOMPI_BENCH_WORK:-}" ]; then keep="$OOMPI_BENCH_WORK"; fi
if [ -n "$keep" ]; then
  dir="$keep/callgrind_$bench"
  rm -rf "$dir"
  mkdir -p "$dir"
else
  dir="$(mktemp -d)"
  trap 'rm -rf "$dir"' EXIT
fi

# shellcheck disable=SC2086  # the launcher is a command with its flags
${OOMPI_BENCH_MPIEXEC:-mpirun} ${OOMPI_BENCH_NUMPROC_FLAG:--np} "$ranks" \
  valgrind -q --tool=callgrind --collect-atstart=no '--toggle-collect=bench_measured_*' \
  --callgrind-out-file="$dir/cg.%p.out" "$@" > "$dir/program.out"
"$python" "$here/callgrind.py" --bench="$bench" --dir="$dir"
