#!/usr/bin/env bash
# `hilo3d view` on one backend, against `hilo3d render` of the same scene, camera and size: the
# window's pixels (an X screenshot taken by the viewer after N frames) must match the headless
# render within a mean of 1/255 per channel. Also: the scripted resize / hide / minimise /
# pipeline-cycling run exits 0 with no error and still shows the same image, a glTF model
# through its file's camera (paused animation) matches `render MODEL --animation 0 --time 0`,
# forward-post and deferred match their renders, and usage / no-display errors exit 2 / 1.
#
#   bash tests/window/test_view.sh path/to/hilo3d path/to/png_diff BACKEND
# Starts its own Xvfb (xvfb_run.sh) for every window run.
set -u
HILO3D=${1:?usage: test_view.sh hilo3d png_diff backend}
DIFF=${2:?}
BE=${3:?}
HERE=$(cd "$(dirname "$0")" && pwd)
DATA=$HERE/../data/gltf
TMP=$(mktemp -d "${TMPDIR:-/tmp}/hl_view.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
failures=0
checks=0
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}
pass() { checks=$((checks + 1)); }
xrun() { bash "$HERE/xvfb_run.sh" "$@"; }

# compare NAME VIEW.png RENDER.png: mean <= 1/255
compare() {
    local out
    out=$("$DIFF" "$2" "$3" 1.0)
    local rc=$?
    echo "$BE $1: $out"
    if [ $rc -eq 0 ]; then pass; else fail "$1: the window differs from the render: $out"; fi
}

# view NAME ARGS...: runs the viewer under Xvfb; rc 0 and nothing on stderr expected
view() {
    local name=$1
    shift
    xrun "$HILO3D" view "$@" --backend "$BE" >"$TMP/$name.out" 2>"$TMP/$name.err"
    local rc=$?
    if [ $rc -eq 0 ] && [ ! -s "$TMP/$name.err" ]; then
        pass
    else
        fail "$name: view exit code $rc; stderr: $(head -c 600 "$TMP/$name.err")"
    fi
    cat "$TMP/$name.out"
}

render() { # NAME ARGS...
    local name=$1
    shift
    if "$HILO3D" render "$@" --backend "$BE" --out "$TMP/$name.png" >"$TMP/$name.rout" 2>"$TMP/$name.rerr"; then
        pass
    else
        fail "$name: render failed: $(head -c 400 "$TMP/$name.rerr")"
    fi
}

# 1. the demo scene: 6 frames, then what the window shows
render demo --width 320 --height 200
view demo --size 320x200 --frames 6 --capture "$TMP/demo_view.png"
compare demo "$TMP/demo_view.png" "$TMP/demo.png"
grep -q "6 presented" "$TMP/demo.out" && pass || fail "demo: 6 presented frames not reported"

# 2. rapid resizes (1x1 .. 1200x900), hidden window, simulated minimise, P three times, orbit /
#    pan / wheel / keys and R (the capture after it must be the first view), close
view resize --size 320x200 --frames 6 --resize-test --capture "$TMP/resize_view.png"
compare "resize test" "$TMP/resize_view.png" "$TMP/demo.png"
line=$(grep "^frames:" "$TMP/resize.out")
configures=$(echo "$line" | sed -n 's/.* \([0-9]*\) surface configures.*/\1/p')
minimised=$(echo "$line" | sed -n 's/.* \([0-9]*\) minimised loops.*/\1/p')
[ "${configures:-0}" -ge 20 ] && pass || fail "resize test: $configures surface configures (at least 20 expected)"
[ "${minimised:-0}" -ge 1 ] && pass || fail "resize test: no minimised loop ($line)"
grep -q "^pipeline: forward;" "$TMP/resize.out" && pass || fail "resize test: not back at the forward pipeline"
moved=$(sed -n 's/^input: .* moved the camera \([0-9.]*\) units, R left it \([0-9.]*\) from.*/\1 \2/p' "$TMP/resize.out")
if awk -v m="${moved% *}" -v b="${moved#* }" 'BEGIN { exit !(m > 0.1 && b < 0.0001) }' </dev/null && [ -n "$moved" ]; then
    pass
else
    fail "resize test: the scripted input did not move the camera or R did not put it back ($moved)"
fi

# 3. a glTF model through its file's camera, the animation paused at 0, after the scripted run (its
#    input moves to the viewer's own orbit camera, R goes back to the file's)
render model "$DATA/animated_quad.glb" --width 256 --height 160 --animation 0 --time 0
view model "$DATA/animated_quad.glb" --size 256x160 --paused --frames 6 --resize-test --capture "$TMP/model_view.png"
compare "glTF model" "$TMP/model_view.png" "$TMP/model.png"

# 4. the other pipelines: forward-post (bloom, tone mapping, FXAA) and deferred
for p in forward-post deferred; do
    render "$p" --width 256 --height 160 --pipeline "$p"
    view "$p" --size 256x160 --pipeline "$p" --frames 4 --capture "$TMP/${p}_view.png"
    compare "$p" "$TMP/${p}_view.png" "$TMP/$p.png"
done

# 5. usage errors (2) and no display (1)
"$HILO3D" view --size 0x5 >/dev/null 2>&1
[ $? -eq 2 ] && pass || fail "view --size 0x5: exit code not 2"
"$HILO3D" view --capture x.png >/dev/null 2>&1
[ $? -eq 2 ] && pass || fail "view --capture without --frames: exit code not 2"
env -u DISPLAY -u WAYLAND_DISPLAY "$HILO3D" view --backend "$BE" --frames 1 >/dev/null 2>"$TMP/nodisplay.err"
rc=$?
[ $rc -eq 1 ] && grep -q "window" "$TMP/nodisplay.err" && pass ||
    fail "view without a display: exit code $rc, stderr $(head -c 300 "$TMP/nodisplay.err")"

echo "$checks passed, $failures failed"
[ $failures -eq 0 ]
