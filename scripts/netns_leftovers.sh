# Sourced by multihost.sh and slurm.sh, which make their two "hosts" as network namespaces named
# <prefix>-<pid>-a and <prefix>-<pid>-b (pid: the script's). A run killed before its trap ran
# (SIGKILL) leaves them behind: remove_stale_netns <prefix> <cleanup> removes those of runs whose
# script is gone, with what still runs in them, and calls `<cleanup> <pid>` for that run's other
# leftovers (its files).
remove_stale_netns() {
  local prefix=$1 cleanup=$2 old pid pids
  for old in $(ip netns list 2>/dev/null | awk '{print $1}' | grep -E "^$prefix-[0-9]+-[ab]\$"); do
    pid=${old#"$prefix"-}; pid=${pid%-*}
    kill -0 "$pid" 2>/dev/null && continue
    pids=$(ip netns pids "$old" 2>/dev/null) && [[ -n $pids ]] && kill -KILL $pids 2>/dev/null
    ip netns del "$old" 2>/dev/null
    "$cleanup" "$pid"
  done
}
