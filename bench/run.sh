#!/usr/bin/env bash
# Builds and runs every registered benchmark and writes bench/results/report.md.
#
#   bench/run.sh [build-dir] [--quick] [--only=a,b] [--no-build] [--out=dir] [--group-rounds=N]
#                [--publish]
#
# --publish (a full run only): also writes docs/bench-results.md and its plots
# (docs/bench-results/), the results page that docs/bench.md links to.
# build-dir defaults to ./build (configured here, RelWithDebInfo = -O2 -g, if it does not
# exist). Benches are registered in CMake with oompi_add_bench (bench/OompiBench.cmake), which
# writes one manifest per bench into <build-dir>/bench/manifest/. Each bench prints result
# records as JSON lines (docs/bench.md); report.py turns them into tables of ratios.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="" quick=0 only="" do_build=1 out="$repo/bench/results" group_rounds=20 publish=0
for a in "$@"; do
  case "$a" in
    --quick) quick=1 ;;
    --only=*) only=",${a#*=}," ;;
    --no-build) do_build=0 ;;
    --out=*) out="${a#*=}" ;;
    --group-rounds=*) group_rounds="${a#*=}" ;;
    --publish) publish=1 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    -*) echo "run.sh: unknown option $a" >&2; exit 2 ;;
    *) build="$a" ;;
  esac
done
build="${build:-$repo/build}"
if [ "$publish" = 1 ] && { [ "$quick" = 1 ] || [ -n "$only" ]; }; then
  echo "run.sh: --publish wants a full run (no --quick, no --only)" >&2
  exit 2
fi
python="${OOMPI_BENCH_PYTHON:-/usr/bin/python3}"   # the system Python has numpy/matplotlib
[ -x "$python" ] || python="$(command -v python3)"

# --- build ---------------------------------------------------------------------------------
if [ ! -f "$build/CMakeCache.txt" ]; then
  gen=()
  command -v ninja >/dev/null && gen=(-G Ninja)
  cmake -S "$repo" -B "$build" "${gen[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo
fi
cache() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt" | head -1; }
build_type="$(cache CMAKE_BUILD_TYPE)"
case "$build_type" in
  Release|RelWithDebInfo) ;;
  *) echo "run.sh: warning: $build is a '${build_type:-no type}' build; benchmark a Release or" \
          "RelWithDebInfo build (cmake -DCMAKE_BUILD_TYPE=RelWithDebInfo)" >&2 ;;
esac
if [ "$do_build" = 1 ]; then
  cmake --build "$build" --target bench_programs -j2
fi
manifests=("$build"/bench/manifest/*.bench)
[ -e "${manifests[0]}" ] || { echo "run.sh: no benches registered in $build" >&2; exit 1; }

# --- the launcher, as the tests use it ------------------------------------------------------
mpiexec="$(cache MPIEXEC_EXECUTABLE)"
mpiexec="${mpiexec:-mpirun}"
np_flag="$(cache MPIEXEC_NUMPROC_FLAG)"
np_flag="${np_flag:--np}"
flags="$(cache OOMPI_MPIEXEC_FLAGS_INTERNAL) $(cache OOMPI_MPIEXEC_FLAGS) $(cache MPIEXEC_PREFLAGS)"
flags="$(echo "$flags" | tr ';' ' ' | xargs)"
if "$mpiexec" --version 2>/dev/null | grep -qE "Open MPI|OpenRTE"; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
export OOMPI_BENCH_MPIEXEC="$mpiexec${flags:+ $flags}"
export OOMPI_BENCH_NUMPROC_FLAG="$np_flag"
export OOMPI_BENCH_PYTHON="$python"

raw="$out/raw"
work="$out/work"
mkdir -p "$out"
rm -rf "$raw" "$work"
mkdir -p "$raw" "$work"
export OOMPI_BENCH_WORK="$work"

json_str() { "$python" -c 'import json,sys; print(json.dumps(sys.argv[1]))' "$1"; }
loadavg() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?"; }

# --- environment record ---------------------------------------------------------------------
cxx="$(cache CMAKE_CXX_COMPILER)"
flags_var="CMAKE_CXX_FLAGS_$(echo "$build_type" | tr '[:lower:]' '[:upper:]')"
cxx_flags="$(cache CMAKE_CXX_FLAGS) $(cache "$flags_var")"
git_rev="$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo "?")"
git -C "$repo" diff --quiet HEAD 2>/dev/null || git_rev="$git_rev (with uncommitted changes)"
cpu="$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)"
load_start="$(loadavg)"
start_s=$(date +%s)

# --- run ------------------------------------------------------------------------------------
field() { sed -n "s/^$1=//p" "$2" | head -1; }
args_of() { sed -n "s/^$1=//p" "$2"; }

# Runs one invocation of a bench; stdout appended to $raw/<name>.jsonl.
run_one() {  # manifest extra-args...
  local m="$1"; shift
  local name ranks launch timeout_s
  name="$(field name "$m")"; ranks="$(field ranks "$m")"
  launch="$(field launch "$m")"; timeout_s="$(field timeout "$m")"
  local cmd=()
  while IFS= read -r a; do cmd+=("$a"); done < <(args_of arg "$m")
  if [ "$quick" = 1 ]; then
    while IFS= read -r a; do cmd+=("$a"); done < <(args_of quick "$m")
  fi
  cmd+=("$@")
  local pre=()
  if [ "$launch" = mpi ]; then
    # shellcheck disable=SC2206  # the launcher is a command with its flags
    pre=($OOMPI_BENCH_MPIEXEC "$np_flag" "$ranks")
  fi
  local rc=0
  timeout "${timeout_s:-300}" "${pre[@]}" "${cmd[@]}" >> "$raw/$name.jsonl" 2>> "$raw/$name.stderr" || rc=$?
  if [ "$rc" != 0 ]; then
    echo "  $name failed (exit $rc); see $raw/$name.stderr" >&2
    echo "{\"type\":\"error\",\"bench\":$(json_str "$name"),\"text\":$(json_str "exit code $rc; stderr in $raw/$name.stderr")}" >> "$raw/$name.jsonl"
  fi
}

selected() {  # name
  [ -z "$only" ] || [[ "$only" == *",$1,"* ]]
}

declare -A groups=()
for m in "${manifests[@]}"; do
  name="$(field name "$m")"
  selected "$name" || continue
  group="$(field group "$m")"
  if [ -n "$group" ]; then
    groups[$group]+="$m "
    continue
  fi
  echo "bench: $name"
  t0=$(date +%s)
  run_one "$m"
  echo "  done in $(( $(date +%s) - t0 )) s"
done
# Grouped benches: one round of each member in turn, round after round.
for group in "${!groups[@]}"; do
  echo "bench group: $group"
  rounds=$group_rounds
  [ "$quick" = 1 ] && rounds=2
  for ((r = 0; r < rounds; r++)); do
    for m in ${groups[$group]}; do
      run_one "$m" --rounds=1 --first-round="$r"
    done
  done
done

# --- report ---------------------------------------------------------------------------------
{
  printf '{"type":"env","date":%s,"host":%s,"cpu":%s,"nproc":%s,' \
    "$(json_str "$(date -u '+%Y-%m-%d %H:%M UTC')")" "$(json_str "$(hostname)")" \
    "$(json_str "$cpu")" "$(json_str "$(nproc)")"
  printf '"load_start":%s,"load_end":%s,"compiler":%s,"build_type":%s,"cxx_flags":%s,' \
    "$(json_str "$load_start")" "$(json_str "$(loadavg)")" \
    "$(json_str "$("$cxx" --version 2>/dev/null | head -1)")" "$(json_str "$build_type")" \
    "$(json_str "$(echo "$cxx_flags" | xargs)")"
  printf '"launcher":%s,"git":%s,"seconds":%s}\n' \
    "$(json_str "$OOMPI_BENCH_MPIEXEC $np_flag N")" "$(json_str "$git_rev")" \
    "$(( $(date +%s) - start_s ))"
} > "$raw/_env.jsonl"

"$python" "$repo/bench/report.py" "$raw"/*.jsonl --out "$out/report.md" \
  --summary "$out/summary.json" --plots "$out"
echo "report: $out/report.md"
if [ "$publish" = 1 ]; then
  results="$repo/docs/bench-results"
  rm -rf "$results"
  "$python" "$repo/bench/report.py" "$raw"/*.jsonl --out "$repo/docs/bench-results.md" \
    --plots "$results" --title "Benchmark results: the latest full run" --published
  echo "published: $repo/docs/bench-results.md (commit it with docs/bench-results/)"
fi
