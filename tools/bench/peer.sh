#!/usr/bin/env bash
# DualSPHysics 5.4 (its GPU build, or its CPU build with PEER_DEVICE=cpu) and ours side by side on
# the same GenCase particles, the same number of steps, one machine, one call: for each case GenCase writes the particles once (its default output: the .bi4 and the cells of the case as VTK); DualSPHysics
# runs them to the case's time (-cellmode:h, no output, no timers) and its step count is what every
# configuration of ours then runs (--steps, no VTK, phase timers on, single precision). Then
# peer_table.py writes the table (loop seconds, speed-up over DualSPHysics, force pass in ns per
# particle and pass, device memory) and a chart.
#
#   tools/bench/peer.sh [--out DIR] [--dry-run] [--no-table]
#
#   --out DIR    results (default out/bench-peer): DIR/CASE/gencase/ (GenCase's output and log),
#                DIR/CASE/dsph/Run.out, DIR/CASE/CONFIG.json (our run.json), DIR/CASE/CONFIG.log,
#                then DIR/peer.md and DIR/peer.png
#   --dry-run    print the commands, run nothing (CI runs this)
#   --no-table   skip peer_table.py
#
# Environment:
#   CASES        NAME@TIME items (default "DamBreak@1.6 WaveMake@0.2 Spheric2Dam_01M@0.3
#                Spheric2Dam_04M@0.1 Spheric2Dam_13M@0.03"). NAME is a bundled case (testcases/NAME.xml),
#                a DualSPHysics case CASES_DIR/NAME_Def.xml, or a path to a _Def.xml.
#   CASES_DIR    folder of the benchmark's _Def.xml files (default PEER_DIR/cases)
#   CONFIGS      ours to run (default "cell verlet-indices verlet-clusters"): cell (h cells, as
#                DualSPHysics), cell-once and cell-twice (each pair computed once or twice:
#                --cell-pairs), verlet (the default layout), verlet-indices, verlet-clusters,
#                verlet-bitmask, verlet-once and verlet-twice (index lists, each pair computed once
#                or twice: --verlet-pairs)
#   PEER_DIR     folder with GenCase_linux64 and DualSPHysics (default <repo>/peer): the GPU build
#                as DualSPHysics5.4_linux64, dsph/DualSPHysics5.4_linux64 or the packed
#                DualSPHysics5.4_linux64_sm90.tar.xz (unpacked there on first use)
#   DSPH, GENCASE  the two programs, when they are elsewhere
#   SPH_BIN      our binary (build/bin/sph); PYTHON (python3 with matplotlib)
#   RUN_TIMEOUT  seconds for any one program run (default 600)
#   PEER_DEVICE  gpu (default) or cpu: DualSPHysics' CPU build (DualSPHysics5.4CPU_linux64 in
#                PEER_DIR, -cpu -ompthreads:THREADS) against ours with --device cpu --threads THREADS
#   THREADS      CPU threads of both codes with PEER_DEVICE=cpu (default: every core, nproc)
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
sph="${SPH_BIN:-$here/build/bin/sph}"
peer="${PEER_DIR:-$here/peer}"
cases_dir="${CASES_DIR:-$peer/cases}"
dest="$here/out/bench-peer" dry=0 table=1
while (($#)); do
  case "$1" in
    --out)
      dest="${2:-}"
      shift
      [[ -n "$dest" ]] || { echo "peer.sh: --out needs a folder" >&2; exit 2; }
      ;;
    --dry-run) dry=1 ;;
    --no-table) table=0 ;;
    -h | --help) sed -n '2,/^set -uo/{/^set -uo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
    *) echo "peer.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
read -r -a cases <<<"${CASES:-DamBreak@1.6 WaveMake@0.2 Spheric2Dam_01M@0.3 Spheric2Dam_04M@0.1 Spheric2Dam_13M@0.03}"
read -r -a configs <<<"${CONFIGS:-cell verlet-indices verlet-clusters}"
limit="${RUN_TIMEOUT:-600}"
device="${PEER_DEVICE:-gpu}"
threads="${THREADS:-$(nproc)}"
case "$device" in
  gpu) dsph_device=(-gpu:0) ours_device=(--device gpu) ;;
  cpu) dsph_device=(-cpu "-ompthreads:$threads") ours_device=(--device cpu --threads "$threads") ;;
  *) echo "peer.sh: PEER_DEVICE must be gpu or cpu, not '$device'" >&2; exit 2 ;;
esac

log() { echo "[peer $(date +%H:%M:%S)] $*"; }

config_args() {
  case "$1" in
    cell) echo "--neighbours cell --cell-mode half" ;;
    cell-once | cell-twice) echo "--neighbours cell --cell-mode half --cell-pairs ${1#cell-}" ;;
    verlet) echo "--neighbours verlet" ;;
    verlet-indices | verlet-clusters | verlet-bitmask) echo "--neighbours verlet --verlet-layout ${1#verlet-}" ;;
    verlet-once | verlet-twice) echo "--neighbours verlet --verlet-layout indices --verlet-pairs ${1#verlet-}" ;;
    *) return 1 ;;
  esac
}
for c in "${configs[@]}"; do
  config_args "$c" >/dev/null || { echo "peer.sh: unknown configuration '$c' in CONFIGS" >&2; exit 2; }
done

# The case file of NAME: a path, a bundled case, or the benchmark's NAME_Def.xml.
case_file() {
  if [[ "$1" == */* || "$1" == *.xml ]]; then realpath -m "$1"
  elif [[ -f "$here/testcases/$1.xml" ]]; then echo "$here/testcases/$1.xml"
  else echo "$cases_dir/$1_Def.xml"; fi
}
case_name() { local b; b="$(basename "$1")"; b="${b%.xml}"; echo "${b%_Def}"; }

find_dsph() {
  [[ -n "${DSPH:-}" ]] && { echo "$DSPH"; return; }
  [[ "$device" == cpu ]] && { echo "$peer/DualSPHysics5.4CPU_linux64"; return; }
  local f
  for f in "$peer/DualSPHysics5.4_linux64" "$peer/dsph/DualSPHysics5.4_linux64"; do
    [[ -x "$f" ]] && { echo "$f"; return; }
  done
  if [[ -f "$peer/DualSPHysics5.4_linux64_sm90.tar.xz" ]] && ((!dry)); then
    tar xJf "$peer/DualSPHysics5.4_linux64_sm90.tar.xz" -C "$peer" >&2 && [[ -x "$peer/dsph/DualSPHysics5.4_linux64" ]] &&
      { echo "$peer/dsph/DualSPHysics5.4_linux64"; return; }
  fi
  echo "$peer/dsph/DualSPHysics5.4_linux64"
}
dsph="$(find_dsph)"
gencase="${GENCASE:-$peer/GenCase_linux64}"
if ((!dry)); then
  for p in "$dsph" "$gencase" "$sph"; do
    [[ -x "$p" ]] || { echo "peer.sh: $p not found or not executable (see --help: PEER_DIR, DSPH, GENCASE, SPH_BIN)" >&2; exit 2; }
  done
  # GenCase and DualSPHysics need libgomp: one beside them is found first.
  export LD_LIBRARY_PATH="$peer${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  mkdir -p "$dest"
fi

# Runs a program with the time limit, its output into a log; dry: prints it.
step() {  # log program args...
  local out="$1"
  shift
  if ((dry)); then
    echo "${*//"$here/"/}"
    return 0
  fi
  timeout "$limit" "$@" >"$out" 2>&1
}

# The last lines of a failed program's log, indented under the bench's own line.
show_tail() { [[ -f "$1" ]] && tail -n "${2:-5}" "$1" | sed 's/^/    /'; return 0; }

# "Steps of simulation..............: 19,871" -> 19871 (DualSPHysics writes thousands with commas).
run_out_value() { sed -n "s/^$2\.*: *\([0-9,.]*\).*/\1/p" "$1" | head -n 1 | tr -d ,; }

failed=0
for item in "${cases[@]}"; do
  spec="${item%@*}" tmax="${item##*@}"
  [[ "$item" == *@* && -n "$tmax" ]] || { echo "peer.sh: '$item' in CASES needs NAME@TIME" >&2; exit 2; }
  xml="$(case_file "$spec")"
  name="$(case_name "$xml")"
  dir="$dest/$name"
  if [[ ! -f "$xml" ]] && ((!dry)); then
    log "$name: case file $xml not found; skipped"
    failed=1
    continue
  fi
  ((dry)) || mkdir -p "$dir/gencase" "$dir/dsph"
  log "$name: GenCase"
  step "$dir/gencase/log.txt" "$gencase" "${xml%.xml}" "$dir/gencase/$name" || {
    log "$name: GenCase failed (see $dir/gencase/log.txt)"
    show_tail "$dir/gencase/log.txt"
    failed=1
    continue
  }
  log "$name: DualSPHysics to $tmax s"
  step "$dir/dsph/log.txt" "$dsph" "$dir/gencase/$name" "$dir/dsph" "${dsph_device[@]}" -sv:none -svres -svtimers:0 \
    -tmax:"$tmax" -tout:"$tmax" -cellmode:half || {
    log "$name: DualSPHysics failed (see $dir/dsph/log.txt)"
    show_tail "$dir/dsph/log.txt"
    failed=1
    continue
  }
  steps=1000
  if ((!dry)); then
    steps="$(run_out_value "$dir/dsph/Run.out" "Steps of simulation")"
    [[ -n "$steps" ]] || { log "$name: no step count in $dir/dsph/Run.out"; failed=1; continue; }
  fi
  for c in "${configs[@]}"; do
    read -r -a extra <<<"$(config_args "$c")"
    log "$name: ours, $c, $steps steps"
    # Twice the time: the step count ends the run (both codes' dt differ by rounding).
    tmax2="$(awk -v t="$tmax" 'BEGIN { printf "%.9g", 2 * t }')"
    out="$dir/$c"
    ((dry)) || rm -rf "$out"
    if step "$dir/$c.log" "$sph" run "$dir/gencase/$name.xml" "${ours_device[@]}" --precision single --no-vtk --quiet \
      --steps "$steps" --time-max "$tmax2" --checkpoint-every 0 --out "$out" "${extra[@]}"; then
      ((dry)) || { cp "$out/run.json" "$dir/$c.json"; rm -rf "$out"; }
    else
      log "$name: ours ($c) failed (see $dir/$c.log)"
      show_tail "$dir/$c.log"
      failed=1
    fi
  done
done
if ((table && !dry)); then
  "${PYTHON:-python3}" "$here/tools/bench/peer_table.py" "$dest" || failed=1
fi
exit "$failed"
