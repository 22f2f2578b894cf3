/* The WGSL declaration scanner (src/shader/hl_wgsl.h): resource variables of every kind with
 * their group, binding, name and line; the entry point's workgroup size; comments, attribute
 * order and spacing; and every refusal with the message naming it. */
#include <string.h>

#include "hl_test.h"
#include "hl_wgsl.h"

static hl_result reflect(const char *src, const char *entry, hl_wgsl_info *info) {
    return hl_wgsl_reflect(src, strlen(src), entry, info);
}

static const hl_wgsl_binding *find(const hl_wgsl_info *info, const char *name) {
    for (uint32_t i = 0; i < info->binding_count; i++)
        if (!strcmp(info->bindings[i].name, name)) return &info->bindings[i];
    return NULL;
}

static void check_binding(const hl_wgsl_info *info, const char *name, uint32_t group, uint32_t binding,
                          hl_wgsl_kind kind) {
    const hl_wgsl_binding *b = find(info, name);
    HL_CHECK_MSG(b != NULL, "binding '%s' not found", name);
    if (!b) return;
    HL_CHECK_MSG(b->group == group && b->binding == binding && b->kind == kind,
                 "'%s': @group(%u) @binding(%u) %s, want (%u, %u) %s", name, b->group, b->binding,
                 hl_wgsl_kind_name(b->kind), group, binding, hl_wgsl_kind_name(kind));
}

static void refused(const char *src, const char *entry, const char *needle) {
    hl_wgsl_info info;
    hl_result r = reflect(src, entry, &info);
    HL_CHECK_MSG(r == HL_ERR_SHADER && strstr(hl_last_error(), needle) != NULL,
                 "want HL_ERR_SHADER naming '%s', got %s: %s", needle, hl_result_name(r), hl_last_error());
}

static const char *k_all =
    "// every binding kind the ABI knows, in the orders and spellings WGSL allows\n"
    "struct Params { count: u32, @align(16) scale: f32, }\n"
    "@group(0) @binding(0) var<uniform> params: Params;\n"
    "@binding(1) @group(0) var<storage> src_a: array<vec4<f32>>;\n"
    "@group(0)\n  @binding( 2 )\n  var<storage, read> src_b: array<f32>;\n"
    "@group(1) @binding(0u) var<storage,read_write> dst: array<atomic<u32>>;\n"
    "/* a /* nested */ block comment: @group(9) @binding(9) var<uniform> hidden: f32; */\n"
    "@group(1) @binding(0x1) var tex: texture_2d<f32>;\n"
    "@group(1) @binding(2) var samp: sampler;\n"
    "@group(1) @binding(3) var shadow_samp: sampler_comparison;\n"
    "@group(2) @binding(0) var out_tex: texture_storage_2d<rgba8unorm, write>;\n"
    "@group(2) @binding(1) var depth_tex: texture_depth_2d;\n"
    "var<private> scratch: array<f32, 4> = array<f32, 4>(1.0, 2.0, 3.0, 4.0);\n"
    "var<workgroup> tile: array<u32, 64>;\n"
    "override block_size: u32 = 64;\n"
    "fn helper(x: f32) -> f32 { var t: f32 = x; { t = t * 2.0; } return t; }\n"
    "@compute @workgroup_size(64, 2)\n"
    "fn main(@builtin(global_invocation_id) id: vec3<u32>) {\n"
    "    let i = id.x;\n"
    "    dst[i] = 0u; // not a declaration: @group(7) var<uniform> x: f32;\n"
    "}\n";

static void test_declarations(void) {
    hl_wgsl_info info;
    HL_CHECK_OK(reflect(k_all, "main", &info));
    HL_CHECK_EQ(info.binding_count, 9);
    check_binding(&info, "params", 0, 0, HL_WGSL_UNIFORM_BUFFER);
    check_binding(&info, "src_a", 0, 1, HL_WGSL_STORAGE_READ);
    check_binding(&info, "src_b", 0, 2, HL_WGSL_STORAGE_READ);
    check_binding(&info, "dst", 1, 0, HL_WGSL_STORAGE_READ_WRITE);
    check_binding(&info, "tex", 1, 1, HL_WGSL_SAMPLED_TEXTURE_2D);
    check_binding(&info, "samp", 1, 2, HL_WGSL_SAMPLER);
    check_binding(&info, "shadow_samp", 1, 3, HL_WGSL_SAMPLER_COMPARISON);
    check_binding(&info, "out_tex", 2, 0, HL_WGSL_STORAGE_TEXTURE_2D_WRITE);
    check_binding(&info, "depth_tex", 2, 1, HL_WGSL_OTHER);
    HL_CHECK(find(&info, "hidden") == NULL && find(&info, "scratch") == NULL && find(&info, "tile") == NULL);
    HL_CHECK_EQ(info.workgroup_size[0], 64);
    HL_CHECK_EQ(info.workgroup_size[1], 2);
    HL_CHECK_EQ(info.workgroup_size[2], 1);
    HL_CHECK_EQ(info.entry_line, 20); /* the line of `fn` */
    HL_CHECK_EQ(find(&info, "src_b")->line, 7); /* the line of `var` */
    /* the other function is not an entry point */
    refused(k_all, "helper", "entry point 'helper' is not a @compute function");
    refused(k_all, "missing", "no function 'missing'");
    /* one dimension, trailing comma, hex and suffixes */
    HL_CHECK_OK(reflect("@compute @workgroup_size(0x100u,) fn k() {}", "k", &info));
    HL_CHECK_EQ(info.workgroup_size[0], 256);
    HL_CHECK_EQ(info.workgroup_size[1], 1);
    HL_CHECK_EQ(info.binding_count, 0);
}

static void test_overrides(void) {
    hl_wgsl_info info;
    HL_CHECK_OK(reflect(k_all, "main", &info));
    HL_CHECK_EQ(info.override_count, 1);
    HL_CHECK(!strcmp(info.overrides[0].name, "block_size") && info.overrides[0].type == HL_WGSL_U32 &&
             info.overrides[0].has_default && info.overrides[0].line == 17);
    HL_CHECK_OK(reflect("@id(3) override flag: bool;\noverride scale = 1.5 * 2.0;\noverride n: i32 = -(4);\n"
                        "override w: f32;\noverride v: vec2<f32>;\n@compute @workgroup_size(1) fn main() {}",
                        "main", &info));
    HL_CHECK_EQ(info.override_count, 5);
    HL_CHECK(info.overrides[0].type == HL_WGSL_BOOL && !info.overrides[0].has_default);
    HL_CHECK(info.overrides[1].type == HL_WGSL_SCALAR_INFERRED && info.overrides[1].has_default);
    HL_CHECK(info.overrides[2].type == HL_WGSL_I32 && info.overrides[2].has_default);
    HL_CHECK(info.overrides[3].type == HL_WGSL_F32 && !info.overrides[3].has_default && info.overrides[3].line == 4);
    HL_CHECK(info.overrides[4].type == HL_WGSL_SCALAR_OTHER);
    refused("override a: u32;\noverride a: f32;\n@compute @workgroup_size(1) fn main() {}", "main",
            "line 2: a second override 'a'");
    refused("override h: f16 = 1.0h;\n@compute @workgroup_size(1) fn main() {}", "main", "'f16': f16");
    refused("override a: u32 = 1u\n@compute @workgroup_size(1) fn main() {}", "main", "the override 'a' has no ';'");
}

static void test_refusals(void) {
    refused("@compute @workgroup_size(block) fn main() {}", "main", "@workgroup_size takes 1 to 3 integer literals");
    refused("@compute @workgroup_size(8 * 8) fn main() {}", "main", "@workgroup_size takes integer literals");
    refused("@compute @workgroup_size(1, 2, 3, 4) fn main() {}", "main", "1 to 3 integer literals");
    refused("@compute @workgroup_size(4294967296) fn main() {}", "main", "integer literal");
    refused("@compute @workgroup_size(08) fn main() {}", "main", "integer literal");
    refused("@compute fn main() {}", "main", "has no @workgroup_size");
    refused("@group(G) @binding(0) var<uniform> u: f32;\n@compute @workgroup_size(1) fn main() {}", "main",
            "@group takes 1 integer literal");
    refused("@group(0) var<uniform> u: f32;\n@compute @workgroup_size(1) fn main() {}", "main",
            "'u' has @group without @binding");
    refused("@group(0) @binding(0) var<uniform> a: f32;\n@group(0) @binding(0) var<uniform> b: f32;\n"
            "@compute @workgroup_size(1) fn main() {}",
            "main", "'b' and 'a' (line 1) share @group(0) @binding(0)");
    refused("enable f16;\n@compute @workgroup_size(1) fn main() {}", "main", "line 1: 'f16': f16 is not supported");
    refused("@compute @workgroup_size(1) fn main() { let x = vec3h(1.0); }", "main", "'vec3h': f16");
    refused("@compute @workgroup_size(1) fn main() { let x = 1.5h; }", "main", "'1.5h': f16");
    refused("@group(0) @binding(0) var<storage> m: mat2x4h;\n@compute @workgroup_size(1) fn main() {}", "main",
            "'mat2x4h': f16");
    refused("/* /* */ @compute @workgroup_size(1) fn main() {}", "main", "line 1: unterminated block comment");
    refused("@group(0) @binding(0) var<uniform> u: f32\n@compute @workgroup_size(1) fn main() {}", "main",
            "has no ';'");
    refused("@compute @workgroup_size(1) fn main() {}\n@compute @workgroup_size(2) fn main() {}", "main",
            "a second function 'main'");
    hl_wgsl_info info;
    HL_CHECK_RESULT(hl_wgsl_reflect("fn main\0() {}", 14, "main", &info), HL_ERR_SHADER);
    HL_CHECK_RESULT(hl_wgsl_reflect("x", HL_WGSL_MAX_SOURCE + 1, "main", &info), HL_ERR_SHADER);
    HL_CHECK_RESULT(hl_wgsl_reflect("x", 1, "", &info), HL_ERR_VALIDATION);
    HL_CHECK_RESULT(hl_wgsl_reflect(NULL, 0, "main", &info), HL_ERR_VALIDATION);
}

static void test_many(void) {
    /* the binding limit, counted exactly */
    static char src[16384];
    size_t n = 0;
    for (int i = 0; i <= HL_WGSL_MAX_BINDINGS; i++)
        n += (size_t)snprintf(src + n, sizeof src - n, "@group(0) @binding(%d) var<storage> b%d: array<u32>;\n", i, i);
    snprintf(src + n, sizeof src - n, "@compute @workgroup_size(1) fn main() {}\n");
    refused(src, "main", "more than 64 resource variables");
    char *cut = strstr(src, "@group(0) @binding(64)");
    snprintf(cut, sizeof src - (size_t)(cut - src), "@compute @workgroup_size(1) fn main() {}\n");
    hl_wgsl_info info;
    HL_CHECK_OK(reflect(src, "main", &info));
    HL_CHECK_EQ(info.binding_count, HL_WGSL_MAX_BINDINGS);
}

int main(void) {
    test_declarations();
    test_overrides();
    test_refusals();
    test_many();
    return hl_test_finish();
}
