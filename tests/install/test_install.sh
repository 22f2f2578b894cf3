#!/usr/bin/env bash
# The installed package, used the way a program outside the tree uses it (CTest install_package
# and install_shared; tests/CMakeLists.txt passes the arguments).
#
# static (install_package): `cmake --install BUILD --prefix TMP`; the files a user gets (and no
#   internal header); tests/install/consumer built with find_package(hilo3d CONFIG) and run on
#   both backends (a rendered pixel pair, the library's version against the headers' and the
#   project's); C++17 code taking the address of every function the installed headers declare,
#   linked (extern "C" guards; every declared function defined); the same program built with
#   `cc app.c $(pkg-config --cflags --libs --static hilo3d)` and run; every example in examples/
#   built against the package and run, each checking its own image; the installed CLI finding
#   the installed Dawn (LD_DEBUG shows which file it loads).
# shared (install_shared): a second build tree BUILD/shared-variant configured with
#   -DBUILD_SHARED_LIBS=ON (unoptimised, library and CLI only), whose Dawn search has neither
#   the build tree's copy nor a reachable configured prefix: libhilo3d.so.MAJOR must have its
#   SONAME and export exactly the HL_API functions of the headers (no hl__ internals, no
#   glslang / SPIRV-Tools / SPIRV-Cross symbols); installed, the consumer (find_package and
#   pkg-config) and hello-triangle run on webgpu with the Dawn installed beside the library, and
#   on gles3.
#
#   test_install.sh static|shared --source DIR --build DIR --version X.Y.Z --libdir lib
#                   --cmake CMAKE --cc CC --cxx CXX [--sanitize "FLAGS"]
set -u
mode=${1:?usage: test_install.sh static|shared --source DIR --build DIR ...}
shift
src= build= version= libdir=lib cmake=cmake cc=cc cxx=c++ san=
while [ $# -gt 0 ]; do
  case "$1" in
    --source) src=$2 ;; --build) build=$2 ;; --version) version=$2 ;; --libdir) libdir=$2 ;;
    --cmake) cmake=$2 ;; --cc) cc=$2 ;; --cxx) cxx=$2 ;; --sanitize) san=$2 ;;
    *) echo "test_install.sh: unknown argument $1"; exit 2 ;;
  esac
  shift 2
done
unset HL_DAWN_LIBRARY # every run below finds Dawn by itself
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "install: FAIL: $*"; fail=$((fail + 1)); }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hilo3d-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
t0=$SECONDS
step() { echo "install: [$((SECONDS - t0)) s] $*"; }

# run_expect CODE WHAT COMMAND...: the command's exit code must be CODE (its output shown if not).
run_expect() {
  local want=$1 what=$2 log="$tmp/run.log"
  shift 2
  "$@" >"$log" 2>&1
  local rc=$?
  if [ "$rc" -eq "$want" ]; then ok; else bad "$what: exit $rc, expected $want"; sed 's/^/    /' "$log" | tail -25; fi
  return 0
}

warn_flags="-Wall -Wextra -Wpedantic -Werror"
if [ -n "$san" ]; then
  # GCC 12's sanitizer runtime takes some dynamic TLS blocks for glibc 2.19's layout (when
  # tls_beg % 4096 happens to equal that header's size) and LeakSanitizer's tracer then crashes
  # reading a bogus range at exit ("Tracer caught signal 11"; google/sanitizers#1322, in the
  # runtimes up to GCC 13 and LLVM 16). hello-triangle on gles3 lands on it every time here. Not
  # tracking dynamic TLS keeps leak checking (static TLS, stacks, globals, the heap) and avoids it.
  export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}intercept_tls_get_addr=0"
fi
prefix=$tmp/prefix

if [ "$mode" = shared ]; then
  sb=$build/shared-variant # kept between runs: later runs rebuild only what changed
  step "configuring the shared variant in $sb"
  "$cmake" -S "$src" -B "$sb" -DBUILD_SHARED_LIBS=ON -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG=-O0 \
    -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" -DHL_DAWN_SEARCH_BUILD_TREE=OFF \
    -DCMAKE_INSTALL_PREFIX=/nonexistent/hilo3d -DCMAKE_INSTALL_LIBDIR="$libdir" >"$tmp/configure.log" 2>&1 \
    || { cat "$tmp/configure.log"; bad "configure the shared variant"; echo "0 passed, $fail failed"; exit 1; }
  step "building libhilo3d.so and the CLI"
  "$cmake" --build "$sb" --target hilo3d hilo3d_cli --parallel 2 >"$tmp/build.log" 2>&1 \
    || { tail -40 "$tmp/build.log"; bad "build the shared variant"; echo "0 passed, $fail failed"; exit 1; }
  so=$sb/libhilo3d.so.${version%%.*}
  if readelf -d "$so" 2>/dev/null | grep -q "SONAME.*\[libhilo3d.so.${version%%.*}\]"; then ok; else bad "$so has no SONAME libhilo3d.so.${version%%.*}"; fi
  nm -D --defined-only "$so" | awk '{print $NF}' | sort >"$tmp/exported"
  grep -h '^HL_API' "$src"/include/hilo3d/*.h | sed -E 's/\(.*//' | grep -oE '[A-Za-z0-9_]+$' | sort >"$tmp/declared"
  n_declared=$(wc -l <"$tmp/declared")
  if [ "$n_declared" -gt 300 ]; then ok; else bad "only $n_declared HL_API declarations found in include/hilo3d"; fi
  if grep -q '^hl__' "$tmp/exported"; then bad "internal symbols exported: $(grep '^hl__' "$tmp/exported" | head -5 | tr '\n' ' ')"; else ok; fi
  if grep -qiE 'glslang|spv|spirv|^_Z' "$tmp/exported"; then bad "toolchain symbols exported: $(grep -iE 'glslang|spv|spirv|^_Z' "$tmp/exported" | head -5 | tr '\n' ' ')"; else ok; fi
  if diff "$tmp/declared" "$tmp/exported" >"$tmp/diff"; then ok; else bad "exports differ from the HL_API declarations (< declared only, > exported only):"; head -20 "$tmp/diff"; fi
  step "installing into $prefix"
  "$cmake" --install "$sb" --prefix "$prefix" >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; bad "cmake --install"; }
  [ -f "$prefix/$libdir/libhilo3d.so.${version%%.*}" ] && [ ! -e "$prefix/$libdir/libhilo3d.a" ] && ok || bad "installed library files"
  [ -f "$prefix/$libdir/hilo3d/libwebgpu_wrapper.so" ] && ok || bad "Dawn not installed in $prefix/$libdir/hilo3d"
else
  step "installing $build into $prefix"
  "$cmake" --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; bad "cmake --install"; }
  for f in "$libdir/libhilo3d.a" "$libdir/cmake/hilo3d/hilo3dConfig.cmake" "$libdir/cmake/hilo3d/hilo3dConfigVersion.cmake" \
           "$libdir/cmake/hilo3d/hilo3dTargets.cmake" "$libdir/pkgconfig/hilo3d.pc" "$libdir/hilo3d/libwebgpu_wrapper.so" \
           bin/hilo3d share/doc/hilo3d/LICENSE share/doc/hilo3d/CHANGELOG.md; do
    if [ -f "$prefix/$f" ]; then ok; else bad "$f not installed"; fi
  done
  # the public headers, all of them and nothing else
  (cd "$src/include" && ls hilo3d/*.h) >"$tmp/headers.src"
  (cd "$prefix/include" && ls hilo3d/*) >"$tmp/headers.inst" 2>/dev/null
  if diff "$tmp/headers.src" "$tmp/headers.inst" >/dev/null; then ok; else bad "installed headers differ from include/hilo3d:"; diff "$tmp/headers.src" "$tmp/headers.inst" | head; fi
  if [ -z "$(find "$prefix" -name 'hl_*.h' -o -name '*_internal.h')" ]; then ok; else bad "internal headers installed"; fi
fi

export PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig
if [ "$(pkg-config --modversion hilo3d 2>&1)" = "$version" ]; then ok; else bad "pkg-config --modversion hilo3d: $(pkg-config --modversion hilo3d 2>&1), expected $version"; fi

# ---- the consumer through find_package, and C++ against every declared function --------------------
step "consumer: find_package(hilo3d CONFIG)"
cp -r "$src/tests/install/consumer" "$tmp/consumer"
{
  echo '// Generated by tests/install/test_install.sh: the address of every function of the installed headers.'
  echo '#include "hilo3d/hilo3d.h"'
  echo '#include <cstdio>'
  echo 'typedef void (*fn)();'
  echo 'static const fn k_functions[] = {'
  grep -h '^HL_API' "$prefix"/include/hilo3d/*.h | sed -E 's/\(.*//' | grep -oE '[A-Za-z0-9_]+$' | sort -u |
    sed 's/.*/    reinterpret_cast<fn>(\&&),/'
  echo '};'
  echo 'int main() {'
  echo '    unsigned n = 0;'
  echo '    for (fn f : k_functions) n += f != nullptr;'
  echo '    std::printf("consumer_api: %u functions linked\n", n);'
  echo '    return n == sizeof k_functions / sizeof k_functions[0] ? 0 : 1;'
  echo '}'
} >"$tmp/consumer/api.cpp"
if "$cmake" -S "$tmp/consumer" -B "$tmp/consumer-build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
     -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_C_FLAGS="$warn_flags $san" -DCMAKE_CXX_FLAGS="$warn_flags $san" \
     -DCMAKE_EXE_LINKER_FLAGS="$san" >"$tmp/c.log" 2>&1 &&
   "$cmake" --build "$tmp/consumer-build" --parallel 2 >>"$tmp/c.log" 2>&1; then
  ok
  for be in webgpu gles3; do run_expect 0 "consumer (find_package) on $be" "$tmp/consumer-build/consumer" $be "$version"; done
  run_expect 0 "consumer_api (C++17, every declared function)" "$tmp/consumer-build/consumer_api"
else
  tail -40 "$tmp/c.log"; bad "the consumer does not build with find_package"
fi

step "consumer: pkg-config --static"
rpath=
[ "$mode" = shared ] && rpath="-Wl,-rpath,$prefix/$libdir"
# shellcheck disable=SC2046
if "$cc" -std=c11 $warn_flags $san "$src/tests/install/consumer/app.c" -o "$tmp/consumer-pc" \
     $(pkg-config --cflags --libs --static hilo3d) $rpath >"$tmp/pc.log" 2>&1; then
  ok
  for be in webgpu gles3; do run_expect 0 "consumer (pkg-config) on $be" "$tmp/consumer-pc" $be "$version"; done
else
  cat "$tmp/pc.log"; bad "the consumer does not build with pkg-config: $(pkg-config --cflags --libs --static hilo3d 2>&1)"
fi

# ---- the examples ------------------------------------------------------------------------------------
step "examples"
ex=$tmp/examples
if "$cmake" -S "$src/examples" -B "$ex" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER="$cc" \
     -DCMAKE_C_STANDARD=11 -DCMAKE_C_FLAGS="$warn_flags $san" -DCMAKE_EXE_LINKER_FLAGS="$san" >"$tmp/ex.log" 2>&1 &&
   "$cmake" --build "$ex" --parallel 2 >>"$tmp/ex.log" 2>&1; then
  ok
  if [ "$mode" = shared ]; then
    for be in webgpu gles3; do run_expect 0 "hello-triangle on $be" "$ex/hello-triangle/hello-triangle" $be; done
  else
    for be in webgpu gles3; do
      run_expect 0 "hello-triangle on $be" "$ex/hello-triangle/hello-triangle" $be
      run_expect 0 "hello-scene on $be" "$ex/hello-scene/hello-scene" $be "$tmp/scene-$be.ppm"
      run_expect 0 "render-to-texture on $be" "$ex/render-to-texture/render-to-texture" $be
      run_expect 0 "custom-pipeline on $be" "$ex/custom-pipeline/custom-pipeline" $be
      run_expect 0 "gltf-viewer on $be" "$ex/gltf-viewer/gltf-viewer" "$src/tests/data/gltf/BoxTextured.gltf" "$tmp/box-$be.ppm" $be
      # a binary PPM of 320 x 240 with its header
      if [ "$(head -c 15 "$tmp/box-$be.ppm" 2>/dev/null | tr '\n' ' ')" = "P6 320 240 255 " ] &&
         [ "$(stat -c %s "$tmp/box-$be.ppm")" -eq $((15 + 320 * 240 * 3)) ]; then ok; else bad "gltf-viewer's $be image is not a 320x240 PPM"; fi
    done
    run_expect 0 "compute-particles on webgpu" "$ex/compute-particles/compute-particles" webgpu
    # gles3 has no compute: the engine's refusal, printed, and exit code 3
    run_expect 3 "compute-particles on gles3 (refused)" "$ex/compute-particles/compute-particles" gles3
    if grep -q "requires compute" "$tmp/run.log"; then ok; else bad "compute-particles on gles3 did not print the refusal: $(cat "$tmp/run.log")"; fi
    run_expect 1 "gltf-viewer with a missing model" "$ex/gltf-viewer/gltf-viewer" "$tmp/missing.gltf" "$tmp/x.ppm" gles3
  fi
else
  tail -40 "$tmp/ex.log"; bad "the examples do not build against the installed package"
fi

# ---- Dawn from the install tree ------------------------------------------------------------------------
if [ "$mode" = static ]; then
  step "the installed CLI finds the installed Dawn"
  real=$(realpath "$prefix")
  LD_DEBUG=files "$prefix/bin/hilo3d" info --json >"$tmp/info.json" 2>"$tmp/ld.log"
  loaded=$(grep -oE 'file=[^ ]*libwebgpu_wrapper\.so' "$tmp/ld.log" | head -1 | sed 's/^file=//')
  if [ "$loaded" = "$real/$libdir/hilo3d/libwebgpu_wrapper.so" ]; then ok; else bad "the installed CLI loaded Dawn from '$loaded', not $real/$libdir/hilo3d"; fi
fi

step "done"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
