#!/usr/bin/env bash
# Every public header compiled alone, as C11 and as C++17, with gcc/g++ and clang/clang++, at
# -Wall -Wextra -Wpedantic -Werror (each twice in one translation unit: the include guards).
# Headers that declare functions must wrap them in extern "C" for C++ (checked on the text;
# tests/install/test_install.sh links C++ against every declared function).
#   bash tests/install/check_headers.sh INCLUDE_DIR
set -u
inc=${1:?usage: check_headers.sh INCLUDE_DIR}
pass=0 fail=0
bad() { echo "public_headers: $*"; fail=$((fail + 1)); }
compilers=()
for c in "gcc -x c -std=c11" "clang -x c -std=c11" "g++ -x c++ -std=c++17" "clang++ -x c++ -std=c++17"; do
  if command -v "${c%% *}" >/dev/null; then compilers+=("$c"); else bad "${c%% *} not found (scripts/bootstrap.sh installs gcc, g++ and clang)"; fi
done
for h in "$inc"/hilo3d/*.h; do
  name=hilo3d/$(basename "$h")
  for c in "${compilers[@]}"; do
    # shellcheck disable=SC2086
    if out=$(printf '#include "%s"\n#include "%s"\nint main(void) { return 0; }\n' "$name" "$name" |
             $c -Wall -Wextra -Wpedantic -Werror -fsyntax-only -I"$inc" - 2>&1); then
      pass=$((pass + 1))
    else
      bad "$name does not compile alone with '$c':"; echo "$out" | head -20
    fi
  done
  if grep -q '^HL_API' "$h"; then
    if grep -q '^extern "C" {' "$h" && grep -qE '^#ifdef __cplusplus' "$h"; then pass=$((pass + 1)); else bad "$name declares functions without an extern \"C\" guard"; fi
  fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
