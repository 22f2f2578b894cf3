#!/usr/bin/env bash
# The browser build's C libraries, built with Debian's emcc from Debian 12's own sources:
# cJSON (glTF), zlib + libpng and libjpeg-turbo (glTF images). Emscripten's "ports" download from
# the internet; the sources here come from the Debian mirror through `apt-get source`, with a
# private apt configuration in OUT/apt (the system's sources and lists are left alone). Also
# links the header-only cglm and stb of the Debian packages the native build uses.
#
#   scripts/web_deps.sh OUT      -> OUT/include, OUT/lib/lib{cjson,z,png,jpeg}.a
#
# Idempotent: a stamp records this script's hash; a second run with the same script does nothing.
# Needs: emscripten, dpkg-dev (dpkg-source), libcglm-dev, libstb-dev (scripts/bootstrap.sh).
set -euo pipefail

out=${1:?usage: web_deps.sh OUT_DIR}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
stamp="$out/deps.stamp"
sum=$(sha1sum "${BASH_SOURCE[0]}" | cut -c1-40)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$sum" ]; then
  exit 0
fi

die() { echo "web_deps: $*" >&2; exit 1; }
command -v emcc >/dev/null || die "emcc not found (Debian package emscripten: scripts/bootstrap.sh)"
command -v dpkg-source >/dev/null || die "dpkg-source not found (Debian package dpkg-dev)"
for h in /usr/include/cglm/cglm.h /usr/include/stb/stb_image.h; do
  [ -f "$h" ] || die "$h missing (libcglm-dev, libstb-dev)"
done
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs} # Debian's emcc finds its node modules there
jobs=${WEB_DEPS_JOBS:-2}

# ---- sources: apt-get source from bookworm main, through a private apt state --------------------
apt_dir="$out/apt"
src="$out/src"
rm -rf "$src" "$out/include" "$out/lib" "$out/build"
mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$src" "$out/include" "$out/lib" "$out/build"
# the mirror the system's bookworm entry uses (one-line or deb822 sources), else deb.debian.org
mirror=$({ sed -e 's/\[[^]]*\]//' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null \
             | awk '$1 == "deb" && $3 == "bookworm" { print $2; exit }'
           cat /etc/apt/sources.list.d/*.sources 2>/dev/null \
             | awk '/^URIs:/ { u = $2 } /^Suites:/ { for (i = 2; i <= NF; i++) if ($i == "bookworm") { print u; exit } }'
         } | head -1)
mirror=${mirror:-http://deb.debian.org/debian}
echo "deb-src $mirror bookworm main" >"$apt_dir/sources.list"
apt_opts=(-q -o "Dir::Etc::SourceList=$apt_dir/sources.list" -o "Dir::Etc::SourceParts=/nonexistent"
  -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache" -o "APT::Get::List-Cleanup=0"
  -o "APT::Sandbox::User=$(id -un)" -o "Debug::NoLocking=1")
apt-get "${apt_opts[@]}" update >"$out/apt.log" 2>&1 || { cat "$out/apt.log" >&2; die "apt-get update (deb-src) failed"; }
(cd "$src" && apt-get "${apt_opts[@]}" source cjson zlib libpng1.6 libjpeg-turbo) >>"$out/apt.log" 2>&1 \
  || { tail -20 "$out/apt.log" >&2; die "apt-get source cjson zlib libpng1.6 libjpeg-turbo failed ($mirror)"; }
dir_of() { find "$src" -maxdepth 1 -mindepth 1 -type d -name "$1" | head -1; }
cjson=$(dir_of 'cjson-*'); zlib=$(dir_of 'zlib-*'); png=$(dir_of 'libpng1.6-*'); jpeg=$(dir_of 'libjpeg-turbo-*')
[ -n "$cjson" ] && [ -n "$zlib" ] && [ -n "$png" ] && [ -n "$jpeg" ] || die "unpacked sources not found in $src"

cflags=(-O2 -DNDEBUG)
# Compiles the C files given (relative to $1) into OUT/lib/$2 in parallel.
build_lib() {
  local dir=$1 lib=$2
  shift 2
  local objs=()
  mkdir -p "$out/build/$lib"
  for f in "$@"; do objs+=("$out/build/$lib/$(basename "${f%.c}").o"); done
  printf '%s\n' "$@" | xargs -P "$jobs" -I{} sh -c 'd=$0 b=$1; shift; emcc "$@" -c "$d/{}" -o "$b/$(basename {} .c).o"' \
    "$dir" "$out/build/$lib" "${cflags[@]}" "${extra[@]}"
  emar rcs "$out/lib/$lib" "${objs[@]}"
}

# ---- cJSON ----------------------------------------------------------------------------------------
mkdir -p "$out/include/cjson"
cp "$cjson/cJSON.h" "$out/include/cjson/"
extra=()
build_lib "$cjson" libcjson.a cJSON.c

# ---- zlib -----------------------------------------------------------------------------------------
cp "$zlib/zlib.h" "$zlib/zconf.h" "$out/include/"
extra=(-DHAVE_UNISTD_H -DHAVE_STDARG_H)
build_lib "$zlib" libz.a adler32.c compress.c crc32.c deflate.c gzclose.c gzlib.c gzread.c gzwrite.c infback.c \
  inffast.c inflate.c inftrees.c trees.c uncompr.c zutil.c

# ---- libpng (its prebuilt configuration: the full library, no SIMD) --------------------------------
cp "$png/scripts/pnglibconf.h.prebuilt" "$png/pnglibconf.h"
cp "$png/png.h" "$png/pngconf.h" "$png/pnglibconf.h" "$out/include/"
extra=(-I"$out/include" -DPNG_ARM_NEON_OPT=0 -DPNG_INTEL_SSE_OPT=0)
build_lib "$png" libpng.a png.c pngerror.c pngget.c pngmem.c pngpread.c pngread.c pngrio.c pngrtran.c pngrutil.c \
  pngset.c pngtrans.c pngwio.c pngwrite.c pngwtran.c pngwutil.c

# ---- libjpeg-turbo (its CMake build, no SIMD, the static libjpeg only) -----------------------------
# (check_type_size misreads wasm32 objects with this CMake and Emscripten: the sizes are given)
(cd "$out/build" && emcmake cmake -S "$jpeg" -B jpeg -DCMAKE_BUILD_TYPE=Release -DWITH_SIMD=0 -DENABLE_SHARED=0 \
  -DWITH_TURBOJPEG=0 -DWITH_JAVA=0 -DREQUIRE_SIMD=0 -DHAVE_SIZE_T=TRUE -DSIZE_T=4 -DHAVE_UNSIGNED_LONG=TRUE \
  -DUNSIGNED_LONG=4 >"$out/jpeg-configure.log" 2>&1) \
  || { tail -30 "$out/jpeg-configure.log" >&2; die "libjpeg-turbo: configure failed"; }
NODE_PATH=$NODE_PATH cmake --build "$out/build/jpeg" --target jpeg-static -j "$jobs" >"$out/jpeg-build.log" 2>&1 \
  || { tail -30 "$out/jpeg-build.log" >&2; die "libjpeg-turbo: build failed"; }
cp "$out/build/jpeg/libjpeg.a" "$out/lib/libjpeg.a"
cp "$jpeg/jpeglib.h" "$jpeg/jerror.h" "$jpeg/jmorecfg.h" "$out/build/jpeg/jconfig.h" "$out/include/"

# ---- header-only: cglm and stb from the Debian packages ----------------------------------------------
ln -sfn /usr/include/cglm "$out/include/cglm"
ln -sfn /usr/include/stb "$out/include/stb"

rm -rf "$out/build" "$src" # the libraries and headers are what the web build needs
echo "$sum" >"$stamp"
echo "web_deps: ok ($(cd "$out/lib" && ls | tr '\n' ' ')in $out)"
