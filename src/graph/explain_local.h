/* What the dependency graph of the file an error message names shows that
 * the message does not (`torchdoctor explain`, docs/explain.md): where that
 * file is on this machine, who needs a missing library, and, from a built
 * graph, the records of what is really missing. Decisions are values;
 * report/explain.c words them. */
#ifndef TD_GRAPH_EXPLAIN_LOCAL_H
#define TD_GRAPH_EXPLAIN_LOCAL_H

#include <stdbool.h>
#include <stddef.h>

#include "graph/graph.h"

enum td_local_kind {
    TD_LOCAL_MISSING,        /* NEEDED_BY needs LIBRARY, found in none of N_PLACES places */
    TD_LOCAL_DEFINED_LOADED, /* LIBRARY defines SYMBOL and is loaded: the reference is elsewhere */
    TD_LOCAL_NEWER_COPY,     /* NEEDED_BY needs SYMBOL; OTHER defines it, LIBRARY is taken */
    TD_LOCAL_NO_DEFINER,     /* nothing NEEDED_BY loads defines SYMBOL; OTHER lists its needs */
    TD_LOCAL_NOT_ANALYSED,   /* LIBRARY could not be read: OTHER says why */
};

struct td_local_note {
    enum td_local_kind kind;
    char library[1024], needed_by[1024], symbol[512], version[128];
    char other[2048];
    char tried[1024]; /* the first places the loader tried, comma-separated */
    size_t n_places;
    bool more_places, delay;
};

enum { TD_LOCAL_MAX_NOTES = 8 };

struct td_local_notes {
    struct td_local_note items[TD_LOCAL_MAX_NOTES];
    size_t n;
};

/* Where PATH (as a message names it) is on this machine: under ROOT when
 * given (a Windows path without regard to case), else as is. Writes OUT and
 * returns true when a readable regular file is there. */
bool td_local_file(const char *path, const char *root, char *out, size_t cap);

/* The first ELF file, in the directories TEXT mentions, whose DT_NEEDED
 * names NEED: who needs the library "cannot open shared object file" names. */
bool td_local_requirer(const char *text, const char *root, const char *need, char *out, size_t cap);

/* The next path in TEXT from P (a "/..." run, or "C:\\..."), where the
 * directories the requirer scan reads are taken from: the leftmost-longest
 * match of (/[^ \t\n"':,()]+|[A-Za-z]:\\[^\t\n"']+), read by hand in one
 * pass. *LEN its length; NULL when there is none. */
const char *td_local_next_path(const char *p, size_t *len);

/* From the built graph G: each dependency it could not find; for SYMBOL
 * (may be NULL), which library should define it. */
void td_local_missing(const struct td_graph *g, struct td_local_notes *out);
void td_local_symbol(const struct td_graph *g, const char *symbol, const char *version,
                     struct td_local_notes *out);

/* The version of the torch install HOST_PATH belongs to, from the
 * torch/version.py found walking up from it ("__version__ = '2.4.0+cpu'"),
 * into OUT; false when there is none. Read-only. */
bool td_local_torch_version(const char *host_path, char *out, size_t cap);

/* A note that FILE could not be analysed, for WHY. */
void td_local_not_analysed(const char *file, const char *why, struct td_local_notes *out);

#endif
