/* `torchdoctor trace`: watch a real load. The command runs in a child with
 * the embedded LD_AUDIT module (trace/audit/td_audit.c), which reports
 * every search step, load and unload ld.so makes; its stderr is read for
 * the error ld.so or Python printed. The result is a value: a timeline of
 * events, one entry per library the program asked for (how it was found,
 * who asked, what was tried), the failed step, and the findings. Linux:
 * trace_linux.c; Windows: trace_windows.c, a debugger loop whose events
 * trace_pe.c folds into the same struct. */
#ifndef TD_PROBE_TRACE_H
#define TD_PROBE_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/err.h"
#include "base/finding.h"
#include "base/time_up.h"
#include "graph/graph.h"

/* How a search step located a candidate: rtld-audit(7) LA_SER_* values. */
enum {
    TD_TRACE_SER_ORIG = 0x01,    /* the name as asked for */
    TD_TRACE_SER_LIBPATH = 0x02, /* LD_LIBRARY_PATH */
    TD_TRACE_SER_RUNPATH = 0x04, /* DT_RPATH or DT_RUNPATH */
    TD_TRACE_SER_CONFIG = 0x08,  /* /etc/ld.so.cache */
    TD_TRACE_SER_DEFAULT = 0x40, /* the default directories */
    TD_TRACE_SER_SECURE = 0x80,
};

enum td_trace_event_kind {
    TD_TEV_SEARCH,   /* la_objsearch */
    TD_TEV_OPEN,     /* la_objopen */
    TD_TEV_CLOSE,    /* la_objclose */
    TD_TEV_ACTIVITY, /* la_activity: 0 consistent, 1 adding, 2 deleting */
    TD_TEV_PREINIT,  /* la_preinit: everything mapped, main() next */
};

/* One line of the audit module, for the traced process only. */
struct td_trace_event {
    enum td_trace_event_kind kind;
    uint64_t t_ns;    /* since the command was started */
    uint64_t cookie;  /* SEARCH: the requester's; OPEN/CLOSE: the object's */
    unsigned flag;    /* SEARCH: LA_SER_*; ACTIVITY: LA_ACT_* */
    long lmid;        /* OPEN: link-map namespace */
    const char *path; /* SEARCH: name or candidate; OPEN: the file */
};

/* One candidate the loader considered for a name. */
struct td_trace_try {
    const char *path;
    unsigned via;        /* LA_SER_* */
    const char *outcome; /* "loaded", "absent", "wrong ELF class", "wrong machine",
                            "not ELF", "same file loaded", "not taken" */
};

enum td_trace_lib_status {
    TD_TLIB_LOADED,   /* mapped (la_objopen) */
    TD_TLIB_UNLOADED, /* mapped, then closed before the process ended (failed dlopen) */
    TD_TLIB_SAME,     /* found a file already loaded under another name: no new mapping */
    TD_TLIB_MISSING,  /* searched, nothing taken */
};

/* One library the process asked for (or the program and ld.so themselves). */
struct td_trace_lib {
    const char *name;         /* as asked for (DT_NEEDED, dlopen); the file name when not asked */
    const char *path;         /* the file mapped; NULL when MISSING */
    const char *requested_by; /* path of the object whose need or dlopen it was; NULL for the
                                 program, ld.so and the vDSO */
    enum td_trace_lib_status status;
    unsigned found_via; /* LA_SER_* of the candidate taken; ORIG when the name was a path;
                           0 when nothing was searched */
    bool dlopened;      /* the first object of a later load (dlopen), not of the start */
    uint64_t cookie;
    long lmid;
    uint64_t t_ns;      /* when it was asked for (or mapped, when never asked) */
    uint64_t load_ns;   /* asked for -> mapped */
    uint64_t closed_ns; /* 0 unless closed */
    struct td_trace_try *tries;
    size_t n_tries;
};

/* The step that failed: from ld.so's or Python's last error line. */
struct td_trace_failure {
    const char *kind;    /* TD_KIND_MISSING_LIBRARY, MISSING_SYMBOL, ... */
    const char *library; /* the library named by the message */
    const char *symbol;  /* undefined symbol / version; NULL otherwise */
    const char *needed_by;
    const char *message;            /* the whole line */
    const struct td_trace_lib *lib; /* the matching search, when the audit saw it */
    int predicted; /* the static model: 1 predicts this failure, 0 does not, -1 not compared */
};

/* Where the real load and the static model (src/graph) disagree. */
struct td_trace_divergence {
    const char *name;
    const char *needed_by;
    const char *predicted;     /* path, or NULL: the model found nothing */
    const char *predicted_via; /* td_rule_name */
    const char *loaded;        /* path, or NULL: the real load found nothing */
    const char *loaded_via;    /* td_trace_via_name */
    const char *why;           /* one line */
};

struct td_trace {
    const char *const *argv;
    const char *program; /* the file executed (from the audit; argv[0] otherwise) */
    int exit_status;     /* -1 when killed by a signal */
    int signal;          /* 0 unless killed */
    bool timed_out;
    uint64_t duration_ns;
    struct td_trace_event *events;
    size_t n_events, events_cap;
    struct td_trace_lib *libs;
    size_t n_libs, libs_cap;
    struct td_trace_failure *failed; /* NULL when the load went through */
    struct td_trace_divergence *divergences;
    size_t n_divergences;
    size_t n_agreements;         /* needs where the model took the same file (or also failed) */
    size_t other_processes;      /* children of the command, traced but not reported */
    const char *stderr_tail;     /* the last lines the command wrote to stderr */
    const char *ld_library_path; /* as the traced ld.so saw them; NULL when unset */
    const char *ld_preload;
    bool windows; /* filled by the Windows tracer: a PE program, DLLs from debug events */
    struct td_findings findings;
    struct td_arena arena;
};

struct td_trace_options {
    int timeout_ms;            /* 0: none */
    struct td_time_up time_up; /* tests: an event (audit lines seen) instead of the clock */
    bool echo_stderr;          /* copy the child's stderr to ours as it comes */
    const char *audit_path;    /* NULL: the embedded module (tests may name a file) */
};

/* Runs ARGV (searched on PATH) with the audit module and fills OUT.
 * Returns -1 with ERR when the command could not be run at all. */
int td_trace_run(const char *const *argv, const struct td_trace_options *opts, struct td_trace *out,
                 struct td_err *err);

/* Parses audit lines and stderr text into T (used by td_trace_run; public
 * for tests): events of process PID only, then the libraries. */
void td_trace_parse_events(struct td_trace *t, const char *text, size_t len, long pid);
void td_trace_build_libraries(struct td_trace *t);
/* A zeroed new entry at the end of T's libraries / events (grown as
 * needed), or NULL when out of memory; earlier pointers may move. */
struct td_trace_lib *td_trace_add_lib(struct td_trace *t);
struct td_trace_event *td_trace_add_event(struct td_trace *t);
/* The failure an error line states (ld.so / dlerror / Python), or false. */
bool td_trace_parse_error(struct td_trace *t, const char *line);

/* Windows (trace_pe.c; platform-neutral, so tests run it anywhere). The
 * debug events are OPEN (an image mapped; cookie: its base address), CLOSE
 * (unmapped), PREINIT (the loader's initial breakpoint: the program's own
 * imports are mapped) and SEARCH (a loader-snaps line: flag ORIG for a
 * LoadLibrary request, 0 for a path tried). They are folded into one entry
 * per DLL: who asked for it, from the import tables of the images mapped
 * before it; LoadLibrary'd (dlopened) when mapped after the breakpoint with
 * no importer; and, when the load failed, the import nothing answered. */
void td_trace_build_libraries_pe(struct td_trace *t);
/* The failure an NTSTATUS the loader ended with states
 * (data/windows_load_status.tsv), HOW being "exception" or "exit code";
 * false (nothing set) when it is not a load failure. */
bool td_trace_pe_status(struct td_trace *t, uint32_t status, const char *how);
/* One loader-snaps line (ShowSnaps, an OUTPUT_DEBUG_STRING_EVENT) at T_NS:
 * a SEARCH event, or for "LdrpProcessWork - ERROR: Unable to load DLL" the
 * failed step (returns true). */
bool td_trace_pe_snap(struct td_trace *t, const char *line, uint64_t t_ns);
/* "C:\x\y.dll" -> "y.dll": the last component, after '\\' or '/'. */
const char *td_trace_pe_base(const char *path);

/* Findings (failure, duplicate runtimes) and the comparison with the
 * static model: G built from the program and the libraries it dlopened. */
void td_trace_analyze(struct td_trace *t, const struct td_graph *g);
/* That graph, built into G (strings and config in ARENA, which must live as
 * long as G) by the one target builder (graph/target.h): the program and
 * each library it dlopened, in order, in ENVP (the environment the traced
 * program ran in, "NAME=value", NULL-terminated). -1 with ERR when there
 * is none. */
int td_trace_build_model(const struct td_trace *tr, const char *const *envp, struct td_graph *g,
                         struct td_arena *arena, struct td_err *err);
/* Roots for that graph: the program, then each dlopened library, in order. */
size_t td_trace_roots(const struct td_trace *t, const char **roots, size_t cap);

const char *td_trace_via_name(unsigned via); /* "LD_LIBRARY_PATH", "ld.so.cache", ... */
const char *td_trace_status_name(enum td_trace_lib_status s);
void td_trace_free(struct td_trace *t);

#endif
