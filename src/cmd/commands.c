/* The list of commands, in the order --help shows them, each with the
 * option table (cmd/args.h) that its --help, man page and completions come
 * from. The hidden commands, which read this list to write the man pages
 * and completions, are main.c's, so that nothing here points back up at
 * them. */
#include "cmd/cmd.h"

#include "cmd/args.h"

const char td_program_description[] =
    "torchdoctor says why PyTorch (or any native Python extension) will not load or will not "
    "use the GPU: which file is missing or wrong, who needs it, where the loader looked and in "
    "what order, why each candidate was rejected, and the command that fixes it. It reads ELF, "
    "PE and Mach-O files without running them, models glibc's ld.so, the Windows loader and "
    "dyld rule by rule, and can confirm its answer by watching a real load.\n\n"
    "Nothing on the system is changed: fixes are printed, or written to a script with -o, "
    "never applied.";

const struct td_command td_commands[] = {
    {"check", "diagnose this machine: will torch load and use the GPU, and if not, why",
     td_cmd_check, &td_check_args},
    {"compat", "which torch builds fit a driver, GPU, CUDA and Python; the pip command",
     td_cmd_compat, &td_compat_args},
    {"deps", "resolve every dependency the way the target's loader would", td_cmd_deps,
     &td_deps_args},
    {"explain", "say what a pasted error message means and what it does not say", td_cmd_explain,
     &td_explain_args},
    {"trace", "run a command and show what ld.so really loaded, and from where", td_cmd_trace,
     &td_trace_args},
    {"snapshot", "record this machine's torch stack as JSON; a change log; a restore script",
     td_cmd_snapshot, &td_snapshot_args},
    {"diff", "what changed between two snapshots, ranked by what it breaks", td_cmd_diff,
     &td_diff_args},
    {"log", "the entries of a snapshot change log, one line each", td_cmd_log, &td_log_args},
    {"inspect", "show what a binary (ELF, PE, Mach-O) or wheel declares", td_cmd_inspect,
     &td_inspect_args},
    {"bench", "measure CPU, memory, disk, import torch and GPUs against their expected peaks",
     td_cmd_bench, &td_bench_args},
    {"fleet", "many nodes' reports: groups, outliers and what differs, slow nodes; via Slurm",
     td_cmd_fleet, &td_fleet_args},
    {NULL, NULL, NULL, NULL},
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
