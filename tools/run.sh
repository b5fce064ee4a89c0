#!/usr/bin/env bash
# Runs a case: installs what is missing, builds, then `sph run CASE.xml [options...]`, on the
# GPU when there is one and the build has the GPU path, otherwise on the CPU.
set -euo pipefail

if (($# < 1)) || [[ "$1" == -h || "$1" == --help ]]; then
  echo "usage: tools/run.sh CASE.xml [sph run options...]   (see docs/usage.md or 'sph --help')" >&2
  exit 2
fi
case_file="$1"
shift

# shellcheck source=tools/setup.sh
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh" --build

user_device=""
for arg in "$@"; do
  case "$arg" in
    --device | --device=*) user_device=yes ;;
  esac
done

device_args=()
if [[ -n "$user_device" ]]; then
  echo "run: device as given on the command line"
elif ! sph_build_has_cuda; then
  echo "run: using the CPU (this build has no GPU path)"
  device_args=(--device cpu)
elif ! command -v nvidia-smi >/dev/null 2>&1; then
  echo "run: using the CPU (no nvidia-smi, so no NVIDIA driver)"
  device_args=(--device cpu)
elif ! gpu="$(nvidia-smi -L 2>/dev/null | grep -m1 '^GPU ')"; then
  echo "run: using the CPU (nvidia-smi lists no GPU)"
  device_args=(--device cpu)
else
  echo "run: using the GPU: $gpu"
  device_args=(--device gpu)
fi

exec "$SPH_BUILD_DIR/bin/sph" run "$case_file" "$@" "${device_args[@]}"
