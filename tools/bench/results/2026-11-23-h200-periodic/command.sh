#!/usr/bin/env bash
# Session 5: the cost of the periodic y axis on WaveMake: 500 steps with and without YPeriodicIncZ, both plugins, twice.
set -o pipefail
mkdir -p /work; [ -e /work/main ] || ln -s "$(pwd)" /work/main
cd /work/main
B=./build/bin
cp .devcarry/WaveMakeOpen.xml testcases/WaveMakeOpen.xml
for r in 1 2; do for s in cell verlet; do for c in WaveMake WaveMakeOpen; do
  $B/sph run testcases/$c.xml --device gpu --neighbours $s --steps 500 --no-vtk --quiet --out /tmp/p-$c-$s-$r 2>&1 | grep -E "^done|error" | sed "s/^/$c $s r$r: /"
  cp /tmp/p-$c-$s-$r/run.json $OUT/$c-$s-$r.json
done; done; done
tar czf $OUT/periodic.tgz -C $OUT $(cd $OUT; ls *.json) && rm $OUT/*.json
