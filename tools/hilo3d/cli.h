/* What the subcommands of the hilo3d tool share: one option parser (getopt_long) driven by a
 * table per subcommand, and checked output (files written atomically, standard output checked
 * at exit).
 *
 * Exit codes of every subcommand: 0 success, 1 failure (library error, write error), 2 usage
 * error (unknown option or subcommand, missing or bad value). */
#ifndef HL_CLI_H
#define HL_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "hilo3d/gltf.h"
#include "hilo3d/pipeline.h"
#include "hl_demo_model.h"

#define HL_CLI_EXIT_OK 0
#define HL_CLI_EXIT_FAIL 1
#define HL_CLI_EXIT_USAGE 2

/* ---- subcommands ---------------------------------------------------------------------- */

/* argv[0] is the subcommand's name, argv[1..] its options. Returns the exit code. */
int hl_cli_info(int argc, char **argv);
int hl_cli_render(int argc, char **argv);
int hl_cli_rhi_demo(int argc, char **argv);
int hl_cli_graph_dump(int argc, char **argv);
/* `render MODEL` / `info MODEL` (cmd_model.c): argv[0] is the model's path, argv[1..] the options.
 * A model is an argument ending in .gltf or .glb (any case); any other word stays a usage error. */
bool hl_cli_is_model(const char *arg);
int hl_cli_render_model(const char *path, int argc, char **argv);
int hl_cli_info_model(const char *path, int argc, char **argv);
/* `view [MODEL]` (cmd_view.c): the demo scene or a glTF model in a window. */
int hl_cli_view(int argc, char **argv);

/* A glTF model's scene as `render MODEL` and `view MODEL` show it (cmd_model.c): the asset
 * loaded, a stage holding its root (dark clear colour, the environment of env_arg/exposure_arg
 * as hl_cli_apply_environment, default lights when the file has none), and the camera: the
 * file's camera camera_arg ("auto" = the first, or own_camera framing the bounds when it has
 * none) at aspect. Returns an exit code after a message (2 for a bad --camera). */
typedef struct hl_cli_model_scene {
    hl_gltf_asset *asset;
    hl_stage *stage;
    hl_camera *camera;
    hl_camera *own_camera; /* the framing camera made for the model (NULL: the file's) */
    hl_aabb bounds;        /* of the scene (a unit box when empty) */
} hl_cli_model_scene;
int hl_cli_model_scene_create(const char *path, const char *camera_arg, const char *env_arg, const char *exposure_arg,
                              float aspect, hl_cli_model_scene *out);
void hl_cli_model_scene_destroy(hl_cli_model_scene *m);
/* The animation of --animation INDEX|NAME, or NULL after a message. */
hl_animation *hl_cli_model_animation(hl_gltf_asset *a, const char *arg, const char *path);

/* ---- options -------------------------------------------------------------------------- */

typedef enum hl_cli_kind {
    HL_CLI_FLAG,   /* no value; value is a bool*, set to true */
    HL_CLI_U32,    /* decimal integer in [lo, hi] (and in one_of when given); value is a uint32_t* */
    HL_CLI_STRING, /* any text; value is a const char** pointing into argv */
    HL_CLI_CHOICE, /* one of choices; value is a const char** pointing into argv */
} hl_cli_kind;

/* One option of a subcommand. The value the pointer holds before parsing is the default the
 * help shows (default_text, when set, replaces it: "standard output" for a NULL path). */
typedef struct hl_cli_option {
    const char *name;    /* long name without the dashes: "width" */
    hl_cli_kind kind;
    const char *metavar; /* placeholder of the value in the help: "W", "FILE.png" */
    const char *help;    /* one line */
    void *value;
    uint32_t lo, hi;             /* HL_CLI_U32: inclusive range */
    const uint32_t *one_of;      /* HL_CLI_U32: allowed values, 0-terminated; NULL = the whole range */
    const char *const *choices;  /* HL_CLI_CHOICE: allowed words, NULL-terminated */
    const char *default_text;    /* NULL = the value's text */
} hl_cli_option;

/* What a subcommand is, for its help and for `hilo3d --help`. */
typedef struct hl_cli_command {
    const char *name;  /* "render" */
    const char *about; /* what it does, one or more lines ending in '\n' */
} hl_cli_command;

/* Parses argv (argv[0] = the subcommand) into the option table (count entries) with
 * getopt_long: `--opt value` and `--opt=value`; -h/--help prints the help on stdout.
 * Returns -1 to go on, HL_CLI_EXIT_OK after --help, HL_CLI_EXIT_USAGE after a usage error
 * (message naming the option and a hint on stderr). Also makes cmd the name used in the
 * messages of hl_cli_error and the output functions below. */
int hl_cli_parse(const hl_cli_command *cmd, const hl_cli_option *opts, size_t count, int argc, char **argv);

/* Prints "hilo3d <cmd>: <message>\n" on stderr. */
void hl_cli_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* Strict decimal parse: digits only, no sign or spaces, within [lo, hi]. */
bool hl_cli_parse_u32(const char *s, uint32_t lo, uint32_t hi, uint32_t *out);

/* --env and --exposure of the render commands: env "default" keeps the stage's environment or,
 * when it has none, gives it the default studio (intensity default_intensity); "none" removes
 * it; anything else is a Radiance .hdr file. exposure: a number > 0. Returns HL_CLI_EXIT_OK, or
 * the exit code after a message (HL_CLI_EXIT_USAGE for a bad value, HL_CLI_EXIT_FAIL when the
 * file cannot be loaded). */
int hl_cli_apply_environment(hl_stage *stage, const char *env, const char *exposure, float default_intensity);

/* ---- output --------------------------------------------------------------------------- */

/* printf to stdout; a failed write is remembered (with its errno) and reported by
 * hl_cli_close_stdout. Returns what vfprintf returns. */
int hl_cli_printf(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* Writes data to path, or to stdout when path is NULL. A file's parent folders are created;
 * a regular file (or a new one) is written to a temporary file in the same folder, synced
 * and renamed over path, so a failed write leaves any previous file at path untouched;
 * devices, pipes and the like are written in place. Returns 0, or 1 after printing
 * "cannot write <path>: <strerror>" (stdout failures are reported by hl_cli_close_stdout). */
int hl_cli_write_output(const char *path, const void *data, size_t size);

/* Encodes rgba (w * h * 4 bytes, row 0 = top) as PNG and writes it with hl_cli_write_output. */
int hl_cli_write_png(const char *path, uint32_t w, uint32_t h, const uint8_t *rgba);

/* At exit: flushes and closes stdout. Returns 0, or 1 after printing
 * "cannot write standard output: <strerror>" when any write to it failed. */
int hl_cli_close_stdout(void);

/* The pipelines of `--pipeline` (src/demo/hl_demo_model.h: hl_demo_pipeline_factory). */
#define HL_CLI_PIPELINES HL_DEMO_PIPELINES

#endif
