#!/usr/bin/env bash
# Installs oompi (the header-only core: nothing to build) from the source tree into a scratch prefix, builds tests/packaging against
# it with find_package(oompi), and runs the result under the MPI launcher.
# Usage: run.sh <source-dir> <scratch-dir> <MPI C compiler> <MPI C++ compiler>
#               <launcher and its flags...>
# The MPI compiler wrappers are FindMPI's hints: the MPI of the calling build, not the default one.
set -euo pipefail
src=$1 scratch=$2
mpi=(-DMPI_C_COMPILER="$3" -DMPI_CXX_COMPILER="$4")
shift 4
rm -rf "$scratch"
cmake -S "$src" -B "$scratch/build" -DCMAKE_INSTALL_PREFIX="$scratch/prefix" "${mpi[@]}" \
  -DOOMPI_BUILD_TESTS=OFF -DOOMPI_BUILD_EXAMPLES=OFF -DOOMPI_BUILD_BENCH=OFF \
  -DOOMPI_BUILD_BINDINGS=OFF >/dev/null
cmake --install "$scratch/build" >/dev/null
cmake -S "$src/tests/packaging" -B "$scratch/consumer" -DCMAKE_PREFIX_PATH="$scratch/prefix" \
  "${mpi[@]}" >/dev/null
cmake --build "$scratch/consumer" >/dev/null
"$@" "$scratch/consumer/consumer"
