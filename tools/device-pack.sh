#!/usr/bin/env bash
# Copies the shared libraries that the GPU machine lacks (by default TinyXML2 and the GNU
# OpenMP runtime) from this machine into build/bin, where the RPATH $ORIGIN of the sph binary
# (and $ORIGIN/../../../bin of the plugins) finds them.
#   usage: tools/device-pack.sh [LIBNAME-PREFIX...]   default: libtinyxml2 libgomp
#   e.g.   tools/device-pack.sh libtinyxml2 libgomp libstdc++
# SPH_BUILD_DIR selects the build directory (default: <repo>/build).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${SPH_BUILD_DIR:-$repo/build}"
bin="$build/bin/sph"
prefixes=("$@")
((${#prefixes[@]})) || prefixes=(libtinyxml2 libgomp)

if [[ ! -x "$bin" ]]; then
  echo "device-pack: $bin not found; build first (tools/setup.sh)" >&2
  exit 1
fi

# The binary, the neighbour toolkit and the plugins, as the GPU machine will load them.
objects=("$bin")
while IFS= read -r -d '' so; do objects+=("$so"); done < <(find "$build/lib" -maxdepth 1 -name '*.so' -print0)
if [[ -d "$build/lib/sph/plugins" ]]; then
  while IFS= read -r -d '' so; do objects+=("$so"); done < <(find "$build/lib/sph/plugins" -name '*.so' -print0)
fi

declare -A copied=()
for obj in "${objects[@]}"; do
  # ldd lines: "libname.so.N => /path/libname.so.N (0x...)".
  while read -r name arrow path _; do
    [[ "$arrow" == "=>" ]] || continue
    for prefix in "${prefixes[@]}"; do
      [[ "$name" == "$prefix"* ]] || continue
      [[ -n "${copied[$name]:-}" ]] && continue
      if [[ "$path" == "not" || ! -f "$path" ]]; then
        echo "device-pack: $name, needed by $obj, is not found on this machine" >&2
        exit 1
      fi
      # $path may already be the copy in build/bin (RPATH $ORIGIN finds it first).
      if [[ "$(realpath "$path")" != "$(realpath -m "$build/bin/$name")" ]]; then
        cp -L "$path" "$build/bin/$name"
      fi
      copied[$name]="$path"
      echo "device-pack: $name <- $path"
    done
  done < <(ldd "$obj")
done

for prefix in "${prefixes[@]}"; do
  found=""
  for name in "${!copied[@]}"; do [[ "$name" == "$prefix"* ]] && found=yes; done
  [[ -n "$found" ]] || echo "device-pack: note: nothing linked matches $prefix" >&2
done
