/* torchdoctor's entry point: only dispatches to one file per command. */
#include <stdio.h>
#include <string.h>

#include "base/pages.h"
#include "cmd/cmd.h"

static const struct td_command *find_command(const char *name)
{
    for (const struct td_command *c = td_commands; c->name; c++)
        if (strcmp(c->name, name) == 0)
            return c;
    return NULL;
}

int main(int argc, char **argv)
{
    td_pages_heap_huge();
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
