#!/usr/bin/env bash
# Installs everything hilo3d needs on a fresh Debian 12 machine. Idempotent; run as root.
# Debian packages (Mesa 25 from bookworm-backports for lavapipe + llvmpipe; Emscripten and
# Chromium for the browser build; doxygen and python3 for the API reference and its check,
# scripts/check_docs.py) and Dawn from npm (bun-webgpu-linux-x64 0.1.7) into the ignored
# project-local folder .deps/dawn.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dawn_version=0.1.7
dawn_dir="$here/.deps/dawn"
stamp="$here/.deps/bootstrap.stamp"

die() { echo "bootstrap: $*" >&2; exit 1; }

# Quick path: everything already present.
if [ -f "$stamp" ] && [ -f "$dawn_dir/libwebgpu_wrapper.so" ] && [ "$(cat "$stamp")" = "$(sha1sum "$0" | cut -c1-40)" ]; then
  exit 0
fi

[ "$(id -u)" = 0 ] || die "must run as root (it installs Debian packages)"
command -v apt-get >/dev/null || die "apt-get not found: hilo3d's bootstrap targets Debian 12"

export DEBIAN_FRONTEND=noninteractive
bpo=/etc/apt/sources.list.d/bookworm-backports.sources
if ! grep -rqs bookworm-backports /etc/apt/sources.list /etc/apt/sources.list.d/; then
  cat >"$bpo" <<'SRC'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
fi
apt-get update -q >/dev/null || die "apt-get update failed"

base_pkgs=(build-essential cmake pkg-config git ca-certificates
  libegl-dev libgles-dev libvulkan1 libvulkan-dev
  glslang-dev glslang-tools spirv-tools libspirv-cross-c-shared-dev
  libcjson-dev libstb-dev libcglm-dev libpng-dev libjpeg62-turbo-dev
  clang libclang-rt-14-dev doxygen
  libglfw3-dev libx11-dev libxrandr-dev xvfb
  emscripten dpkg-dev python3 chromium)
# (GLFW 3 for `hilo3d view`, Xlib for its native handles and captures, Xrandr's header for
#  glfw3native.h; Xvfb runs the window tests on machines without a display)
# emscripten + chromium: the browser build and its test (make web-test; dpkg-dev unpacks the Debian
# sources scripts/web_deps.sh builds with emcc).
# npm fetches Dawn; a machine that already has Node.js (e.g. from NodeSource) keeps it.
command -v npm >/dev/null || base_pkgs+=(nodejs npm)
apt-get install -y -q --no-install-recommends "${base_pkgs[@]}" >/dev/null \
  || die "could not install: ${base_pkgs[*]}"

mesa_pkgs=(mesa-vulkan-drivers libegl-mesa0 libgl1-mesa-dri libglx-mesa0 libgbm1 libgles2 libegl1)
apt-get install -y -q --no-install-recommends -t bookworm-backports "${mesa_pkgs[@]}" >/dev/null \
  || die "could not install Mesa 25 from bookworm-backports: ${mesa_pkgs[*]}"

v=$(dpkg-query -W -f='${Version}' mesa-vulkan-drivers)
case "$v" in 2[5-9].*) ;; *) die "mesa-vulkan-drivers is $v; Dawn needs Mesa 25 (bookworm-backports)";; esac

if [ ! -f "$dawn_dir/libwebgpu_wrapper.so" ]; then
  tmp=$(mktemp -d)
  (cd "$tmp" && npm pack --silent "bun-webgpu-linux-x64@$dawn_version" >/dev/null) \
    || die "npm could not fetch bun-webgpu-linux-x64@$dawn_version"
  mkdir -p "$dawn_dir"
  tar -xzf "$tmp"/bun-webgpu-linux-x64-"$dawn_version".tgz -C "$tmp"
  so=$(find "$tmp/package" -name libwebgpu_wrapper.so | head -1)
  [ -n "$so" ] || die "libwebgpu_wrapper.so not found in bun-webgpu-linux-x64@$dawn_version"
  cp "$so" "$dawn_dir/"
  rm -rf "$tmp"
fi

missing=()
for h in /usr/include/EGL/egl.h /usr/include/GLES3/gl3.h /usr/include/glslang/Include/glslang_c_interface.h \
         /usr/include/spirv_cross/spirv_cross_c.h /usr/include/cjson/cJSON.h /usr/include/stb/stb_image.h \
         /usr/include/cglm/cglm.h /usr/include/png.h /usr/include/jpeglib.h /usr/include/GLFW/glfw3.h \
         /usr/include/GLFW/glfw3native.h /usr/include/X11/Xlib.h /usr/include/X11/extensions/Xrandr.h \
         /usr/bin/emcc /usr/bin/chromium; do
  [ -f "$h" ] || missing+=("$h")
done
command -v Xvfb >/dev/null || missing+=(Xvfb)
command -v doxygen >/dev/null || missing+=(doxygen)
[ ${#missing[@]} -eq 0 ] || die "missing after install: ${missing[*]}"

mkdir -p "$here/.deps"
sha1sum "$0" | cut -c1-40 >"$stamp"
echo "bootstrap: ok (Mesa $v, Dawn $dawn_version in $dawn_dir)"
