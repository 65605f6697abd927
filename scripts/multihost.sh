#!/usr/bin/env bash
# Runs MPI jobs over two "hosts" on one machine: two network namespaces joined by a veth pair
# (10.213.7.1 and 10.213.7.2, addresses that exist only inside them), each with its own hostname
# and temporary directory. Open MPI's mpirun runs in the first; the ranks of the second are
# started through an rsh agent that enters its namespace instead of using ssh. Ranks talk TCP
# only (btl tcp,self: no shared memory), placed round robin over the hosts (--map-by node), so
# every neighbour pair crosses the veth. Needs root (ip netns) and Open MPI.
#
#   scripts/multihost.sh [build-dir]
#       builds, then runs the CTest tests labelled multihost (cpp.multihost.*:
#       the C++ p2p, collectives and object transport tests, cross-language object graphs, each
#       once plainly and once with 2 ms delay and 1 % loss on the link)
#   scripts/multihost.sh run [--netem] [--timeout S] -- <mpirun app context> [: <app context>...]
#       one job, e.g. `scripts/multihost.sh run -- -np 4 build/tests/test_p2p`; --netem adds
#       2 ms delay and 1 % loss on both ends of the link. Hosts: 10.213.7.1 and 10.213.7.2.
#
# Exit code: the job's; 77 when this machine cannot do it (not root, no network namespaces, no
# Open MPI, or no netem with --netem), with a message saying why; 124 on timeout (default 600 s).
# The namespaces and every process left in them are removed on exit, also on failure or timeout.
set -uo pipefail

readonly ADDR1=10.213.7.1 ADDR2=10.213.7.2 IFACE=mh0

skip() { echo "multihost: SKIPPED: $*" >&2; exit 77; }

if [[ ${1:-} != run ]]; then
  set -e
  cd "$(dirname "$0")/.."
  build=${1:-build}
  [[ -f $build/CMakeCache.txt ]] || cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
  cmake --build "$build" -j "$(nproc)"
  exec ctest --test-dir "$build" -L multihost --output-on-failure
fi
shift
netem=0 limit=600
while [[ $# -gt 0 ]]; do
  case $1 in
    --netem) netem=1; shift ;;
    --timeout) limit=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "multihost: unknown option $1" >&2; exit 2 ;;
  esac
done
[[ $# -gt 0 ]] || { echo "multihost: no job given (run -- -np 4 program ...)" >&2; exit 2; }

mpirun=${OOMPI_MPIRUN:-mpirun}
[[ $(id -u) == 0 ]] || skip "network namespaces need root (ip netns); this is uid $(id -u)"
command -v ip >/dev/null && command -v unshare >/dev/null || skip "ip (iproute2) or unshare missing"
"$mpirun" --version 2>/dev/null | grep -Eq "Open MPI|OpenRTE" ||
  skip "$mpirun is not Open MPI's (the rsh agent and MCA flags used here are Open MPI's)"

# Names unique to this run (parallel ctest runs). Namespaces of runs whose script is gone
# (killed with SIGKILL before its trap ran) are removed with what still runs in them.
tag=oompi-mh-$$
for old in $(ip netns list 2>/dev/null | awk '{print $1}' | grep -E '^oompi-mh-[0-9]+-[ab]$'); do
  pid=${old#oompi-mh-}; pid=${pid%-*}
  kill -0 "$pid" 2>/dev/null && continue
  pids=$(ip netns pids "$old" 2>/dev/null) && [[ -n $pids ]] && kill -KILL $pids 2>/dev/null
  ip netns del "$old" 2>/dev/null
  rm -rf "/tmp/oompi-mh-$pid."* 2>/dev/null
done
ns1=$tag-a ns2=$tag-b
work=$(mktemp -d "/tmp/$tag.XXXXXX")

cleanup() {
  local ns pids
  for ns in "$ns1" "$ns2"; do
    # Whatever still runs in our namespaces is this job's (a rank or daemon left by a timeout).
    pids=$(ip netns pids "$ns" 2>/dev/null) && [[ -n $pids ]] && kill -KILL $pids 2>/dev/null
    ip netns del "$ns" 2>/dev/null
  done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

ip netns add "$ns1" 2>"$work/err" && ip netns add "$ns2" 2>>"$work/err" ||
  skip "cannot create network namespaces: $(cat "$work/err")"
# The veth pair is created inside the first namespace and its peer moved to the second: no
# interface ever appears in the machine's own namespace.
ip -n "$ns1" link add "$IFACE" type veth peer name "$IFACE" netns "$ns2" 2>"$work/err" ||
  skip "cannot create a veth pair: $(cat "$work/err")"
ip -n "$ns1" addr add "$ADDR1/24" dev "$IFACE" && ip -n "$ns2" addr add "$ADDR2/24" dev "$IFACE" &&
  for ns in "$ns1" "$ns2"; do ip -n "$ns" link set lo up && ip -n "$ns" link set "$IFACE" up; done ||
  { echo "multihost: cannot configure the veth pair" >&2; exit 1; }
if ((netem)); then
  for ns in "$ns1" "$ns2"; do
    ip netns exec "$ns" tc qdisc add dev "$IFACE" root netem delay 2ms loss 1% 2>"$work/err" ||
      skip "netem is not available here (tc: $(tr '\n' ' ' <"$work/err")- the kernel module" \
           "sch_netem is missing): the round with 2 ms delay and 1 % loss did not run"
  done
  echo "multihost: netem on both ends: delay 2ms, loss 1%"
fi

# host.sh <n> cmd...: runs cmd as host n (hostname and TMPDIR of its own; the caller has entered
# its namespace). agent.sh <address> <command>: Open MPI's rsh agent, starts the daemon there.
cat >"$work/host.sh" <<EOF
#!/bin/sh
hostname oompi-host\$1 && TMPDIR=$work/host\$1 && export TMPDIR && mkdir -p "\$TMPDIR" || exit 1
shift
exec "\$@"
EOF
cat >"$work/agent.sh" <<EOF
#!/bin/sh
case \$1 in
  $ADDR1) ns=$ns1 n=1 ;;
  $ADDR2) ns=$ns2 n=2 ;;
  *) echo "multihost agent: unknown host \$1" >&2; exit 1 ;;
esac
shift
exec ip netns exec \$ns unshare --uts $work/host.sh \$n sh -c "\$*"
EOF
chmod +x "$work/host.sh" "$work/agent.sh"
printf '%s slots=2\n%s slots=2\n' "$ADDR1" "$ADDR2" >"$work/hostfile"

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
echo "multihost: hosts $ADDR1 ($ns1) and $ADDR2 ($ns2); mpirun $*"
timeout -k 10 "$limit" ip netns exec "$ns1" unshare --uts "$work/host.sh" 1 \
  "$mpirun" --hostfile "$work/hostfile" --map-by node --display-map \
  --mca plm_rsh_agent "$work/agent.sh" --mca pml ob1 --mca btl tcp,self \
  --mca btl_tcp_if_include "$IFACE" --mca oob_tcp_if_include "$IFACE" \
  "$@"
rc=$?
((rc == 124)) && echo "multihost: TIMEOUT after $limit s" >&2
exit $rc
