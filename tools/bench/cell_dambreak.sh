#!/usr/bin/env bash
# Benchmark of the cell plugin on the GPU: the full DamBreak (3D) and DamBreak2D, both cell
# modes, rows trimmed to the support (reachable, the default) and whole (all, DualSPHysics),
# single precision, VTK output off (run.json and the phase table still written).
# Usage: tools/bench/cell_dambreak.sh [RESULT_DIR] [extra sph run options...]
# Needs a build in build/ (tools/setup.sh) and a GPU; writes RESULT_DIR/<case>-<mode>-<rows>.json.
# CASES, MODES and ROWS (space-separated) narrow the matrix, e.g. ROWS=reachable.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
sph="${SPH_BIN:-$here/build/bin/sph}"
dest="${1:-$here/out/bench}"
shift || true
mkdir -p "$dest"
for case in ${CASES:-DamBreak DamBreak2D}; do
  for mode in ${MODES:-full half}; do
    for rows in ${ROWS:-reachable all}; do
      out="$(mktemp -d)"
      echo "== $case, cell mode $mode, rows $rows"
      "$sph" run "$here/testcases/$case.xml" --device gpu --neighbours cell --cell-mode "$mode" \
        --cell-rows "$rows" --no-vtk --quiet --out "$out" "$@"
      cp "$out/run.json" "$dest/$case-$mode-$rows.json"
      rm -rf "$out"
    done
  done
done
