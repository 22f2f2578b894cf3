/* The threading contract on a real backend (see "Threads" in hl_rhi.h):
 *  1. hand-over: a device created and used on the main thread is detached, attached by a
 *     second thread that compiles a new program, renders and checks pixels, detaches; the
 *     main thread attaches it again and renders (gles3 used to fail here with an empty
 *     shader log: its EGL context was current on the creating thread only);
 *  2. misuse: a thread that does not own the device gets HL_ERR_INVALID_STATE naming both
 *     threads, from the same calls on both backends, and the owner is not disturbed;
 *  3. several devices on several threads at once, each rendering and checking its pixels.
 * Worker threads record what they saw; the main thread checks it (the check counters of
 * hl_test.h are not thread-safe). */
#define _GNU_SOURCE /* pthread_setname_np */
#include <pthread.h>
#include <stdarg.h>

#include "hl_test.h"

static const char *k_vs = "#version 300 es\n"
                          "void main() {\n"
                          "    vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);\n"
                          "    gl_Position = vec4(p, 0.0, 1.0);\n"
                          "}\n";
static const char *k_fs = "#version 300 es\n"
                          "precision highp float;\n"
                          "layout(std140) uniform Tint { vec4 u_tint; };\n"
                          "out vec4 o_color;\n"
                          "void main() { o_color = u_tint; }\n";
/* a second program, compiled on the thread that received the device */
static const char *k_fs_inverted = "#version 300 es\n"
                                   "precision highp float;\n"
                                   "layout(std140) uniform Tint { vec4 u_tint; };\n"
                                   "out vec4 o_color;\n"
                                   "void main() { o_color = vec4(1.0 - u_tint.rgb, 1.0); }\n";

enum { W = 16, H = 16, WORKERS = 3, WORKER_FRAMES = 24 };

static hl_rhi_backend g_backend;

/* What a thread saw: the first failure (empty: none) and how many frames it checked. */
typedef struct outcome {
    char first[600];
    int frames_ok;
} outcome;

static void fail(outcome *o, const char *fmt, ...) {
    if (o->first[0]) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(o->first, sizeof o->first, fmt, ap);
    va_end(ap);
}

#define TRY(o, expr)                                                                                    \
    do {                                                                                                \
        hl_result r_ = (expr);                                                                          \
        if (r_) {                                                                                       \
            fail((o), "%s:%d: %s -> %s: %s", __FILE__, __LINE__, #expr, hl_result_name(r_), hl_last_error()); \
            return r_;                                                                                  \
        }                                                                                               \
    } while (0)

/* One device's drawing kit: a target, a tint pipeline and its uniform buffer. */
typedef struct kit {
    hl_rhi_device *dev;
    hl_test_target target;
    hl_test_pipeline pipe;
    hl_rhi_buffer ubo;
    hl_rhi_bind_group group;
} kit;

static hl_result kit_pipeline(kit *k, const char *fs, hl_test_pipeline *out, hl_rhi_bind_group *group, outcome *o) {
    hl_test_pipeline_desc pd = {0};
    pd.vs = k_vs;
    pd.fs = fs;
    TRY(o, hl_test_pipeline_create(k->dev, &pd, out));
    hl_rhi_bind_group_entry e = {0};
    e.buffer = k->ubo;
    hl_rhi_bind_group_desc bd = {out->bgl[0], &e, 1, "tint"};
    TRY(o, hl_rhi_bind_group_create(k->dev, &bd, group));
    return HL_OK;
}

static hl_result kit_create(kit *k, outcome *o) {
    const float zero[4] = {0, 0, 0, 0};
    TRY(o, hl_test_target_create(k->dev, W, H, HL_RHI_FORMAT_RGBA8_UNORM, 1, &k->target));
    TRY(o, hl_test_buffer(k->dev, HL_RHI_BUFFER_USAGE_UNIFORM, zero, sizeof zero, &k->ubo));
    return kit_pipeline(k, k_fs, &k->pipe, &k->group, o);
}

static void kit_destroy(kit *k) {
    hl_rhi_bind_group_destroy(k->dev, k->group);
    hl_test_pipeline_destroy(k->dev, &k->pipe);
    hl_rhi_buffer_destroy(k->dev, k->ubo);
    hl_test_target_destroy(k->dev, &k->target);
}

/* Renders the tint (through pipe / group) and checks every pixel against want (+-1). */
static hl_result render_check(kit *k, const hl_test_pipeline *pipe, hl_rhi_bind_group group, const float tint[4],
                              const int want[3], outcome *o) {
    static _Thread_local uint8_t img[W * H * 4];
    const float clear[4] = {0, 0, 0, 1};
    TRY(o, hl_rhi_buffer_write(k->dev, k->ubo, 0, tint, 16));
    hl_rhi_cmd *cmd = NULL;
    TRY(o, hl_test_begin(k->dev, &k->target, clear, (hl_rhi_texture_view){0}, &cmd));
    TRY(o, hl_rhi_cmd_set_pipeline(cmd, pipe->pipe));
    TRY(o, hl_rhi_cmd_set_bind_group(cmd, 0, group, NULL, 0));
    TRY(o, hl_rhi_cmd_draw(cmd, 3, 1, 0, 0));
    TRY(o, hl_test_end(k->dev, cmd));
    TRY(o, hl_test_read_rgba8(k->dev, k->target.tex, img));
    for (int i = 0; i < W * H; i++) {
        const uint8_t *p = img + i * 4;
        for (int c = 0; c < 3; c++) {
            int d = (int)p[c] - want[c];
            if (d < -1 || d > 1) {
                fail(o, "pixel %d = (%d,%d,%d), expected (%d,%d,%d)", i, p[0], p[1], p[2], want[0], want[1], want[2]);
                return HL_ERR_VALIDATION;
            }
        }
    }
    o->frames_ok++;
    return HL_OK;
}

static void tint_of(uint32_t i, float tint[4], int want[3]) {
    /* distinct colours exact in unorm8: multiples of 1/255 */
    int r = (int)((i * 53u + 11u) % 256u), g = (int)((i * 97u + 29u) % 256u), b = (int)((i * 31u + 200u) % 256u);
    tint[0] = (float)r / 255.0f;
    tint[1] = (float)g / 255.0f;
    tint[2] = (float)b / 255.0f;
    tint[3] = 1.0f;
    want[0] = r;
    want[1] = g;
    want[2] = b;
}

/* ---- 1. hand-over -------------------------------------------------------------------------- */
typedef struct handoff_job {
    kit *k;
    outcome o;
    hl_result attach, detach;
} handoff_job;

static hl_result handoff_body(handoff_job *j) {
    kit *k = j->k;
    float tint[4];
    int want[3];
    for (uint32_t f = 0; f < 4; f++) {
        tint_of(100u + f, tint, want);
        TRY(&j->o, render_check(k, &k->pipe, k->group, tint, want, &j->o));
    }
    /* new native objects on this thread: a program (gles3: compiled and linked in the context
     * that is current here), a buffer, a texture */
    hl_test_pipeline inv;
    hl_rhi_bind_group inv_group = {0};
    memset(&inv, 0, sizeof inv);
    hl_result r = kit_pipeline(k, k_fs_inverted, &inv, &inv_group, &j->o);
    if (!r) {
        tint_of(7u, tint, want);
        int inv_want[3] = {255 - want[0], 255 - want[1], 255 - want[2]};
        r = render_check(k, &inv, inv_group, tint, inv_want, &j->o);
    }
    hl_rhi_bind_group_destroy(k->dev, inv_group);
    hl_test_pipeline_destroy(k->dev, &inv);
    return r;
}

static void *handoff_thread(void *arg) {
    handoff_job *j = arg;
    pthread_setname_np(pthread_self(), "hl-receiver");
    j->attach = hl_rhi_device_attach(j->k->dev);
    if (j->attach) {
        fail(&j->o, "attach: %s: %s", hl_result_name(j->attach), hl_last_error());
        return NULL;
    }
    handoff_body(j);
    j->detach = hl_rhi_device_detach(j->k->dev);
    if (j->detach) fail(&j->o, "detach: %s: %s", hl_result_name(j->detach), hl_last_error());
    return NULL;
}

static void test_handoff(void) {
    outcome o = {0};
    kit k;
    memset(&k, 0, sizeof k);
    hl_rhi_device_desc d = {0};
    d.backend = g_backend;
    HL_CHECK_OK(hl_rhi_device_create(&d, &k.dev));
    if (!k.dev) return;
    float tint[4];
    int want[3];
    tint_of(1u, tint, want);
    if (!kit_create(&k, &o)) render_check(&k, &k.pipe, k.group, tint, want, &o);
    HL_CHECK_MSG(!o.first[0], "main thread before the hand-over: %s", o.first);

    HL_CHECK_OK(hl_rhi_device_detach(k.dev));
    handoff_job j;
    memset(&j, 0, sizeof j);
    j.k = &k;
    pthread_t t;
    HL_CHECK(pthread_create(&t, NULL, handoff_thread, &j) == 0);
    pthread_join(t, NULL);
    HL_CHECK_EQ(j.attach, HL_OK);
    HL_CHECK_EQ(j.detach, HL_OK);
    HL_CHECK_MSG(!j.o.first[0], "receiving thread: %s", j.o.first);
    HL_CHECK_EQ(j.o.frames_ok, 5);

    /* and back to the main thread */
    HL_CHECK_OK(hl_rhi_device_attach(k.dev));
    memset(&o, 0, sizeof o);
    tint_of(2u, tint, want);
    render_check(&k, &k.pipe, k.group, tint, want, &o);
    HL_CHECK_MSG(!o.first[0], "main thread after the hand-over: %s", o.first);
    kit_destroy(&k);
    hl_rhi_device_destroy(k.dev);
}

/* ---- 2. misuse: another thread, no hand-over ------------------------------------------------ */
typedef struct misuse_job {
    kit *k;
    hl_result begin, program, read, write, wait, attach;
    char begin_message[600];
} misuse_job;

static void *misuse_thread(void *arg) {
    misuse_job *j = arg;
    pthread_setname_np(pthread_self(), "hl-intruder");
    hl_rhi_cmd *cmd = NULL;
    j->begin = hl_rhi_begin_frame(j->k->dev, &cmd);
    snprintf(j->begin_message, sizeof j->begin_message, "%s", hl_last_error());
    hl_test_program p;
    j->program = hl_test_program_create(j->k->dev, k_vs, k_fs_inverted, NULL, 0, &p);
    if (!j->program) hl_test_program_destroy(j->k->dev, &p);
    uint8_t px[W * H * 4];
    j->read = hl_test_read_rgba8(j->k->dev, j->k->target.tex, px);
    const float tint[4] = {1, 1, 1, 1};
    j->write = hl_rhi_buffer_write(j->k->dev, j->k->ubo, 0, tint, 16);
    j->wait = hl_rhi_device_wait_idle(j->k->dev);
    j->attach = hl_rhi_device_attach(j->k->dev);
    hl_rhi_buffer_destroy(j->k->dev, j->k->ubo); /* refused: the buffer stays */
    return NULL;
}

static void test_misuse(void) {
    pthread_setname_np(pthread_self(), "hl-owner");
    outcome o = {0};
    kit k;
    memset(&k, 0, sizeof k);
    hl_rhi_device_desc d = {0};
    d.backend = g_backend;
    HL_CHECK_OK(hl_rhi_device_create(&d, &k.dev));
    if (!k.dev) return;
    float tint[4];
    int want[3];
    tint_of(3u, tint, want);
    if (!kit_create(&k, &o)) render_check(&k, &k.pipe, k.group, tint, want, &o);
    HL_CHECK_MSG(!o.first[0], "owner: %s", o.first);

    misuse_job j;
    memset(&j, 0, sizeof j);
    j.k = &k;
    pthread_t t;
    HL_CHECK(pthread_create(&t, NULL, misuse_thread, &j) == 0);
    pthread_join(t, NULL);
    HL_CHECK_EQ(j.begin, HL_ERR_INVALID_STATE);
    HL_CHECK_EQ(j.program, HL_ERR_INVALID_STATE);
    HL_CHECK_EQ(j.read, HL_ERR_INVALID_STATE);
    HL_CHECK_EQ(j.write, HL_ERR_INVALID_STATE);
    HL_CHECK_EQ(j.wait, HL_ERR_INVALID_STATE);
    HL_CHECK_EQ(j.attach, HL_ERR_INVALID_STATE);
    HL_CHECK_MSG(strstr(j.begin_message, "hl_rhi_begin_frame: the device belongs to thread ") &&
                     strstr(j.begin_message, "(\"hl-owner\")") && strstr(j.begin_message, "(\"hl-intruder\")"),
                 "message: %s", j.begin_message);

    /* the owner was not disturbed: same context, same objects */
    memset(&o, 0, sizeof o);
    tint_of(4u, tint, want);
    render_check(&k, &k.pipe, k.group, tint, want, &o);
    HL_CHECK_MSG(!o.first[0], "owner after the misuse: %s", o.first);
    kit_destroy(&k);
    hl_rhi_device_destroy(k.dev);
}

/* ---- 3. one device per thread, all at once --------------------------------------------------- */
typedef struct worker_job {
    uint32_t index;
    outcome o;
} worker_job;

static hl_result worker_body(worker_job *j, kit *k) {
    hl_rhi_device_desc d = {0};
    d.backend = g_backend;
    TRY(&j->o, hl_rhi_device_create(&d, &k->dev));
    TRY(&j->o, kit_create(k, &j->o));
    for (uint32_t f = 0; f < WORKER_FRAMES; f++) {
        float tint[4];
        int want[3];
        tint_of(j->index * 1000u + f, tint, want);
        if (f % 8 == 7) {
            /* a fresh program now and then: compiles run on several threads at once */
            hl_rhi_bind_group_destroy(k->dev, k->group);
            hl_test_pipeline_destroy(k->dev, &k->pipe);
            k->group.id = 0;
            TRY(&j->o, kit_pipeline(k, k_fs, &k->pipe, &k->group, &j->o));
        }
        TRY(&j->o, render_check(k, &k->pipe, k->group, tint, want, &j->o));
    }
    return HL_OK;
}

static void *worker_thread(void *arg) {
    worker_job *j = arg;
    kit k;
    memset(&k, 0, sizeof k);
    worker_body(j, &k);
    if (k.dev) {
        kit_destroy(&k);
        hl_rhi_device_destroy(k.dev);
    }
    return NULL;
}

static void test_device_per_thread(void) {
    worker_job jobs[WORKERS];
    pthread_t t[WORKERS];
    memset(jobs, 0, sizeof jobs);
    for (uint32_t i = 0; i < WORKERS; i++) {
        jobs[i].index = i + 1u;
        HL_CHECK(pthread_create(&t[i], NULL, worker_thread, &jobs[i]) == 0);
    }
    for (uint32_t i = 0; i < WORKERS; i++) pthread_join(t[i], NULL);
    for (uint32_t i = 0; i < WORKERS; i++) {
        HL_CHECK_MSG(!jobs[i].o.first[0], "worker %u: %s", i, jobs[i].o.first);
        HL_CHECK_EQ(jobs[i].o.frames_ok, WORKER_FRAMES);
    }
}

int main(int argc, char **argv) {
    g_backend = hl_test_backend_arg(argc, argv, HL_RHI_BACKEND_GLES3);
    printf("backend %s\n", hl_rhi_backend_name(g_backend));
    test_handoff();
    test_misuse();
    test_device_per_thread();
    return hl_test_finish();
}
