#!/usr/bin/env bash
# The hilo3d command-line tool: option parsing (--opt value, --opt=value, --help per command,
# --version, usage errors with exit code 2), write errors reported with their reason and exit
# code 1 for every command and output, output folders created, atomic file writes.
#
#   bash tests/cli/test_cli.sh path/to/hilo3d [expected-version]
#
# Renders use small non-square sizes on both GPU backends (square and portrait sizes of the
# demo fail until issue 7 defect 1 is fixed; that is the renderer's, not this test's, concern).
set -u
export LC_ALL=C # strerror texts below are the C locale's

HILO3D=${1:?usage: test_cli.sh path/to/hilo3d [expected-version]}
VERSION=${2:-}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/hl_cli.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
HILO3D=$(cd "$(dirname "$HILO3D")" && pwd)/$(basename "$HILO3D")
# Work in an empty folder so a default output (out/demo.png) never lands elsewhere.
mkdir "$TMP/cwd" && cd "$TMP/cwd" || exit 1

failures=0
checks=0
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}
pass() { checks=$((checks + 1)); }

# run ARGS...: runs hilo3d, leaving $RC, $TMP/out, $TMP/err.
run() {
    "$HILO3D" "$@" >"$TMP/out" 2>"$TMP/err"
    RC=$?
}
# run_to FILE ARGS...: same with stdout sent to FILE.
run_to() {
    local dest=$1
    shift
    "$HILO3D" "$@" >"$dest" 2>"$TMP/err"
    RC=$?
}
expect_rc() { # expected, description
    if [ "$RC" -eq "$1" ]; then pass; else fail "$2: exit code $RC, expected $1; stderr: $(head -c 400 "$TMP/err")"; fi
}
expect_err() { # text, description
    if grep -qF -- "$1" "$TMP/err"; then pass; else fail "$2: stderr lacks '$1': $(head -c 400 "$TMP/err")"; fi
}
expect_out() { # text, description
    if grep -qF -- "$1" "$TMP/out"; then pass; else fail "$2: stdout lacks '$1': $(head -c 400 "$TMP/out")"; fi
}

# png_check FILE W H: PNG signature, IHDR first, and its width/height (big-endian bytes 16..23).
png_check() {
    local f=$1 w=$2 h=$3
    if [ ! -s "$f" ]; then
        fail "$f: missing or empty"
        return
    fi
    local sig ihdr dims
    sig=$(od -An -tx1 -N8 "$f" | tr -d ' \n')
    ihdr=$(od -An -c -j12 -N4 "$f" | tr -d ' \n')
    dims=$(od -An -tu1 -j16 -N8 "$f" | awk '{print ($1*16777216+$2*65536+$3*256+$4) "x" ($5*16777216+$6*65536+$7*256+$8)}')
    [ "$sig" = 89504e470d0a1a0a ] && pass || fail "$f: not a PNG signature ($sig)"
    [ "$ihdr" = IHDR ] && pass || fail "$f: first chunk is '$ihdr', not IHDR"
    [ "$dims" = "${w}x${h}" ] && pass || fail "$f: PNG is $dims, expected ${w}x${h}"
}

# No file other than the expected ones (no temporary file left behind) in a folder.
expect_only() { # dir, names...
    local dir=$1
    shift
    local got want
    got=$(ls -A "$dir" | sort | tr '\n' ' ')
    want=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
    [ "$got" = "$want" ] && pass || fail "$dir holds '$got', expected '$want'"
}

# ---- --version, --help --------------------------------------------------------------------
run --version
expect_rc 0 "--version"
if grep -qE '^hilo3d [0-9]+\.[0-9]+\.[0-9]+$' "$TMP/out"; then pass; else fail "--version prints '$(cat "$TMP/out")'"; fi
if [ -n "$VERSION" ]; then expect_out "hilo3d $VERSION" "--version is the project version"; fi

for h in --help -h; do
    run $h
    expect_rc 0 "hilo3d $h"
    for c in info render rhi-demo graph-dump; do expect_out "  $c " "hilo3d $h lists $c"; done
done

run
expect_rc 2 "no command"
expect_err "usage: hilo3d COMMAND" "no command prints the usage"

# Every command's --help: usage line, each option with its default, exit 0, nothing on stderr.
declare -A HELP_LINES=(
    [info]='--json|(default: off)'
    [render]='--backend auto|webgpu|gles3|(default: auto);--width W|(default: 1280);--height H|(default: 720);--samples N|(default: 4);--pipeline forward|forward-post|deferred|(default: forward);--example none|particles|gpu-culling|forward-plus|(default: none);--count N|(default: 0);--frames N|(default: 3);--out FILE.png|(default: out/demo.png)'
    [rhi-demo]='--backend auto|webgpu|gles3|(default: auto);--width W|(default: 512);--height H|(default: 512);--samples N|(default: 4);--out FILE.png|(default: out/demo.png)'
    [graph-dump]='--pipeline forward|forward-post|deferred|(default: the example deferred frame);--backend auto|webgpu|gles3|(default: auto);--width W|(default: 1920);--height H|(default: 1080);--out FILE.dot|(default: standard output)'
)
for c in info render rhi-demo graph-dump; do
    for h in --help -h; do
        run "$c" $h
        expect_rc 0 "$c $h"
        expect_out "usage: hilo3d $c [OPTIONS]" "$c $h"
        expect_out "-h, --help" "$c $h"
        [ -s "$TMP/err" ] && fail "$c $h writes to stderr: $(cat "$TMP/err")" || pass
        IFS=';' read -ra lines <<<"${HELP_LINES[$c]}"
        for l in "${lines[@]}"; do
            opt=${l%%|(*}
            def=${l#"$opt|"}
            if grep -F -- "  $opt " "$TMP/out" | grep -qF -- "$def"; then pass; else
                fail "$c $h: no line with '$opt' and '$def'"
            fi
        done
    done
done
# --help after other options still shows the built-in defaults.
run render --width 64 --help
expect_rc 0 "render --width 64 --help"
if grep -F -- "--width W" "$TMP/out" | grep -qF "(default: 1280)"; then pass; else fail "--help after --width shows a changed default"; fi

# ---- usage errors: exit 2, a message naming the problem, a hint ---------------------------
# "args|text the message must contain"
usage_cases=(
    "bogus|unknown command 'bogus'"
    "--bogus|unknown option '--bogus'"
    "render --frobnicate|unknown option '--frobnicate'"
    "render --frob=1|unknown option '--frob'"
    "render -x|unknown option '-x'"
    "render --w 64|unknown option '--w'"
    "render stray|unexpected argument 'stray'"
    "render --width|option '--width' needs a value"
    "render --out|option '--out' needs a value"
    "render --width 0|--width '0' must be an integer in [1, 8192]"
    "render --width abc|--width 'abc' must be an integer"
    "render --width 99999999999|--width '99999999999' must be an integer"
    "render --width 99999999999999999999999|--width '99999999999999999999999' must be an integer"
    "render --width -1|--width '-1' must be an integer"
    "render --width +64|--width '+64' must be an integer"
    "render --width 64x|--width '64x' must be an integer"
    "render --width=|--width '' must be an integer"
    "render --height 8193|--height '8193' must be an integer in [1, 8192]"
    "render --samples 2|--samples '2' must be one of 1, 4"
    "render --frames 0|--frames '0' must be an integer"
    "render --backend vulkan|--backend 'vulkan' is not one of auto|webgpu|gles3"
    "render --backend null|--backend 'null' is not one of"
    "render --pipeline forward-pre|--pipeline 'forward-pre' is not one of forward|forward-post|deferred"
    "render --pipeline|option '--pipeline' needs a value"
    "render --example particle|--example 'particle' is not one of none|particles|gpu-culling|forward-plus"
    "render --count 4194305|--count '4194305' must be an integer in [0, 4194304]"
    "render --out=|--out needs a non-empty value"
    "render --help=yes|option '--help' takes no value"
    "rhi-demo --samples 3|--samples '3' must be one of 1, 4"
    "rhi-demo --width abc|--width 'abc' must be an integer"
    "rhi-demo --bogus|unknown option '--bogus'"
    "info --json=1|option '--json' takes no value"
    "info --verbose|unknown option '--verbose'"
    "info extra|unexpected argument 'extra'"
    "graph-dump --width 31|--width '31' must be an integer in [32, 8192]"
    "graph-dump --height|option '--height' needs a value"
    "graph-dump --bogus|unknown option '--bogus'"
    "graph-dump --pipeline forward-pre|--pipeline 'forward-pre' is not one of forward|forward-post|deferred"
)
for case in "${usage_cases[@]}"; do
    args=${case%%|*}
    msg=${case#*|}
    # shellcheck disable=SC2086 # word splitting of args is intended
    run $args
    expect_rc 2 "hilo3d $args"
    expect_err "$msg" "hilo3d $args"
    expect_err "--help" "hilo3d $args (hint)"
    [ -e "$TMP/cwd/out" ] && fail "hilo3d $args created out/ after a usage error" || pass
done

# ---- render: --opt=value, folders created, PNG of the requested size, both backends --------
for be in gles3 webgpu; do
    dir="$TMP/$be/a/b"
    run render --backend "$be" --width=64 --height 48 --out "$dir/c.png"
    expect_rc 0 "render --backend $be --width=64 --height 48"
    expect_out "wrote $dir/c.png (64x48" "render --backend $be"
    png_check "$dir/c.png" 64 48
    expect_only "$dir" c.png
    run render --backend="$be" --width 80 --height=48 --samples=1 --frames=1 --out="$dir/d.png"
    expect_rc 0 "render --backend=$be --samples=1 --frames=1 --out=..."
    png_check "$dir/d.png" 80 48
    expect_only "$dir" c.png d.png
    # square and portrait sizes (the demo's shadow caster outside the view broke them once)
    for size in 64x64 40x72; do
        w=${size%x*}; h=${size#*x}
        run render --backend "$be" --width "$w" --height "$h" --out "$dir/s$size.png"
        expect_rc 0 "render --backend $be --width $w --height $h"
        png_check "$dir/s$size.png" "$w" "$h"
    done
    # the Forward pipeline with bloom, tone mapping and FXAA, square and odd sizes
    for size in 48x48 33x17; do
        w=${size%x*}; h=${size#*x}
        run render --backend "$be" --pipeline forward-post --width "$w" --height "$h" --frames 2 --out "$dir/p$size.png"
        expect_rc 0 "render --backend $be --pipeline forward-post --width $w --height $h"
        expect_out "pipeline: forward-post" "render --pipeline forward-post"
        png_check "$dir/p$size.png" "$w" "$h"
    done
    # the deferred pipeline (src/demo/hl_deferred.h), portrait and odd
    run render --backend "$be" --pipeline deferred --width 31 --height 45 --frames 2 --out "$dir/d.png"
    expect_rc 0 "render --backend $be --pipeline deferred"
    expect_out "pipeline: deferred" "render --pipeline deferred"
    png_check "$dir/d.png" 31 45
done

# the GPU-driven examples (webgpu only): PNGs of odd sizes; gles3 refuses naming the requirement
for ex in particles gpu-culling forward-plus; do
    run render --example "$ex" --backend webgpu --width 45 --height 31 --frames 2 --count 500 --out "$TMP/ex/$ex.png"
    expect_rc 0 "render --example $ex"
    expect_out "pipeline: $ex" "render --example $ex"
    png_check "$TMP/ex/$ex.png" 45 31
    run render --example "$ex" --backend gles3 --out "$TMP/ex/$ex-gles3.png"
    expect_rc 1 "render --example $ex --backend gles3"
    expect_err "requires compute, which the gles3 device" "render --example $ex --backend gles3"
    [ -e "$TMP/ex/$ex-gles3.png" ] && fail "render --example $ex --backend gles3 wrote a PNG" || pass
done
run render --example particles --pipeline deferred
expect_rc 2 "render --example particles --pipeline deferred"
expect_err "--example and --pipeline deferred" "render --example particles --pipeline deferred"

# graph-dump of the real frame of the demo scene: its passes by name
for p in forward forward-post; do
    run graph-dump --pipeline "$p" --backend gles3 --width 64 --height 48 --out "$TMP/graph/$p.dot"
    expect_rc 0 "graph-dump --pipeline $p"
    for pass in shadow opaque transparent; do
        grep -q "label=\"#[0-9]* $pass\"" "$TMP/graph/$p.dot" && pass || fail "graph-dump --pipeline $p: no pass '$pass'"
    done
done
for pass in "bloom prefilter" "tone map" fxaa output; do
    grep -q "label=\"#[0-9]* $pass\"" "$TMP/graph/forward-post.dot" && pass || fail "graph-dump --pipeline forward-post: no pass '$pass'"
done
run graph-dump --pipeline deferred --backend gles3 --width 64 --height 48 --out "$TMP/graph/deferred.dot"
expect_rc 0 "graph-dump --pipeline deferred"
for pass in shadow g-buffer lighting transparent "bloom prefilter" "tone map" present; do
    grep -q "label=\"#[0-9]* $pass\"" "$TMP/graph/deferred.dot" && pass || fail "graph-dump --pipeline deferred: no pass '$pass'"
done
# one shadow pass: the forward culling is derived from the G-buffer one and shares its shadows
n=$(grep -c "label=\"#[0-9]* shadow\"" "$TMP/graph/deferred.dot")
[ "$n" = 1 ] && pass || fail "graph-dump --pipeline deferred: $n shadow passes (want 1)"

# rhi-demo as well (its own defaults; small size)
run rhi-demo --backend gles3 --width 40 --height=24 --out "$TMP/rhi/x/y.png"
expect_rc 0 "rhi-demo"
png_check "$TMP/rhi/x/y.png" 40 24

# ---- write errors: reason, exit 1 ----------------------------------------------------------
if [ -w /dev/full ]; then
    run render --backend gles3 --width 64 --height 48 --out /dev/full
    expect_rc 1 "render --out /dev/full"
    expect_err "cannot write /dev/full: No space left on device" "render --out /dev/full"
    grep -q '^wrote' "$TMP/out" && fail "render --out /dev/full printed 'wrote'" || pass

    run rhi-demo --backend webgpu --width 64 --height 48 --out /dev/full
    expect_rc 1 "rhi-demo --out /dev/full"
    expect_err "cannot write /dev/full: No space left on device" "rhi-demo --out /dev/full"

    run graph-dump --width 64 --height 64 --out /dev/full
    expect_rc 1 "graph-dump --out /dev/full"
    expect_err "cannot write /dev/full: No space left on device" "graph-dump --out /dev/full"

    # Standard output: JSON, DOT, text, help and version all fail on a full device.
    for args in "info --json" "info" "graph-dump --width 64 --height 64" "--version" "--help" "render --help"; do
        # shellcheck disable=SC2086
        run_to /dev/full $args
        expect_rc 1 "hilo3d $args > /dev/full"
        expect_err "cannot write standard output: No space left on device" "hilo3d $args > /dev/full"
    done
    # A successful render whose report cannot be printed fails too.
    run_to /dev/full render --backend gles3 --width 64 --height 48 --out "$TMP/full/ok.png"
    expect_rc 1 "render > /dev/full"
    expect_err "cannot write standard output: No space left on device" "render > /dev/full"
else
    fail "/dev/full is not writable here: the write-error cases did not run"
fi

# stdout closed
"$HILO3D" info --json >&- 2>"$TMP/err"
RC=$?
expect_rc 1 "info --json >&-"
expect_err "cannot write standard output: Bad file descriptor" "info --json >&-"

# The target is a folder / a folder on the way is a file.
mkdir -p "$TMP/isdir"
run render --backend gles3 --width 64 --height 48 --out "$TMP/isdir"
expect_rc 1 "render --out <folder>"
expect_err "cannot write $TMP/isdir: Is a directory" "render --out <folder>"
: >"$TMP/plain"
run graph-dump --width 64 --height 64 --out "$TMP/plain/sub/g.dot"
expect_rc 1 "graph-dump --out <file>/sub/g.dot"
expect_err "$TMP/plain: Not a directory" "graph-dump --out <file>/sub/g.dot"

# Atomic write: a write that fails part-way (file size limit: EFBIG, SIGXFSZ ignored) leaves
# the previous file untouched and no temporary file behind.
mkdir -p "$TMP/atomic"
echo previous >"$TMP/atomic/a.png"
(
    trap '' XFSZ
    ulimit -f 1 # 1024 bytes; the PNG is larger
    exec "$HILO3D" render --backend gles3 --width 64 --height 48 --out "$TMP/atomic/a.png"
) >"$TMP/out" 2>"$TMP/err"
RC=$?
expect_rc 1 "render with a 1 KiB file size limit"
expect_err "cannot write $TMP/atomic/a.png: File too large" "render with a 1 KiB file size limit"
echo previous >"$TMP/previous"
cmp -s "$TMP/previous" "$TMP/atomic/a.png" && pass || fail "a failed write changed the previous file"
expect_only "$TMP/atomic" a.png
(
    trap '' XFSZ
    ulimit -f 1
    exec "$HILO3D" graph-dump --out "$TMP/atomic/g.dot"
) >"$TMP/out" 2>"$TMP/err"
RC=$?
expect_rc 1 "graph-dump with a 1 KiB file size limit"
expect_err "File too large" "graph-dump with a 1 KiB file size limit"
expect_only "$TMP/atomic" a.png

# A replaced file keeps its mode.
chmod 640 "$TMP/atomic/a.png"
run render --backend webgpu --width 64 --height 48 --out "$TMP/atomic/a.png"
expect_rc 0 "render over an existing file"
png_check "$TMP/atomic/a.png" 64 48
[ "$(stat -c %a "$TMP/atomic/a.png")" = 640 ] && pass || fail "replaced file has mode $(stat -c %a "$TMP/atomic/a.png"), expected 640"
expect_only "$TMP/atomic" a.png

# ---- info --json, graph-dump: content -------------------------------------------------------
run info --json
expect_rc 0 "info --json"
if command -v python3 >/dev/null && python3 -c 'import json' 2>/dev/null; then
    if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert set(d["backends"])=={"webgpu","gles3"}, d.keys(); assert d["auto"] in ("webgpu","gles3")' "$TMP/out" 2>"$TMP/err"; then
        pass
    else fail "info --json: not the expected JSON: $(cat "$TMP/err")"; fi
elif command -v jq >/dev/null; then
    jq -e '.backends.webgpu and .backends.gles3 and (.auto == "webgpu" or .auto == "gles3")' "$TMP/out" >/dev/null && pass ||
        fail "info --json: not the expected JSON"
else
    # Minimal check: one line, an object, with the keys.
    [ "$(wc -l <"$TMP/out")" -eq 1 ] && grep -q '^{.*"backends":{.*"auto":"[a-z0-9]*"}$' "$TMP/out" && pass ||
        fail "info --json: not a JSON object with backends and auto"
fi

run graph-dump --width=64 --height 64
expect_rc 0 "graph-dump to stdout"
head -1 "$TMP/out" | grep -q '^digraph' && pass || fail "graph-dump: stdout is not DOT"
tail -1 "$TMP/out" | grep -q '^}' && pass || fail "graph-dump: DOT not closed"
run graph-dump --out "$TMP/dot/x/g.dot"
expect_rc 0 "graph-dump --out <new folders>"
head -1 "$TMP/dot/x/g.dot" | grep -q '^digraph' && pass || fail "graph-dump --out: not DOT"
expect_err "wrote $TMP/dot/x/g.dot" "graph-dump --out"

# ---- glTF models: render MODEL, info MODEL -------------------------------------------------------
MODEL=$(cd "$(dirname "$0")/../data/gltf" && pwd)/BoxTextured.gltf
for be in webgpu gles3; do
    run render "$MODEL" --backend $be --width 80 --height 60 --samples 1 --out "$TMP/model/$be.png"
    expect_rc 0 "render MODEL --backend $be"
    png_check "$TMP/model/$be.png" 80 60
    expect_out "model: 3 nodes, 1 meshes, 12 triangles, 1 materials, 1 textures (1 images)" "render MODEL prints the load report"
    expect_out "camera: auto (framing the bounds); lights: default key; environment: default studio, exposure 1" \
        "render MODEL: auto camera, default light, default environment"
done
# --env / --exposure: none brings back the ambient light; an HDR file (8 x 4 flat RGBE pixels)
run render "$MODEL" --env none --exposure 0.5 --width 32 --height 32 --out "$TMP/model/noenv.png"
expect_rc 0 "render MODEL --env none --exposure 0.5"
expect_out "lights: default key + ambient; environment: none, exposure 0.5" "render MODEL --env none"
{ printf '#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 4 +X 8\n'; for i in $(seq 32); do printf '\100\100\100\201'; done; } >"$TMP/flat.hdr"
run render "$MODEL" --env "$TMP/flat.hdr" --width 32 --height 32 --out "$TMP/model/hdr.png"
expect_rc 0 "render MODEL --env FILE.hdr"
expect_out "environment: $TMP/flat.hdr" "render MODEL --env FILE.hdr names it"
png_check "$TMP/model/hdr.png" 32 32
run render "$MODEL" --env "$TMP/missing.hdr" --out "$TMP/model/z.png"
expect_rc 1 "render MODEL --env <missing file>"
expect_err "cannot open \"$TMP/missing.hdr\"" "render MODEL --env <missing file>"
run render "$MODEL" --env "$MODEL" --out "$TMP/model/z.png"
expect_rc 1 "render MODEL --env <not an HDR image>"
expect_err "not a Radiance HDR image" "render MODEL --env <not an HDR image>"
run render --exposure 0 --out "$TMP/z.png"
expect_rc 2 "render --exposure 0"
expect_err "--exposure '0': a number > 0" "render --exposure 0"
run render --env none --width 48 --height 32 --samples 1 --out "$TMP/noenv_demo.png"
expect_rc 0 "render (demo) --env none"
png_check "$TMP/noenv_demo.png" 48 32
run info "$MODEL"
expect_rc 0 "info MODEL"
expect_out "model: 3 nodes, 1 meshes, 12 triangles" "info MODEL prints the load report"
run render "$MODEL" --camera 0 --out "$TMP/model/x.png"
expect_rc 2 "render MODEL --camera 0 (the file has none)"
expect_err "--camera 0: $MODEL has 0 cameras" "render MODEL --camera 0"
run render "$MODEL" --camera left
expect_rc 2 "render MODEL --camera left"
run render "$TMP/missing.glb" --out "$TMP/model/y.png"
expect_rc 1 "render a missing model"
expect_err "cannot open '$TMP/missing.glb': No such file or directory" "render a missing model"
ANIM=$(dirname "$MODEL")/animated_quad.glb
run render "$ANIM" --animation 0 --time 0.5 --width 32 --height 32 --out "$TMP/model/anim.png"
expect_rc 0 "render MODEL --animation 0 --time 0.5"
expect_out "animation: '' at 0.500 s of 1.000 s" "render MODEL --animation prints the pose"
expect_out "camera: the file's" "render MODEL with a camera uses it"
png_check "$TMP/model/anim.png" 32 32
run render "$ANIM" --animation walk
expect_rc 2 "render MODEL --animation walk (no such animation)"
expect_err "--animation walk: $ANIM has 1 animations" "render MODEL --animation walk"
run render "$ANIM" --time 1s
expect_rc 2 "render MODEL --time 1s"
echo '{"asset":{"version":"2.0"},"scenes":[{"nodes":[0]}],"nodes":[{"mesh":9}]}' >"$TMP/bad.gltf"
run info "$TMP/bad.gltf"
expect_rc 1 "info of a model with a bad mesh index"
expect_err "meshes[9]" "info of a bad model names the JSON path"

echo "test_cli: $checks checks passed, $failures failed"
[ "$failures" -eq 0 ]
