/* The option parser every subcommand uses: a table of options fed to getopt_long, strict
 * number parsing, generated help with the defaults, and usage errors that name the option. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Options per subcommand; the table is small and fixed, so one array on the stack. */
#define HL_CLI_MAX_OPTIONS 16
/* getopt_long `val` of table entry i (above every char, so no clash with -h). */
#define HL_CLI_OPT_BASE 0x100

static const char *g_cmd_name = NULL;

void hl_cli_error(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    if (g_cmd_name) fprintf(stderr, "hilo3d %s: ", g_cmd_name);
    else fputs("hilo3d: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

bool hl_cli_parse_u32(const char *s, uint32_t lo, uint32_t hi, uint32_t *out) {
    /* strtoul alone would accept " 7", "+7", "-1" (as ULONG_MAX) and "7x" up to the 'x'. */
    if (!s || s[0] < '0' || s[0] > '9') return false;
    errno = 0;
    char *end = NULL;
    unsigned long v = strtoul(s, &end, 10);
    if (errno == ERANGE || *end != '\0' || v < lo || v > hi) return false;
    *out = (uint32_t)v;
    return true;
}

int hl_cli_apply_environment(hl_stage *stage, const char *env, const char *exposure, float default_intensity) {
    char *end = NULL;
    float e = strtof(exposure, &end);
    if (!*exposure || *end || !isfinite(e) || e <= 0.0f) {
        hl_cli_error("--exposure '%s': a number > 0", exposure);
        return HL_CLI_EXIT_USAGE;
    }
    hl_stage_set_exposure(stage, e);
    if (!strcmp(env, "none")) {
        hl_stage_set_environment(stage, NULL);
        return HL_CLI_EXIT_OK;
    }
    if (!strcmp(env, "default") && hl_stage_environment(stage)) return HL_CLI_EXIT_OK;
    hl_environment *en = NULL;
    hl_result res = !strcmp(env, "default") ? hl_environment_create_default(&en) : hl_environment_load_hdr(env, &en);
    if (res) {
        hl_cli_error("--env %s: %s: %s", env, hl_result_name(res), hl_last_error());
        return HL_CLI_EXIT_FAIL;
    }
    if (!strcmp(env, "default")) hl_environment_set_intensity(en, default_intensity);
    hl_stage_set_environment(stage, en);
    hl_environment_release(en);
    return HL_CLI_EXIT_OK;
}

static void format_value(const hl_cli_option *o, char *buf, size_t size) {
    if (o->default_text) {
        snprintf(buf, size, "%s", o->default_text);
        return;
    }
    switch (o->kind) {
    case HL_CLI_FLAG: snprintf(buf, size, "%s", *(const bool *)o->value ? "on" : "off"); break;
    case HL_CLI_U32: snprintf(buf, size, "%u", (unsigned)*(const uint32_t *)o->value); break;
    case HL_CLI_STRING:
    case HL_CLI_CHOICE: {
        const char *s = *(const char *const *)o->value;
        snprintf(buf, size, "%s", s ? s : "none");
        break;
    }
    }
}

/* "auto|webgpu|gles3" */
static void format_choices(const hl_cli_option *o, char *buf, size_t size) {
    size_t n = 0;
    buf[0] = '\0';
    for (const char *const *c = o->choices; *c && n < size; c++)
        n += (size_t)snprintf(buf + n, size - n, "%s%s", c == o->choices ? "" : "|", *c);
}

/* "--width W" / "--backend auto|webgpu|gles3" */
static void format_synopsis(const hl_cli_option *o, char *buf, size_t size) {
    char meta[64];
    if (o->kind == HL_CLI_CHOICE && !o->metavar) format_choices(o, meta, sizeof meta);
    else snprintf(meta, sizeof meta, "%s", o->metavar ? o->metavar : "VALUE");
    if (o->kind == HL_CLI_FLAG) snprintf(buf, size, "--%s", o->name);
    else snprintf(buf, size, "--%s %s", o->name, meta);
}

static void print_help(FILE *f, const hl_cli_command *cmd, const hl_cli_option *opts, size_t count,
                       char defaults[][64]) {
    fprintf(f, "usage: hilo3d %s [OPTIONS]\n\n%s\noptions (--opt VALUE or --opt=VALUE):\n", cmd->name, cmd->about);
    for (size_t i = 0; i < count; i++) {
        const hl_cli_option *o = &opts[i];
        char syn[96];
        format_synopsis(o, syn, sizeof syn);
        char range[64] = "";
        if (o->kind == HL_CLI_U32 && o->one_of) {
            size_t n = (size_t)snprintf(range, sizeof range, ", one of");
            for (const uint32_t *v = o->one_of; *v && n < sizeof range; v++)
                n += (size_t)snprintf(range + n, sizeof range - n, "%s%u", v == o->one_of ? " " : ", ", (unsigned)*v);
        } else if (o->kind == HL_CLI_U32) {
            snprintf(range, sizeof range, ", %u..%u", (unsigned)o->lo, (unsigned)o->hi);
        }
        fprintf(f, "  %-28s %s%s (default: %s)\n", syn, o->help, range, defaults[i]);
    }
    fprintf(f, "  %-28s %s\n", "-h, --help", "show this help and exit");
}

static const hl_cli_option *option_of(int val, const hl_cli_option *opts, size_t count) {
    if (val < HL_CLI_OPT_BASE || (size_t)(val - HL_CLI_OPT_BASE) >= count) return NULL;
    return &opts[val - HL_CLI_OPT_BASE];
}

static int usage_error(const hl_cli_command *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static int usage_error(const hl_cli_command *cmd, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "hilo3d %s: ", cmd->name);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry 'hilo3d %s --help' for its options.\n", cmd->name);
    return HL_CLI_EXIT_USAGE;
}

/* Stores one parsed value; returns -1, or the usage error's exit code. */
static int store(const hl_cli_command *cmd, const hl_cli_option *o, const char *arg) {
    switch (o->kind) {
    case HL_CLI_FLAG: *(bool *)o->value = true; return -1;
    case HL_CLI_STRING:
        if (!arg[0]) return usage_error(cmd, "--%s needs a non-empty value", o->name);
        *(const char **)o->value = arg;
        return -1;
    case HL_CLI_CHOICE:
        for (const char *const *c = o->choices; *c; c++)
            if (strcmp(*c, arg) == 0) {
                *(const char **)o->value = arg;
                return -1;
            }
        {
            char list[64];
            format_choices(o, list, sizeof list);
            return usage_error(cmd, "--%s '%s' is not one of %s", o->name, arg, list);
        }
    case HL_CLI_U32: {
        uint32_t v = 0;
        if (!hl_cli_parse_u32(arg, o->lo, o->hi, &v))
            return usage_error(cmd, "--%s '%s' must be an integer in [%u, %u]", o->name, arg, (unsigned)o->lo,
                               (unsigned)o->hi);
        if (o->one_of) {
            const uint32_t *a = o->one_of;
            while (*a && *a != v) a++;
            if (!*a) {
                char list[64] = "";
                size_t n = 0;
                for (const uint32_t *w = o->one_of; *w && n < sizeof list; w++)
                    n += (size_t)snprintf(list + n, sizeof list - n, "%s%u", w == o->one_of ? "" : ", ", (unsigned)*w);
                return usage_error(cmd, "--%s '%s' must be one of %s", o->name, arg, list);
            }
        }
        *(uint32_t *)o->value = v;
        return -1;
    }
    }
    return usage_error(cmd, "--%s: unknown option kind", o->name);
}

int hl_cli_parse(const hl_cli_command *cmd, const hl_cli_option *opts, size_t count, int argc, char **argv) {
    g_cmd_name = cmd->name;
    if (count > HL_CLI_MAX_OPTIONS) {
        hl_cli_error("internal error: %zu options, at most %d", count, HL_CLI_MAX_OPTIONS);
        return HL_CLI_EXIT_FAIL;
    }
    struct option lo[HL_CLI_MAX_OPTIONS + 2];
    char defaults[HL_CLI_MAX_OPTIONS][64];
    for (size_t i = 0; i < count; i++) {
        lo[i].name = opts[i].name;
        lo[i].has_arg = opts[i].kind == HL_CLI_FLAG ? no_argument : required_argument;
        lo[i].flag = NULL;
        lo[i].val = HL_CLI_OPT_BASE + (int)i;
        format_value(&opts[i], defaults[i], sizeof defaults[i]); /* before any option changes it */
    }
    lo[count] = (struct option){"help", no_argument, NULL, 'h'};
    lo[count + 1] = (struct option){NULL, 0, NULL, 0};

    /* "+": stop at the first non-option (reported below) instead of permuting argv;
     * ":": a missing value returns ':' so it is told apart from an unknown option. */
    opterr = 0;
    optind = 0; /* glibc: 0 re-initialises the parser for a fresh argv */
    int c;
    while ((c = getopt_long(argc, argv, "+:h", lo, NULL)) != -1) {
        if (c == 'h') {
            print_help(stdout, cmd, opts, count, defaults);
            return HL_CLI_EXIT_OK;
        }
        if (c == ':') {
            const hl_cli_option *o = option_of(optopt, opts, count);
            return usage_error(cmd, "option '--%s' needs a value", o ? o->name : "?");
        }
        if (c == '?') {
            const hl_cli_option *o = option_of(optopt, opts, count);
            if (o) return usage_error(cmd, "option '--%s' takes no value", o->name);
            if (optopt == 'h') return usage_error(cmd, "option '--help' takes no value");
            if (optopt) return usage_error(cmd, "unknown option '-%c'", optopt);
            /* Unknown or ambiguous long option: getopt_long has stepped past it. */
            const char *bad = optind > 0 && optind <= argc ? argv[optind - 1] : "?";
            size_t n = strcspn(bad, "=");
            return usage_error(cmd, "unknown option '%.*s'", (int)n, bad);
        }
        const hl_cli_option *o = option_of(c, opts, count);
        if (!o) return usage_error(cmd, "unexpected option");
        /* getopt_long accepts unique prefixes ("--w" for "--width"); a prefix would change
         * meaning when an option is added, so only whole names are taken. */
        int at = optarg && optind >= 2 && optarg == argv[optind - 1] ? optind - 2 : optind - 1;
        const char *text = at >= 0 && at < argc ? argv[at] : "";
        if (strncmp(text, "--", 2) == 0) {
            size_t n = strcspn(text + 2, "=");
            if (n != strlen(o->name))
                return usage_error(cmd, "unknown option '%.*s' (did you mean '--%s'?)", (int)n + 2, text, o->name);
        }
        int rc = store(cmd, o, optarg);
        if (rc >= 0) return rc;
    }
    if (optind < argc) return usage_error(cmd, "unexpected argument '%s'", argv[optind]);
    return -1;
}
