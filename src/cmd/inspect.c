/* torchdoctor inspect: what a binary declares (placeholder while the readers land). */
#include "cmd/cmd.h"

int td_cmd_inspect(int argc, char **argv)
{
    fprintf(stderr, "inspect: not built yet\n");
    return TD_EXIT_USAGE;
}
