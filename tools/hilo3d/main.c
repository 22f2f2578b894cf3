/* hilo3d command-line tool: `hilo3d COMMAND [OPTIONS]`, `hilo3d --help`, `hilo3d --version`.
 * Each subcommand parses its options with hl_cli_parse (cli.h) and has its own --help.
 * Exit codes: 0 success, 1 failure, 2 usage error. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "hilo3d/version.h"

typedef struct subcommand {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv);
} subcommand;

static const subcommand g_commands[] = {
    {"info", "which backends are available, their adapters and capabilities, and what auto picks", hl_cli_info},
    {"render", "renders the built-in demo scene to a PNG (default 1280x720 to out/demo.png)", hl_cli_render},
    {"view", "shows the demo scene or a glTF model in a window (orbit, pan, zoom; P cycles the pipelines)",
     hl_cli_view},
    {"rhi-demo", "renders the RHI test scene to a PNG (default 512x512 to out/demo.png)", hl_cli_rhi_demo},
    {"graph-dump", "writes the render graph of a typical deferred frame as Graphviz DOT (default stdout)",
     hl_cli_graph_dump},
};
#define COMMAND_COUNT (sizeof g_commands / sizeof g_commands[0])

static void usage(FILE *f) {
    fprintf(f, "usage: hilo3d COMMAND [OPTIONS]\n       hilo3d --help | --version\n\ncommands:\n");
    for (size_t i = 0; i < COMMAND_COUNT; i++) fprintf(f, "  %-12s %s\n", g_commands[i].name, g_commands[i].summary);
    fprintf(f, "\n'hilo3d COMMAND --help' lists the options of a command and their defaults.\n"
               "Exit codes: 0 success, 1 failure, 2 usage error.\n");
}

static int run(int argc, char **argv) {
    if (argc < 2) {
        usage(stderr);
        return HL_CLI_EXIT_USAGE;
    }
    const char *a = argv[1];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
        usage(stdout);
        return HL_CLI_EXIT_OK;
    }
    if (strcmp(a, "--version") == 0) {
        hl_cli_printf("hilo3d %s\n", hl_version_string()); /* the library's: HILO3D_VERSION_STRING */
        return HL_CLI_EXIT_OK;
    }
    for (size_t i = 0; i < COMMAND_COUNT; i++)
        if (strcmp(a, g_commands[i].name) == 0) return g_commands[i].run(argc - 1, argv + 1);
    if (a[0] == '-') fprintf(stderr, "hilo3d: unknown option '%s'\n", a);
    else fprintf(stderr, "hilo3d: unknown command '%s'\n", a);
    fprintf(stderr, "Try 'hilo3d --help' for the commands.\n");
    return HL_CLI_EXIT_USAGE;
}

int main(int argc, char **argv) {
    int rc = run(argc, argv);
    /* Output that never reached its destination is a failure, whatever the command did. */
    if (hl_cli_close_stdout() && rc == HL_CLI_EXIT_OK) rc = HL_CLI_EXIT_FAIL;
    return rc;
}
