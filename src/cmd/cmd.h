/* The command table and the exit statuses every command shares
 * (DESIGN.md: 0 no error finding, 1 an error finding, 2 could not do it). */
#ifndef TD_CMD_CMD_H
#define TD_CMD_CMD_H

#include <stdio.h>

enum {
    TD_EXIT_OK = 0,
    TD_EXIT_FINDINGS = 1,
    TD_EXIT_USAGE = 2,
};

struct td_args_spec;

struct td_command {
    const char *name;
    const char *summary;               /* NULL: hidden, not in --help */
    int (*run)(int argc, char **argv); /* argv[0] is the command name */
    const struct td_args_spec *args;   /* its options (cmd/args.h); NULL: none */
};

extern const struct td_command td_commands[];
/* What torchdoctor(1) says of the whole program. */
extern const char td_program_description[];

void td_print_usage(FILE *out);

int td_cmd_inspect(int argc, char **argv);
int td_cmd_deps(int argc, char **argv);
int td_cmd_check(int argc, char **argv);
int td_cmd_explain(int argc, char **argv);
int td_cmd_trace(int argc, char **argv);
int td_cmd_compat(int argc, char **argv);
int td_cmd_snapshot(int argc, char **argv);
int td_cmd_diff(int argc, char **argv);
int td_cmd_log(int argc, char **argv);
int td_cmd_bench(int argc, char **argv);
int td_cmd_fleet(int argc, char **argv);
int td_cmd_man(int argc, char **argv);        /* hidden: args_man.c */
int td_cmd_completion(int argc, char **argv); /* hidden: args_complete.c */

/* Each command's option table, beside its code. */
extern const struct td_args_spec td_check_args, td_compat_args, td_deps_args, td_explain_args,
    td_trace_args, td_inspect_args, td_snapshot_args, td_diff_args, td_log_args, td_bench_args,
    td_fleet_args;
#ifdef _WIN32
int td_cmd_gpu_child(int argc, char **argv);    /* internal_windows.c */
int td_cmd_replay_child(int argc, char **argv); /* internal_windows.c */
#endif

#endif
