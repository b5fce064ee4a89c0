#!/usr/bin/env bash
# Stand-in for `sph run` in the tests of tools/bench/run.sh: records each call in $FAKE_SPH_LOG
# and answers from the arguments, so that every outcome run.sh must record can be produced
# without a GPU:
#   DamBreak2D, double precision   exit 2, an input error (as a case the loader rejects)
#   --dp 0.00175 with verlet       exit 1, CUDA out of memory, no run.json (failed set-up)
#   --dp 0.00281 with cell         exit 1, run.json with status failed (a run that broke)
#   anything else                  exit 0, a recorded run.json with this run's names in it
set -u
fixture="$(dirname "${BASH_SOURCE[0]}")/fixtures/h200-sample/runs"
[[ "${1:-}" == run ]] || { echo "fake sph: only 'run'" >&2; exit 2; }
xml="$2" strategy=cell precision=single dp="" out="" steps="" output=1
shift 2
while (($#)); do
  case "$1" in
    --neighbours) strategy="$2"; shift ;;
    --precision) precision="$2"; shift ;;
    --dp) dp="$2"; shift ;;
    --out) out="$2"; shift ;;
    --steps) steps="$2"; shift ;;
    --device) shift ;;
    --no-output) output=0 ;;
    --no-vtk | --quiet) ;;
    *) echo "fake sph: unexpected option $1" >&2; exit 2 ;;
  esac
  shift
done
case_name="$(basename "$xml" .xml)"
echo "$case_name $strategy $precision dp=$dp steps=$steps output=$output" >>"${FAKE_SPH_LOG:-/dev/null}"
if [[ $case_name == DamBreak2D && $precision == double ]]; then
  echo "sph: error: $xml:7: <definition>: fake rejection of double precision" >&2
  exit 2
fi
if [[ $dp == 0.00175 && $strategy == verlet ]]; then
  echo "sph: run failed: CUDA error while allocating the Verlet lists: out of memory (cudaErrorMemoryAllocation at fake.cu:1)" >&2
  exit 1
fi
((output)) || exit 0
mkdir -p "$out"
sed -e "s/\"case\": \"[A-Za-z0-9]*\"/\"case\": \"$case_name\"/" -e "s/\"precision\": \"single\"/\"precision\": \"$precision\"/" \
  "$fixture/matrix-DamBreak-$strategy-single-r1/run.json" >"$out/run.json"
if [[ $dp == 0.00281 && $strategy == cell ]]; then
  sed -i -e 's/"status": "completed"/"status": "failed"/' \
    -e 's/"error": null/"error": "CUDA error while computing forces: an illegal memory access was encountered"/' "$out/run.json"
  echo "sph: run failed: CUDA error while computing forces: an illegal memory access was encountered" >&2
  exit 1
fi
echo "done: fake run"
