# shellcheck shell=bash
# Sourced by tools/setup.sh and tools/test.sh.
#
# Prints how many jobs to build and test with: the cores this process may run on. GNU nproc also
# honours OMP_NUM_THREADS and OMP_THREAD_LIMIT, which tools/test.sh sets to 1 for each test's
# OpenMP team; read through them, every job would run one at a time.
sph_job_count() {
  env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc
}
