#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test with CTest. Exit status: CTest's.
set -euo pipefail

# shellcheck source=tools/setup.sh
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh" --build

ctest --test-dir "$SPH_BUILD_DIR" --output-on-failure --no-tests=error -j"$(nproc)"
