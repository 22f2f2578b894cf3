/* The forward renderer's GLSL ES 3.00 sources (the only hand-written raster shaders).
 *
 * One uber-source per pass, specialised through #defines the renderer derives from the
 * geometry layout, the material variant and the frame (see render_program.c):
 *   HAS_NORMAL HAS_TANGENT HAS_UV0 HAS_UV1 HAS_COLOR INSTANCED
 *   UNLIT BASE_COLOR_MAP MR_MAP NORMAL_MAP OCCLUSION_MAP EMISSIVE_MAP (+ <MAP>_UV1)
 *   ALPHA_MASK RECEIVE_SHADOWS FOG
 * Blocks: Frame (group 0), Object (group 1, dynamic offset per draw), Material (group 2).
 * Clip space follows WebGPU (depth 0..1); the gles3 path remaps depth in the projection
 * matrices it uploads, so the sources are shared. */
#include "render_internal.h"

/* The sources are single literals longer than C99's 4095-character minimum; gcc and clang
 * take them, so the pedantic warning is off for this file only. */
#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Woverlength-strings"
#endif

#define HL__FRAME_BLOCK                                                                              \
    "layout(std140) uniform Frame {\n"                                                                \
    "    mat4 u_viewProj;\n"                                                                          \
    "    vec4 u_cameraPos;\n"                                                                         \
    "    vec4 u_ambient;\n"                                                                           \
    "    vec4 u_fogColor;\n"                                                                          \
    "    vec4 u_fogParams;\n" /* x mode (1 linear, 2 exp, 3 exp2), y start, z end, w density */     \
    "    vec4 u_lightInfo;\n" /* x light count, y shadow texel size */                              \
    "    vec4 u_lightColor[" HL__STR(HL_RENDER_MAX_LIGHTS) "];\n" /* rgb * intensity, w type */      \
    "    vec4 u_lightPos[" HL__STR(HL_RENDER_MAX_LIGHTS) "];\n"   /* xyz, w range (0 = none) */      \
    "    vec4 u_lightDir[" HL__STR(HL_RENDER_MAX_LIGHTS) "];\n"   /* xyz travel dir, w cos outer */  \
    "    vec4 u_lightShadow[" HL__STR(HL_RENDER_MAX_LIGHTS) "];\n" /* x cos inner, y tile (-1), z bias */ \
    "    mat4 u_shadowMatrix[" HL__STR(HL_RENDER_MAX_SHADOW_TILES) "];\n"                            \
    "    vec4 u_shadowRect[" HL__STR(HL_RENDER_MAX_SHADOW_TILES) "];\n"                              \
    "    vec4 u_env;\n" /* x intensity, y specular mips - 1, z cos / w sin of the rotation */            \
    "    vec4 u_envSH[9];\n" /* irradiance / PI, SH basis folded in */                                    \
    "    vec4 u_exposure;\n"                                                                          \
    "};\n"

/* Shared by the forward and shadow vertex shaders: the instance matrix inputs and the start of
 * main() that picks the model matrix. */
#define HL__GLSL_INSTANCE_INPUTS                                                                        \
    "#ifdef INSTANCED\n"                                                                                \
    "in vec4 a_instance0;\n"                                                                            \
    "in vec4 a_instance1;\n"                                                                            \
    "in vec4 a_instance2;\n"                                                                            \
    "in vec4 a_instance3;\n"                                                                            \
    "#endif\n"
_Static_assert(HL_SKIN_MAX_JOINTS == 256u, "the skinned Object block declares 256 joints");

/* The Object block: the model and normal matrices, or a skinned mesh's joint palette (then the
 * vertex's joints and weights are inputs: JOINTS_0 integers, clamped to the palette; SKINNED8:
 * JOINTS_1 / WEIGHTS_1 too, 8 influences). */
#define HL__GLSL_OBJECT_BLOCK                                                                           \
    "#ifdef SKINNED\n"                                                                                  \
    "layout(std140) uniform Object { mat4 u_joints[256]; };\n" /* HL_SKIN_MAX_JOINTS */                  \
    "in uvec4 a_joints;\n"                                                                              \
    "in vec4 a_weights;\n"                                                                              \
    "#ifdef SKINNED8\n"                                                                                 \
    "in uvec4 a_joints1;\n"                                                                             \
    "in vec4 a_weights1;\n"                                                                             \
    "#endif\n"                                                                                          \
    "#else\n"                                                                                           \
    "layout(std140) uniform Object { mat4 u_model; mat4 u_normalMatrix; };\n"                          \
    "#endif\n"
/* After HL__GLSL_MAIN_MODEL's instanced case: the skinned model matrix (world space). */
#define HL__GLSL_SKIN_MODEL                                                                             \
    "#ifdef SKINNED\n"                                                                                  \
    "    ivec4 j = ivec4(min(a_joints, uvec4(255u)));\n"                                                \
    "    mat4 model = a_weights.x * u_joints[j.x] + a_weights.y * u_joints[j.y] +\n"                    \
    "                 a_weights.z * u_joints[j.z] + a_weights.w * u_joints[j.w];\n"                     \
    "#ifdef SKINNED8\n"                                                                                 \
    "    ivec4 j1 = ivec4(min(a_joints1, uvec4(255u)));\n"                                              \
    "    model += a_weights1.x * u_joints[j1.x] + a_weights1.y * u_joints[j1.y] +\n"                    \
    "             a_weights1.z * u_joints[j1.z] + a_weights1.w * u_joints[j1.w];\n"                     \
    "#endif\n"                                                                                          \
    "#else\n"
#define HL__GLSL_MAIN_MODEL                                                                             \
    "void main() {\n"                                                                                   \
    "#ifdef INSTANCED\n"                                                                                \
    "    mat4 model = mat4(a_instance0, a_instance1, a_instance2, a_instance3);\n"

const char *const hl__render_forward_vs =
    "#version 300 es\n"
    "precision highp float;\n"
    HL__FRAME_BLOCK
    HL__GLSL_OBJECT_BLOCK
    "in vec3 a_position;\n"
    "#ifdef HAS_NORMAL\n"
    "in vec3 a_normal;\n"
    "out vec3 v_normal;\n"
    "#endif\n"
    "#ifdef HAS_TANGENT\n"
    "in vec4 a_tangent;\n"
    "out vec4 v_tangent;\n"
    "#endif\n"
    "#ifdef HAS_UV0\n"
    "in vec2 a_uv0;\n"
    "out vec2 v_uv0;\n"
    "#endif\n"
    "#ifdef HAS_UV1\n"
    "in vec2 a_uv1;\n"
    "out vec2 v_uv1;\n"
    "#endif\n"
    "#ifdef HAS_COLOR\n"
    "in vec4 a_color;\n"
    "out vec4 v_color;\n"
    "#endif\n"
    HL__GLSL_INSTANCE_INPUTS
    "out vec3 v_worldPos;\n"
    HL__GLSL_MAIN_MODEL
    "    mat3 normalMatrix = mat3(model);\n" /* instances: uniform scale assumed */
    "#else\n"
    HL__GLSL_SKIN_MODEL
    "    mat4 model = u_model;\n"
    "    mat3 normalMatrix = mat3(u_normalMatrix);\n"
    "#endif\n"
    "#ifdef SKINNED\n"
    "    mat3 normalMatrix = mat3(model);\n" /* joints: uniform scale assumed (normalized below) */
    "#endif\n"
    "#endif\n"
    "    vec4 world = model * vec4(a_position, 1.0);\n"
    "    v_worldPos = world.xyz;\n"
    "#ifdef HAS_NORMAL\n"
    "    v_normal = normalize(normalMatrix * a_normal);\n"
    "#endif\n"
    "#ifdef HAS_TANGENT\n"
    "    v_tangent = vec4(normalize(mat3(model) * a_tangent.xyz), a_tangent.w);\n"
    "#endif\n"
    "#ifdef HAS_UV0\n"
    "    v_uv0 = a_uv0;\n"
    "#endif\n"
    "#ifdef HAS_UV1\n"
    "    v_uv1 = a_uv1;\n"
    "#endif\n"
    "#ifdef HAS_COLOR\n"
    "    v_color = a_color;\n"
    "#endif\n"
    "    gl_Position = u_viewProj * world;\n"
    "}\n";

/* The lighting shared by the forward shader and lit fullscreen passes (deferred lighting):
 * needs the Frame block, and HL_SHADOWS with `u_shadowAtlas` for shadows. hl_shade is the whole
 * lit colour of a surface point but its emission; hl_fog applies the view's fog. */
#define HL__GLSL_LIGHTING                                                                               \
    "const float PI = 3.14159265;\n"                                                                    \
    "#ifdef HL_SHADOWS\n"                                                                               \
    "float shadowTile(int tile, vec3 pos, float bias) {\n"                                              \
    "    vec4 clip = u_shadowMatrix[tile] * vec4(pos, 1.0);\n"                                          \
    "    vec3 ndc = clip.xyz / clip.w;\n"                                                               \
    "    if (ndc.z > 1.0) return 1.0;\n"                                                                \
    "    vec4 rect = u_shadowRect[tile];\n"                                                             \
    "    vec2 uv = rect.xy + (ndc.xy * vec2(0.5, -0.5) + 0.5) * rect.zw;\n"                             \
    "    float texel = u_lightInfo.y;\n"                                                                \
    "    vec2 lo = rect.xy + texel, hi = rect.xy + rect.zw - texel;\n"                                  \
    "    float sum = 0.0;\n"                                                                            \
    "    for (int y = -1; y <= 1; y++)\n"                                                               \
    "        for (int x = -1; x <= 1; x++)\n"                                                           \
    "            sum += textureLod(u_shadowAtlas, vec3(clamp(uv + vec2(x, y) * texel, lo, hi), ndc.z - bias), 0.0);\n" \
    "    return sum / 9.0;\n"                                                                           \
    "}\n"                                                                                               \
    "float shadowFactor(int i, vec3 pos) {\n"                                                           \
    "    int tile = int(u_lightShadow[i].y);\n"                                                         \
    "    if (tile < 0) return 1.0;\n"                                                                   \
    "    float bias = u_lightShadow[i].z;\n"                                                            \
    "    if (u_lightColor[i].w == 1.0) {\n" /* point light: pick the cube face of the major axis */   \
    "        vec3 d = pos - u_lightPos[i].xyz;\n"                                                       \
    "        vec3 a = abs(d);\n"                                                                        \
    "        int face = a.x >= a.y && a.x >= a.z ? (d.x > 0.0 ? 0 : 1)\n"                               \
    "                 : a.y >= a.z ? (d.y > 0.0 ? 2 : 3) : (d.z > 0.0 ? 4 : 5);\n"                      \
    "        tile += face;\n"                                                                           \
    "    }\n"                                                                                           \
    "    return shadowTile(tile, pos, bias);\n"                                                         \
    "}\n"                                                                                               \
    "#endif\n"                                                                                          \
    "#ifdef HL_IBL\n"                                                                                  \
    "uniform samplerCube u_envSpecular;\n"                                                              \
    "uniform sampler2D u_brdfLut;\n"                                                                    \
    /* world direction -> the environment's own (turned back by its rotation about +Y) */              \
    "vec3 hl_envDir(vec3 d) { return vec3(u_env.z * d.x - u_env.w * d.z, d.y, u_env.w * d.x + u_env.z * d.z); }\n" \
    "vec3 hl_envIrradiance(vec3 n) {\n"                                                                \
    "    vec3 d = hl_envDir(n);\n"                                                                     \
    "    vec3 e = u_envSH[0].rgb + u_envSH[1].rgb * d.y + u_envSH[2].rgb * d.z + u_envSH[3].rgb * d.x\n" \
    "           + u_envSH[4].rgb * (d.x * d.y) + u_envSH[5].rgb * (d.y * d.z)\n"                       \
    "           + u_envSH[6].rgb * (3.0 * d.z * d.z - 1.0) + u_envSH[7].rgb * (d.x * d.z)\n"           \
    "           + u_envSH[8].rgb * (d.x * d.x - d.y * d.y);\n"                                          \
    "    return max(e, vec3(0.0));\n"                                                                  \
    "}\n"                                                                                              \
    "#endif\n"                                                                                         \
    "vec3 hl_shade(vec3 baseColor, vec3 n, vec3 pos, float metallic, float roughness, float ao, bool shadowed) {\n" \
    "    roughness = clamp(roughness, 0.04, 1.0);\n"                                                    \
    "    float alpha = roughness * roughness;\n"                                                        \
    "    vec3 v = normalize(u_cameraPos.xyz - pos);\n"                                                  \
    /* clamped to 1: rounding can put it above, and GLSL leaves pow of a negative base undefined */  \
    "    float nv = clamp(dot(n, v), 1e-4, 1.0);\n"                                                     \
    "    vec3 f0 = mix(vec3(0.04), baseColor, metallic);\n"                                             \
    "    vec3 diffuse = baseColor * (1.0 - metallic);\n"                                                \
    /* ambient: diffuse plus a Fresnel-weighted specular term so metals are not black */             \
    "    vec3 fAmb = f0 + (max(vec3(1.0 - roughness), f0) - f0) * pow(1.0 - nv, 5.0);\n"               \
    "    vec3 color = u_ambient.rgb * (diffuse + fAmb * (1.0 - 0.5 * roughness)) * ao;\n"              \
    "#ifdef HL_IBL\n"                                                                                  \
    /* split sum: prefiltered radiance x (F0 scale + bias), diffuse irradiance for the rest */         \
    "    vec2 ab = textureLod(u_brdfLut, vec2(nv, roughness), 0.0).rg;\n"                              \
    "    vec3 fss = f0 * ab.x + ab.y;\n"                                                               \
    "    vec3 pre = textureLod(u_envSpecular, hl_envDir(reflect(-v, n)), roughness * u_env.y).rgb;\n"  \
    "    color += (diffuse * hl_envIrradiance(n) * (1.0 - fss) + pre * fss) * (ao * u_env.x);\n"       \
    "#endif\n"                                                                                         \
    "    int count = int(u_lightInfo.x);\n"                                                             \
    "    for (int i = 0; i < " HL__STR(HL_RENDER_MAX_LIGHTS) "; i++) {\n"                               \
    "        if (i >= count) break;\n"                                                                  \
    "        vec3 l;\n"                                                                                 \
    "        float atten = 1.0;\n"                                                                      \
    "        float type = u_lightColor[i].w;\n"                                                         \
    "        if (type == 0.0) {\n"                                                                      \
    "            l = -u_lightDir[i].xyz;\n"                                                             \
    "        } else {\n"                                                                                \
    "            vec3 d = u_lightPos[i].xyz - pos;\n"                                                   \
    "            float dist = length(d);\n"                                                             \
    "            l = d / max(dist, 1e-4);\n"                                                            \
    "            float range = u_lightPos[i].w;\n"                                                      \
    "            atten = 1.0 / max(dist * dist, 1e-4);\n"                                               \
    "            if (range > 0.0) atten *= clamp(1.0 - pow(dist / range, 4.0), 0.0, 1.0);\n"           \
    "            if (type == 2.0) {\n"                                                                  \
    "                float cd = dot(-l, u_lightDir[i].xyz);\n"                                          \
    "                atten *= smoothstep(u_lightDir[i].w, u_lightShadow[i].x, cd);\n"                  \
    "            }\n"                                                                                   \
    "        }\n"                                                                                       \
    "        float nl = dot(n, l);\n"                                                                   \
    "        if (nl <= 0.0 || atten <= 0.0) continue;\n"                                               \
    "#ifdef HL_SHADOWS\n"                                                                               \
    "        if (shadowed) atten *= shadowFactor(i, pos + n * 0.02);\n"                                 \
    "#endif\n"                                                                                          \
    "        vec3 h = normalize(l + v);\n"                                                              \
    "        float nh = max(dot(n, h), 0.0);\n"                                                         \
    "        float vh = clamp(dot(v, h), 0.0, 1.0);\n"                                                  \
    "        float a2 = alpha * alpha;\n"                                                               \
    "        float dd = nh * nh * (a2 - 1.0) + 1.0;\n"                                                  \
    "        float D = a2 / (PI * dd * dd);\n"                                                          \
    "        float k = alpha * 0.5;\n"                                                                  \
    "        float G = (nl / (nl * (1.0 - k) + k)) * (nv / (nv * (1.0 - k) + k));\n"                    \
    "        vec3 F = f0 + (1.0 - f0) * pow(1.0 - vh, 5.0);\n"                                          \
    "        vec3 spec = D * G * F / (4.0 * nl * nv + 1e-4);\n"                                         \
    "        vec3 kd = (1.0 - F) * diffuse / PI;\n"                                                     \
    "        color += (kd + spec) * u_lightColor[i].rgb * nl * atten;\n"                                \
    "    }\n"                                                                                           \
    "    return color;\n"                                                                               \
    "}\n"                                                                                               \
    "vec3 hl_fog(vec3 color, vec3 pos) {\n"                                                             \
    "    float fd = length(u_cameraPos.xyz - pos);\n"                                                   \
    "    float fogf = 1.0;\n"                                                                           \
    "    if (u_fogParams.x == 1.0) fogf = clamp((u_fogParams.z - fd) / max(u_fogParams.z - u_fogParams.y, 1e-4), 0.0, 1.0);\n" \
    "    else if (u_fogParams.x == 2.0) fogf = exp(-u_fogParams.w * fd);\n"                             \
    "    else if (u_fogParams.x == 3.0) fogf = exp(-(u_fogParams.w * fd) * (u_fogParams.w * fd));\n"   \
    "    return mix(u_fogColor.rgb, color, fogf);\n"                                                    \
    "}\n"

/* GBUFFER (renderer lists of a G-buffer culling, hl_pipeline_cull_desc.gbuffer): no lighting;
 * four RGBA16F outputs, read back by hl__render_lighting_glsl's users:
 *   0: base colour rgb, w = 2 + ambient occlusion (w < 1.5: nothing drawn, the clear colour)
 *   1: world normal xyz (0: unlit), w = metallic
 *   2: emission rgb, w = roughness
 *   3: world position xyz, w = 1 where the mesh receives shadows */
const char *const hl__render_forward_fs =
    "#version 300 es\n"
    "precision highp float;\n"
    "precision highp sampler2DShadow;\n"
    "#if defined(RECEIVE_SHADOWS) && !defined(GBUFFER)\n"
    "#define HL_SHADOWS 1\n"
    "#endif\n"
    "#if defined(IBL) && !defined(GBUFFER)\n"
    "#define HL_IBL 1\n"
    "#endif\n"
    HL__FRAME_BLOCK
    "layout(std140) uniform Material {\n"
    "    vec4 u_baseColor;\n"
    "    vec4 u_emissive;\n"  /* rgb, w occlusion strength */
    "    vec4 u_pbr;\n"       /* x metallic, y roughness, z alpha cutoff, w normal scale */
    "#ifdef UV_TRANSFORM\n"
    "    vec4 u_uv[10];\n"    /* per map slot, its UV transform's rows (x, y, offset) */
    "#endif\n"
    "};\n"
    "#ifdef BASE_COLOR_MAP\n"
    "uniform sampler2D u_baseColorMap;\n"
    "#endif\n"
    "#ifdef MR_MAP\n"
    "uniform sampler2D u_metallicRoughnessMap;\n"
    "#endif\n"
    "#ifdef NORMAL_MAP\n"
    "uniform sampler2D u_normalMap;\n"
    "#endif\n"
    "#ifdef OCCLUSION_MAP\n"
    "uniform sampler2D u_occlusionMap;\n"
    "#endif\n"
    "#ifdef EMISSIVE_MAP\n"
    "uniform sampler2D u_emissiveMap;\n"
    "#endif\n"
    "#ifdef HL_SHADOWS\n"
    "uniform sampler2DShadow u_shadowAtlas;\n"
    "#endif\n"
    "in vec3 v_worldPos;\n"
    "#ifdef HAS_NORMAL\n"
    "in vec3 v_normal;\n"
    "#endif\n"
    "#ifdef HAS_TANGENT\n"
    "in vec4 v_tangent;\n"
    "#endif\n"
    "#ifdef HAS_UV0\n"
    "in vec2 v_uv0;\n"
    "#endif\n"
    "#ifdef HAS_UV1\n"
    "in vec2 v_uv1;\n"
    "#endif\n"
    "#ifdef HAS_COLOR\n"
    "in vec4 v_color;\n"
    "#endif\n"
    "#ifdef GBUFFER\n"
    "layout(location = 0) out vec4 o_base;\n"
    "layout(location = 1) out vec4 o_gnormal;\n"
    "layout(location = 2) out vec4 o_material;\n"
    "layout(location = 3) out vec4 o_position;\n"
    "#else\n"
    "layout(location = 0) out vec4 o_color;\n"
    "#if MRT_COUNT > 1\n"
    "layout(location = 1) out vec4 o_normal;\n"
    "#endif\n"
    "#if MRT_COUNT > 2\n"
    "layout(location = 2) out vec4 o_albedo;\n"
    "#endif\n"
    "#if MRT_COUNT > 3\n"
    "layout(location = 3) out vec4 o_depth;\n"
    "#endif\n"
    "#endif\n"
    "\n"
    "vec2 uvSet(int set) {\n"
    "#if defined(HAS_UV1)\n"
    "    if (set == 1) return v_uv1;\n"
    "#endif\n"
    "#if defined(HAS_UV0)\n"
    "    return v_uv0;\n"
    "#else\n"
    "    return vec2(0.0);\n"
    "#endif\n"
    "}\n"
    /* the coordinates of map `slot` (hl_texture_slot order) from UV set `set` */
    "vec2 uvFor(int slot, int set) {\n"
    "    vec2 uv = uvSet(set);\n"
    "#ifdef UV_TRANSFORM\n"
    "    vec3 h = vec3(uv, 1.0);\n"
    "    uv = vec2(dot(u_uv[slot * 2].xyz, h), dot(u_uv[slot * 2 + 1].xyz, h));\n"
    "#endif\n"
    "    return uv;\n"
    "}\n"
    HL__GLSL_LIGHTING
    "\n"
    "void main() {\n"
    "    vec4 base = u_baseColor;\n"
    "#ifdef HAS_COLOR\n"
    "    base *= v_color;\n"
    "#endif\n"
    "#ifdef BASE_COLOR_MAP\n"
    "#ifdef BASE_COLOR_MAP_UV1\n"
    "    base *= texture(u_baseColorMap, uvFor(0, 1));\n"
    "#else\n"
    "    base *= texture(u_baseColorMap, uvFor(0, 0));\n"
    "#endif\n"
    "#endif\n"
    /* The alpha test discards at the end of main: implicit derivatives (every texture() below) are
       undefined after a discard in part of a quad, and drivers differ there (a discarded GLSL
       invocation ends; a WGSL one becomes a helper): the wrong mip level or filter next to every
       masked edge. */
    "#ifdef ALPHA_MASK\n"
    "    bool alphaMasked = base.a < u_pbr.z;\n"
    "#endif\n"
    "    vec3 color = base.rgb;\n"
    "    vec3 n = vec3(0.0);\n"
    "    float metallic = 0.0, roughness = 1.0, ao = 1.0;\n"
    "#if !defined(UNLIT) && defined(HAS_NORMAL)\n"
    "    n = normalize(v_normal);\n"
    "    if (!gl_FrontFacing) n = -n;\n"
    "#if defined(NORMAL_MAP) && defined(HAS_TANGENT)\n"
    "    vec3 t = normalize(v_tangent.xyz - n * dot(n, v_tangent.xyz));\n"
    "    vec3 b = cross(n, t) * v_tangent.w;\n"
    "#ifdef NORMAL_MAP_UV1\n"
    "    vec3 tn = texture(u_normalMap, uvFor(2, 1)).xyz * 2.0 - 1.0;\n"
    "#else\n"
    "    vec3 tn = texture(u_normalMap, uvFor(2, 0)).xyz * 2.0 - 1.0;\n"
    "#endif\n"
    "    tn.xy *= u_pbr.w;\n"
    "    n = normalize(mat3(t, b, n) * tn);\n"
    "#endif\n"
    "    metallic = u_pbr.x;\n"
    "    roughness = u_pbr.y;\n"
    "#ifdef MR_MAP\n"
    "#ifdef MR_MAP_UV1\n"
    "    vec4 mr = texture(u_metallicRoughnessMap, uvFor(1, 1));\n"
    "#else\n"
    "    vec4 mr = texture(u_metallicRoughnessMap, uvFor(1, 0));\n"
    "#endif\n"
    "    roughness *= mr.g;\n"
    "    metallic *= mr.b;\n"
    "#endif\n"
    "#ifdef OCCLUSION_MAP\n"
    "#ifdef OCCLUSION_MAP_UV1\n"
    "    ao = 1.0 + u_emissive.w * (texture(u_occlusionMap, uvFor(3, 1)).r - 1.0);\n"
    "#else\n"
    "    ao = 1.0 + u_emissive.w * (texture(u_occlusionMap, uvFor(3, 0)).r - 1.0);\n"
    "#endif\n"
    "#endif\n"
    "#ifndef GBUFFER\n"
    "    color = hl_shade(base.rgb, n, v_worldPos, metallic, roughness, ao, true);\n"
    "#endif\n"
    "#endif\n"
    "#ifdef EMISSIVE_MAP\n"
    "#ifdef EMISSIVE_MAP_UV1\n"
    "    vec3 emission = texture(u_emissiveMap, uvFor(4, 1)).rgb * u_emissive.rgb;\n"
    "#else\n"
    "    vec3 emission = texture(u_emissiveMap, uvFor(4, 0)).rgb * u_emissive.rgb;\n"
    "#endif\n"
    "#else\n"
    "    vec3 emission = u_emissive.rgb;\n"
    "#endif\n"
    "#ifdef GBUFFER\n"
    "    o_base = vec4(base.rgb, 2.0 + ao);\n"
    "    o_gnormal = vec4(n, metallic);\n"
    "    o_material = vec4(emission, roughness);\n"
    "#ifdef RECEIVE_SHADOWS\n"
    "    o_position = vec4(v_worldPos, 1.0);\n"
    "#else\n"
    "    o_position = vec4(v_worldPos, 0.0);\n"
    "#endif\n"
    "#else\n"
    "    color += emission;\n"
    "#if !defined(UNLIT) && defined(HAS_NORMAL)\n"
    "    color *= u_exposure.x;\n"
    "#endif\n"
    "#ifdef FOG\n"
    "    color = hl_fog(color, v_worldPos);\n"
    "#endif\n"
    "    o_color = vec4(color, base.a);\n"
    "#if MRT_COUNT > 1\n"
    "#if defined(HAS_NORMAL) && !defined(UNLIT)\n"
    "    o_normal = vec4(n * 0.5 + 0.5, 1.0);\n"
    "#else\n"
    "    o_normal = vec4(0.5, 0.5, 1.0, 1.0);\n"
    "#endif\n"
    "#endif\n"
    "#if MRT_COUNT > 2\n"
    "    o_albedo = base;\n"
    "#endif\n"
    "#if MRT_COUNT > 3\n"
    "    o_depth = vec4(u_cameraPos.w > 0.0 ? length(u_cameraPos.xyz - v_worldPos) / u_cameraPos.w : 0.0, 0.0, 0.0, 1.0);\n"
    "#endif\n"
    "#endif\n"
    "#ifdef ALPHA_MASK\n"
    "    if (alphaMasked) discard;\n"
    "#endif\n"
    "}\n";

/* Prepended (after #version) to the fragment shader of a lit fullscreen pass. */
const char *const hl__render_lighting_glsl =
    "precision highp float;\n"
    "precision highp sampler2DShadow;\n"
    "#define HL_SHADOWS 1\n"
    HL__FRAME_BLOCK
    "uniform sampler2DShadow u_shadowAtlas;\n"
    HL__GLSL_LIGHTING;

/* Depth-only pass into a shadow atlas tile: Frame.u_viewProj is the tile's light matrix. */
const char *const hl__render_shadow_vs =
    "#version 300 es\n"
    "precision highp float;\n"
    "layout(std140) uniform Shadow { mat4 u_lightViewProj; };\n"
    HL__GLSL_OBJECT_BLOCK
    "in vec3 a_position;\n"
    HL__GLSL_INSTANCE_INPUTS
    HL__GLSL_MAIN_MODEL
    "#else\n"
    HL__GLSL_SKIN_MODEL
    "    mat4 model = u_model;\n"
    "#endif\n"
    "#endif\n"
    "    gl_Position = u_lightViewProj * model * vec4(a_position, 1.0);\n"
    "}\n";
