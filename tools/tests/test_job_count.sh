#!/usr/bin/env bash
# tools/test.sh builds and runs CTest with sph_job_count jobs while OMP_NUM_THREADS=1 is exported:
# the count must still be every core this process may use.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../jobs.sh"
expected="$(python3 -c 'import os; print(len(os.sched_getaffinity(0)))')"
got="$(OMP_NUM_THREADS=1 OMP_THREAD_LIMIT=1 sph_job_count)"
if [[ "$got" != "$expected" ]]; then
  echo "sph_job_count gave $got jobs with OMP_NUM_THREADS=1; this process may use $expected cores" >&2
  exit 1
fi
echo "sph_job_count: $got jobs (cores usable: $expected)"
