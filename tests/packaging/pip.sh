#!/usr/bin/env bash
# packaging.pip: `pip wheel .` of the source tree (pyproject.toml, swig/python/oompi_pep517.py)
# makes a wheel, which `pip install` puts into a fresh virtual environment, offline (--no-index)
# (what `pip install .` does in one step); then a job of consumer.py run by the venv's
# interpreter, which must import oompi from the venv; `pip uninstall` removes it again.
# The venv sees the system's site-packages: oompi needs NumPy at run time, and here NumPy comes
# only from Debian (python3-numpy), PyPI being out of reach. To keep the test short the wheel is
# made from this build directory (-C build-dir: its Python module, built already, is reused);
# without it, pip builds the module afresh in a temporary directory.
# Usage: pip.sh <source-dir> <build-dir> <scratch-dir> <python> <launcher and its flags...>
set -euo pipefail
src=$1 build=$2 scratch=$3 python=$4
shift 4
rm -rf "$scratch"
mkdir -p "$scratch"
"$python" -m venv --system-site-packages "$scratch/venv" \
  || { echo "no venv: install python3-venv (scripts/setup.sh)"; exit 1; }
venv_python=$scratch/venv/bin/python
export PYTHONDONTWRITEBYTECODE=1 PIP_DISABLE_PIP_VERSION_CHECK=1
"$venv_python" -m pip wheel --no-deps --no-index --no-cache-dir --no-build-isolation \
  --config-settings build-dir="$build" --wheel-dir "$scratch/wheels" "$src"
wheels=("$scratch"/wheels/oompi-*.whl)
[[ ${#wheels[@]} == 1 && -f ${wheels[0]} ]] || { ls -l "$scratch/wheels"; echo "not one oompi wheel"; exit 1; }
"$venv_python" -m zipfile -l "${wheels[0]}"
"$venv_python" -m pip install --no-index --no-cache-dir "${wheels[0]}"
cp "$src/tests/packaging/consumer.py" "$scratch/"
cd "$scratch"
"$@" "$venv_python" consumer.py "$scratch/venv"
"$venv_python" -m pip uninstall -y oompi
if "$venv_python" -c "import oompi" 2>/dev/null; then
  echo "oompi still importable after pip uninstall"
  exit 1
fi
