#!/usr/bin/env bash
# Benchmark of both neighbour plugins in one run on the GPU (issue 3): DamBreak and DamBreak2D,
# single precision, VTK off. Each run twice: timed (the phase split) and --no-timers (the total
# time; GPU runs then replay steady Verlet-integrator steps as CUDA graphs), plus verlet with
# --no-graphs. Cell in both cell modes, verlet with the default C, then sweeps of
# VerletListSteps (C) on both cases, untimed, to check the defaults (8 in 3D, 20 in 2D).
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
  for mode in full half; do
    run "$case-cell-$mode" "$case" --neighbours cell --cell-mode "$mode"
    run "$case-cell-$mode-untimed" "$case" --neighbours cell --cell-mode "$mode" --no-timers
  done
  run "$case-verlet" "$case" --neighbours verlet
  run "$case-verlet-untimed" "$case" --neighbours verlet --no-timers
  run "$case-verlet-untimed-nographs" "$case" --neighbours verlet --no-timers --no-graphs
done
for c in ${SWEEP3D:-6 10 12}; do run "DamBreak-verlet-C$c-untimed" DamBreak --neighbours verlet --verlet-steps "$c" --no-timers; done
for c in ${SWEEP2D:-8 12 16 24}; do run "DamBreak2D-verlet-C$c-untimed" DamBreak2D --neighbours verlet --verlet-steps "$c" --no-timers; done
