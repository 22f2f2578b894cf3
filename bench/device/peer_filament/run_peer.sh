#!/bin/bash
# .fil/run_peer.sh -- on the remote machine, from the repo root:   bash .fil/run_peer.sh
# Sources .fil/setup.sh (Xvfb + carried libs), then runs peer_filament (hilo3d gles3 vs
# Filament 1.9.25 GLX) for 1000 and 10000 cubes, 200 frames after 20, --json.
# Writes under $OUT (3 files): peer_filament_1000.json, peer_filament_10000.json,
# peer_filament.log (setup, glxinfo -B, each run's stdout/stderr and exit status).
# Knobs: PEER_MESHES ("1000 10000"), PEER_FRAMES (200), PEER_WARMUP (20), PEER_TIMEOUT (240 s
# per case), PEER_KEEP_X=1 (leave Xvfb running), plus setup.sh's FIL_* knobs.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
OUT=${OUT:-/tmp/peer_out}; mkdir -p "$OUT"
LOG=$OUT/peer_filament.log; : > "$LOG"
say() { echo "$*" | tee -a "$LOG"; }

# GL loaders (the device README's recipe), only if they are not there yet
if ! ldconfig -p | grep -q 'libGLX\.so\.0' && ls .gl/*.deb > /dev/null 2>&1; then
    for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
    say "run_peer: unpacked .gl loader debs into /"
fi
# NVIDIA's EGL vendor for hilo3d's headless EGL, where glvnd would not find it by itself
if [ -z "${__EGL_VENDOR_LIBRARY_FILENAMES:-}" ] && ! ls /usr/share/glvnd/egl_vendor.d/*nvidia* /etc/glvnd/egl_vendor.d/*nvidia* > /dev/null 2>&1 &&
    [ -f /usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json ]; then
    export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
    say "run_peer: __EGL_VENDOR_LIBRARY_FILENAMES=$__EGL_VENDOR_LIBRARY_FILENAMES"
fi

. .fil/setup.sh > "$OUT/.setup.txt" 2>&1
cat "$OUT/.setup.txt" | tee -a "$LOG"; rm -f "$OUT/.setup.txt"
{ echo "--- glxinfo -B ($DISPLAY, __GLX_VENDOR_LIBRARY_NAME=${__GLX_VENDOR_LIBRARY_NAME:-})"; cat /tmp/fil-glxinfo.txt 2>/dev/null; } >> "$LOG"
if [ "$FIL_OK" != 1 ]; then
    say "run_peer: no X server, peer_filament not run"
    cat "${FIL_XVFB_LOG:-/dev/null}" >> "$LOG" 2>/dev/null
    exit 1
fi

rc=0
for n in ${PEER_MESHES:-1000 10000}; do
    raw=$OUT/.peer_$n.txt
    t0=$(date +%s)
    timeout -k 10 "${PEER_TIMEOUT:-240}" "$FIL_BIN/peer_filament" --backend gles3 --meshes "$n" \
        --frames "${PEER_FRAMES:-200}" --warmup "${PEER_WARMUP:-20}" \
        --material "$FIL_BIN/peer_filament_unlit.filamat" --json > "$raw" 2>&1
    r=$?
    # Filament 1.9 logs to stdout: keep only the JSON line in the .json file
    grep '^{' "$raw" > "$OUT/peer_filament_$n.json"
    { echo "--- peer_filament --meshes $n: exit $r ($(( $(date +%s) - t0 )) s; 124 = timeout)"; cat "$raw"; } >> "$LOG"
    rm -f "$raw"
    say "run_peer: $n cubes: exit $r; $(head -c 300 "$OUT/peer_filament_$n.json")"
    [ "$r" = 0 ] || rc=1
done

if [ "${PEER_KEEP_X:-0}" != 1 ] && [ -n "${FIL_XVFB_PID:-}" ]; then
    kill "$FIL_XVFB_PID" 2> /dev/null
fi
exit $rc
