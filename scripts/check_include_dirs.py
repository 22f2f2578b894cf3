#!/usr/bin/env python3
"""The build enforces the layer arrows: every source of a layer compiles with the include
directories of that layer and the layers below it only (read from compile_commands.json), so
a lower layer cannot include a higher layer's headers however it spells the #include.
Usage: check_include_dirs.py SOURCE_DIR BUILD_DIR"""
import json
import os
import re
import sys

src, build = sys.argv[1], sys.argv[2]
ALLOWED = {  # layer -> folders its sources may see (besides include/ and the build's generated/)
    "src/base": {"src/base"},
    "src/rhi/core": {"src/base", "src/rhi/core"},
    "src/rhi/null": {"src/base", "src/rhi/core", "src/rhi/null"},
    "src/rhi/webgpu": {"src/base", "src/rhi/core", "src/rhi/webgpu"},
    "src/rhi/gles3": {"src/base", "src/rhi/core", "src/rhi/gles3"},
    "src/rhi/select": {"src/base", "src/rhi/core", "src/rhi/select"},
    "src/shader": {"src/base", "src/rhi/core", "src/shader"},
    "src/scene": {"src/base", "src/scene"},
    "src/graph": {"src/base", "src/rhi/core", "src/graph"},
    "src/render": {"src/base", "src/rhi/core", "src/shader", "src/scene", "src/graph", "src/render"},
    "src/pipeline": {"src/base", "src/rhi/core", "src/shader", "src/scene", "src/graph", "src/render", "src/pipeline"},
    "src/demo": {"src/base", "src/rhi/core", "src/shader", "src/scene", "src/graph", "src/render", "src/pipeline",
                 "src/demo"},
}
path = os.path.join(build, "compile_commands.json")
if not os.path.exists(path):
    print(f"check_include_dirs: {path} missing (CMAKE_EXPORT_COMPILE_COMMANDS)")
    print("0 passed, 1 failed")
    sys.exit(1)
src = os.path.realpath(src)
fail, checked = 0, 0
for e in json.load(open(path)):
    f = os.path.relpath(os.path.realpath(e["file"]), src)
    layer = next((l for l in sorted(ALLOWED, key=len, reverse=True) if f.startswith(l + "/")), None)
    if not layer or os.path.dirname(f) != layer:
        continue
    checked += 1
    cmd = e.get("command") or " ".join(e.get("arguments", []))
    for d in re.findall(r"-I\s*(\S+)", cmd):
        rel = os.path.relpath(os.path.realpath(d), src)
        if rel == "include" or rel.startswith("..") or not rel.startswith("src"):
            continue  # public headers (checked by check_architecture.sh) and build outputs
        if rel not in ALLOWED[layer]:
            print(f"architecture: {f} compiles with -I {rel}, a folder {layer} may not see")
            fail += 1
if checked == 0:
    print("check_include_dirs: no layer sources found in compile_commands.json")
    fail += 1
print(f"{checked - min(fail, checked)} passed, {fail} failed")
sys.exit(1 if fail else 0)
