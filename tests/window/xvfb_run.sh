#!/usr/bin/env bash
# Runs a command on a private Xvfb server: picks a free display number, starts
# `Xvfb :N -screen 0 1280x1024x24`, waits until it accepts clients, runs the command with
# DISPLAY=:N, stops the server (by its pid) and returns the command's exit code.
#
#   bash tests/window/xvfb_run.sh COMMAND [ARGS...]
set -u
command -v Xvfb >/dev/null || { echo "xvfb_run: Xvfb is not installed (scripts/bootstrap.sh installs xvfb)" >&2; exit 1; }
[ $# -gt 0 ] || { echo "usage: xvfb_run.sh COMMAND [ARGS...]" >&2; exit 2; }

log=$(mktemp "${TMPDIR:-/tmp}/hl_xvfb.XXXXXX")
pid=
cleanup() {
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
        kill "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
    fi
    rm -f "$log"
}
trap cleanup EXIT

# A display number nobody holds (no lock file, no socket); tests run in parallel, so a start
# that loses the race for a number tries the next one.
started=0
for n in $(seq $((100 + RANDOM % 400)) 700); do
    [ -e "/tmp/.X$n-lock" ] || [ -e "/tmp/.X11-unix/X$n" ] && continue
    Xvfb ":$n" -screen 0 1280x1024x24 -nolisten tcp -noreset >"$log" 2>&1 &
    pid=$!
    for _ in $(seq 1 100); do # up to 10 s for the socket
        [ -e "/tmp/.X11-unix/X$n" ] && break
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null && [ -e "/tmp/.X11-unix/X$n" ]; then
        started=1
        break
    fi
    wait "$pid" 2>/dev/null
    pid=
done
if [ "$started" != 1 ]; then
    echo "xvfb_run: could not start Xvfb: $(tail -c 400 "$log")" >&2
    exit 1
fi
DISPLAY=":$n" "$@"
rc=$?
exit $rc
