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
# ranks" skip). Ends with the line "passed N of M runs" (the raw count).
#
# Expected failures, as Open MPI's MTT counts them (its ompi-core-template.ini passes the C
# suite's environment/abort and environment/final when they exit non-zero): the programs below
# are WRITTEN to fail, each to exercise an error path. A run of one counts as "expected
# failure" only when it fails the way the program means to, stricter than MTT: a non-zero exit
# that is not a timeout (124) or a kill, no JVM crash (hs_err, "fatal error has been detected by
# the Java Runtime"), and the program's own diagnostic in its log (expected_diagnostic below).
# The last lines give pass / expected failure / fail and the MTT-style total (pass + expected).
#
#   scripts/run-ompi-java-test.sh --classify <results.txt> <log dir> ...
# re-applies that classification to an earlier run's results.txt (its lines "PASS|FAIL
# [dir/]name npN (exit rc...)") with the logs <log dir>/<dir>-<name>/npN.log, e.g. those of
# another implementation's bindings, so two runs are counted alike.
#
# Environment: OJT_TIMEOUT (seconds per run, default 120; dynamic/LoopSpawn spawns up to 400
# JVMs and needs about 600), OJT_NP (rank counts, default "2 4"), OJT_MPIRUN (default mpirun
# --oversubscribe), OMPI_MCA_osc (default: the installation's).
set -u

# The diagnostic (an extended regex) a run of a program written to fail must show, by
# <dir>/<name>; no entry: the program is meant to pass.
expected_diagnostic() {
  case $1 in
    # The suite's own reporter: ompitestError (or a size/even check before MPI.Init or after
    # MPI.Finalize, which is an error) prints "[**ERROR**]" and exits 1.
    test/TestCheckSize1|test/TestCheckSize4|test/TestError[1-4]|test/TestNeedEven1)
      echo '\[\*\*ERROR\*\*\]' ;;
    # MPI_Abort(MPI_COMM_WORLD, MPI.ERR_TYPE): the MPI library's own report of the abort.
    environment/Abort) echo 'MPI_ABORT was invoked|called MPI_Abort' ;;
    # callErrhandler with ERRORS_ARE_FATAL (restored from getErrhandler, or set) must end the
    # job through the fatal handler; the program reports "[**ERROR**] ... abnormal" otherwise.
    environment/CommErrhandler|environment/FileErrhandler|environment/WinErrhandler)
      echo 'ERRORS_ARE_FATAL' ;;
    *) return 1 ;;
  esac
}

# Prints PASS, XFAIL (expected failure) or FAIL for program $1 (<dir>/<name>), exit code $2,
# log $3.
classify() {
  local want
  if [ "$2" -eq 0 ] || [ "$2" -eq 77 ]; then
    if expected_diagnostic "$1" > /dev/null; then echo FAIL; else echo PASS; fi; return
  fi
  want=$(expected_diagnostic "$1") || { echo FAIL; return; }
  if [ "$2" -eq 124 ] || [ "$2" -ge 128 ] || [ ! -f "$3" ] \
     || grep -qE 'hs_err_pid|fatal error has been detected by the Java Runtime' "$3" \
     || ! grep -qE "$want" "$3"; then echo FAIL; return; fi
  case $1 in
    # A fatal-handler program that printed its own "[**ERROR**]" reached the abnormal branch.
    environment/*Errhandler) grep -qF '[**ERROR**]' "$3" && { echo FAIL; return; } ;;
    # mpirun exits with the first MPI_Abort's code: the program's MPI.ERR_TYPE (3 in Open MPI
    # and MPICH), not another rank's abort (a JVM killed after it aborts too, with 1).
    environment/Abort) [ "$2" -eq 3 ] || { echo FAIL; return; } ;;
  esac
  echo XFAIL
}

# Ends a run: the raw count, then the three counts and the MTT-style total.
summary() {  # pass xfail fail raw_pass
  local total=$(( $1 + $2 + $3 ))
  echo "passed $4 of $total runs (raw: exit 0 or 77)"
  echo "pass $1, expected failure $2, fail $3: MTT-style $(( $1 + $2 )) of $total"
}

if [ "${1:-}" = --classify ]; then
  results=${2:?usage: $0 --classify <results.txt> <log dir> ...}; shift 2
  pass=0; xfail=0; fail=0; raw=0
  while read -r verdict prog np rest; do
    case $verdict in PASS|XFAIL|FAIL) ;; *) continue ;; esac
    rc=$(sed -E 's/^\(exit ([0-9]+).*/\1/' <<< "$rest")
    log=; for root in "$@"; do
      [ -f "$root/${prog/\//-}/$np.log" ] && log=$root/${prog/\//-}/$np.log
    done
    case $rc in 0|77) raw=$((raw + 1)) ;; esac
    c=$(classify "$prog" "$rc" "$log")
    case $c in PASS) pass=$((pass + 1)) ;; XFAIL) xfail=$((xfail + 1)) ;; *) fail=$((fail + 1)) ;; esac
    [ "$c" = PASS ] || echo "$c $prog $np (exit $rc)${log:+ $log}"
  done < "$results"
  summary $pass $xfail $fail $raw
  exit 0
fi

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
pass=0; xfail=0; fail=0; raw=0; results=$work/results.txt
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
    prog=$(basename "$dir")/$name
    if [ $rc -eq 0 ] || [ $rc -eq 77 ]; then raw=$((raw + 1)); fi
    case $(classify "$prog" $rc "$d/np$np.log") in
      PASS) pass=$((pass + 1)); echo "PASS $prog np$np (exit $rc)" >> "$results" ;;
      XFAIL) xfail=$((xfail + 1))
        echo "XFAIL $prog np$np (exit $rc, expected failure): $(grep -m1 -E "$(expected_diagnostic "$prog")" "$d/np$np.log")" | tee -a "$results" ;;
      *) fail=$((fail + 1))
        echo "FAIL $prog np$np (exit $rc$([ $rc -eq 124 ] && echo ', timeout')): $(grep -m1 -E 'ERROR|Exception|rror' "$d/np$np.log")" | tee -a "$results" ;;
    esac
  done
done
summary $pass $xfail $fail $raw
echo "logs in $work"
[ $fail -eq 0 ]
