# shellcheck shell=bash
# Sourced by tools/run.sh and tools/test.sh (or run as `bash tools/setup.sh`): makes sure the
# build dependencies are installed, then configures and builds the project.
#   SPH_BUILD_DIR   build directory (default: <repo>/build)
#   SPH_CMAKE_ARGS  extra CMake arguments, e.g. "-DSPH_CUDA=OFF -DCMAKE_BUILD_TYPE=Debug"
# Argument --no-build: only check the packages and look for nvcc. Callers pass --build, so that
# `source` does not hand setup.sh their own arguments.
# On a missing package it installs it when running as root, otherwise prints the apt-get line
# to run and exits 1.

SPH_REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SPH_BUILD_DIR="${SPH_BUILD_DIR:-$SPH_REPO/build}"
SPH_PACKAGES=(cmake g++ libtinyxml2-dev libfmt-dev libgtest-dev pkg-config python3-matplotlib libopenmpi-dev openmpi-bin)

# shellcheck source=tools/jobs.sh
source "$SPH_REPO/tools/jobs.sh"

# Sets SPH_NVCC to the CUDA compiler, or to "" when there is none.
sph_find_nvcc() {
  SPH_NVCC="$(command -v nvcc || true)"
  if [[ -z "$SPH_NVCC" && -x /usr/local/cuda/bin/nvcc ]]; then
    SPH_NVCC=/usr/local/cuda/bin/nvcc
  fi
  if [[ -n "$SPH_NVCC" ]]; then
    echo "setup: CUDA compiler $SPH_NVCC (GPU path will be built)"
  else
    echo "setup: no nvcc on PATH or in /usr/local/cuda/bin (CPU-only build)"
  fi
}

# Prints the packages of SPH_PACKAGES that dpkg does not list as installed.
sph_missing_packages() {
  local p
  for p in "${SPH_PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q ' installed$'; then
      echo "$p"
    fi
  done
}

sph_check_packages() {
  if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "setup: not a Debian/Ubuntu system; install CMake >= 3.24, a C++20 compiler, TinyXML2, fmt," \
         "GoogleTest, pkg-config and an MPI (Open MPI) yourself" >&2
    return 0
  fi
  local missing=()
  mapfile -t missing < <(sph_missing_packages)
  if ((${#missing[@]} == 0)); then
    echo "setup: packages present: ${SPH_PACKAGES[*]}"
    return 0
  fi
  echo "setup: missing packages: ${missing[*]}"
  if [[ "$(id -u)" != 0 ]]; then
    echo "setup: run this, then try again:" >&2
    echo "  sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  if ! { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"; }; then
    echo "setup: apt-get install ${missing[*]} failed" >&2
    exit 1
  fi
}

sph_configure_and_build() {
  local extra=()
  read -r -a extra <<<"${SPH_CMAKE_ARGS:-}"
  # User arguments come last so they override the defaults.
  cmake -S "$SPH_REPO" -B "$SPH_BUILD_DIR" -DCMAKE_BUILD_TYPE=Release -DSPH_CUDA=AUTO "${extra[@]}" || {
    echo "setup: CMake configuration failed (build directory $SPH_BUILD_DIR)" >&2
    exit 1
  }
  cmake --build "$SPH_BUILD_DIR" -j "$(sph_job_count)" || {
    echo "setup: build failed" >&2
    exit 1
  }
}

# True when the configured build has the GPU path (mirrors the SPH_CUDA logic of CMakeLists.txt).
sph_build_has_cuda() {
  local cache="$SPH_BUILD_DIR/CMakeCache.txt" mode compiler
  [[ -f "$cache" ]] || return 1
  mode="$(sed -n 's/^SPH_CUDA:[A-Z]*=//p' "$cache")"
  compiler="$(sed -n 's/^CMAKE_CUDA_COMPILER:[A-Z]*=//p' "$cache")"
  [[ "${mode^^}" != OFF && -n "$compiler" && "$compiler" != *NOTFOUND* ]]
}

sph_check_packages
sph_find_nvcc
if [[ "${1:-}" != --no-build ]]; then
  sph_configure_and_build
fi
