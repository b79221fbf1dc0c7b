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

struct td_command {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv); /* argv[0] is the command name */
};

extern const struct td_command td_commands[];

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
#ifdef _WIN32
int td_cmd_gpu_child(int argc, char **argv);    /* internal_windows.c */
int td_cmd_replay_child(int argc, char **argv); /* internal_windows.c */
#endif

#endif
