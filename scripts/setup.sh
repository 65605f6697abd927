#!/usr/bin/env bash
# Installs, idempotently, the Debian packages oompi needs to build, test and bench.
# Safe to run again: apt-get skips what is already there.
#   scripts/setup.sh          everything: every binding, both MPIs, tests, bench, docs
#   scripts/setup.sh --core   only what the C++ core needs (compiler, Open MPI, cereal):
#                             enough for scripts/demo.sh (on a fresh Debian 12: 110 packages,
#                             114 MB to download, against 375 packages, 482 MB for everything)
#   scripts/setup.sh --slurm  Slurm and munge only (scripts/slurm.sh, scripts/test-slurm.sh)
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  openmpi-bin libopenmpi-dev                       # the MPI library, the default one
  mpich libmpich-dev                               # the second MPI (scripts/test-mpich.sh)
  libcereal-dev                                    # default serialization back end
  catch2                                           # C++ tests (Catch2 2.13)
  libboost-mpi-dev libboost-serialization-dev      # Boost back end and bench peer
  swig                                             # bindings generator
  openjdk-17-jdk-headless junit5                   # Java binding and its tests
  libkryo-java                                     # bench peer of java_objects_list (Kryo)
  python3-dev python3-numpy python3-pytest python3-mpi4py  # Python binding, tests, bench peer
  python3-venv                                     # packaging.pip: a fresh venv with pip (ensurepip)
  valgrind python3-matplotlib                      # bench/: callgrind counts, plots
  clang-14 libclang-rt-14-dev                      # libFuzzer target (OOMPI_BUILD_FUZZ), eBPF of multihost.sh
  nftables                                         # multihost.sh --netem: 1 % loss where netem is missing
  doxygen python3-sphinx                           # the API reference (--target docs, docs.build)
  maven libmaven-compiler-plugin-java             # packaging.maven: an offline Maven build against
  libmaven-resources-plugin-java libexec-maven-plugin-java  # the installed repository
)
if [ "${1:-}" = --core ]; then
  packages=(g++ openmpi-bin libopenmpi-dev libcereal-dev)
elif [ "${1:-}" = --slurm ]; then
  packages=(slurm-wlm munge)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# Open MPI stays the default MPI (mpicc, mpirun, mpi.h, libmpi.so): its alternatives have the
# higher priority, but installing MPICH must not move a choice made before either; the build
# reaches MPICH by its own names (mpicc.mpich, mpiexec.mpich).
# (On a fresh machine neither MPI nor dpkg-dev may be there yet: nothing to keep then.)
arch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch 2>/dev/null || true)
alternatives=(mpi mpirun)
[ -n "$arch" ] && alternatives+=("mpi-$arch")
declare -A before
for a in "${alternatives[@]}"; do
  before[$a]=$( (update-alternatives --query "$a" 2>/dev/null || true) | sed -n 's/^Value: //p')
done

$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"

for a in "${alternatives[@]}"; do
  query=$(update-alternatives --query "$a" 2>/dev/null) || continue
  now=$(sed -n 's/^Value: //p' <<<"$query")
  want=${before[$a]:-$(sed -n 's/^Alternative: \(.*openmpi.*\)/\1/p' <<<"$query" | head -n1)}
  if [ -n "$want" ] && [ "$now" != "$want" ]; then
    echo "setup: $a back to $want (was moved to $now)"
    $SUDO update-alternatives --set "$a" "$want"
  fi
done
