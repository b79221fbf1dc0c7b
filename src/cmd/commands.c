/* The list of commands, in the order --help shows them. */
#include "cmd/cmd.h"

const struct td_command td_commands[] = {
    {"check", "diagnose this machine: will torch load and use the GPU, and if not, why",
     td_cmd_check},
    {"compat", "which torch builds fit a driver, GPU, CUDA and Python; the pip command",
     td_cmd_compat},
    {"deps", "resolve every dependency the way the target's loader would", td_cmd_deps},
    {"explain", "say what a pasted error message means and what it does not say", td_cmd_explain},
    {"trace", "run a command and show what ld.so really loaded, and from where", td_cmd_trace},
    {"snapshot", "record this machine's torch stack as JSON; a change log; a restore script",
     td_cmd_snapshot},
    {"diff", "what changed between two snapshots, ranked by what it breaks", td_cmd_diff},
    {"log", "the entries of a snapshot change log, one line each", td_cmd_log},
    {"inspect", "show what a binary (ELF, PE, Mach-O) or wheel declares", td_cmd_inspect},
    {"bench", "measure CPU, memory, disk, import torch and GPUs against their expected peaks",
     td_cmd_bench},
#ifdef _WIN32
    /* Hidden: what `check` runs in a child of itself (probe/child.h). */
    {"__gpu", NULL, td_cmd_gpu_child},
    {"__replay", NULL, td_cmd_replay_child},
#endif
    {NULL, NULL, NULL},
};

void td_print_usage(FILE *out)
{
    fprintf(out, "usage: torchdoctor COMMAND [ARGS]\n\ncommands:\n");
    for (const struct td_command *c = td_commands; c->name; c++)
        if (c->summary)
            fprintf(out, "  %-10s %s\n", c->name, c->summary);
    fprintf(out, "\nRun 'torchdoctor COMMAND --help' for a command's options.\n"
                 "Exit status: 0 no error found, 1 an error was found, 2 the tool could not do "
                 "what was asked.\n");
}
