#!/usr/bin/env bash
# The engine's dependency rule is the build's: a module (engine/src/<module>, library
# sph_<module>) finds the headers of the modules it USES (engine/src/CMakeLists.txt), and of
# theirs, and no other. For every pair of modules this preprocesses an include of one of the
# other's headers with the first module's include directories, and expects it found exactly when
# the rule allows it. It also checks that no engine source reaches a header by a relative path.
#   usage: test_module_rule.sh CXX RULE_DIR ENGINE_SRC_DIR
set -euo pipefail
cxx="$1" rules="$2" src="$3"
fail=0
modules=()
for f in "$src"/*/; do modules+=("$(basename "$f")"); done

declare -A uses
for m in "${modules[@]}"; do uses[$m]="$(tr ';' ' ' < "$rules/$m.uses")"; done
closure() {  # the modules $1 may use, itself included
  local todo=("$1") seen=" $1 " m u
  while ((${#todo[@]})); do
    m="${todo[0]}"; todo=("${todo[@]:1}")
    for u in ${uses[$m]}; do
      [[ "$seen" == *" $u "* ]] || { seen+="$u "; todo+=("$u"); }
    done
  done
  echo "$seen"
}

for m in "${modules[@]}"; do
  [[ -f "$rules/$m.dirs" ]] || continue  # header-only modules compile nothing
  flags=()
  while IFS= read -r d; do [[ -n "$d" ]] && flags+=("-I$d"); done < "$rules/$m.dirs"
  allowed="$(closure "$m")"
  for other in "${modules[@]}"; do
    header="$(cd "$src/$other" && ls *.h | head -n 1)"
    if echo "#include \"$other/$header\"" | "$cxx" -std=c++20 -E -x c++ "${flags[@]}" - > /dev/null 2>&1; then
      found=1
    else
      found=0
    fi
    if [[ "$allowed" == *" $other "* ]]; then
      if ((!found)); then
        # An allowed header that fails to preprocess: show why (a missing root, or an error in it).
        echo "module $m may use $other, but \"$other/$header\" does not preprocess with its include directories:" >&2
        echo "#include \"$other/$header\"" | "$cxx" -std=c++20 -E -x c++ "${flags[@]}" - 2>&1 > /dev/null | head -n 5 >&2
        fail=1
      fi
    elif ((found)); then
      echo "module $m reaches \"$other/$header\", though $other is not among the modules it uses (${uses[$m]:-none})" >&2
      fail=1
    fi
  done
done

# No relative includes: "../x.h" would step around the include roots.
while IFS= read -r line; do
  echo "includes by a relative path: $line" >&2
  fail=1
done < <(grep -rnE '#include "\.\./' "$src" --include='*.h' --include='*.cpp' --include='*.cu' --include='*.cuh' || true)
exit $fail
