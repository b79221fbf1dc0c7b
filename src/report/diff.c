/* diff and log views: breaking and risky changes one by one with why they
 * matter and the findings they cause, neutral ones counted per area. */
#include "report/diff.h"

#include <string.h>

#include "report/envelope.h"
#include "report/html.h"
#include "report/jsonw.h"

static const char *or_none(const char *s)
{
    return s ? s : "(none)";
}

/* "torch" / "torch in /venv/bin/python". */
static void what(FILE *out, const struct td_change *c)
{
    fprintf(out, "%s %s", c->area, c->item);
    if (c->environment && *c->environment)
        fprintf(out, " (%s)", c->environment);
}

const char *td_diff_summary(const struct td_diff *d, char *out, size_t cap)
{
    if (d->n_changes == 0) {
        snprintf(out, cap, "no change");
        return out;
    }
    const struct td_change *c = &d->changes[0];
    int n = snprintf(out, cap, "%zu breaks, %zu risky, %zu neutral", d->count[TD_IMPACT_BREAKS],
                     d->count[TD_IMPACT_RISKY], d->count[TD_IMPACT_NEUTRAL]);
    if (n < 0 || (size_t)n >= cap || c->impact == TD_IMPACT_NEUTRAL)
        return out;
    n += snprintf(out + n, cap - (size_t)n, ": %s %s %s -> %s", c->area, c->item,
                  or_none(c->before), or_none(c->after));
    for (size_t i = 0; i < c->n_kinds && n > 0 && (size_t)n < cap; i++)
        n += snprintf(out + n, cap - (size_t)n, "%s%s", i ? ", " : " (", c->finding_kinds[i]);
    if (c->n_kinds && n > 0 && (size_t)n < cap)
        snprintf(out + n, cap - (size_t)n, ")");
    return out;
}

/* Neutral changes, as "3 package, 1 env". */
static void neutral_counts(FILE *out, const struct td_diff *d)
{
    const char *last = NULL;
    size_t n = 0;
    bool first = true;
    for (size_t i = 0; i <= d->n_changes; i++) {
        const struct td_change *c = i < d->n_changes ? &d->changes[i] : NULL;
        if (c && c->impact != TD_IMPACT_NEUTRAL)
            continue;
        if (last && (!c || strcmp(c->area, last) != 0)) {
            fprintf(out, "%s%zu %s", first ? "" : ", ", n, last);
            first = false, n = 0;
        }
        if (c)
            last = c->area, n++;
    }
}

static void change_lines(FILE *out, const struct td_change *c, const char *lead, const char *sub)
{
    fputs(lead, out);
    what(out, c);
    fprintf(out, ": %s -> %s\n%s%s\n", or_none(c->before), or_none(c->after), sub, c->detail);
    for (size_t i = 0; i < c->n_kinds; i++)
        fprintf(out, "%scauses %s\n", sub, c->finding_kinds[i]);
}

void td_diff_text(const struct td_diff *d, const struct td_term *t)
{
    static const enum td_style style[] = {TD_STYLE_RED, TD_STYLE_YELLOW, TD_STYLE_DIM};
    if (d->n_changes == 0)
        fprintf(t->out, "no change\n");
    for (size_t i = 0; i < d->n_changes; i++) {
        const struct td_change *c = &d->changes[i];
        if (c->impact == TD_IMPACT_NEUTRAL)
            break;
        char lead[64];
        snprintf(lead, sizeof lead, "%s%-6s%s ", td_term_style(t, style[c->impact]),
                 td_impact_name(c->impact), td_term_style(t, TD_STYLE_RESET));
        change_lines(t->out, c, lead, "       ");
    }
    if (d->count[TD_IMPACT_NEUTRAL]) {
        fprintf(t->out, "%sneutral%s %zu (", td_term_style(t, TD_STYLE_DIM),
                td_term_style(t, TD_STYLE_RESET), d->count[TD_IMPACT_NEUTRAL]);
        neutral_counts(t->out, d);
        fprintf(t->out, ")\n");
    }
    if (d->findings.count) {
        fprintf(t->out, "\n%snew findings%s\n", td_term_style(t, TD_STYLE_BOLD),
                td_term_style(t, TD_STYLE_RESET));
        td_findings_text(t, &d->findings);
    }
}

void td_diff_markdown(const struct td_diff *d, FILE *out)
{
    fprintf(out, "## torchdoctor diff\n\n");
    if (d->n_changes == 0)
        fprintf(out, "No change.\n");
    for (size_t i = 0; i < d->n_changes; i++) {
        const struct td_change *c = &d->changes[i];
        if (c->impact == TD_IMPACT_NEUTRAL)
            break;
        fprintf(out, "- **%s** `%s %s`%s%s%s: `%s` → `%s`. %s.", td_impact_name(c->impact), c->area,
                c->item, *c->environment ? " (" : "", c->environment, *c->environment ? ")" : "",
                or_none(c->before), or_none(c->after), c->detail);
        for (size_t k = 0; k < c->n_kinds; k++)
            fprintf(out, "%s`%s`", k ? ", " : " Causes ", c->finding_kinds[k]);
        fprintf(out, "\n");
    }
    if (d->count[TD_IMPACT_NEUTRAL]) {
        fprintf(out, "- %zu neutral changes (", d->count[TD_IMPACT_NEUTRAL]);
        neutral_counts(out, d);
        fprintf(out, ")\n");
    }
    if (d->findings.count) {
        fprintf(out, "\n### New findings\n\n");
        for (size_t i = 0; i < d->findings.count; i++) {
            const struct td_finding *x = &d->findings.items[i];
            fprintf(out, "- **%s** `%s`: %s%s%s%s\n", td_severity_name(x->severity), x->kind,
                    x->detail, x->fix ? " Fix: `" : "", x->fix ? x->fix : "", x->fix ? "`" : "");
        }
    }
}

/* ---- html ---- */

static void html_change(FILE *out, const struct td_change *c)
{
    fprintf(out, "<tr class=\"%s\"><td><b>%s</b></td><td><code>", td_impact_name(c->impact),
            td_impact_name(c->impact));
    td_html_text(out, c->area);
    fputs(" ", out);
    td_html_text(out, c->item);
    fputs("</code>", out);
    if (*c->environment) {
        fputs("<br><span class=\"path\">", out);
        td_html_text(out, c->environment);
        fputs("</span>", out);
    }
    fputs("</td><td><code>", out);
    td_html_text(out, or_none(c->before));
    fputs("</code> → <code>", out);
    td_html_text(out, or_none(c->after));
    fputs("</code></td><td>", out);
    td_html_text(out, c->detail);
    for (size_t k = 0; k < c->n_kinds; k++) {
        fputs(k ? ", " : " Causes ", out);
        fputs("<code>", out);
        td_html_text(out, c->finding_kinds[k]);
        fputs("</code>", out);
    }
    fputs("</td></tr>\n", out);
}

void td_diff_html(const struct td_diff *d, FILE *out)
{
    td_html_begin(out, "torchdoctor diff");
    char line[1024];
    fputs("<p class=\"verdict\">", out);
    td_html_text(out, td_diff_summary(d, line, sizeof line));
    fputs("</p>\n", out);
    td_html_findings(out, &d->findings);
    fputs("<section id=\"changes\">\n<h2>Changes, most harmful first</h2>\n", out);
    if (d->n_changes == 0)
        fputs("<p class=\"ok\">No change.</p>\n", out);
    else
        fputs("<table>\n<tr><th>impact</th><th>what</th><th>before → after</th><th>why it "
              "matters</th></tr>\n",
              out);
    for (size_t i = 0; i < d->n_changes; i++)
        html_change(out, &d->changes[i]);
    if (d->n_changes)
        fputs("</table>\n", out);
    fputs("</section>\n", out);
    td_html_end(out);
}

void td_diff_json(const struct td_diff *d, const char *old_taken, const char *new_taken, FILE *out)
{
    static struct td_jsonw w;
    td_jw_init(&w, out, true);
    td_envelope_begin(&w, "diff", td_host_platform());
    td_jw_kstr(&w, "old_taken_at", old_taken);
    td_jw_kstr(&w, "new_taken_at", new_taken);
    td_jw_key(&w, "counts");
    td_jw_begin_object_inline(&w);
    for (int i = TD_IMPACT_BREAKS; i <= TD_IMPACT_NEUTRAL; i++)
        td_jw_kuint(&w, td_impact_name((enum td_impact)i), d->count[i]);
    td_jw_end_object(&w);
    td_jw_key(&w, "changes");
    td_jw_begin_array(&w);
    for (size_t i = 0; i < d->n_changes; i++) {
        const struct td_change *c = &d->changes[i];
        td_jw_begin_object(&w);
        td_jw_kstr(&w, "area", c->area);
        td_jw_kstr(&w, "item", c->item);
        td_jw_kstr(&w, "environment", *c->environment ? c->environment : NULL);
        td_jw_kstr(&w, "before", c->before);
        td_jw_kstr(&w, "after", c->after);
        td_jw_kstr(&w, "impact", td_impact_name(c->impact));
        td_jw_kstr(&w, "detail", c->detail);
        td_jw_key(&w, "finding_kinds");
        td_jw_begin_array(&w);
        for (size_t k = 0; k < c->n_kinds; k++)
            td_jw_string(&w, c->finding_kinds[k]);
        td_jw_end_array(&w);
        td_jw_end_object(&w);
    }
    td_jw_end_array(&w);
    td_envelope_findings(&w, &d->findings);
    td_envelope_end(&w);
}

void td_log_text(const struct td_log_entry *e, size_t n, FILE *out)
{
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%4zu  %-20s  %s%s\n", e[i].line, e[i].taken_at ? e[i].taken_at : "?",
                e[i].first ? "first entry" : e[i].summary,
                e[i].new_errors ? "  [new error finding]" : "");
}

void td_log_json(const struct td_log_entry *e, size_t n, FILE *out)
{
    static struct td_jsonw w;
    static const struct td_findings none;
    td_jw_init(&w, out, true);
    td_envelope_begin(&w, "log", td_host_platform());
    td_jw_key(&w, "entries");
    td_jw_begin_array(&w);
    for (size_t i = 0; i < n; i++) {
        td_jw_begin_object_inline(&w);
        td_jw_kuint(&w, "line", e[i].line);
        td_jw_kstr(&w, "taken_at", e[i].taken_at);
        td_jw_kbool(&w, "first", e[i].first);
        for (int k = TD_IMPACT_BREAKS; k <= TD_IMPACT_NEUTRAL; k++)
            td_jw_kuint(&w, td_impact_name((enum td_impact)k), e[i].count[k]);
        td_jw_kuint(&w, "new_errors", e[i].new_errors);
        td_jw_kstr(&w, "summary", e[i].first ? NULL : e[i].summary);
        td_jw_end_object(&w);
    }
    td_jw_end_array(&w);
    td_envelope_findings(&w, &none);
    td_envelope_end(&w);
}
