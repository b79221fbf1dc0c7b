/* Internal to the machine probes (probe.c, system_linux.c, cpu.c,
 * gpu_linux.c) and their fuzz target: reading files under the probe root,
 * and the pure parsers of what those files and the GPU helper say. The
 * parsers take bytes that may be anything and never read past LEN. */
#ifndef TD_PROBE_PROBE_UTIL_H
#define TD_PROBE_PROBE_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe/probe.h"

/* Files read whole are capped here (a mountinfo with thousands of mounts
 * fits); anything longer is read up to the cap. */
#define TD_PROBE_READ_CAP ((size_t)1 << 20)

/* Reads PATH (a path on the target, looked up under the root) into a
 * malloc'd, NUL-terminated buffer of at most MAX bytes; *LEN gets the
 * length. NULL when it cannot be read. /proc files report size 0, so the
 * file is read to its end rather than by its size. */
char *td_probe_slurp(const struct td_probe_ctx *ctx, const char *path, size_t max, size_t *len);

/* The rest of the open file FD (not a directory) into a malloc'd,
 * NUL-terminated buffer of at most MAX bytes, which starts at the size
 * fstat gives and grows for files that report none or more; *LEN gets the
 * length. NULL when it cannot be read. FD stays open. */
char *td_probe_read_fd(int fd, size_t max, size_t *len);

/* True when PATH exists under the root (any kind of file). */
bool td_probe_exists(const struct td_probe_ctx *ctx, const char *path);

/* The value of KEY in os-release text (KEY=value, value optionally in
 * single or double quotes with backslash escapes, os-release(5)), into
 * OUT. False when the key is absent. */
bool td_parse_os_release(const char *text, size_t len, const char *key, char *out, size_t cap);

/* The value of KEY ("MemTotal") in /proc/meminfo text, in bytes (the file
 * says kB, which proc(5) means as KiB). False when absent. */
bool td_parse_meminfo(const char *text, size_t len, const char *key, uint64_t *bytes);

/* The driver version in /proc/driver/nvidia/version text ("NVRM version:
 * NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 ...", or the
 * open kernel module's "... Open Kernel Module for x86_64  550.54.14 ..."):
 * the first dotted number after "Kernel Module". False when none. */
bool td_parse_nvidia_version(const char *text, size_t len, char *out, size_t cap);

/* The value after "KEY" and a colon on a /proc/cpuinfo line ("Features",
 * "model name"), for the first line that has it, into OUT. */
bool td_parse_cpuinfo_field(const char *text, size_t len, const char *key, char *out, size_t cap);

/* True when the space-separated WORDS hold WORD. */
bool td_has_word(const char *words, const char *word);

/* The Linux loader model set up for "a plain program started on the
 * target": root from ctx, the program the target's /bin/sh (its machine
 * decides which libraries fit; none under a bare test root), and, when
 * WITH_ENV, this process's LD_LIBRARY_PATH. Without it, what the system
 * itself provides (the system C library). */
struct td_probe_loader {
    struct td_loader_config cfg;
    struct td_loader L;
    struct td_object *program;
    struct td_env_var env[1];
    bool ready;
};

int td_probe_loader_open(const struct td_probe_ctx *ctx, bool with_env, struct td_probe_loader *pl,
                         struct td_err *err);

/* Resolves NAME as the program's own need would be. RES keeps the probes
 * (the loader's arena); the object found, if any, is returned and must be
 * given to td_probe_loader_release. */
struct td_object *td_probe_loader_find(struct td_probe_loader *pl, const char *name,
                                       struct td_resolution *res);
void td_probe_loader_release(struct td_resolution *res);
void td_probe_loader_close(struct td_probe_loader *pl);

/* How the GPU helper's child ended (gpu_linux.c). */
struct td_gpu_helper_outcome {
    bool started, timed_out, exited;
    int status; /* waitpid status when exited */
    char why[512];
};

/* Runs the embedded GPU helper with ARGS (NULL-terminated, at most 6; NULL
 * for the probe's questions) and reads its answer into BUF until it ends
 * or TIMEOUT_MS passes (then it is killed; TIME_UP, when it has a function,
 * decides instead of the clock). Returns the bytes read. Linux. */
size_t td_gpu_helper_run(const char *const *args, int timeout_ms, struct td_time_up time_up,
                         char *buf, size_t cap, struct td_gpu_helper_outcome *o);

/* Applies the GPU helper's answer (TEXT, LEN bytes, the line protocol of
 * gpuhelper/gpu_helper.c) to OUT, with strings in ARENA. Sets status and
 * status_detail as the answer alone decides; the caller then accounts for
 * how the helper ended (crash, timeout). Returns true when the helper
 * said it was done. */
/* "no answer within 5 s; the WHO was killed": the detail of a GPU probe that
 * timed out after TIMEOUT_MS, in whole seconds when it is a whole number. */
const char *td_gpu_timeout_detail(int timeout_ms, const char *who, char *out, size_t cap);

bool td_gpu_parse_answer(const char *text, size_t len, struct td_arena *arena,
                         struct td_gpu_info *out);

#endif
