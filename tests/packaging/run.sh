#!/usr/bin/env bash
# Installs oompi (the header-only core: nothing to build) from the source tree into a scratch prefix, builds tests/packaging against
# it with find_package(oompi), and runs the result under the MPI launcher.
# Usage: run.sh <source-dir> <scratch-dir> <launcher and its flags...>
set -euo pipefail
src=$1 scratch=$2
shift 2
rm -rf "$scratch"
cmake -S "$src" -B "$scratch/build" -DCMAKE_INSTALL_PREFIX="$scratch/prefix" \
  -DOOMPI_BUILD_TESTS=OFF -DOOMPI_BUILD_EXAMPLES=OFF -DOOMPI_BUILD_BENCH=OFF \
  -DOOMPI_BUILD_BINDINGS=OFF >/dev/null
cmake --install "$scratch/build" >/dev/null
cmake -S "$src/tests/packaging" -B "$scratch/consumer" -DCMAKE_PREFIX_PATH="$scratch/prefix" >/dev/null
cmake --build "$scratch/consumer" >/dev/null
"$@" "$scratch/consumer/consumer"
