#!/usr/bin/env bash
# Runs the libFuzzer targets of tests/fuzz (clang, ASan + UBSan + coverage).
#   scripts/fuzz.sh SECONDS [TARGET...]     TARGET = std140, image, ... (default: all)
# Each target starts from a copy of its committed corpus (tests/fuzz/corpus/<name>) in
# build-fuzz/work/<name>, so the repo's corpus only changes when someone copies new inputs
# back on purpose. Prints one line per target with the executions run; a crash fails the run
# and leaves the reproducer in build-fuzz/work/. FUZZ_JOBS (default 1) runs parallel workers.
# FUZZ_SEED fixes libFuzzer's seed (the CI smoke run uses 1, so it walks the same inputs each
# time instead of failing on whatever a random walk meets first; long runs stay random).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-30}
shift || true
build=${FUZZ_BUILD:-$here/build-fuzz}
jobs=${FUZZ_JOBS:-1}
seed=()
[ -n "${FUZZ_SEED:-}" ] && seed=(-seed="$FUZZ_SEED")

command -v clang >/dev/null || { echo "fuzz: clang not found (scripts/bootstrap.sh installs it)" >&2; exit 1; }
CC=clang CXX=clang++ cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHL_SANITIZE=ON -DHL_FUZZ=ON \
  -DHL_WERROR=OFF >/dev/null
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for f in "$here"/tests/fuzz/fuzz_*.c; do n=$(basename "$f" .c); targets+=("${n#fuzz_}"); done
fi
cmake --build "$build" -j "$(nproc)" --target $(printf 'fuzz_%s ' "${targets[@]}") >/dev/null

fail=0
for t in "${targets[@]}"; do
  work="$build/work/$t"
  mkdir -p "$work/corpus" "$work/artifacts"
  cp -n "$here/tests/fuzz/corpus/$t"/* "$work/corpus/" 2>/dev/null || true
  log="$work/last.log"
  par=()
  [ "$jobs" -gt 1 ] && par=(-jobs="$jobs" -workers="$jobs")
  set +e
  (cd "$work" && ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$build/tests/fuzz/fuzz_$t" -max_total_time="$secs" -print_final_stats=1 -rss_limit_mb=4096 -timeout=20 \
    "${par[@]}" "${seed[@]}" -artifact_prefix="$work/artifacts/" "$work/corpus" >"$log" 2>&1)
  rc=$?
  set -e
  if [ "$jobs" -gt 1 ]; then cat "$work"/fuzz-*.log >>"$log" 2>/dev/null || true; rm -f "$work"/fuzz-*.log; fi
  execs=$(grep -h 'stat::number_of_executed_units' "$log" | awk '{s+=$2} END {print s+0}')
  if [ $rc -ne 0 ]; then
    fail=1
    echo "fuzz_$t: FAILED after $execs executions (log: $log)"
    grep -E 'ERROR|runtime error|SUMMARY|Test unit written' "$log" | head -8
  else
    echo "fuzz_$t: ok, $execs executions in ${secs}s, corpus $(ls "$work/corpus" | wc -l) inputs"
  fi
done
exit $fail
