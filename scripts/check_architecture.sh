#!/usr/bin/env bash
# The layer rules of DESIGN.md, checked on the include lines of the sources.
set -u
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root" || exit 2
fail=0
bad() { echo "architecture: $*"; fail=1; }

inc() { grep -HnE '^\s*#\s*include' "$@" 2>/dev/null; }

# rhi/core knows no backend and no native API.
inc src/rhi/core/*.[ch] | grep -E 'webgpu|gles3|GLES|EGL|null_backend' && bad "src/rhi/core includes a backend or native header"
# Only rhi/webgpu declares webgpu types; only rhi/gles3 includes GL/EGL.
for f in $(grep -rlE '#\s*include\s*[<"](webgpu_decl\.h|webgpu/webgpu\.h|dawn/)' src include tools bench 2>/dev/null); do
  case "$f" in src/rhi/webgpu/*|bench/*) ;; *) bad "$f includes webgpu declarations";; esac
done
for f in $(grep -rlE '#\s*include\s*<(GLES[23]?|EGL)/' src include tools 2>/dev/null); do
  case "$f" in src/rhi/gles3/*) ;; *) bad "$f includes GL/EGL";; esac
done
# Layers point down only: rhi knows no shader/graph/scene/render; shader knows no graph/scene.
inc src/rhi/*/*.[ch] | grep -E 'hl_shader\.h|hl_graph|hilo3d/scene|hl_render' && bad "src/rhi includes an upper layer"
inc src/shader/*.[ch] | grep -E 'hl_graph|hilo3d/scene|hl_render' && bad "src/shader includes an upper layer"
# graph knows no scene, mesh or material; scene knows no RHI, graph or renderer.
inc src/graph/*.[ch] | grep -E 'hilo3d/(scene|geometry|material|renderer)\.h|src/render|render_internal' && bad "src/graph includes the scene or the renderer"
inc src/scene/*.[ch] | grep -E 'hl_rhi\.h|hilo3d/(rhi|hilo3d)\.h|rhi_internal\.h|hl_graph\.h|hilo3d/renderer\.h|render_internal' && bad "src/scene includes the RHI, the graph or the renderer"
# The public RHI (hilo3d/rhi.h) is reached only through its own name or the umbrella header:
# no other public header includes it, so the scene's public headers never bring it in.
inc include/hilo3d/*.h | grep -vE '^include/hilo3d/hilo3d\.h:' | grep -E 'include\s*[<"]hilo3d/rhi\.h' && bad "a public header other than hilo3d.h includes hilo3d/rhi.h"
# Render pipelines sit above the renderer: nothing below src/pipeline includes their header.
inc src/base/*.[ch] src/rhi/*/*.[ch] src/shader/*.[ch] src/scene/*.[ch] src/graph/*.[ch] src/render/*.[ch] include/hilo3d/*.h \
  | grep -vE '^include/hilo3d/(pipeline|hilo3d)\.h' | grep -E 'hilo3d/pipeline\.h' && bad "a layer below src/pipeline includes hilo3d/pipeline.h"
# src/base is below every layer: it includes only the public result and version headers.
inc src/base/*.[ch] | grep '"' | grep -vE '"(hl_base\.h|hilo3d/(result|version)\.h)"' && bad "src/base includes a layer header"
# RHI internals stay inside src/rhi (bench and the RHI's white-box test may look inside).
for f in $(grep -rlE '#\s*include\s*"(rhi_internal|core_private)\.h"' src tools 2>/dev/null); do
  case "$f" in src/rhi/*) ;; *) bad "$f includes RHI internals";; esac
done
# Upper layers include no re-declaration of base functions.
grep -rnE '^\s*(void \*hl__malloc|hl_result hl__fail)\(' src | grep -v '^src/base/' && bad "hl__malloc/hl__fail re-declared outside src/base"
# Backends know nothing of each other.
inc src/rhi/webgpu/*.[ch] | grep -E 'gles3|GLES|EGL' && bad "webgpu backend includes gles3"
inc src/rhi/gles3/*.[ch] | grep -E 'webgpu' && bad "gles3 backend includes webgpu"
# No abort() in library code.
grep -rnE '\babort\s*\(' src | grep -v 'abort_frame' && bad "abort() in library code"

if [ $fail -eq 0 ]; then echo "1 passed, 0 failed"; else echo "0 passed, 1 failed"; fi
exit $fail
