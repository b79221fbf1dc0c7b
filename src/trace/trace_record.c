/* The record a tracer fills (trace.h): its events and libraries grown one
 * at a time, and freed. Below everything else in src/trace/: the tracers
 * (trace_linux.c, trace_windows.c), the folding of Windows' debug events
 * (trace_pe.c) and the analysis (trace.c) all write into it. */
#include <stdlib.h>
#include <string.h>

#include "trace/trace.h"

struct td_trace_lib *td_trace_add_lib(struct td_trace *t)
{
    if (t->n_libs == t->libs_cap) {
        size_t cap = t->libs_cap ? t->libs_cap * 2 : 64;
        struct td_trace_lib *grown = realloc(t->libs, cap * sizeof *grown);
        if (!grown)
            return NULL;
        t->libs = grown;
        t->libs_cap = cap;
    }
    struct td_trace_lib *l = &t->libs[t->n_libs++];
    memset(l, 0, sizeof *l);
    return l;
}

struct td_trace_event *td_trace_add_event(struct td_trace *t)
{
    if (t->n_events == t->events_cap) {
        size_t cap = t->events_cap ? t->events_cap * 2 : 256;
        struct td_trace_event *grown = realloc(t->events, cap * sizeof *grown);
        if (!grown)
            return NULL;
        t->events = grown;
        t->events_cap = cap;
    }
    struct td_trace_event *e = &t->events[t->n_events++];
    memset(e, 0, sizeof *e);
    return e;
}

void td_trace_free(struct td_trace *t)
{
    free(t->events);
    free(t->libs);
    td_findings_free(&t->findings);
    td_arena_free(&t->arena);
    memset(t, 0, sizeof *t);
}
