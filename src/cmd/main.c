/* torchdoctor's entry point: only dispatches to one file per command (on
 * Windows after taking the arguments in UTF-16 and setting up the console). */
#include <stdio.h>
#include <string.h>

#include "base/console.h"
#include "base/thread.h"
#include "base/utf8.h"
#include "cmd/cmd.h"

/* Commands that --help does not show. They sit here, not in td_commands,
 * because two of them read td_commands: the table stays below them. */
static const struct td_command hidden_commands[] = {
    /* The build runs these to write the man pages and completions. */
    {"__man", NULL, td_cmd_man, NULL},
    {"__completion", NULL, td_cmd_completion, NULL},
#ifdef _WIN32
    /* What `check` runs in a child of itself (probe/system/child.h). */
    {"__gpu", NULL, td_cmd_gpu_child, NULL},
    {"__replay", NULL, td_cmd_replay_child, NULL},
#endif
    {NULL, NULL, NULL, NULL},
};

static const struct td_command *find_in(const struct td_command *table, const char *name)
{
    for (const struct td_command *c = table; c->name; c++)
        if (strcmp(c->name, name) == 0)
            return c;
    return NULL;
}

static const struct td_command *find_command(const char *name)
{
    const struct td_command *c = find_in(td_commands, name);
    return c ? c : find_in(hidden_commands, name);
}

static int dispatch(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        td_print_usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? TD_EXIT_USAGE : TD_EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
        printf("torchdoctor %s\n", TD_VERSION);
        return TD_EXIT_OK;
    }
    const struct td_command *c = find_command(argv[1]);
    if (!c) {
        fprintf(stderr, "torchdoctor: unknown command '%s' (see 'torchdoctor --help')\n", argv[1]);
        return TD_EXIT_USAGE;
    }
    return c->run(argc - 1, argv + 1);
}

#ifdef _WIN32
/* wmain (linked with -municode): the command line as typed, in UTF-16,
 * handed on in UTF-8 like every other string of the program. */
int wmain(int argc, wchar_t **wargv)
{
    char **argv = td_utf8_argv(argc, wargv);
    if (!argv) {
        fputs("torchdoctor: the command line is not valid UTF-16\n", stderr);
        return TD_EXIT_USAGE;
    }
    td_console_init();
    td_threads_prepare();
    int rc = dispatch(argc, argv);
    fflush(stdout);
    fflush(stderr);
    td_console_restore();
    td_utf8_argv_free(argv);
    return rc;
}
#else
int main(int argc, char **argv)
{
    td_threads_prepare();
    return dispatch(argc, argv);
}
#endif
