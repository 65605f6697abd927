#!/usr/bin/env bash
# Builds the libFuzzer target with clang and fuzzes the wire v1 deserializer.
# Usage: fuzz/run.sh [seconds=900] [build-dir=build-fuzz]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-900}
build=${2:-build-fuzz}
cxx=$(command -v clang++ || command -v clang++-14)
cmake -S fuzz -B "$build" -G Ninja -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build "$build"
mkdir -p "$build/corpus-work"
exec "$build/fuzz_wire" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=512 \
  -max_len=1048576 -print_final_stats=1 "$build/corpus-work" fuzz/corpus
