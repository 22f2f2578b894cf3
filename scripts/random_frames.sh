#!/usr/bin/env bash
# The long run of the randomized differential scenes, spread over parallel processes.
#   scripts/random_frames.sh FRAMES [JOBS] [SEED] [SECONDS]
# Process i runs FRAMES/JOBS frames (rounded up) from seed SEED + i * 0x1000, in episodes of
# 1000 frames (episode k of process i is the sequence of seed SEED + i * 0x1000 + k, so every
# frame of the run belongs to a distinct sequence position). SECONDS (optional) stops every
# process after that long, at a frame boundary, with its summary. Prints every failure's
# one-line reproduction, one summary per process and the totals; exits 1 on any failure.
# RF_BIN (default build/bench/random_frames) names the binary; RF_LOGS (default a temporary
# folder) keeps the per-process logs.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
frames=${1:?usage: scripts/random_frames.sh FRAMES [JOBS] [SEED] [SECONDS]}
jobs=${2:-$(nproc)}
seed=${3:-0x700000}
secs=${4:-0}
bin=${RF_BIN:-$here/build/bench/random_frames}
logs=${RF_LOGS:-$(mktemp -d)}
[ -x "$bin" ] || { echo "random_frames.sh: $bin not found (make build)" >&2; exit 2; }
[ "$jobs" -ge 1 ] || { echo "random_frames.sh: JOBS must be >= 1" >&2; exit 2; }
mkdir -p "$logs"
per=$(((frames + jobs - 1) / jobs))
pids=()
for i in $(seq 0 $((jobs - 1))); do
  s=$((seed + i * 0x1000))
  if [ "$secs" -gt 0 ]; then
    timeout -s TERM -k 60 "$secs" "$bin" --seed "$s" --frames "$per" --keep-going --quiet >"$logs/rf_$i.log" 2>&1 &
  else
    "$bin" --seed "$s" --frames "$per" --keep-going --quiet >"$logs/rf_$i.log" 2>&1 &
  fi
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
grep -h '^FAIL' "$logs"/rf_*.log
grep -h '^summary' "$logs"/rf_*.log
missing=$(for i in $(seq 0 $((jobs - 1))); do grep -q '^summary' "$logs/rf_$i.log" || echo "$i"; done | tr '\n' ' ')
cat "$logs"/rf_*.log | awk -v missing="$missing" '
  /^summary/ { f += $2; for (i = 1; i <= NF; i++) {
      if ($i == "failures" && $(i+1) == "in") fails += $(i-1)
      if ($i == "compared,") cmp += $(i-4)
      if ($i == "mean" && $(i-1) == "worst") { v = $(i+1); sub("/255,?", "", v); if (v + 0 > wm) wm = v + 0 }
      if ($i == "p99" && $(i-1) == "worst") { v = $(i+1); sub("/255;?", "", v); if (v + 0 > wp) wp = v + 0 } } }
  END { printf "total: %d frames, %d images compared, worst mean %.3f/255, worst p99 %d/255, %d failures%s\n",
        f, cmp, wm, wp, fails, missing != "" ? "; no summary from process(es) " missing : "";
        exit (fails > 0 || missing != "") ? 1 : 0 }'
