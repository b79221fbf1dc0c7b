/* A conda package's record in an environment, conda-meta/NAME-VERSION-BUILD.json,
 * as conda writes it when it links the package (conda/models/records.py:
 * PrefixRecord, whose paths_data.paths[] are PathDataV1 rows). */
#ifndef TD_PROBE_CONDA_META_H
#define TD_PROBE_CONDA_META_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/err.h"

enum td_conda_path_type { TD_CONDA_HARDLINK, TD_CONDA_SOFTLINK, TD_CONDA_DIRECTORY };

/* One paths_data row: a file the package put into the prefix. */
struct td_conda_path {
    const char *path;             /* "_path", relative to the prefix, '/'-separated */
    enum td_conda_path_type type; /* "path_type"; hardlink when absent */
    const char *sha256;           /* hex of the file as the package ships it, or NULL */
    const char *sha256_in_prefix; /* hex of the file as installed (after the prefix was
                                     written into it), or NULL (older conda) */
    const char *placeholder;      /* "prefix_placeholder": conda rewrote it at install */
    bool binary_mode;             /* "file_mode": "binary" (the rewrite keeps the size) */
    bool has_size;
    uint64_t size; /* "size_in_bytes": the size in the package */
};

struct td_conda_record {
    const char *name, *version, *build; /* "pytorch", "2.1.0", "py3.11_cuda12.1_cudnn8.9.2_0" */
    const char *channel; /* "channel": a URL ("https://conda.anaconda.org/pytorch") or a name */
    const char *url;     /* "url" of the package archive, or NULL */
    struct td_conda_path *paths;
    size_t n_paths;
};

/* Reads TEXT (LEN bytes, any bytes at all) as a conda-meta record into R,
 * strings in ARENA. A record without paths_data (old conda: only "files")
 * has no rows. Returns -1 with ERR (what and at which byte) when it is not
 * a JSON object with a name. */
int td_conda_record_read(const char *text, size_t len, struct td_conda_record *r,
                         struct td_arena *arena, struct td_err *err);

/* The channel as a match spec names it: "pytorch" for
 * "https://conda.anaconda.org/pytorch" (or the url's channel), the name as
 * is, NULL when neither is known. */
const char *td_conda_channel_name(const struct td_conda_record *r, struct td_arena *arena);

/* The command that reinstalls R's exact build into the environment PREFIX
 * from the channel it came from, into OUT: "conda install -p PREFIX
 * --force-reinstall CHANNEL::NAME=VERSION=BUILD" (conda docs, "Package
 * match specifications": channel::name=version=build). */
const char *td_conda_reinstall_cmd(const struct td_conda_record *r, const char *prefix,
                                   struct td_arena *arena, char *out, size_t cap);

#endif
