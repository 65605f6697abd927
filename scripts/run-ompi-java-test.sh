#!/bin/bash
# Runs the test programs of a checkout of open-mpi/ompi-java-test (the programs that shipped
# with Open MPI's Java bindings) against oompi's package mpi (oompi-mpi.jar), unchanged, at 2
# and 4 ranks, one run at a time, each with a timeout. Fetches nothing: give it the checkout.
#
#   scripts/run-ompi-java-test.sh <ompi-java-test checkout> [build dir (default build)] [program ...]
#
# A program is any <dir>/*.java with a main method (the todo/ directories are the suite's own
# unfinished ports and are skipped; performance/ holds benchmarks, not tests). Each is compiled
# with its directory on the source path, so helpers beside it (NiceMsgs, LoopChild) come along.
# The suite's helpers (OmpitestError, OmpitestProgress from reporting/, OmpitestConfig from
# reporting/OmpitestConfig.java.in) are compiled from the checkout when it has them, else from
# small stand-ins written here. A run passes when it exits 0, or 77 (the suite's "needs more
# ranks" skip). Ends with the line "passed N of M runs".
#
# Environment: OJT_TIMEOUT (seconds per run, default 120; dynamic/LoopSpawn spawns up to 400
# JVMs and needs about 600), OJT_NP (rank counts, default "2 4"), OJT_MPIRUN (default mpirun
# --oversubscribe), OMPI_MCA_osc (default: the installation's).
set -u
src=${1:?usage: $0 <ompi-java-test checkout> [build dir] [program ...]}
src=$(cd "$src" && pwd)
build=${2:-build}
shift $(( $# >= 2 ? 2 : 1 ))
jar=$(cd "$build/java" && pwd)/oompi-mpi.jar
[ -f "$jar" ] || { echo "no $jar: build target oompi_mpi_jar first" >&2; exit 2; }
java=${JAVA_HOME:+$JAVA_HOME/bin/}java
javac=${JAVA_HOME:+$JAVA_HOME/bin/}javac
timeout_s=${OJT_TIMEOUT:-120}
read -r -a nps <<< "${OJT_NP:-2 4}"
read -r -a mpirun <<< "${OJT_MPIRUN:-mpirun --oversubscribe}"
work=$(mktemp -d /tmp/ompi-java-test.XXXXXX)
export OMPI_ALLOW_RUN_AS_ROOT=${OMPI_ALLOW_RUN_AS_ROOT:-1} OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM:-1}
# One-sided: the installation's own osc components, as a stranger running these programs has
# them (Debian's Open MPI: osc/rdma). They need 2 or more ranks; oompi's own tests set
# OMPI_MCA_osc=ucx,sm for 1 rank (docs/rma.md), which refuses rGet/rPut in a fence epoch
# (onesided/CRGet, CRPut) where osc/rdma allows them. Set OMPI_MCA_osc to choose.
export UCX_ERROR_SIGNALS=${UCX_ERROR_SIGNALS-}  # UCX's SIGSEGV handler would take the JVM's

mkdir -p "$work/common"
for h in OmpitestError OmpitestProgress; do
  found=$(find "$src" -name "$h.java" -type f ! -path '*/todo/*' | sort | head -1)
  if [ -n "$found" ]; then cp "$found" "$work/common/"; fi
done
config_in=$(find "$src" -name OmpitestConfig.java.in -type f | head -1)
if [ -n "$config_in" ]; then  # what the suite's configure would substitute for Open MPI
  sed -e 's/@OMPITEST_CHECKING_MPI_API_PARAMS@/1/' -e 's/@OMPI_PARAM_CHECK@/1/' \
      -e 's/@OMPITEST_HAVE_MPI_THREADS@/1/' -e 's/@HAVE_DIST_GRAPH@/1/' \
      -e 's/@OMPI_HAVE_MPI_EXT_AFFINITY@/0/' "$config_in" > "$work/common/OmpitestConfig.java"
fi
[ -f "$work/common/OmpitestProgress.java" ] || cat > "$work/common/OmpitestProgress.java" <<'J'
public class OmpitestProgress {
  public static void ompitestProgressStart(int total) {}
  public static void ompitestProgress(int current) {}
  public static void ompitestProgressEnd() {}
}
J
[ -f "$work/common/OmpitestConfig.java" ] || cat > "$work/common/OmpitestConfig.java" <<'J'
public class OmpitestConfig {
  public static final int OMPITEST_CHECKING_MPI_API_PARAMS = 1, OMPI_PARAM_CHECK = 1,
      OMPITEST_HAVE_MPI_THREADS = 1, HAVE_DIST_GRAPH = 1, OMPI_HAVE_MPI_EXT_AFFINITY = 0;
}
J
[ -f "$work/common/OmpitestError.java" ] || cat > "$work/common/OmpitestError.java" <<'J'
import mpi.*;
public class OmpitestError {
  static StackTraceElement at() { StackTraceElement[] s = Thread.currentThread().getStackTrace(); return s[s.length - 1]; }
  public static String getFileName() { return at().getFileName(); }
  public static String getClassName() { return at().getClassName(); }
  public static String getMethodName() { return at().getMethodName(); }
  public static int getLineNumber() { return at().getLineNumber(); }
  public static String getLocation() { return at().toString(); }
  public static void ompitestWarning(String f, int l, String m) throws MPIException { System.err.printf("[**WARNING**] %s:%d: %s%n", f, l, m); }
  public static void ompitestWarning(Comm c, String cs, String f, int l, String m) throws MPIException { ompitestWarning(f, l, cs + ": " + m); }
  public static void ompitestError(String f, int l, String m) throws MPIException {
    System.err.printf("[**ERROR**] %s:%d: %s%n", f, l, m);
    if (MPI.isInitialized() && !MPI.isFinalized()) MPI.COMM_WORLD.abort(1);
    System.exit(1);
  }
  public static void ompitestError(Comm c, String cs, String f, int l, String m) throws MPIException { ompitestError(f, l, cs + ": " + m); }
  public static void ompitestCheckSize(String f, int l, int min, boolean abort) throws MPIException {
    if (MPI.COMM_WORLD.getSize() < min) { ompitestWarning(f, l, "needs " + min + " processes"); if (abort) { MPI.Finalize(); System.exit(77); } }
  }
  public static void ompitestNeedEven(String f, int l) throws MPIException {
    if (MPI.COMM_WORLD.getSize() % 2 != 0) { ompitestWarning(f, l, "needs an even number of processes"); MPI.Finalize(); System.exit(77); }
  }
}
J
"$javac" -nowarn -d "$work/common" -cp "$jar" "$work"/common/*.java || exit 2

if [ $# -gt 0 ]; then programs=("$@"); else
  mapfile -t programs < <(find "$src" -mindepth 2 -maxdepth 2 -name '*.java' ! -path '*/todo/*' \
                          ! -path '*/performance/*' ! -path '*/reporting/*' ! -name 'Ompitest*.java' -type f \
                          -exec grep -l 'static *void *main' {} + | sort)
fi
pass=0; fail=0; results=$work/results.txt
for f in "${programs[@]}"; do
  name=$(basename "$f" .java); dir=$(cd "$(dirname "$f")" && pwd)
  d="$work/$(basename "$dir")-$name"; mkdir -p "$d"
  if ! "$javac" -nowarn -d "$d" -cp "$jar:$work/common" -sourcepath "$dir" "$f" > "$d/compile.log" 2>&1; then
    echo "COMPILE-FAIL $name: $(grep -m1 'error:' "$d/compile.log")" | tee -a "$results"
    fail=$((fail + ${#nps[@]})); continue
  fi
  for np in "${nps[@]}"; do
    # CLASSPATH reaches the JVMs a program spawns (dynamic/: MPI.COMM_WORLD.spawn("java", ...)).
    (cd "$d" && CLASSPATH="$jar:$work/common:$d" timeout -k 10 "$timeout_s" \
       "${mpirun[@]}" -np "$np" "$java" -cp "$jar:$work/common:$d" "$name" > "$d/np$np.log" 2>&1)
    rc=$?
    if [ $rc -eq 0 ] || [ $rc -eq 77 ]; then pass=$((pass + 1)); echo "PASS $name np$np (exit $rc)" >> "$results"
    else fail=$((fail + 1))
      echo "FAIL $(basename "$dir")/$name np$np (exit $rc$([ $rc -eq 124 ] && echo ', timeout')): $(grep -m1 -E 'ERROR|Exception|rror' "$d/np$np.log")" | tee -a "$results"
    fi
  done
done
echo "passed $pass of $((pass + fail)) runs (logs in $work)"
[ $fail -eq 0 ]
