#!/usr/bin/env bash
# The long fuzzing run as a bench (bench/run.sh --only=fuzz_wire): fuzzes the wire v1
# deserializer for --seconds (600; --quick: 20) and prints JSON records (docs/bench.md): the
# executions per second, the coverage reached, and an error record if anything was found.
# Usage: bench_fuzz.sh FUZZER WORK_CORPUS SEED_CORPUS [--seconds=S] [--quick]
set -uo pipefail
fuzzer=$1 work=$2 seeds=$3
shift 3
seconds=600
for a in "$@"; do
  case "$a" in
    --quick) seconds=20 ;;
    --seconds=*) seconds=${a#*=} ;;
  esac
done
mkdir -p "$work"
log=$(mktemp)
cd "$work/.." || exit 1
"$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=512 -max_len=1048576 \
  -print_final_stats=1 "$work" "$seeds" > "$log" 2>&1
rc=$?
stat() { sed -n "s/^stat::$1: *//p" "$log" | tail -1; }
runs=$(stat number_of_executed_units)
rate=$(stat average_exec_per_sec)
cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
units=$(ls "$work" | wc -l)
cat <<JSON
{"type":"meta","bench":"fuzz_wire","title":"libFuzzer over the wire v1 deserializer (ASan, UBSan)","baseline":"fuzz_wire","systems":["fuzz_wire"],"case_label":"run","metrics":{"execs_per_s":{"label":"executions per second","unit":"1/s","better":"higher"},"coverage":{"label":"coverage","unit":"edges","better":"higher"}},"notes":["${runs:-0} inputs in ${seconds} s, corpus of ${units} inputs in ${work}; exit code ${rc}."]}
{"type":"sample","bench":"fuzz_wire","case":"${seconds} s","system":"fuzz_wire","round":0,"metric":"execs_per_s","value":${rate:-0}}
{"type":"sample","bench":"fuzz_wire","case":"${seconds} s","system":"fuzz_wire","round":0,"metric":"coverage","value":${cov:-0}}
JSON
if [ "$rc" != 0 ]; then
  what=$(grep -m1 -E "ERROR|SUMMARY|deadly signal" "$log" | tr '"\\' "'/")
  echo "{\"type\":\"error\",\"bench\":\"fuzz_wire\",\"text\":\"the fuzzer found a problem (exit $rc): ${what}; artifacts in $(pwd)\"}"
  tail -40 "$log" >&2
fi
rm -f "$log"
exit "$rc"
