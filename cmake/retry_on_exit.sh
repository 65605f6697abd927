#!/usr/bin/env bash
# retry_on_exit.sh <code> <attempts> <command...>: runs the command again while it exits with
# <code> (a test's own signal that it hit a known, intermittent fault of the MPI library, not of
# oompi), at most <attempts> times in all; any other exit code is the verdict at once.
set -u
code=$1 attempts=$2
shift 2
for ((i = 1; i <= attempts; i++)); do
  "$@"
  rc=$?
  [[ $rc == "$code" ]] || exit $rc
  echo "retry_on_exit: attempt $i of $attempts ended with exit code $code (known MPI fault)" >&2
done
exit $rc
