#!/usr/bin/env bash
# The ring demo on 4 ranks, on a fresh Debian machine in about a minute: installs only what the
# C++ core needs (scripts/setup.sh --core: a compiler, Open MPI, cereal), compiles the one
# program it runs (the core is header-only: one compile, no CMake configure), and runs it.
# The whole project (every binding, test and bench) is built by scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --core
mkdir -p build-demo
echo "demo: compiling examples/ring.cpp"
# The flags of the CMake target oompi::oompi: C++17, and no deprecated MPI C++ bindings.
mpicxx -std=c++17 -O2 -DOMPI_SKIP_MPICXX -DMPICH_SKIP_MPICXX -Iinclude examples/ring.cpp \
  -o build-demo/ring
flags=()
if mpirun --version 2>/dev/null | grep -q "Open MPI"; then
  flags=(--oversubscribe)
  [ "$(id -u)" -ne 0 ] || flags+=(--allow-run-as-root)
fi
timeout 120 mpirun -np 4 "${flags[@]}" build-demo/ring
