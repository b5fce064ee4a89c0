#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test with CTest. Exit status: CTest's.
set -euo pipefail

# shellcheck source=tools/setup.sh
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh" --build

# One OpenMP thread per test unless told otherwise: ctest already runs a test per core, and tests
# that each start an OpenMP team on every core wait on each other's spinning threads (on 2 cores
# the suite took 37 min that way, 8 min with one thread per test).
export OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}"
jobs="$(sph_job_count)"
echo "test: ${jobs} jobs (one OpenMP thread each: OMP_NUM_THREADS=${OMP_NUM_THREADS})"
ctest --test-dir "$SPH_BUILD_DIR" --output-on-failure --no-tests=error -j"$jobs"

# The host code again under AddressSanitizer and UndefinedBehaviorSanitizer, in a CPU-only tree
# (SPH_BUILD_DIR-asan): the fuzz targets of the case loader, GenCase's particle reader, the motion
# and acceleration data files, the mesh readers and the checkpoint reader, and a short run through
# the binary (CTest label "fuzz"). SPH_SANITIZE_STAGE=0 skips it. Without MPI: no fuzz target starts
# ranks, and Open MPI's own allocations are not this project's to sanitize.
if [[ "${SPH_SANITIZE_STAGE:-1}" != 0 ]]; then
  asan="${SPH_BUILD_DIR}-asan"
  # -O1 -g1 (line tables, no variables): what the sanitizers' reports need, at half the compile
  # time of RelWithDebInfo's -O2 -g.
  cmake -S "$SPH_REPO" -B "$asan" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
    -DSPH_CUDA=OFF -DSPH_MPI=OFF -DSPH_SANITIZE=ON -DSPH_FUZZ_SECONDS="${SPH_FUZZ_SECONDS:-60}"
  cmake --build "$asan" -j"$jobs" --target sph sph_cell sph_fuzz_case_loader sph_fuzz_gencase_output sph_fuzz_data_files \
    sph_fuzz_mesh_files sph_fuzz_checkpoint
  ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1}" UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}" \
    ctest --test-dir "$asan" -L fuzz --output-on-failure --no-tests=error -j"$jobs"
fi
