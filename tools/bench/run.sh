#!/usr/bin/env bash
# The benchmark of issue 5: every bundled case x neighbour strategy x precision, then a scaling
# ladder of DamBreak sizes, with device calibration before and after; then the report.
#
#   tools/bench/run.sh [--quick | --full] [--out DIR] [--dry-run] [--only matrix|ladder] [--no-report]
#
#   --quick     fixed steps (STEPS, default 500) per measured run after a warm-up run of
#               WARMUP_STEPS (100) per strategy; ladder of 0.17, 1, 4 and 16 million particles.
#               The default; about 4-6 minutes on one H200.
#   --full      whole cases (TimeMax) per measured run; the ladder adds 63 and 126 million.
#   --only X    run only the case matrix or only the ladder (to split a full bench over
#               several sessions; report.py merges several result folders).
#   --dry-run   print what would run, run nothing (CI runs this).
#   --no-report skip tools/bench/report.py at the end.
#
# Environment: SPH_BUILD_DIR (build), SPH_BIN (SPH_BUILD_DIR/bin/sph), SPH_CALIBRATE
# (SPH_BUILD_DIR/bin/sph_calibrate), CASES (bundled case names or case file paths, e.g.
# "DamBreak path/to/Spheric2Dam_01M_Def.xml"), STRATEGIES, PRECISIONS, STEPS, WARMUP_STEPS,
# REPEATS (measured runs per strategy, alternating cell/verlet in ABBA order; 2),
# LADDER_DP (spacings), LADDER_STEPS (100), CELL_ARGS / VERLET_ARGS (extra sph run options per
# strategy), DEVICE (gpu; cpu for tests), RUN_TIMEOUT (seconds per run: 120 in quick mode, none
# in full mode), PYTHON (an interpreter with matplotlib), SPH_COMMIT (recorded when the tree
# has no .git, as on the GPU machine).
#
# Results in DIR (default out/bench-<mode>): manifest.tsv (one line per planned run: group,
# case, strategy, precision, dp, repeat, status ok|not-run|oom|failed, run.json path, reason),
# runs/<id>/run.json and log.txt, calibration-{start,end}.json, report/ (report.md, PNG charts).
# A missing case file or an input error (exit code 2) marks that case "not-run"; an out-of-memory
# failure is "oom"; neither stops the bench.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${SPH_BUILD_DIR:-$here/build}"
[[ "$build" = /* ]] || build="$here/$build"
sph="${SPH_BIN:-$build/bin/sph}"
calibrate="${SPH_CALIBRATE:-$build/bin/sph_calibrate}"

mode=quick dry=0 only="" report=1 dest=""
while (($#)); do
  case "$1" in
    --quick) mode=quick ;;
    --full) mode=full ;;
    --dry-run) dry=1 ;;
    --no-report) report=0 ;;
    --only)
      only="${2:-}"
      shift
      [[ "$only" == matrix || "$only" == ladder ]] || { echo "run.sh: --only needs matrix or ladder" >&2; exit 2; }
      ;;
    --out)
      dest="${2:-}"
      shift
      [[ -n "$dest" ]] || { echo "run.sh: --out needs a folder" >&2; exit 2; }
      ;;
    -h | --help) sed -n '2,/^set -uo/{/^set -uo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
    *) echo "run.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done

read -r -a cases <<<"${CASES:-DamBreak2D DamBreak WaveMake Solids}"
read -r -a strategies <<<"${STRATEGIES:-cell verlet}"
read -r -a precisions <<<"${PRECISIONS:-single double}"
repeats="${REPEATS:-2}"
warmup="${WARMUP_STEPS:-100}"
ladder_steps="${LADDER_STEPS:-100}"
# DamBreak spacings giving 171,496 / 1,004,867 / 3,993,916 / 15,865,753 (and 63,089,244 /
# 126,308,308) particles (`sph info testcases/DamBreak.xml --dp X`).
if [[ $mode == quick ]]; then
  steps="${STEPS:-500}"
  RUN_TIMEOUT="${RUN_TIMEOUT-120}"  # one slow case must not eat the 8-minute budget
  read -r -a ladder <<<"${LADDER_DP:-0.0085 0.00454 0.00281 0.00175}"
else
  steps="${STEPS:-}"
  read -r -a ladder <<<"${LADDER_DP:-0.0085 0.00454 0.00281 0.00175 0.0011 0.00087}"
fi
dest="${dest:-$here/out/bench-$mode}"
manifest="$dest/manifest.tsv"
declare -A skip=()  # "case/strategy/precision" -> reason: planned runs recorded as not run

log() { echo "[bench $(date +%H:%M:%S)] $*"; }
oneline() { tr '\t\n\r' '   ' | sed 's/  */ /g; s/^ //; s/ $//' | cut -c1-400; }

record() {  # group case strategy precision dp repeat status file reason
  ((dry)) && return 0
  local IFS=$'\t'
  echo "$*" >>"$manifest"
}

# Why a failed run failed, from its run.json (error) or the last line of its log.
failure_reason() {  # log json
  local r=""
  [[ -f "$2" ]] && r="$(sed -n 's/^  "error": "\(.*\)",$/\1/p' "$2")"
  [[ -n "$r" ]] || r="$(grep -v '^\s*$' "$1" 2>/dev/null | tail -n 1)"
  printf '%s' "${r:-no message}" | oneline
}

is_oom() {  # log json
  grep -qiE 'out of memory|cudaErrorMemoryAllocation|bad_alloc' "$1" "$2" 2>/dev/null
}

# A case of CASES is a bundled case's name (testcases/NAME.xml) or the path of any case file
# (a DualSPHysics _Def.xml, GenCase's output), named after its file without .xml and _Def.
case_xml() { if [[ "$1" == */* || "$1" == *.xml ]]; then realpath -m "$1"; else echo "$here/testcases/$1.xml"; fi; }
case_name() { local b; b="$(basename "$1")"; b="${b%.xml}"; echo "${b%_Def}"; }

# One sph run. group: warmup (not recorded, no files), matrix or ladder.
bench_run() {  # group case strategy precision dp repeat nsteps
  local group="$1" case strategy="$3" precision="$4" dp="$5" repeat="$6" nsteps="$7" xml
  case="$(case_name "$2")"
  xml="$(case_xml "$2")"
  local key="$case/$strategy/$precision"
  local id="$group-$case-$strategy-$precision${dp:+-dp$dp}-r$repeat"
  local args=(run "$xml" --device "${DEVICE:-gpu}" --neighbours "$strategy" --precision "$precision" --quiet)
  local extra=()
  [[ $strategy == cell ]] && read -r -a extra <<<"${CELL_ARGS:-}"
  [[ $strategy == verlet ]] && read -r -a extra <<<"${VERLET_ARGS:-}"
  [[ -n "$nsteps" ]] && args+=(--steps "$nsteps")
  [[ -n "$dp" ]] && args+=(--dp "$dp")
  local out="$dest/runs/$id"
  if [[ $group == warmup ]]; then args+=(--no-output); else args+=(--no-vtk --out "$out"); fi
  args+=("${extra[@]}")
  local json="$out/run.json" rel="runs/$id/run.json"

  if [[ -n "${skip[$key]:-}" ]]; then
    [[ $group != warmup ]] &&
      record "$group" "$case" "$strategy" "$precision" "$dp" "$repeat" not-run "" "${skip[$key]}"
    ((dry)) && echo "skip  $id: ${skip[$key]}"
    return 0
  fi
  if [[ ! -f "$xml" ]]; then
    skip[$key]="case file ${xml#"$here/"} not found"
    bench_run "$@"
    return 0
  fi
  if ((dry)); then
    echo "run   $id: ${sph#"$here/"} ${args[*]//"$here/"/}"
    return 0
  fi

  mkdir -p "$out"
  local logf="$out/log.txt" rc=0 t0=$SECONDS
  local cmd=("$sph" "${args[@]}")
  [[ -n "${RUN_TIMEOUT:-}" ]] && cmd=(timeout "$RUN_TIMEOUT" "${cmd[@]}")
  "${cmd[@]}" >"$logf" 2>&1 || rc=$?
  local took=$((SECONDS - t0))
  if ((rc == 0)) && [[ $group == warmup || -f "$json" ]]; then
    log "$id: ok (${took} s)"
    if [[ $group == warmup ]]; then
      rm -rf "$out"
      return 0
    fi
    record "$group" "$case" "$strategy" "$precision" "$dp" "$repeat" ok "$rel" ""
    return 0
  fi
  local reason status
  reason="$(failure_reason "$logf" "$json")"
  if ((rc == 2)); then
    status=not-run
    reason="input error: $reason"
    skip[$key]="$reason"  # the same input fails the same way: later runs are recorded, not run
  elif ((rc == 124)); then
    status=failed reason="timed out after RUN_TIMEOUT=$RUN_TIMEOUT s"
  elif is_oom "$logf" "$json"; then
    status=oom
  elif ((rc == 0)); then
    status=failed reason="exit code 0 but no run.json"
  else
    status=failed reason="exit code $rc: $reason"
  fi
  log "$id: $status ($reason)"
  if [[ $group == warmup ]]; then
    # Input errors are recorded on the measured runs (skip); after other failures they are tried.
    rm -rf "$out"
    return 0
  fi
  [[ -f "$json" ]] || rel=""
  record "$group" "$case" "$strategy" "$precision" "$dp" "$repeat" "$status" "$rel" "$reason"
}

# Both strategies of one configuration: warm-up each, then REPEATS measured runs of each in
# ABBA order, so a linear drift of the machine (clocks, temperature) cancels in the ratio.
strategy_pair() {  # group case precision dp nsteps warmup_steps
  local group="$1" case="$2" precision="$3" dp="$4" nsteps="$5" wsteps="$6" s r
  if [[ -n "$wsteps" ]]; then
    for s in "${strategies[@]}"; do bench_run warmup "$case" "$s" "$precision" "$dp" 0 "$wsteps"; done
  fi
  for ((r = 1; r <= repeats; ++r)); do
    local order=("${strategies[@]}")
    ((r % 2 == 0)) && mapfile -t order < <(printf '%s\n' "${strategies[@]}" | tac)
    for s in "${order[@]}"; do bench_run "$group" "$case" "$s" "$precision" "$dp" "$r" "$nsteps"; done
  done
}

calibrate_now() {  # name
  if ((dry)); then
    echo "calibrate: ${calibrate#"$here/"} > calibration-$1.json"
    return 0
  fi
  if [[ ! -x "$calibrate" ]]; then
    log "calibration skipped: $calibrate not found (build with CUDA); the report will have no floors"
    return 0
  fi
  if "$calibrate" >"$dest/calibration-$1.json" 2>"$dest/calibration-$1.log"; then
    log "calibration ($1): $(tr -d '\n' <"$dest/calibration-$1.json" | cut -c1-200)..."
  else
    log "calibration ($1) failed: $(oneline <"$dest/calibration-$1.log")"
    rm -f "$dest/calibration-$1.json"
  fi
}

if ((!dry)); then
  [[ -x "$sph" ]] || { echo "run.sh: $sph not found; build first (see tools/bench/README.md)" >&2; exit 1; }
  mkdir -p "$dest"
  [[ -e "$manifest" ]] && { echo "run.sh: $manifest exists; choose another --out" >&2; exit 1; }
  {
    echo "# mode $mode"
    echo "# steps ${steps:-whole case}"
    echo "# warmup_steps $warmup"
    echo "# repeats $repeats"
    echo "# ladder_steps $ladder_steps"
    echo "# date $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "# commit ${SPH_COMMIT:-$(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo unknown)}"
    echo "# gpu $(nvidia-smi -L 2>/dev/null | head -n 1 | oneline)"
    echo "# cell_args ${CELL_ARGS:-}"
    echo "# verlet_args ${VERLET_ARGS:-}"
    printf 'group\tcase\tstrategy\tprecision\tdp\trepeat\tstatus\tfile\treason\n'
  } >"$manifest"
fi
log "mode $mode, results in $dest"
start=$SECONDS
calibrate_now start
if [[ $only != ladder ]]; then
  for case in "${cases[@]}"; do
    for precision in "${precisions[@]}"; do strategy_pair matrix "$case" "$precision" "" "$steps" "$warmup"; done
  done
fi
if [[ $only != matrix ]]; then
  # The GPU is warm by now, except when the ladder runs alone: then the first size warms it up.
  first_warmup=""
  [[ $only == ladder ]] && first_warmup="$warmup"
  for dp in "${ladder[@]}"; do
    repeats=1 strategy_pair ladder DamBreak single "$dp" "$ladder_steps" "$first_warmup"
    first_warmup=""
  done
fi
calibrate_now end
log "bench done in $((SECONDS - start)) s"

if ((report)); then
  py="${PYTHON:-}"
  if [[ -z "$py" ]]; then
    for c in /usr/bin/python3 python3; do
      if "$c" -c 'import matplotlib' >/dev/null 2>&1; then py="$c"; break; fi
    done
  fi
  if ((dry)); then
    echo "report: ${py:-python3} tools/bench/report.py ${dest#"$here/"}"
  elif [[ -z "$py" ]]; then
    log "no Python with matplotlib found: run tools/bench/report.py $dest elsewhere"
  else
    "$py" "$here/tools/bench/report.py" "$dest" || { log "report failed"; exit 1; }
  fi
fi
