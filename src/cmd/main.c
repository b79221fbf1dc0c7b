/* torchdoctor's entry point: only dispatches to one file per command (on
 * Windows after taking the arguments in UTF-16 and setting up the console). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#ifndef _WIN32
#include <fcntl.h>
#include <unistd.h>
#endif

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
/* Descriptors 0-2 that whoever started us closed would be handed out to the
 * files we open, and the report would land in one of them: they are held
 * with /dev/null, stdout's read-only so that writing the report fails. */
static void hold_standard_fds(void)
{
    for (int fd = 0; fd < 3; fd++)
        if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
            int held = open("/dev/null", fd == 1 ? O_RDONLY : O_RDWR);
            if (held >= 0 && held != fd) {
                dup2(held, fd);
                close(held);
            }
        }
}

int main(int argc, char **argv)
{
    hold_standard_fds();
    td_threads_prepare();
    int rc = dispatch(argc, argv);
    /* A report that did not reach stdout (closed, a full disk) is not a
     * success, whatever it found. */
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "torchdoctor: cannot write the report to standard output%s%s\n",
                errno ? ": " : "", errno ? strerror(errno) : "");
        return TD_EXIT_USAGE;
    }
    return rc;
}
#endif
