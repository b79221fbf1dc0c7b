/* Windows only (child_windows.c): running torchdoctor.exe itself as a
 * child in a hidden internal mode ("__gpu", "__replay"), so that whatever
 * the child loads (the NVIDIA driver, torch's DLLs, their DllMain) can
 * crash or hang only the child. The program stays one file. */
#ifndef TD_PROBE_CHILD_H
#define TD_PROBE_CHILD_H

#include <stdbool.h>
#include <stddef.h>

struct td_child_outcome {
    bool started, timed_out, exited;
    unsigned long exit_code; /* GetExitCodeProcess: 0xC0000005 for an access violation */
    char why[300];           /* why it could not be started */
};

/* Starts this program with the one argument MODE, writes INPUT (LEN bytes)
 * to its stdin and closes it, reads its stdout into BUF (at most CAP bytes;
 * the rest is drained) until it ends or TIMEOUT_MS passes, then kills it
 * (TerminateProcess). Its stderr is discarded. Returns the bytes read. */
size_t td_child_run(const char *mode, const char *input, size_t len, int timeout_ms, char *buf,
                    size_t cap, struct td_child_outcome *o);

/* In the child: writes one line (with its '\n') to stdout, whole. */
void td_child_say(const char *line, size_t n);

/* In the child: no "cannot find the file" / fault dialogs; failures come
 * back as error codes (SEM_FAILCRITICALERRORS | SEM_NOOPENFILEERRORBOX |
 * SEM_NOGPFAULTERRORBOX). */
void td_child_quiet(void);

/* "access violation" for 0xC0000005, from data/windows_ntstatus.tsv's
 * names where it has the code, into OUT. */
const char *td_child_exit_words(unsigned long code, char *out, size_t cap);

/* The hidden modes themselves (what `torchdoctor.exe __gpu` and
 * `__replay` run): gpu_windows.c, replay_windows.c. Exit status 0. */
int td_gpu_child(void);
int td_replay_child(void);

#endif
