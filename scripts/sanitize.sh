#!/usr/bin/env bash
# Builds the C++ tests and examples with AddressSanitizer + UndefinedBehaviorSanitizer and runs
# them (every registered rank count: 1, 2, 4 and the odd ones some tests add) with CTest.
# Usage: scripts/sanitize.sh [build-dir]   (default: build-asan)
# Environment: OOMPI_SANITIZE (default address,undefined), JOBS (default nproc),
#              CTEST_ARGS (extra ctest arguments, e.g. "-R cpp.ops").
# A sanitizer finding ends the rank with a nonzero code (halt_on_error, -fno-sanitize-recover),
# which fails the test. Leak checking is off: Open MPI keeps allocations from MPI_Init to exit
# (and its own plugins are not instrumented), so LeakSanitizer reports would be all Open MPI's.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-asan}
jobs=${JOBS:-$(nproc)}
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)

t0=$(date +%s)
# -O1 -g: the usual sanitizer build (readable reports, quicker to compile); asserts stay on.
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" \
  -DOOMPI_SANITIZE="${OOMPI_SANITIZE:-address,undefined}" \
  -DOOMPI_BUILD_BINDINGS=OFF -DOOMPI_BUILD_BENCH=OFF -DOOMPI_BUILD_FUZZ=OFF \
  -DOOMPI_BUILD_TESTS=ON -DOOMPI_BUILD_EXAMPLES=ON >/dev/null
cmake --build "$build" -j "$jobs"
t1=$(date +%s)

# A report from inside Open MPI itself would be suppressed by name in scripts/sanitize.supp
# (none is needed so far).
supp=$PWD/scripts/sanitize.supp
export ASAN_OPTIONS="detect_leaks=0:halt_on_error=1:abort_on_error=0:strict_string_checks=1:check_initialization_order=1:suppressions=$supp${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
# The packaging test builds a separate project and the compile_fail tests only compile: neither
# runs instrumented code.
ctest --test-dir "$build" --output-on-failure -j "$jobs" -E 'packaging|compile_fail' \
  ${CTEST_ARGS:-}
t2=$(date +%s)
echo "sanitize: build $((t1 - t0)) s, tests $((t2 - t1)) s (${OOMPI_SANITIZE:-address,undefined})"
