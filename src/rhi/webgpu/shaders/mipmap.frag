#version 450
// Mip generation for the webgpu backend: each target texel samples the source level (the
// view's only level, twice the size) between its four source texels with a linear sampler,
// which averages them (box filter). The coordinate comes from gl_FragCoord so it does not
// depend on the clip-space y direction.
layout(set = 0, binding = 0) uniform texture2D u_src;
layout(set = 0, binding = 1) uniform sampler u_linear;
layout(location = 0) out vec4 o_color;

void main() {
    ivec2 dst_size = max(textureSize(sampler2D(u_src, u_linear), 0) >> 1, ivec2(1));
    vec2 uv = gl_FragCoord.xy / vec2(dst_size);
    o_color = textureLod(sampler2D(u_src, u_linear), uv, 0.0);
}
