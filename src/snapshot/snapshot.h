/* What `snapshot` records beyond check's report (DESIGN.md "snapshot and
 * diff"): every distribution of every Python environment, the native
 * libraries of each torch's import closure, the search paths; and, read
 * back from a snapshot's JSON, the facts `diff` compares and the findings
 * it holds. */
#ifndef TD_PROBE_SNAPSHOT_H
#define TD_PROBE_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/err.h"
#include "base/finding.h"
#include "kb/change.h"
#include "probe/diagnose.h"

/* One installed distribution (a .dist-info or .egg-info). */
struct td_snap_package {
    const char *name;        /* METADATA Name: "nvidia-cudnn-cu12" */
    const char *version;     /* "2.1.2+cu121" */
    const char *local;       /* the local version label ("cu121"), or NULL */
    const char *installer;   /* INSTALLER ("pip", "uv"), "debian", or "unknown" */
    const char *deb_package; /* "debian": the package whose file list holds it, or NULL */
    const char *index_url;   /* where it came from, or NULL (PyPI or not known) */
    const char *index_from;  /* "direct_url.json" or "variant" (the tables), NULL with it */
    const char *location;    /* the site directory */
    const char *meta_dir;    /* its .dist-info / .egg-info path, or NULL (read back) */
};

struct td_snap_env {
    const char *python; /* the interpreter */
    const char *version;
    const char *kind;                 /* "venv", "conda", "system", "pyenv", "other" */
    struct td_snap_package *packages; /* sorted by name */
    size_t n_packages;
};

/* One library of a torch's import closure: the copy the loader picks. */
struct td_snap_native {
    const char *torch;     /* the torch directory whose closure it is in */
    const char *name;      /* the name it was needed by (a root's file name) */
    const char *path;      /* the file the loader picks */
    const char *found_via; /* the loader rule that found it */
    uint64_t size;
    const char *sha256; /* hex, with --verify; NULL otherwise */
};

struct td_snap_search_path {
    const char *name; /* "PATH", "LD_LIBRARY_PATH" */
    const char **dirs;
    size_t n;
};

struct td_snapshot {
    const char *taken_at; /* "2026-12-01T18:00:00Z" */
    struct td_snap_env *envs;
    size_t n_envs;
    struct td_snap_native *native;
    size_t n_native;
    struct td_snap_search_path paths[3];
    size_t n_paths;
};

/* Fills S from the diagnosis R (of request Q): reads each interpreter's
 * site directories, sizes (and with VERIFY hashes) each closure's files. */
void td_snapshot_collect(const struct td_diagnose_request *q, const struct td_check_report *r,
                         bool verify, struct td_snapshot *s, struct td_arena *arena);

/* The snapshot of this machine now: td_diagnose (Q), then
 * td_snapshot_collect. Free R with td_diagnosis_free. */
void td_snapshot_take(const struct td_diagnose_request *q, bool verify, struct td_check_report *r,
                      struct td_snapshot *s, struct td_arena *arena);

/* ---- a snapshot read back (snapshot_read.c) ---- */

/* The bytes of file PATH (malloc'd, NUL after them); NULL with ERR when it
 * cannot be read. */
char *td_snapshot_file(const char *path, size_t *len, struct td_err *err);

/* One comparable fact: AREA ("package", "native", "driver", "gpu", "env",
 * "python", "system") of ENVIRONMENT (an interpreter, a torch directory,
 * or "") named ITEM has VALUE. */
struct td_snap_fact {
    const char *area, *environment, *item, *value;
};

struct td_snap_doc {
    const char *taken_at;
    struct td_snap_fact *facts; /* sorted by area, environment, item */
    size_t n_facts;
    struct td_findings findings;
};

/* Reads a snapshot's JSON (TEXT, LEN bytes, any bytes at all). -1 with ERR
 * when it is not JSON or not a snapshot. Strings live in ARENA; free D's
 * findings with td_snap_doc_free. */
int td_snapshot_read(const char *text, size_t len, struct td_snap_doc *d, struct td_arena *arena,
                     struct td_err *err);
void td_snap_doc_free(struct td_snap_doc *d);

/* ---- two snapshots compared (snapshot_diff.c) ---- */

struct td_change {
    const char *area, *item, *environment;
    const char *before, *after; /* NULL: absent on that side */
    enum td_impact impact;
    const char *detail;
    const char **finding_kinds; /* of the new findings it causes */
    size_t n_kinds;
};

struct td_diff {
    struct td_change *changes; /* breaks, then risky, then neutral */
    size_t n_changes;
    size_t count[3];             /* per enum td_impact */
    struct td_findings findings; /* those NEW has and OLD had not */
};

/* The changes from OLD to NEW, ranked with data/change_impacts.tsv. Free
 * D's findings with td_diff_free. */
void td_snapshot_diff(const struct td_snap_doc *old, const struct td_snap_doc *new,
                      struct td_diff *d, struct td_arena *arena);
void td_diff_free(struct td_diff *d);

#endif
