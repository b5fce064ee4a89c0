#!/bin/bash
# ranks_scaling.sh [--dry-run] [DIR]: one case over several ranks at a ladder of particle spacings,
# for the model of scale (ranks_model.py, docs/scaling.md). For each dp of DPS and each rank count
# of RANKS, `mpirun -np R sph run CASE --dp DP --steps STEPS` (VTK off, phase timers on) writes
# DIR/<case>-dp<DP>-r<R>.json (its run.json); then ranks_model.py DIR prints the table.
#
# Variables: DEVICE (gpu | cpu; default gpu: the ranks share the machine's GPUs, each its local
# rank's), CASE (default testcases/DamBreak.xml), DPS (default "0.0085 0.006 0.0045"), RANKS
# (default "1 2 4"), STEPS (default 100), NEIGHBOURS (default cell), PRECISION (default single),
# THREADS (CPU runs: threads a rank, default 1), MPIRUN (default mpirun), MPI_OPTIONS (more
# options of mpirun, e.g. "--bind-to none"), SPH_OPTIONS (more options of sph run, e.g.
# "--rank-exchange nccl"), SPH_BIN (default build/bin/sph), PYTHON (default python3).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
dry=0
if [[ "${1:-}" == "--dry-run" ]]; then
  dry=1
  shift
fi
out="${1:-ranks-scaling}"
DEVICE="${DEVICE:-gpu}"
CASE="${CASE:-$root/testcases/DamBreak.xml}"
DPS="${DPS:-0.0085 0.006 0.0045}"
RANKS="${RANKS:-1 2 4}"
STEPS="${STEPS:-100}"
NEIGHBOURS="${NEIGHBOURS:-cell}"
PRECISION="${PRECISION:-single}"
THREADS="${THREADS:-1}"
read -r -a mpi_options <<<"${MPI_OPTIONS:-}"
read -r -a sph_options <<<"${SPH_OPTIONS:-}"
MPIRUN="${MPIRUN:-mpirun}"
SPH_BIN="${SPH_BIN:-$root/build/bin/sph}"
PYTHON="${PYTHON:-python3}"
name="$(basename "$CASE" .xml)"
name="${name%_Def}"
mkdir -p "$out"
for dp in $DPS; do
  for r in $RANKS; do
    run="$out/$name-dp$dp-r$r"
    cmd=("$MPIRUN" -np "$r" --oversubscribe "${mpi_options[@]}" "$SPH_BIN" run "$CASE" --dp "$dp" --steps "$STEPS"
         --device "$DEVICE" --neighbours "$NEIGHBOURS" --precision "$PRECISION" "${sph_options[@]}" --no-vtk --quiet
         --overwrite --out "$run")
    [[ "$DEVICE" == cpu ]] && cmd+=(--threads "$THREADS")
    if ((dry)); then
      echo "${cmd[*]}"
      continue
    fi
    echo "ranks_scaling: $name dp $dp on $r rank(s)" >&2
    if ! "${cmd[@]}" >"$run.log" 2>&1; then
      echo "ranks_scaling: the run failed (its output: $run.log)" >&2
      tail -5 "$run.log" >&2
      exit 1
    fi
    cp "$run/run.json" "$run.json"
    rm -rf "$run"
  done
done
((dry)) || "$PYTHON" "$root/tools/bench/ranks_model.py" "$out"
