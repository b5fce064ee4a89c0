#!/usr/bin/env bash
# The plugin ABI tag hashes the plugin surface (engine/include/sph/plugin and engine/neighbours)
# and nothing else. That is sound only if the surface and the plugins include nothing of the
# engine outside it; and then a comment in an engine-only header leaves the tag as it was, while
# a change in a surface header (pair_physics.h) changes it.
#   usage: test_plugin_surface.sh SOURCE_DIR
set -euo pipefail
root="$1"
fail=0
# 1. The surface and the plugins' sources (tests aside) include only the surface: no engine
# header (engine/src/<module>/, included as "<module>/file.h").
modules="$(find "$root/engine/src" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | paste -sd'|')"
while IFS= read -r line; do
  echo "includes an engine header outside the plugin surface: $line" >&2
  fail=1
done < <(grep -rnE "#include \"(sph/|($modules)/)" "$root/engine/include/sph/plugin" "$root/engine/neighbours" \
           "$root/plugins" "$root/verlet" --include='*.h' --include='*.cuh' --include='*.cpp' --include='*.cu' |
         grep -v '/tests/' | grep -vE '#include "sph/(plugin/|plugin_abi_tag\.h)')
# 2. The tag over a copy of the tree: unchanged by an engine-only header, changed by pair_physics.h.
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -r "$root/engine" "$root/cmake" "$work/"
tag() {
  local headers
  headers="$(find "$work/engine/include/sph/plugin" "$work/engine/neighbours" -name '*.h' -o -name '*.cuh' | sort | paste -sd'|')"
  cmake "-DHEADERS=$headers" "-DROOT=$work" "-DOUTPUT=$work/tag.h" -P "$work/cmake/plugin_abi_tag.cmake"
  grep -o '"[0-9a-f]*"' "$work/tag.h"
}
before="$(tag)"
echo "// a comment" >> "$work/engine/src/model/case_wave_paddles.h"
after_engine="$(tag)"
echo "// a comment" >> "$work/engine/include/sph/plugin/pair_physics.h"
after_surface="$(tag)"
if [[ "$before" != "$after_engine" ]]; then
  echo "a comment in an engine-only header changed the plugin ABI tag ($before -> $after_engine)" >&2
  fail=1
fi
if [[ "$after_engine" == "$after_surface" ]]; then
  echo "a change in plugin/pair_physics.h left the plugin ABI tag as it was ($after_engine)" >&2
  fail=1
fi
exit $fail
