/* Shared JSON envelope and the text view of findings. */
#include "report/envelope.h"

void td_envelope_begin(struct td_jsonw *w, const char *command, const char *platform)
{
    td_jw_begin_object(w);
    td_jw_kstr(w, "tool", "torchdoctor");
    td_jw_kstr(w, "version", TD_VERSION);
    td_jw_kint(w, "schema_version", TD_SCHEMA_VERSION);
    td_jw_kstr(w, "command", command);
    td_jw_kstr(w, "platform", platform);
}

void td_envelope_host(struct td_jsonw *w, const char *host)
{
    td_jw_kstr(w, "host", host);
}

void td_envelope_finding_fields(struct td_jsonw *w, const struct td_finding *x)
{
    td_jw_kstr(w, "severity", td_severity_name(x->severity));
    td_jw_kstr(w, "kind", x->kind);
    td_jw_kstr(w, "library", x->library);
    td_jw_kstr(w, "needed_by", x->needed_by);
    td_jw_kstr(w, "symbol", x->symbol);
    td_jw_kstr(w, "detail", x->detail);
    td_jw_kstr(w, "fix", x->fix);
}

void td_envelope_findings(struct td_jsonw *w, const struct td_findings *f)
{
    td_jw_key(w, "findings");
    td_jw_begin_array(w);
    for (size_t i = 0; i < f->count; i++) {
        td_jw_begin_object(w);
        td_envelope_finding_fields(w, &f->items[i]);
        td_jw_end_object(w);
    }
    td_jw_end_array(w);
}

void td_envelope_end(struct td_jsonw *w)
{
    td_jw_end_object(w);
    td_jw_finish(w);
}

static enum td_style severity_style(enum td_severity s)
{
    return s == TD_SEV_ERROR ? TD_STYLE_RED : s == TD_SEV_WARNING ? TD_STYLE_YELLOW : TD_STYLE_CYAN;
}

void td_findings_text(const struct td_term *t, const struct td_findings *f)
{
    static const char *const mark[] = {
        [TD_SEV_INFO] = "i", [TD_SEV_WARNING] = "!", [TD_SEV_ERROR] = "✗"};
    for (size_t i = 0; i < f->count; i++) {
        const struct td_finding *x = &f->items[i];
        fprintf(t->out, "%s%s %s%s [%s] %s\n", td_term_style(t, severity_style(x->severity)),
                mark[x->severity], td_severity_name(x->severity), td_term_style(t, TD_STYLE_RESET),
                x->kind, x->detail);
        if (x->needed_by)
            fprintf(t->out, "    needed by %s\n", x->needed_by);
        if (x->fix)
            fprintf(t->out, "    fix: %s\n", x->fix);
    }
}
