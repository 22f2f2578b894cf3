# .fil/setup.sh -- source (bash) from the repo root on the remote machine, after the .gl loader
# debs are unpacked into / and ldconfig has run:   . .fil/setup.sh
#
# Unpacks .fil/debs/*.deb under $FIL_PREFIX (dpkg -x; nothing goes into / except, if missing,
# the /usr/bin/xkbcomp wrapper below), makes a library dir of the sonames the system lacks,
# appends it to LD_LIBRARY_PATH, starts Xvfb on $FIL_DISPLAY with GLX (Mesa's swrast DRI driver
# from the prefix serves the server side), exports DISPLAY, and picks the GLX client vendor
# (nvidia when libGLX_nvidia.so.0 is found, else Mesa llvmpipe from the prefix).
#
# Knobs: FIL_PREFIX (/opt/fil), FIL_DISPLAY (:99), FIL_GLX_VENDOR (auto|nvidia|mesa),
#        FIL_FORCE_UNPACK=1 (unpack again), FIL_XKBCOMP_WRAPPER (/usr/bin/xkbcomp),
#        FIL_HAVE_LIST (testing: file of sonames to treat as the system's, instead of ldconfig -p).
# Sets: FIL_OK=1 when Xvfb is up, FIL_BIN (peer_filament, glxinfo), FIL_LIB, DISPLAY.

FIL_DIR=${FIL_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)}
FIL_PREFIX=${FIL_PREFIX:-/opt/fil}
FIL_DISPLAY=${FIL_DISPLAY:-:99}
FIL_GLX_VENDOR=${FIL_GLX_VENDOR:-auto}
FIL_XKBCOMP_WRAPPER=${FIL_XKBCOMP_WRAPPER:-/usr/bin/xkbcomp}
FIL_LIB=$FIL_PREFIX/fil-lib
FIL_BIN=$FIL_PREFIX/bin
FIL_OK=0
export FIL_PREFIX FIL_LIB FIL_BIN

fil_log() { echo "fil-setup: $*"; }

fil_setup() {
    local ma=x86_64-linux-gnu d f n
    # 1. unpack (idempotent; a marker records which debs were unpacked)
    local want; want=$(cd "$FIL_DIR" && ls debs/*.deb bin/* 2>/dev/null | md5sum | cut -c1-32)
    if [ "${FIL_FORCE_UNPACK:-0}" = 1 ] || [ "$(cat "$FIL_PREFIX/.fil-unpacked" 2>/dev/null)" != "$want" ]; then
        mkdir -p "$FIL_PREFIX" || return 1
        for f in "$FIL_DIR"/debs/*.deb; do
            dpkg -x "$f" "$FIL_PREFIX" || { fil_log "dpkg -x $f failed"; return 1; }
        done
        mkdir -p "$FIL_BIN"
        if [ -f "$FIL_DIR/bin/peer_filament.xz" ]; then
            { xz -dc "$FIL_DIR/bin/peer_filament.xz" 2>/dev/null ||
              python3 -c 'import lzma,sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())' "$FIL_DIR/bin/peer_filament.xz"; } \
                > "$FIL_BIN/peer_filament" && chmod +x "$FIL_BIN/peer_filament" || fil_log "could not unpack peer_filament.xz"
        fi
        for f in "$FIL_DIR"/bin/*; do
            case $f in *.xz) ;; *) cp -f "$f" "$FIL_BIN/" ;; esac
        done
        echo "$want" > "$FIL_PREFIX/.fil-unpacked"
    fi

    # 2. library dir: a link for each library of the prefix whose name the system's ld cache
    #    lacks (so the prefix never shadows the system's own, newer libs), plus always Filament's
    #    and Mesa's own (libglapi/libGLX_mesa must match the carried DRI driver).
    rm -rf "$FIL_LIB"; mkdir -p "$FIL_LIB"
    local have
    if [ -n "${FIL_HAVE_LIST:-}" ]; then have=$(cat "$FIL_HAVE_LIST")   # testing: pretend only these exist
    else have=$(ldconfig -p 2>/dev/null | awk '/=>/{print $1}' | sort -u); fi
    for d in "$FIL_PREFIX/lib/$ma" "$FIL_PREFIX/usr/lib/$ma"; do
        [ -d "$d" ] || continue
        for f in "$d"/lib*.so*; do
            [ -e "$f" ] || continue
            n=${f##*/}
            [ -e "$FIL_LIB/$n" ] && continue
            case $n in
                libfilament*|libglapi.so*|libGLX_mesa.so*|libGLX_indirect.so*|libLLVM-15.so*) ;;
                *) grep -qxF "$n" <<<"$have" && continue ;;
            esac
            ln -s "$f" "$FIL_LIB/$n"
        done
    done
    case ":${LD_LIBRARY_PATH:-}:" in
        *":$FIL_LIB:"*) ;;
        *) export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$FIL_LIB ;;
    esac
    # Mesa's DRI driver (swrast_dri.so, llvmpipe) for Xvfb's GLX and for a Mesa GLX client
    export LIBGL_DRIVERS_PATH=$FIL_PREFIX/usr/lib/$ma/dri
    fil_log "$(ls "$FIL_LIB" | wc -l) libs linked in $FIL_LIB (appended to LD_LIBRARY_PATH)"
    # every library Xvfb's GLX needs must resolve (libLLVM-15 needs libz3 and libxml2: libz3-4 is
    # carried, libxml2 is the image's); name what does not rather than fail inside Xvfb later
    local missing; missing=$(ldd "$FIL_PREFIX/usr/lib/$ma/dri/swrast_dri.so" "$FIL_PREFIX/usr/lib/$ma"/libLLVM-15.so* \
        2>/dev/null | awk '/not found/{print $1}' | sort -u | tr '\n' ' ')
    [ -z "$missing" ] || fil_log "MISSING libraries for the GLX server side: $missing(add their Debian 12 debs to debs/)"

    # 3. xkbcomp: Xvfb runs "/usr/bin/xkbcomp" (compiled-in path, no option changes it; -xkbdir
    #    only moves the data). If the system has none, install a 3-line wrapper there that runs
    #    the prefix's xkbcomp with the prefix's libs. This is the one file written outside it.
    if [ ! -x "$FIL_XKBCOMP_WRAPPER" ]; then
        printf '#!/bin/sh\n# written by hilo3d .fil/setup.sh: Xvfb hardcodes /usr/bin/xkbcomp\nLD_LIBRARY_PATH=%s${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} exec %s "$@"\n' \
            "$FIL_LIB" "$FIL_PREFIX/usr/bin/xkbcomp" > "$FIL_XKBCOMP_WRAPPER" && chmod 755 "$FIL_XKBCOMP_WRAPPER" &&
            fil_log "installed xkbcomp wrapper $FIL_XKBCOMP_WRAPPER -> $FIL_PREFIX/usr/bin/xkbcomp"
    fi

    # 4. Xvfb
    local num=${FIL_DISPLAY#:}; num=${num%%.*}
    local sock=/tmp/.X11-unix/X$num lock=/tmp/.X$num-lock pid
    if [ -f "$lock" ]; then
        pid=$(tr -d ' ' < "$lock")
        if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
            fil_log "display $FIL_DISPLAY already has an X server (pid $pid); using it"
        else
            rm -f "$lock" "$sock"
        fi
    fi
    if [ ! -S "$sock" ]; then
        mkdir -p /tmp/.X11-unix && chmod 1777 /tmp/.X11-unix
        FIL_XVFB_LOG=${FIL_XVFB_LOG:-/tmp/fil-xvfb$num.log}
        setsid "$FIL_PREFIX/usr/bin/Xvfb" "$FIL_DISPLAY" -screen 0 1280x720x24 +extension GLX -nolisten tcp \
            -xkbdir "$FIL_PREFIX/usr/share/X11/xkb" -fp built-ins -noreset \
            > "$FIL_XVFB_LOG" 2>&1 < /dev/null &
        FIL_XVFB_PID=$!
        local i
        for i in $(seq 1 100); do
            [ -S "$sock" ] && break
            kill -0 "$FIL_XVFB_PID" 2>/dev/null || break
            sleep 0.1
        done
        sleep 0.3
        # the server's own pid (setsid may fork when started from a job-control shell)
        [ -f "$lock" ] && FIL_XVFB_PID=$(tr -d ' ' < "$lock")
        export FIL_XVFB_PID FIL_XVFB_LOG
    fi
    export DISPLAY=$FIL_DISPLAY

    # 5. GLX client vendor (libglvnd): nvidia if its GLX library is there
    if [ "$FIL_GLX_VENDOR" = auto ]; then
        FIL_GLX_VENDOR=mesa
        if ldconfig -p 2>/dev/null | grep -q 'libGLX_nvidia\.so\.0'; then FIL_GLX_VENDOR=nvidia
        else
            for d in ${LD_LIBRARY_PATH//:/ } /usr/local/nvidia/lib64 /usr/local/nvidia/lib; do
                if [ -e "$d/libGLX_nvidia.so.0" ]; then
                    FIL_GLX_VENDOR=nvidia
                    case ":$LD_LIBRARY_PATH:" in *":$d:"*) ;; *) export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$d ;; esac
                    break
                fi
            done
        fi
    fi
    export __GLX_VENDOR_LIBRARY_NAME=$FIL_GLX_VENDOR

    if [ -S "$sock" ] && "$FIL_BIN/glxinfo" -B > /tmp/fil-glxinfo.txt 2>&1; then
        FIL_OK=1
        fil_log "Xvfb UP on $DISPLAY; GLX client vendor $__GLX_VENDOR_LIBRARY_NAME: $(grep -E 'OpenGL renderer|OpenGL version' /tmp/fil-glxinfo.txt | tr '\n' ';')"
    elif [ -S "$sock" ]; then
        FIL_OK=1
        fil_log "Xvfb UP on $DISPLAY but glxinfo -B failed with vendor $__GLX_VENDOR_LIBRARY_NAME:"
        sed 's/^/fil-setup:   /' /tmp/fil-glxinfo.txt | head -5
    else
        fil_log "Xvfb DID NOT COME UP on $FIL_DISPLAY; log ${FIL_XVFB_LOG:-}:"
        sed 's/^/fil-setup:   /' "${FIL_XVFB_LOG:-/dev/null}" | tail -15
    fi
    export FIL_OK
}

fil_setup
