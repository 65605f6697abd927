#!/usr/bin/env bash
# A real Slurm cluster on one machine, for oompi's jobs: slurmctld and two slurmd nodes, each
# node a network namespace of its own (as scripts/multihost.sh makes hosts) with its own
# hostname, /etc/hosts and /tmp, joined by a veth pair; munge authenticates. Debian's slurm-wlm and
# munge (scripts/setup.sh --slurm installs them). Needs root.
#
#   scripts/slurm.sh run [--timeout S] -- <command...>
#       starts the cluster, runs the command (on this machine, outside the nodes) with
#       OOMPI_SLURM set to a wrapper that runs a command on the login node, e.g.
#       "$OOMPI_SLURM" sbatch --wait job.sh, and tears the cluster down when it ends.
#   scripts/slurm.sh run -- bash -c '"$OOMPI_SLURM" srun -N 2 -n 4 hostname'
#
# Nodes: oompi-node1 (10.213.8.1, also the controller and the login node) and oompi-node2
# (10.213.8.2), 2 CPUs each, one partition "oompi". Jobs see this machine's file system (a
# shared file system, as on a cluster), their node's hostname and network, and the environment
# of the submitting command (sbatch's default --export=ALL).
# Exit code: the command's; 77 when this machine cannot host the cluster (not root, no network
# namespaces, Slurm or munge missing), with the reason; 124 on timeout (default 900 s). The
# daemons, namespaces and files are removed on exit, also on failure or timeout.
set -uo pipefail

readonly ADDR1=10.213.8.1 ADDR2=10.213.8.2 IFACE=sl0 NODE1=oompi-node1 NODE2=oompi-node2

skip() { echo "slurm: SKIPPED: $*" >&2; exit 77; }
usage() { echo "usage: scripts/slurm.sh run [--timeout S] -- <command...>" >&2; exit 2; }

[[ ${1:-} == run ]] || usage
shift
limit=900
while [[ $# -gt 0 ]]; do
  case $1 in
    --timeout) limit=$2; shift 2 ;;
    --) shift; break ;;
    *) usage ;;
  esac
done
[[ $# -gt 0 ]] || usage

[[ $(id -u) == 0 ]] || skip "the nodes are network namespaces: root needed; this is uid $(id -u)"
for tool in slurmctld slurmd sbatch srun munged ip unshare nsenter; do
  command -v "$tool" >/dev/null ||
    skip "$tool missing (bash scripts/setup.sh --slurm installs slurm-wlm and munge)"
done

# Names unique to this run; leftovers of a run killed before its trap ran are removed.
tag=oompi-slurm-$$
source "$(dirname "$0")/netns_leftovers.sh"
stale_files() {  # the run's munged, then its files
  [[ -f /var/tmp/oompi-slurm-$1.munged.pid ]] &&
    kill -KILL "$(cat "/var/tmp/oompi-slurm-$1.munged.pid")" 2>/dev/null
  rm -rf "/var/tmp/oompi-slurm-$1."*
}
remove_stale_netns oompi-slurm stale_files
ns1=$tag-a ns2=$tag-b
# Not under /tmp: each node has a /tmp of its own (Slurm's PMIx plugin and MPI put files of
# their own names there, which the nodes would otherwise share).
work=$(mktemp -d "/var/tmp/$tag.XXXXXX")
chmod 755 "$work"
munged_pid=

cleanup() {
  local ns pids
  for ns in "$ns1" "$ns2"; do
    pids=$(ip netns pids "$ns" 2>/dev/null) && [[ -n $pids ]] && kill -TERM $pids 2>/dev/null
  done
  for _ in $(seq 50); do  # the daemons stop on SIGTERM, given a moment
    [[ -z $(ip netns pids "$ns1" 2>/dev/null)$(ip netns pids "$ns2" 2>/dev/null) ]] && break
    sleep 0.1
  done
  for ns in "$ns1" "$ns2"; do
    pids=$(ip netns pids "$ns" 2>/dev/null) && [[ -n $pids ]] && kill -KILL $pids 2>/dev/null
    ip netns del "$ns" 2>/dev/null
  done
  [[ -n $munged_pid ]] && kill -TERM "$munged_pid" 2>/dev/null
  rm -f "/var/tmp/$tag.munged.pid"
  if [[ ${OOMPI_SLURM_KEEP:-} ]]; then echo "slurm: logs kept in $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# munge: a daemon of this run's own, with its own key and socket (the machine's munged, if
# any, is left alone).
mkdir -m 700 "$work/munge"
head -c 1024 /dev/urandom >"$work/munge/munge.key" && chmod 400 "$work/munge/munge.key"
munged --force --socket="$work/munge/socket" --key-file="$work/munge/munge.key" \
  --pid-file="$work/munge/munged.pid" --log-file="$work/munge/munged.log" \
  --seed-file="$work/munge/munged.seed" 2>"$work/munge/err" ||
  skip "munged does not start: $(cat "$work/munge/err" "$work/munge/munged.log" 2>/dev/null |
                                 tr '\n' ' ')"
munged_pid=$(cat "$work/munge/munged.pid")
cp "$work/munge/munged.pid" "/var/tmp/$tag.munged.pid"

# The nodes' network: two namespaces and a veth pair made inside them (nothing in this
# machine's own namespace).
ip netns add "$ns1" 2>"$work/err" && ip netns add "$ns2" 2>>"$work/err" ||
  skip "cannot create network namespaces: $(cat "$work/err")"
ip -n "$ns1" link add "$IFACE" type veth peer name "$IFACE" netns "$ns2" 2>"$work/err" ||
  skip "cannot create a veth pair: $(cat "$work/err")"
ip -n "$ns1" addr add "$ADDR1/24" dev "$IFACE" && ip -n "$ns2" addr add "$ADDR2/24" dev "$IFACE" &&
  for ns in "$ns1" "$ns2"; do ip -n "$ns" link set lo up && ip -n "$ns" link set "$IFACE" up; done ||
  { echo "slurm: cannot configure the link between the nodes" >&2; exit 1; }
printf '127.0.0.1 localhost\n%s %s\n%s %s\n' "$ADDR1" "$NODE1" "$ADDR2" "$NODE2" >"$work/hosts"

# node.sh <n> <command...>: runs the command as node n: its network namespace, its hostname
# (a UTS namespace), its /etc/hosts and /tmp (bound in a mount namespace of its own). nsenter rather
# than ip netns exec, which mounts a /sys of the namespace's own, without the cgroup file
# system slurmd wants to see.
cat >"$work/node.sh" <<END
#!/bin/sh
case \$1 in
  1) ns=$ns1 name=$NODE1 ;;
  2) ns=$ns2 name=$NODE2 ;;
  *) echo "slurm: no node \$1" >&2; exit 2 ;;
esac
shift
exec nsenter --net=/run/netns/\$ns unshare --uts --mount sh -c \
  'mount --bind $work/hosts /etc/hosts && mount --bind $work/tmp/\$0 /tmp && hostname "\$0" &&
   exec "\$@"' "\$name" "\$@"
END
# login.sh <command...>: a command on the login node (node 1), with this cluster's slurm.conf.
cat >"$work/login.sh" <<END
#!/bin/sh
export SLURM_CONF=$work/slurm.conf
exec $work/node.sh 1 "\$@"
END
chmod +x "$work/node.sh" "$work/login.sh"

mkdir -p "$work/state" "$work/spool/$NODE1" "$work/spool/$NODE2" "$work/tmp/$NODE1" \
  "$work/tmp/$NODE2"
chmod 1777 "$work/tmp/$NODE1" "$work/tmp/$NODE2"
cat >"$work/slurm.conf" <<END
ClusterName=oompi
SlurmctldHost=$NODE1($ADDR1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$work/munge/socket
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool/%n
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd-%n.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd-%n.log
SlurmdDebug=info
ProctrackType=proctrack/pgid
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
MpiDefault=none
SlurmdParameters=config_overrides
ReturnToService=2
KillWait=5
MinJobAge=600
NodeName=$NODE1 NodeAddr=$ADDR1 CPUs=2 RealMemory=1024 State=UNKNOWN
NodeName=$NODE2 NodeAddr=$ADDR2 CPUs=2 RealMemory=1024 State=UNKNOWN
PartitionName=oompi Nodes=ALL Default=YES MaxTime=10 State=UP
END
export SLURM_CONF=$work/slurm.conf
"$work/node.sh" 1 slurmctld -D -i -f "$work/slurm.conf" >"$work/slurmctld.out" 2>&1 &
"$work/node.sh" 1 slurmd -D -N "$NODE1" -f "$work/slurm.conf" >"$work/slurmd1.out" 2>&1 &
"$work/node.sh" 2 slurmd -D -N "$NODE2" -f "$work/slurm.conf" >"$work/slurmd2.out" 2>&1 &
disown -a  # stopped by cleanup, with no "Killed" from bash
for _ in $(seq 60); do
  idle=$("$work/login.sh" sinfo -h -N -o '%N %t' 2>/dev/null | grep -c ' idle$')
  [[ $idle == 2 ]] && break
  sleep 0.5
done
if [[ ${idle:-0} != 2 ]]; then
  echo "slurm: the cluster did not come up; sinfo:" >&2
  "$work/login.sh" sinfo -N >&2
  tail -n 20 "$work"/slurm*.log "$work"/*.out >&2
  exit 1
fi
echo "slurm: cluster up in ${SECONDS} s: $("$work/login.sh" sinfo -h -N -o '%N(%t,%c cpus)' | tr '\n' ' ')" \
     "(Slurm $(sinfo -V | awk '{print $2}'), logs $work)"
export OOMPI_SLURM=$work/login.sh OOMPI_SLURM_DIR=$work
timeout -k 10 "$limit" "$@"
