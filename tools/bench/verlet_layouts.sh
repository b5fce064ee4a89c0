#!/usr/bin/env bash
# The Verlet list layouts against the cell plugin, whole cases on the GPU, one machine, one run of
# each (REPEATS for more): DamBreak and Solids with cell's h cells, DamBreak2D and WaveMake (its
# first second) with 2h cells (the faster cell mode of each), then verlet with the index lists of
# Takada et al. (--verlet-layout indices), bitmask lists (bitmask) and cluster lists (clusters). Phase
# timers on, VTK off, single precision. Then the table (layouts_table.py): wall time, speed-up
# over cell, peak device memory and its ratio to cell's.
#
#   tools/bench/verlet_layouts.sh [RESULT_DIR]        (default out/bench-layouts)
#
# Environment: SPH_BIN (build/bin/sph), CASES (DamBreak DamBreak2D WaveMake Solids), LAYOUTS
# (indices bitmask clusters), REPEATS (1),
# PYTHON (python3), DRY_RUN=1 prints the commands and runs nothing (CI runs this).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
sph="${SPH_BIN:-$here/build/bin/sph}"
dest="${1:-$here/out/bench-layouts}"
read -r -a cases <<<"${CASES:-DamBreak DamBreak2D WaveMake Solids}"
read -r -a layouts <<<"${LAYOUTS:-indices bitmask clusters}"
repeats="${REPEATS:-1}"
dry="${DRY_RUN:-0}"

cell_mode() { case "$1" in DamBreak | Solids) echo half ;; *) echo full ;; esac; }
case_args() { [[ "$1" == WaveMake ]] && echo "--time-max 1" || true; }

run() {  # name case options...
  local name="$1" case="$2"
  shift 2
  local args=(run "$here/testcases/$case.xml" --device gpu --no-vtk --quiet "$@")
  if [[ "$dry" == 1 ]]; then
    echo "$name: sph ${args[*]//"$here/"/}"
    return 0
  fi
  local out
  out="$(mktemp -d)"
  echo "== $name"
  "$sph" "${args[@]}" --out "$out" >"$out/log.txt" 2>&1 || { cat "$out/log.txt"; exit 1; }
  cp "$out/run.json" "$dest/$name.json"
  rm -rf "$out"
}

[[ "$dry" == 1 ]] || mkdir -p "$dest"
for ((r = 1; r <= repeats; ++r)); do
  for case in "${cases[@]}"; do
    read -r -a extra <<<"$(case_args "$case")"
    run "$case-cell-r$r" "$case" --neighbours cell --cell-mode "$(cell_mode "$case")" "${extra[@]}"
    for layout in "${layouts[@]}"; do
      run "$case-verlet-$layout-r$r" "$case" --neighbours verlet --verlet-layout "$layout" "${extra[@]}"
    done
  done
done
[[ "$dry" == 1 ]] || "${PYTHON:-python3}" "$here/tools/bench/layouts_table.py" "$dest"
