#!/usr/bin/env bash
# Benchmark of the cell plugin on the GPU: the full DamBreak (3D) and DamBreak2D, both cell
# modes, single precision, VTK output off (run.json and the phase table still written).
# Usage: tools/bench/cell_dambreak.sh [RESULT_DIR] [extra sph run options...]
# Needs a build in build/ (tools/setup.sh) and a GPU; writes RESULT_DIR/<case>-<mode>.json.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
sph="${SPH_BIN:-$here/build/bin/sph}"
dest="${1:-$here/out/bench}"
shift || true
mkdir -p "$dest"
for case in DamBreak DamBreak2D; do
  for mode in full half; do
    out="$(mktemp -d)"
    echo "== $case, cell mode $mode"
    "$sph" run "$here/testcases/$case.xml" --device gpu --neighbours cell --cell-mode "$mode" \
      --no-vtk --quiet --out "$out" "$@"
    cp "$out/run.json" "$dest/$case-$mode.json"
    rm -rf "$out"
  done
done
