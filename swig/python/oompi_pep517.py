"""oompi's PEP 517 build backend (pyproject.toml): ``pip install .`` builds the Python binding
with CMake, against the system's MPI, SWIG and compiler, and packs it as a wheel. It needs
nothing from PyPI (``requires = []``), so it works offline and with or without build isolation;
with isolation, NumPy is out of sight at build time and the module goes without NumPy's headers
(every buffer then takes the generic buffer-protocol path): prefer ``--no-build-isolation``.

Config settings (``pip install -C key=value .``):
  build-dir=DIR   the CMake build directory (default: a temporary one). One that is configured
                  already is reused as it is: only its Python module is built (if not yet).
Environment: CMAKE_ARGS, more arguments for the configure step, e.g.
  CMAKE_ARGS="-DMPI_C_COMPILER=mpicc.mpich -DMPI_CXX_COMPILER=mpicxx.mpich" for MPICH;
  CMAKE_BUILD_PARALLEL_LEVEL, the number of compile jobs (default: the number of CPUs).
"""

import base64
import hashlib
import os
import re
import shlex
import subprocess
import sys
import sysconfig
import tempfile
import zipfile
from pathlib import Path

_SOURCE = Path(__file__).resolve().parents[2]


def _version():
    text = (_SOURCE / "CMakeLists.txt").read_text()
    return re.search(r"project\(oompi\s+VERSION\s+([0-9.]+)", text).group(1)


def _tag():
    # The interpreter building the wheel is the one it is for: the module is CPython-specific.
    py = "cp%d%d" % sys.version_info[:2]
    platform = re.sub(r"[-.]", "_", sysconfig.get_platform())
    return f"{py}-{py}{sys.abiflags}-{platform}"


def _run(*cmd):
    print("oompi:", " ".join(map(str, cmd)), flush=True)
    subprocess.run([str(c) for c in cmd], check=True)


def _build(build_dir, stage):
    """Configures (unless configured already), builds the module, installs it into stage."""
    if not (build_dir / "CMakeCache.txt").exists():
        _run("cmake", "-S", _SOURCE, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release",
             f"-DPython_EXECUTABLE={sys.executable}", "-DOOMPI_BUILD_TESTS=OFF",
             "-DOOMPI_BUILD_EXAMPLES=OFF", "-DOOMPI_BUILD_BENCH=OFF", "-DOOMPI_BUILD_JAVA=OFF",
             "-DOOMPI_BUILD_CSHARP=OFF", "-DOOMPI_BUILD_PYTHON=ON",
             *shlex.split(os.environ.get("CMAKE_ARGS", "")))
    jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
    _run("cmake", "--build", build_dir, "--target", "oompi_python", "--parallel", jobs)
    _run("cmake", "--install", build_dir, "--component", "python", "--prefix", stage)
    found = [p.parent for p in Path(stage).rglob("oompi/__init__.py")]
    if len(found) != 1:
        raise RuntimeError(f"oompi: no Python package installed from {build_dir} "
                           "(configured with -DOOMPI_BUILD_PYTHON=OFF?)")
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    if not list(found[0].glob("_core" + suffix)):
        raise RuntimeError(f"oompi: {build_dir} holds no _core{suffix}: it was configured for "
                           f"another Python than {sys.executable}")
    return found[0]


def _record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    settings = config_settings or {}
    try:
        import numpy  # noqa: F401
    except ImportError:
        print("oompi: NumPy is not importable here (build isolation?): building without its "
              "headers; pip install --no-build-isolation builds the faster module", flush=True)
    version, tag = _version(), _tag()
    dist_info = f"oompi-{version}.dist-info"
    files = {}
    with tempfile.TemporaryDirectory(prefix="oompi-wheel-") as tmp:
        build_dir = Path(settings.get("build-dir") or Path(tmp) / "build").resolve()
        package = _build(build_dir, Path(tmp) / "stage")
        for f in sorted(package.rglob("*")):
            if f.is_file() and "__pycache__" not in f.parts:
                files[f"oompi/{f.relative_to(package).as_posix()}"] = f.read_bytes()
    files[f"{dist_info}/METADATA"] = (
        "Metadata-Version: 2.1\nName: oompi\n"
        f"Version: {version}\n"
        "Summary: Object-oriented MPI for Python (on oompi's C++ core)\n"
        "Requires-Python: >=3.8\nRequires-Dist: numpy\n").encode()
    files[f"{dist_info}/WHEEL"] = (
        "Wheel-Version: 1.0\nGenerator: oompi_pep517\nRoot-Is-Purelib: false\n"
        f"Tag: {tag}\n").encode()
    record = [_record_line(name, data) for name, data in files.items()]
    files[f"{dist_info}/RECORD"] = ("\n".join(record + [f"{dist_info}/RECORD,,"]) + "\n").encode()
    wheel = f"oompi-{version}-{tag}.whl"
    with zipfile.ZipFile(Path(wheel_directory) / wheel, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files.items():
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            # Executable bits for the module, read bits for everything.
            info.external_attr = (0o755 if name.endswith(".so") else 0o644) << 16
            z.writestr(info, data, zipfile.ZIP_DEFLATED)
    return wheel
