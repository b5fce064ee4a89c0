#!/usr/bin/env bash
# Benchmark of both neighbour plugins in one run on the GPU (issue 3): DamBreak and DamBreak2D,
# single precision, VTK off; cell in both cell modes, verlet with the default C and, for
# DamBreak, a sweep of VerletListSteps (C) to choose the default.
# Usage: tools/bench/verlet_vs_cell.sh [RESULT_DIR]   (then tools/bench/summary.py RESULT_DIR)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
sph="${SPH_BIN:-$here/build/bin/sph}"
dest="${1:-$here/out/bench-verlet}"
mkdir -p "$dest"
run() {  # name case options...
  local name="$1" case="$2"
  shift 2
  local out
  out="$(mktemp -d)"
  echo "== $name"
  "$sph" run "$here/testcases/$case.xml" --device gpu --no-vtk --quiet --out "$out" "$@" > "$out/log.txt" 2>&1 ||
    { cat "$out/log.txt"; exit 1; }
  cp "$out/run.json" "$dest/$name.json"
  rm -rf "$out"
}
for case in DamBreak DamBreak2D; do
  for mode in full half; do run "$case-cell-$mode" "$case" --neighbours cell --cell-mode "$mode"; done
  run "$case-verlet" "$case" --neighbours verlet
done
for c in ${SWEEP:-3 5 12 16}; do run "DamBreak-verlet-C$c" DamBreak --neighbours verlet --verlet-steps "$c"; done
