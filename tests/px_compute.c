/* Compute: a WGSL kernel fills a storage buffer that is read back (webgpu), again with override
 * constants set at pipeline creation; on gles3 the same requests return HL_ERR_UNSUPPORTED
 * before any native call. */
#include "hl_test.h"

static const char *k_wgsl =
    "@group(0) @binding(0) var<storage, read_write> data: array<u32>;\n"
    "@compute @workgroup_size(64)\n"
    "fn main(@builtin(global_invocation_id) id: vec3<u32>) {\n"
    "    if (id.x < 256u) { data[id.x] = id.x * 3u + 7u; }\n"
    "}\n";

int main(int argc, char **argv) {
    hl_rhi_backend backend = hl_test_backend_arg(argc, argv, HL_RHI_BACKEND_GLES3);
    hl_rhi_device *dev = hl_test_device(backend);
    if (!dev) return hl_test_finish();
    bool has_compute = (hl_rhi_device_caps(dev)->features & HL_RHI_FEATURE_COMPUTE) != 0;
    HL_CHECK_EQ(has_compute, backend == HL_RHI_BACKEND_WEBGPU);

    hl_rhi_shader_desc sd = {0};
    sd.stage = HL_RHI_SHADER_COMPUTE;
    sd.wgsl = k_wgsl;
    sd.label = "fill";
    hl_rhi_bind_group_layout_entry le = {0};
    le.visibility = HL_RHI_STAGE_COMPUTE;
    le.type = HL_RHI_BINDING_STORAGE_BUFFER;
    hl_rhi_bind_group_layout_desc ld = {&le, 1, "fill"};
    hl_rhi_buffer_desc bd = {0};
    bd.size = 256 * 4;
    bd.usage = HL_RHI_BUFFER_USAGE_STORAGE | HL_RHI_BUFFER_USAGE_COPY_SRC;

    if (!has_compute) {
        uint64_t calls = hl_rhi_device_stats(dev)->native_calls;
        hl_rhi_shader sh;
        hl_rhi_bind_group_layout l;
        hl_rhi_buffer b;
        HL_CHECK_RESULT(hl_rhi_shader_create(dev, &sd, &sh), HL_ERR_UNSUPPORTED);
        HL_CHECK_RESULT(hl_rhi_bind_group_layout_create(dev, &ld, &l), HL_ERR_UNSUPPORTED);
        HL_CHECK_RESULT(hl_rhi_buffer_create(dev, &bd, &b), HL_ERR_UNSUPPORTED);
        hl_rhi_compute_pipeline_desc cd = {0};
        hl_rhi_compute_pipeline cp;
        HL_CHECK_RESULT(hl_rhi_compute_pipeline_create(dev, &cd, &cp), HL_ERR_UNSUPPORTED);
        hl_rhi_cmd *cmd = NULL;
        HL_CHECK_OK(hl_rhi_begin_frame(dev, &cmd));
        uint64_t in_frame = hl_rhi_device_stats(dev)->native_calls;
        HL_CHECK_RESULT(hl_rhi_cmd_begin_compute_pass(cmd, "fill"), HL_ERR_UNSUPPORTED);
        HL_CHECK_EQ(hl_rhi_device_stats(dev)->native_calls, in_frame);
        hl_rhi_abort_frame(dev);
        HL_CHECK(calls <= in_frame);
        hl_rhi_requirements req = {0};
        req.features = HL_RHI_FEATURE_COMPUTE;
        HL_CHECK_RESULT(hl_rhi_probe(HL_RHI_BACKEND_GLES3, &req, NULL, 0), HL_ERR_UNSUPPORTED);
        hl_rhi_device_destroy(dev);
        return hl_test_finish();
    }

    hl_rhi_shader sh;
    hl_rhi_bind_group_layout l;
    hl_rhi_pipeline_layout pl;
    hl_rhi_compute_pipeline cp;
    hl_rhi_buffer b;
    hl_rhi_bind_group g;
    HL_CHECK_OK(hl_rhi_shader_create(dev, &sd, &sh));
    HL_CHECK_OK(hl_rhi_bind_group_layout_create(dev, &ld, &l));
    hl_rhi_pipeline_layout_desc pld = {&l, 1, "fill"};
    HL_CHECK_OK(hl_rhi_pipeline_layout_create(dev, &pld, &pl));
    hl_rhi_compute_pipeline_desc cd = {pl, sh, NULL, 0, "fill"};
    HL_CHECK_OK(hl_rhi_compute_pipeline_create(dev, &cd, &cp));
    HL_CHECK_OK(hl_rhi_buffer_create(dev, &bd, &b));
    hl_rhi_bind_group_entry e = {0};
    e.buffer = b;
    hl_rhi_bind_group_desc gd = {l, &e, 1, "fill"};
    HL_CHECK_OK(hl_rhi_bind_group_create(dev, &gd, &g));

    hl_rhi_cmd *cmd = NULL;
    HL_CHECK_OK(hl_rhi_begin_frame(dev, &cmd));
    HL_CHECK_OK(hl_rhi_cmd_begin_compute_pass(cmd, "fill"));
    HL_CHECK_OK(hl_rhi_cmd_set_compute_pipeline(cmd, cp));
    HL_CHECK_OK(hl_rhi_cmd_set_bind_group(cmd, 0, g, NULL, 0));
    HL_CHECK_OK(hl_rhi_cmd_dispatch(cmd, 4, 1, 1));
    HL_CHECK_RESULT(hl_rhi_cmd_draw(cmd, 3, 1, 0, 0), HL_ERR_INVALID_STATE); /* draw in a compute pass */
    HL_CHECK_OK(hl_rhi_cmd_end_compute_pass(cmd));
    hl_rhi_submission s;
    HL_CHECK_OK(hl_rhi_end_frame(dev, &s));
    HL_CHECK_OK(hl_rhi_submission_wait(dev, s, UINT64_MAX));
    uint32_t out[256];
    HL_CHECK_OK(hl_rhi_buffer_read(dev, b, 0, out, sizeof(out)));
    int bad = 0;
    for (uint32_t i = 0; i < 256; i++)
        if (out[i] != i * 3u + 7u) bad++;
    HL_CHECK_MSG(bad == 0, "compute: %d of 256 values wrong (out[1] = %u)", bad, out[1]);

    /* override constants set at pipeline creation (WGSL `override`) */
    sd.wgsl = "override mul: u32 = 1u;\n"
              "override add: f32 = 0.0;\n"
              "@group(0) @binding(0) var<storage, read_write> data: array<u32>;\n"
              "@compute @workgroup_size(64)\n"
              "fn main(@builtin(global_invocation_id) id: vec3<u32>) {\n"
              "    if (id.x < 256u) { data[id.x] = id.x * mul + u32(add); }\n"
              "}\n";
    hl_rhi_shader osh;
    HL_CHECK_OK(hl_rhi_shader_create(dev, &sd, &osh));
    const hl_rhi_constant consts[2] = {{"mul", 5.0}, {"add", 11.0}};
    hl_rhi_compute_pipeline_desc od = {pl, osh, consts, 2, "overrides"};
    hl_rhi_compute_pipeline ocp;
    HL_CHECK_OK(hl_rhi_compute_pipeline_create(dev, &od, &ocp));
    HL_CHECK_OK(hl_rhi_begin_frame(dev, &cmd));
    HL_CHECK_OK(hl_rhi_cmd_begin_compute_pass(cmd, "overrides"));
    HL_CHECK_OK(hl_rhi_cmd_set_compute_pipeline(cmd, ocp));
    HL_CHECK_OK(hl_rhi_cmd_set_bind_group(cmd, 0, g, NULL, 0));
    HL_CHECK_OK(hl_rhi_cmd_dispatch(cmd, 4, 1, 1));
    HL_CHECK_OK(hl_rhi_cmd_end_compute_pass(cmd));
    HL_CHECK_OK(hl_rhi_end_frame(dev, &s));
    HL_CHECK_OK(hl_rhi_submission_wait(dev, s, UINT64_MAX));
    HL_CHECK_OK(hl_rhi_buffer_read(dev, b, 0, out, sizeof(out)));
    bad = 0;
    for (uint32_t i = 0; i < 256; i++)
        if (out[i] != i * 5u + 11u) bad++;
    HL_CHECK_MSG(bad == 0, "override constants: %d of 256 values wrong (out[1] = %u, want 16)", bad, out[1]);
    const hl_rhi_constant unknown[1] = {{"nope", 1.0}};
    od.constants = unknown;
    od.constant_count = 1;
    hl_rhi_compute_pipeline bad_cp;
    HL_CHECK(hl_rhi_compute_pipeline_create(dev, &od, &bad_cp) != HL_OK); /* Dawn refuses an unknown name */
    od.constants = NULL;
    HL_CHECK_RESULT(hl_rhi_compute_pipeline_create(dev, &od, &bad_cp), HL_ERR_VALIDATION); /* count without array */
    hl_rhi_compute_pipeline_destroy(dev, ocp);
    hl_rhi_shader_destroy(dev, osh);

    /* a WGSL error comes back as HL_ERR_SHADER with the compiler's message */
    sd.wgsl = "@compute @workgroup_size(1) fn main() { let x: u32 = ; }";
    hl_rhi_shader bad_sh;
    HL_CHECK_RESULT(hl_rhi_shader_create(dev, &sd, &bad_sh), HL_ERR_SHADER);

    hl_rhi_bind_group_destroy(dev, g);
    hl_rhi_buffer_destroy(dev, b);
    hl_rhi_compute_pipeline_destroy(dev, cp);
    hl_rhi_pipeline_layout_destroy(dev, pl);
    hl_rhi_bind_group_layout_destroy(dev, l);
    hl_rhi_shader_destroy(dev, sh);
    hl_rhi_device_destroy(dev);
    return hl_test_finish();
}
