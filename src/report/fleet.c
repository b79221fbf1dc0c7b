/* The fleet report (report/fleet.h). Every view walks the same value in
 * the same order: a summary, the groups (majority first), slow nodes,
 * failed nodes, unreadable reports, then the findings. */
#include "report/fleet.h"

#include <string.h>

#include "report/envelope.h"
#include "report/html.h"
#include "report/jsonw.h"

static size_t count_state(const struct td_fleet *f, enum td_fleet_state s)
{
    size_t n = 0;
    for (size_t i = 0; i < f->n_nodes; i++)
        n += f->nodes[i].state == s;
    return n;
}

static size_t count_slow(const struct td_fleet *f)
{
    size_t n = 0;
    for (size_t i = 0; i < f->n_nodes; i++)
        n += f->nodes[i].slow != 0;
    return n;
}

/* "driver 550.54.15, 8 x NVIDIA H100, ..." for a fingerprint. */
static void fingerprint_words(const char *const *fields, char *out, size_t cap)
{
    size_t len = 0;
    out[0] = '\0';
    for (int k = 0; k < TD_FLEET_FIELDS && len < cap; k++)
        len += (size_t)snprintf(out + len, cap - len, "%s%s %s", k ? ", " : "",
                                td_fleet_field_name(k), fields[k] ? fields[k] : "(none)");
}

static void diff_words(const struct td_fleet *f, const struct td_fleet_group *g, char *out,
                       size_t cap)
{
    size_t len = 0;
    out[0] = '\0';
    for (int k = 0; k < TD_FLEET_FIELDS && len < cap; k++)
        if (g->differs >> k & 1)
            len += (size_t)snprintf(out + len, cap - len, "%s%s %s (fleet %s)", len ? ", " : "",
                                    td_fleet_field_name(k), g->fields[k] ? g->fields[k] : "(none)",
                                    f->groups[0].fields[k] ? f->groups[0].fields[k] : "(none)");
}

static void summary(const struct td_fleet *f, char *out, size_t cap)
{
    snprintf(out, cap,
             "%zu node%s from %zu report%s: %zu group%s, %zu slow, %zu failed, timed out or "
             "missing, %zu unreadable",
             f->n_nodes, f->n_nodes == 1 ? "" : "s", f->reports_read,
             f->reports_read == 1 ? "" : "s", f->n_groups, f->n_groups == 1 ? "" : "s",
             count_slow(f),
             count_state(f, TD_FLEET_FAILED) + count_state(f, TD_FLEET_TIMED_OUT) +
                 count_state(f, TD_FLEET_MISSING),
             f->n_problems);
}

/* ---- text ---- */

void td_fleet_text(const struct td_fleet *f, const struct td_term *t)
{
    const char *bold = td_term_style(t, TD_STYLE_BOLD), *reset = td_term_style(t, TD_STYLE_RESET);
    const char *red = td_term_style(t, TD_STYLE_RED), *yellow = td_term_style(t, TD_STYLE_YELLOW);
    const char *green = td_term_style(t, TD_STYLE_GREEN);
    char line[4096];
    summary(f, line, sizeof line);
    fprintf(t->out, "%sfleet%s: %s\n", bold, reset, line);
    for (size_t k = 0; k < f->n_groups; k++) {
        const struct td_fleet_group *g = &f->groups[k];
        if (k == 0) {
            fingerprint_words(g->fields, line, sizeof line);
            fprintf(t->out, "\n%s✓ majority%s %s (%zu node%s)\n    %s\n", green, reset, g->hosts,
                    g->n, g->n == 1 ? "" : "s", line);
        } else {
            diff_words(f, g, line, sizeof line);
            fprintf(t->out, "%s✗ outlier%s  %s (%zu node%s): %s\n", red, reset, g->hosts, g->n,
                    g->n == 1 ? "" : "s", line);
        }
        if (g->fix)
            fprintf(t->out, "    fix (%s): %s\n", g->fix_why, g->fix);
    }
    for (size_t i = 0; i < f->n_nodes; i++) {
        const struct td_fleet_node *n = &f->nodes[i];
        for (int m = 0; m < TD_FLEET_METRICS; m++)
            if (n->slow >> m & 1)
                fprintf(t->out,
                        "%s! slow%s     %s: %s %.1f %s, fleet median %.1f (deviation %.1f)\n",
                        yellow, reset, n->host, td_fleet_metric_name(m), n->bench[m],
                        td_fleet_metric_unit(m), f->median[m], f->mad[m]);
        if (n->state == TD_FLEET_FAILED || n->state == TD_FLEET_TIMED_OUT ||
            n->state == TD_FLEET_MISSING)
            fprintf(t->out, "%s✗ %s%s %s: %s\n", red,
                    n->state == TD_FLEET_FAILED      ? "failed "
                    : n->state == TD_FLEET_TIMED_OUT ? "timeout"
                                                     : "missing",
                    reset, n->host, n->state_detail ? n->state_detail : "");
        else if (n->state == TD_FLEET_NO_CHECK)
            fprintf(t->out, "%s! no check%s %s: only a bench report names it\n", yellow, reset,
                    n->host);
    }
    for (size_t i = 0; i < f->n_problems; i++)
        fprintf(t->out, "%s✗ unreadable%s %s: %s\n", red, reset, f->problems[i].where,
                f->problems[i].what);
    if (f->findings.count) {
        fprintf(t->out, "\n%sfindings%s\n", bold, reset);
        td_findings_text(t, &f->findings);
    }
}

/* ---- JSON ---- */

static void json_fields(struct td_jsonw *w, const char *const *fields)
{
    td_jw_key(w, "fingerprint");
    td_jw_begin_object(w);
    for (int k = 0; k < TD_FLEET_FIELDS; k++)
        td_jw_kstr(w, td_fleet_field_name(k), fields[k]);
    td_jw_end_object(w);
}

static void json_groups(struct td_jsonw *w, const struct td_fleet *f)
{
    td_jw_key(w, "groups");
    td_jw_begin_array(w);
    for (size_t k = 0; k < f->n_groups; k++) {
        const struct td_fleet_group *g = &f->groups[k];
        td_jw_begin_object(w);
        td_jw_kstr(w, "hosts", g->hosts);
        td_jw_kuint(w, "count", g->n);
        td_jw_kbool(w, "majority", k == 0);
        json_fields(w, g->fields);
        td_jw_key(w, "differs");
        td_jw_begin_array(w);
        for (int x = 0; x < TD_FLEET_FIELDS; x++) {
            if (!(g->differs >> x & 1))
                continue;
            td_jw_begin_object_inline(w);
            td_jw_kstr(w, "field", td_fleet_field_name(x));
            td_jw_kstr(w, "value", g->fields[x]);
            td_jw_kstr(w, "fleet", f->groups[0].fields[x]);
            td_jw_end_object(w);
        }
        td_jw_end_array(w);
        td_jw_kstr(w, "fix", g->fix);
        td_jw_kstr(w, "fix_for", g->fix_why);
        td_jw_end_object(w);
    }
    td_jw_end_array(w);
}

static void json_nodes(struct td_jsonw *w, const struct td_fleet *f)
{
    td_jw_key(w, "slow");
    td_jw_begin_array(w);
    for (size_t i = 0; i < f->n_nodes; i++)
        for (int m = 0; m < TD_FLEET_METRICS; m++)
            if (f->nodes[i].slow >> m & 1) {
                td_jw_begin_object_inline(w);
                td_jw_kstr(w, "host", f->nodes[i].host);
                td_jw_kstr(w, "metric", td_fleet_metric_name(m));
                td_jw_key(w, "value");
                td_jw_fixed(w, f->nodes[i].bench[m], 3);
                td_jw_kstr(w, "unit", td_fleet_metric_unit(m));
                td_jw_key(w, "median");
                td_jw_fixed(w, f->median[m], 3);
                td_jw_key(w, "mad");
                td_jw_fixed(w, f->mad[m], 3);
                td_jw_end_object(w);
            }
    td_jw_end_array(w);
    td_jw_key(w, "unfinished");
    td_jw_begin_array(w);
    for (size_t i = 0; i < f->n_nodes; i++) {
        const struct td_fleet_node *n = &f->nodes[i];
        if (n->state == TD_FLEET_OK)
            continue;
        td_jw_begin_object_inline(w);
        td_jw_kstr(w, "host", n->host);
        td_jw_kstr(w, "state", td_fleet_state_name(n->state));
        td_jw_kstr(w, "detail", n->state_detail);
        td_jw_end_object(w);
    }
    td_jw_end_array(w);
    td_jw_key(w, "unreadable");
    td_jw_begin_array(w);
    for (size_t i = 0; i < f->n_problems; i++) {
        td_jw_begin_object_inline(w);
        td_jw_kstr(w, "where", f->problems[i].where);
        td_jw_kstr(w, "error", f->problems[i].what);
        td_jw_end_object(w);
    }
    td_jw_end_array(w);
}

static void json_bench(struct td_jsonw *w, const struct td_fleet *f)
{
    td_jw_key(w, "bench");
    td_jw_begin_object(w);
    for (int m = 0; m < TD_FLEET_METRICS; m++) {
        td_jw_key(w, td_fleet_metric_name(m));
        td_jw_begin_object_inline(w);
        td_jw_kuint(w, "nodes", f->measured[m]);
        td_jw_kstr(w, "unit", td_fleet_metric_unit(m));
        td_jw_key(w, "median");
        if (f->measured[m] >= 3)
            td_jw_fixed(w, f->median[m], 3);
        else
            td_jw_null(w);
        td_jw_key(w, "mad");
        if (f->measured[m] >= 3)
            td_jw_fixed(w, f->mad[m], 3);
        else
            td_jw_null(w);
        td_jw_end_object(w);
    }
    td_jw_end_object(w);
}

void td_fleet_json(const struct td_fleet *f, FILE *out)
{
    static struct td_jsonw w;
    td_jw_init(&w, out, true);
    td_envelope_begin(&w, "fleet", td_host_platform());
    td_envelope_findings(&w, &f->findings);
    td_jw_key(&w, "fleet");
    td_jw_begin_object(&w);
    td_jw_kuint(&w, "nodes", f->n_nodes);
    td_jw_kuint(&w, "reports", f->reports_read);
    json_groups(&w, f);
    json_nodes(&w, f);
    json_bench(&w, f);
    td_jw_end_object(&w);
    td_envelope_end(&w);
}

/* ---- markdown ---- */

static void md_cell(FILE *out, const char *s)
{
    for (; s && *s; s++) {
        if (*s == '|')
            fputs("\\|", out);
        else if (*s == '\n')
            fputc(' ', out);
        else
            fputc(*s, out);
    }
}

void td_fleet_markdown(const struct td_fleet *f, FILE *out)
{
    char line[4096];
    summary(f, line, sizeof line);
    fprintf(out,
            "## torchdoctor fleet\n\n%s\n\n| nodes | count | differs from the fleet | fix |\n"
            "|---|---|---|---|\n",
            line);
    for (size_t k = 0; k < f->n_groups; k++) {
        const struct td_fleet_group *g = &f->groups[k];
        fputs("| `", out);
        md_cell(out, g->hosts);
        fprintf(out, "` | %zu | ", g->n);
        if (k == 0) {
            fingerprint_words(g->fields, line, sizeof line);
            fputs("majority: ", out);
        } else {
            diff_words(f, g, line, sizeof line);
        }
        md_cell(out, line);
        fputs(" | ", out);
        if (g->fix) {
            fputc('`', out);
            md_cell(out, g->fix);
            fputc('`', out);
        }
        fputs(" |\n", out);
    }
    fputs("\n", out);
    for (size_t i = 0; i < f->findings.count; i++) {
        const struct td_finding *x = &f->findings.items[i];
        fprintf(out, "- **%s** `%s`: ", td_severity_name(x->severity), x->kind);
        md_cell(out, x->detail);
        fputs("\n", out);
    }
    for (size_t i = 0; i < f->n_problems; i++) {
        fputs("- **unreadable** ", out);
        md_cell(out, f->problems[i].where);
        fputs(": ", out);
        md_cell(out, f->problems[i].what);
        fputs("\n", out);
    }
}

/* ---- HTML ---- */

void td_fleet_html(const struct td_fleet *f, FILE *out)
{
    char line[4096];
    td_html_begin(out, "torchdoctor fleet");
    summary(f, line, sizeof line);
    fputs("<h1>torchdoctor fleet</h1>\n<p>", out);
    td_html_text(out, line);
    fputs("</p>\n", out);
    td_html_findings(out, &f->findings);
    fputs("<section id=\"groups\"><h2>Groups</h2>\n<table>\n<tr><th>nodes</th><th>count</th>"
          "<th>differs from the fleet</th><th>fix</th></tr>\n",
          out);
    for (size_t k = 0; k < f->n_groups; k++) {
        const struct td_fleet_group *g = &f->groups[k];
        fputs("<tr><td><code>", out);
        td_html_text(out, g->hosts);
        fprintf(out, "</code></td><td>%zu</td><td>", g->n);
        if (k == 0) {
            fingerprint_words(g->fields, line, sizeof line);
            fputs("majority: ", out);
        } else {
            diff_words(f, g, line, sizeof line);
        }
        td_html_text(out, line);
        fputs("</td><td>", out);
        if (g->fix) {
            fputs("<code>", out);
            td_html_text(out, g->fix);
            fputs("</code>", out);
        }
        fputs("</td></tr>\n", out);
    }
    fputs("</table></section>\n", out);
    if (f->n_problems) {
        fputs("<section id=\"unreadable\"><h2>Unreadable reports</h2><ul>\n", out);
        for (size_t i = 0; i < f->n_problems; i++) {
            fputs("<li>", out);
            td_html_text(out, f->problems[i].where);
            fputs(": ", out);
            td_html_text(out, f->problems[i].what);
            fputs("</li>\n", out);
        }
        fputs("</ul></section>\n", out);
    }
    td_html_end(out);
}
