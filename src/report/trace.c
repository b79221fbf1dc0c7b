/* Text, JSON and markdown views of a trace (trace/trace.h). */
#include "report/trace.h"

#include <inttypes.h>
#include <string.h>

#include "base/compat.h"
#include "report/envelope.h"
#include "report/jsonw.h"

static double ms(uint64_t ns)
{
    return (double)ns / 1e6;
}

static const char *event_name(enum td_trace_event_kind k)
{
    static const char *const names[] = {"search", "open", "close", "activity", "preinit"};
    return k <= TD_TEV_PREINIT ? names[k] : "?";
}

static size_t count_status(const struct td_trace *tr, enum td_trace_lib_status s)
{
    size_t n = 0;
    for (size_t i = 0; i < tr->n_libs; i++)
        n += tr->libs[i].status == s;
    return n;
}

/* "exit status 0", "killed by signal 11", "timed out (killed)". */
static const char *outcome(const struct td_trace *tr, char *out, size_t cap)
{
    if (tr->timed_out)
        snprintf(out, cap, "timed out, killed");
    else if (tr->signal)
        snprintf(out, cap, "killed by signal %d (%s)", tr->signal, strsignal(tr->signal));
    else if (tr->windows && (unsigned)tr->exit_status >= 0xC0000000u)
        snprintf(out, cap, "exit status 0x%08X", (unsigned)tr->exit_status); /* an NTSTATUS */
    else
        snprintf(out, cap, "exit status %d", tr->exit_status);
    return out;
}

static void command_line(const struct td_trace *tr, FILE *out)
{
    for (size_t i = 0; tr->argv && tr->argv[i]; i++)
        fprintf(out, "%s%s", i ? " " : "", tr->argv[i]);
}

/* ---- text ---- */

/* " [rule]", or nothing when the tracer does not know it (Windows). */
#define VIA(v) (v) ? " [" : "", (v) ? (v) : "", (v) ? "]" : ""

void td_trace_text(const struct td_trace *tr, const struct td_term *t)
{
    FILE *out = t->out;
    const char *bold = td_term_style(t, TD_STYLE_BOLD), *reset = td_term_style(t, TD_STYLE_RESET),
               *dim = td_term_style(t, TD_STYLE_DIM), *red = td_term_style(t, TD_STYLE_RED);
    char buf[128];
    fprintf(out, "%strace%s ", bold, reset);
    command_line(tr, out);
    fprintf(out, "\n  %s after %.1f ms; %zu libraries loaded, %zu unloaded, %zu not found\n",
            outcome(tr, buf, sizeof buf), ms(tr->duration_ns), count_status(tr, TD_TLIB_LOADED),
            count_status(tr, TD_TLIB_UNLOADED), count_status(tr, TD_TLIB_MISSING));
    if (tr->ld_library_path)
        fprintf(out, "  LD_LIBRARY_PATH=%s\n", tr->ld_library_path);
    if (tr->other_processes)
        fprintf(out, "  %zu other process(es) started by the command were not reported\n",
                tr->other_processes);

    fprintf(out, "\n%stimeline%s %s(ms since start, load time, how ld.so found it)%s\n", bold,
            reset, dim, reset);
    for (size_t i = 0; i < tr->n_libs; i++) {
        const struct td_trace_lib *l = &tr->libs[i];
        const char *via = td_trace_via_name(l->found_via);
        const char *st = l->status == TD_TLIB_MISSING ? red : "";
        fprintf(out, "  %8.2f %7.2f  %s%s%s", ms(l->t_ns), ms(l->load_ns), st, l->name, reset);
        if (l->status == TD_TLIB_MISSING)
            fprintf(out, " %snot found%s", red, reset);
        else if (l->path && strcmp(l->path, l->name) != 0)
            fprintf(out, " %s", l->path);
        if (via)
            fprintf(out, " [%s]", via);
        if (l->status == TD_TLIB_UNLOADED)
            fprintf(out, " (unloaded at %.2f)", ms(l->closed_ns));
        else if (l->status == TD_TLIB_SAME)
            fprintf(out, " (already loaded)");
        if (l->dlopened)
            fprintf(out, " %sdlopen%s", dim, reset);
        if (l->requested_by)
            fprintf(out, " %s<- %s%s", dim, l->requested_by, reset);
        fputc('\n', out);
        /* Every place tried for a miss; for a hit, the candidates skipped. */
        for (size_t k = 0; k < l->n_tries; k++) {
            const char *o = l->tries[k].outcome;
            if (l->status == TD_TLIB_MISSING ||
                (strcmp(o, "absent") != 0 && strcmp(o, "loaded") != 0))
                fprintf(out, "  %18s %2zu. %s%s%s%s %s\n", "", k + 1, l->tries[k].path,
                        VIA(td_trace_via_name(l->tries[k].via)), o);
        }
    }

    const struct td_trace_failure *f = tr->failed;
    if (f) {
        fprintf(out, "\n%sfailed step%s %s\n", bold, reset, f->message);
        if (f->lib) {
            fprintf(out, "  %s", f->lib->name);
            if (f->lib->requested_by)
                fprintf(out, ", needed by %s", f->lib->requested_by);
            fprintf(out, f->lib->n_tries ? "; tried in this order:\n" : "\n");
            for (size_t k = 0; k < f->lib->n_tries; k++)
                fprintf(out, "   %2zu. %s%s%s%s %s\n", k + 1, f->lib->tries[k].path,
                        VIA(td_trace_via_name(f->lib->tries[k].via)), f->lib->tries[k].outcome);
        }
        if (f->predicted >= 0)
            fprintf(out, "  the static model (torchdoctor deps) %s\n",
                    f->predicted ? "predicts this failure too" : "did not predict it");
    }

    fprintf(out, "\n%sstatic model%s %zu need(s) agree", bold, reset, tr->n_agreements);
    fprintf(out, ", %zu diverge\n", tr->n_divergences);
    for (size_t i = 0; i < tr->n_divergences; i++) {
        const struct td_trace_divergence *d = &tr->divergences[i];
        fprintf(out, "  %s (needed by %s): predicted %s%s%s%s, loaded %s%s%s%s\n    %s\n", d->name,
                d->needed_by ? d->needed_by : "?", d->predicted ? d->predicted : "nothing",
                d->predicted_via ? " [" : "", d->predicted_via ? d->predicted_via : "",
                d->predicted_via ? "]" : "", d->loaded ? d->loaded : "nothing",
                d->loaded_via ? " [" : "", d->loaded_via ? d->loaded_via : "",
                d->loaded_via ? "]" : "", d->why);
    }
    if (tr->findings.count) {
        fputc('\n', out);
        td_findings_text(t, &tr->findings);
    } else if (tr->timed_out || tr->signal || tr->exit_status != 0) {
        /* Everything loaded, yet the command failed: not "no problems". */
        fprintf(
            out,
            "\nno load problem found, but the command failed: %s (its own error output says why)\n",
            outcome(tr, buf, sizeof buf));
    } else {
        fprintf(out, "\nno problems found\n");
    }
}

/* ---- JSON ---- */

static void json_tries(struct td_jsonw *w, const struct td_trace_lib *l)
{
    td_jw_key(w, "tried");
    td_jw_begin_array(w);
    for (size_t k = 0; k < l->n_tries; k++) {
        td_jw_begin_object_inline(w);
        td_jw_kstr(w, "path", l->tries[k].path);
        td_jw_kstr(w, "via", td_trace_via_name(l->tries[k].via));
        td_jw_kstr(w, "outcome", l->tries[k].outcome);
        td_jw_end_object(w);
    }
    td_jw_end_array(w);
}

static void json_ms(struct td_jsonw *w, const char *key, uint64_t ns)
{
    td_jw_key(w, key);
    td_jw_fixed(w, ms(ns), 3);
}

void td_trace_json(const struct td_trace *tr, FILE *out)
{
    static struct td_jsonw w;
    td_jw_init(&w, out, true);
    td_envelope_begin(&w, "trace", tr->windows ? "windows" : "linux");
    td_envelope_findings(&w, &tr->findings);
    td_jw_key(&w, "trace");
    td_jw_begin_object(&w);
    td_jw_key(&w, "command");
    td_jw_begin_array(&w);
    for (size_t i = 0; tr->argv && tr->argv[i]; i++)
        td_jw_string(&w, tr->argv[i]);
    td_jw_end_array(&w);
    td_jw_kstr(&w, "program", tr->program);
    if (tr->signal || tr->timed_out)
        td_jw_key(&w, "exit_status"), td_jw_null(&w);
    else
        td_jw_kint(&w, "exit_status", tr->exit_status);
    td_jw_kint(&w, "signal", tr->signal);
    td_jw_kbool(&w, "timed_out", tr->timed_out);
    json_ms(&w, "duration_ms", tr->duration_ns);
    td_jw_kstr(&w, "ld_library_path", tr->ld_library_path);
    td_jw_kuint(&w, "other_processes", tr->other_processes);

    td_jw_key(&w, "events");
    td_jw_begin_array(&w);
    for (size_t i = 0; i < tr->n_events; i++) {
        const struct td_trace_event *e = &tr->events[i];
        td_jw_begin_object_inline(&w);
        json_ms(&w, "t_ms", e->t_ns);
        td_jw_kstr(&w, "event", event_name(e->kind));
        if (e->kind == TD_TEV_SEARCH)
            td_jw_kstr(&w, "via", td_trace_via_name(e->flag));
        if (e->kind == TD_TEV_ACTIVITY)
            td_jw_kuint(&w, "flag", e->flag);
        if (e->kind == TD_TEV_OPEN)
            td_jw_kint(&w, "lmid", e->lmid);
        if (e->kind != TD_TEV_ACTIVITY && e->kind != TD_TEV_PREINIT)
            td_jw_khex(&w, "cookie", e->cookie);
        if (e->path)
            td_jw_kstr(&w, "path", e->path);
        td_jw_end_object(&w);
    }
    td_jw_end_array(&w);

    td_jw_key(&w, "libraries");
    td_jw_begin_array(&w);
    for (size_t i = 0; i < tr->n_libs; i++) {
        const struct td_trace_lib *l = &tr->libs[i];
        td_jw_begin_object(&w);
        td_jw_kstr(&w, "name", l->name);
        td_jw_kstr(&w, "path", l->status == TD_TLIB_MISSING ? NULL : l->path);
        td_jw_kstr(&w, "status", td_trace_status_name(l->status));
        td_jw_kstr(&w, "found_via", td_trace_via_name(l->found_via));
        td_jw_kstr(&w, "requested_by", l->requested_by);
        td_jw_kbool(&w, "dlopened", l->dlopened);
        json_ms(&w, "t_ms", l->t_ns);
        json_ms(&w, "load_ms", l->load_ns);
        if (l->closed_ns)
            json_ms(&w, "closed_ms", l->closed_ns);
        td_jw_kint(&w, "lmid", l->lmid);
        json_tries(&w, l);
        td_jw_end_object(&w);
    }
    td_jw_end_array(&w);

    td_jw_key(&w, "failed");
    const struct td_trace_failure *f = tr->failed;
    if (f) {
        td_jw_begin_object(&w);
        td_jw_kstr(&w, "kind", f->kind);
        td_jw_kstr(&w, "library", f->library);
        td_jw_kstr(&w, "needed_by", f->needed_by);
        td_jw_kstr(&w, "symbol", f->symbol);
        td_jw_kstr(&w, "message", f->message);
        if (f->predicted < 0)
            td_jw_key(&w, "predicted"), td_jw_null(&w);
        else
            td_jw_kbool(&w, "predicted", f->predicted == 1);
        if (f->lib)
            json_tries(&w, f->lib);
        td_jw_end_object(&w);
    } else {
        td_jw_null(&w);
    }

    td_jw_kuint(&w, "agreements", tr->n_agreements);
    td_jw_key(&w, "divergences");
    td_jw_begin_array(&w);
    for (size_t i = 0; i < tr->n_divergences; i++) {
        const struct td_trace_divergence *d = &tr->divergences[i];
        td_jw_begin_object(&w);
        td_jw_kstr(&w, "name", d->name);
        td_jw_kstr(&w, "needed_by", d->needed_by);
        td_jw_kstr(&w, "predicted", d->predicted);
        td_jw_kstr(&w, "predicted_via", d->predicted_via);
        td_jw_kstr(&w, "loaded", d->loaded);
        td_jw_kstr(&w, "loaded_via", d->loaded_via);
        td_jw_kstr(&w, "why", d->why);
        td_jw_end_object(&w);
    }
    td_jw_end_array(&w);
    td_jw_kstr(&w, "stderr_tail", tr->stderr_tail);
    td_jw_end_object(&w);
    td_envelope_end(&w);
}

/* ---- markdown ---- */

void td_trace_markdown(const struct td_trace *tr, FILE *out)
{
    char buf[128];
    fprintf(out, "## torchdoctor trace: `");
    command_line(tr, out);
    fprintf(out, "`\n\n%s after %.1f ms; %zu libraries loaded.\n\n", outcome(tr, buf, sizeof buf),
            ms(tr->duration_ns), count_status(tr, TD_TLIB_LOADED));
    if (tr->failed)
        fprintf(out, "**Failed step:** `%s`\n\n", tr->failed->message);
    if (tr->findings.count) {
        fprintf(out, "| severity | kind | library | detail | fix |\n|---|---|---|---|---|\n");
        for (size_t i = 0; i < tr->findings.count; i++) {
            const struct td_finding *x = &tr->findings.items[i];
            fprintf(out, "| %s | %s | `%s` | %s | `%s` |\n", td_severity_name(x->severity), x->kind,
                    x->library ? x->library : "", x->detail, x->fix ? x->fix : "");
        }
        fputc('\n', out);
    }
    fprintf(out, "| ms | load ms | library | path | found via | requested by |\n"
                 "|---:|---:|---|---|---|---|\n");
    for (size_t i = 0; i < tr->n_libs; i++) {
        const struct td_trace_lib *l = &tr->libs[i];
        const char *via = td_trace_via_name(l->found_via);
        fprintf(out, "| %.2f | %.2f | %s | %s | %s | %s |\n", ms(l->t_ns), ms(l->load_ns), l->name,
                l->status == TD_TLIB_MISSING ? "**not found**" : l->path, via ? via : "",
                l->requested_by ? l->requested_by : "");
    }
    for (size_t i = 0; i < tr->n_divergences; i++) {
        const struct td_trace_divergence *d = &tr->divergences[i];
        fprintf(out, "%s- `%s`: predicted `%s`, loaded `%s`: %s\n",
                i ? "" : "\n**Divergences from the static model**\n\n", d->name,
                d->predicted ? d->predicted : "nothing", d->loaded ? d->loaded : "nothing", d->why);
    }
}
