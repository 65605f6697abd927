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
#       once plainly and once on the degraded link of --netem)
#   scripts/multihost.sh run [--netem] [--timeout S] -- <mpirun app context> [: <app context>...]
#       one job, e.g. `scripts/multihost.sh run -- -np 4 build/tests/test_p2p`. Hosts: 10.213.7.1
#       and 10.213.7.2. --netem degrades the link: 2 ms delay each way and 1 % loss, both ends.
#       With netem (tc qdisc netem) where the kernel has it. Elsewhere the loss is done by
#       nftables (1 % of the packets arriving on the link, dropped at random and counted: the
#       counts are printed after the job) and the delay by the first that works of
#         - an eBPF program on egress stamping each packet with a departure time 2 ms ahead
#           (edt_delay.o), which the fq qdisc honours;
#         - delay_link: the veth replaced by a tun device in each namespace, joined by a process
#           that holds each packet 2 ms;
#       and with neither, the job runs with loss only, and says so and why. Those two tools are
#       taken from $OOMPI_MULTIHOST_TOOLS (default: build/tests/multihost).
#
# Exit code: the job's; 77 when this machine cannot do it (not root, no network namespaces, no
# Open MPI, or with --netem neither netem nor nftables), with a message saying why; 124 on
# timeout (default 600 s). The namespaces, with every process, qdisc, nftables table and device in
# them, are removed on exit, also on failure or timeout; nothing is ever set up outside them.
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
source "$(dirname "$0")/netns_leftovers.sh"
stale_files() { rm -rf "/tmp/oompi-mh-$1."* 2>/dev/null; }
remove_stale_netns oompi-mh stale_files
ns1=$tag-a ns2=$tag-b
work=$(mktemp -d "/tmp/$tag.XXXXXX")
tools=${OOMPI_MULTIHOST_TOOLS:-$(cd "$(dirname "$0")/.." && pwd)/build/tests/multihost}
link_pid=

cleanup() {
  local ns pids
  [[ -n $link_pid ]] && kill -KILL "$link_pid" 2>/dev/null
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
# in_both cmd...: runs cmd in each namespace, 0 if it succeeds in both; error: what they said
# on stderr, on one line.
in_both() { ip netns exec "$ns1" "$@" 2>>"$work/err" && ip netns exec "$ns2" "$@" 2>>"$work/err"; }
error() { tr -s '\n' ' ' <"$work/err" | sed 's/ $//'; : >"$work/err"; }
addresses() {
  ip -n "$ns1" addr add "$ADDR1/24" dev "$IFACE" && ip -n "$ns2" addr add "$ADDR2/24" dev "$IFACE" &&
    for ns in "$ns1" "$ns2"; do ip -n "$ns" link set lo up && ip -n "$ns" link set "$IFACE" up; done ||
    { echo "multihost: cannot configure the link between the namespaces" >&2; exit 1; }
}
# The veth pair is created inside the first namespace and its peer moved to the second: no
# interface ever appears in the machine's own namespace.
ip -n "$ns1" link add "$IFACE" type veth peer name "$IFACE" netns "$ns2" 2>"$work/err" ||
  skip "cannot create a veth pair: $(error)"
addresses

# --netem: netem, else loss by nftables and delay by a stand-in (see the top). loss and delay say
# what does it, why_no_delay what the ways that failed said.
loss= delay= why_no_delay=
if ((netem)); then
  : >"$work/err"
  if in_both tc qdisc add dev "$IFACE" root netem delay 2ms loss 1%; then
    loss=netem delay=netem
  else
    why_no_delay="netem: $(error)"
    in_both tc qdisc del dev "$IFACE" root  # one end may have it
    : >"$work/err"
    if [[ ! -f $tools/edt_delay.o ]]; then
      why_no_delay+="; eBPF departure time: $tools/edt_delay.o not built (needs clang)"
    elif in_both tc qdisc add dev "$IFACE" root fq && in_both tc qdisc add dev "$IFACE" clsact &&
         in_both tc filter add dev "$IFACE" egress bpf da obj "$tools/edt_delay.o" sec tc; then
      delay="an eBPF departure time honoured by fq"
    else
      why_no_delay+="; eBPF departure time + fq: $(error)"
      in_both tc qdisc del dev "$IFACE" root
      in_both tc qdisc del dev "$IFACE" clsact
      : >"$work/err"
    fi
    if [[ -z $delay && ! -x $tools/delay_link ]]; then
      why_no_delay+="; delay_link: $tools/delay_link not built"
    elif [[ -z $delay ]]; then
      # The tun devices replace the veth pair, under the same name and addresses.
      ip -n "$ns1" link del "$IFACE"
      "$tools/delay_link" "/run/netns/$ns1" "/run/netns/$ns2" "$IFACE" 2000 >"$work/link" 2>&1 &
      link_pid=$! && disown "$link_pid"  # killed by cleanup, with no "Killed" from bash
      for _ in $(seq 50); do grep -q ready "$work/link" && break; sleep 0.1; done
      if grep -q ready "$work/link"; then
        delay="delay_link (a tun pair joined by a process holding each packet)"
        addresses
        for ns in "$ns1" "$ns2"; do ip -n "$ns" link set "$IFACE" mtu 9000; done
      else
        why_no_delay+="; delay_link: $(tr '\n' ' ' <"$work/link")"
        kill -KILL "$link_pid" 2>/dev/null; link_pid=
        ip -n "$ns1" link add "$IFACE" type veth peer name "$IFACE" netns "$ns2" && addresses
      fi
    fi
    command -v nft >/dev/null ||
      skip "neither netem ($why_no_delay) nor nft (nftables) here: the degraded round did not run"
    # Drops on arrival, so that the sender's TCP meets a loss on the wire (a drop on output is
    # reported to the sending socket, which just sends again: no loss seen by TCP).
    cat >"$work/loss.nft" <<EOF
table inet oompi_mh {
  counter arrived {}
  counter lost {}
  chain input {
    type filter hook input priority filter; policy accept;
    iifname "$IFACE" counter name arrived
    iifname "$IFACE" numgen random mod 100 == 0 counter name lost drop
  }
}
EOF
    in_both nft -f "$work/loss.nft" ||
      skip "neither netem nor nftables work here ($why_no_delay; nft: $(error))"
    loss=nftables
  fi
  if [[ -n $delay ]]; then
    echo "multihost: degraded link: 2 ms delay each way by $delay, 1 % loss by $loss, both ends"
  else
    echo "multihost: degraded link: 1 % loss by $loss, both ends; NO DELAY could be applied:" \
         "$why_no_delay" >&2
  fi
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
if [[ $loss == nftables ]]; then
  count() { ip netns exec "$1" nft list counter inet oompi_mh "$2" | awk '/packets/ {print $2}'; }
  echo "multihost: nftables dropped $(count "$ns1" lost) of $(count "$ns1" arrived) packets" \
       "arriving at $ADDR1 and $(count "$ns2" lost) of $(count "$ns2" arrived) at $ADDR2"
elif [[ $loss == netem ]]; then
  for ns in "$ns1" "$ns2"; do
    echo "multihost: netem in $ns: $(ip netns exec "$ns" tc -s qdisc show dev "$IFACE" | grep -m1 Sent)"
  done
fi
exit $rc
