#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test with CTest. Exit status: CTest's.
set -euo pipefail

# shellcheck source=tools/setup.sh
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh" --build

# One OpenMP thread per test unless told otherwise: ctest already runs a test per core, and tests
# that each start an OpenMP team on every core wait on each other's spinning threads (on 2 cores
# the suite took 37 min that way, 8 min with one thread per test).
export OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}"
ctest --test-dir "$SPH_BUILD_DIR" --output-on-failure --no-tests=error -j"$(nproc)"
