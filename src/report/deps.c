/* Text, JSON, markdown and dot views of a dependency graph. */
#include "report/deps.h"

#include <stdlib.h>
#include <string.h>

#include "report/envelope.h"
#include "report/html.h"
#include "report/jsonw.h"

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/'), *b = strrchr(path, '\\');
    const char *p = s > b ? s : b;
    return p ? p + 1 : path;
}

/* Appends S to OUT (*LEN bytes used of CAP), truncated as snprintf
 * truncates: cheaper than a printf call per library. */
static void append(char *out, size_t cap, size_t *len, const char *s)
{
    size_t n = strlen(s);
    if (*len + n >= cap)
        n = cap - 1 - *len;
    memcpy(out + *len, s, n);
    *len += n;
    out[*len] = '\0';
}

const char *td_found_via(const struct td_object *o, char *out, size_t cap)
{
    size_t len = 0;
    if (!cap)
        return out;
    out[0] = '\0';
    append(out, cap, &len, td_rule_name(o->found_via));
    if (o->found_origin) {
        append(out, cap, &len, " of ");
        append(out, cap, &len, base_name(o->found_origin));
    }
    return out;
}

/* The edges of G grouped by the object at one end, each group in edge
 * order: built once per report instead of a scan of every edge for every
 * library (291 libraries x 1,250 edges for torch's _C). Group I is
 * edges[start[I], start[I + 1]). Without memory for them (start NULL) the
 * writers scan the edges as before. */
struct edge_groups {
    size_t *start; /* per object index, and one more */
    const struct td_edge **edges;
};

static bool in_graph(const struct td_graph *g, const struct td_object *o)
{
    return o && o->index < g->count && g->objects[o->index] == o;
}

static struct edge_groups edge_groups(const struct td_graph *g, bool by_from)
{
    struct edge_groups eg = {calloc(g->count + 2, sizeof *eg.start),
                             malloc((g->n_edges + 1) * sizeof *eg.edges)};
    if (!eg.start || !eg.edges) {
        free(eg.start);
        free(eg.edges);
        return (struct edge_groups){NULL, NULL};
    }
    /* Counts at [i + 2], summed, then filled through [i + 1]: start[i]
     * ends as the first of group i and start[i + 1] as its end. */
    for (size_t i = 0; i < g->n_edges; i++) {
        const struct td_object *o = by_from ? g->edges[i].from : g->edges[i].to;
        if (in_graph(g, o))
            eg.start[o->index + 2]++;
    }
    for (size_t i = 2; i < g->count + 2; i++)
        eg.start[i] += eg.start[i - 1];
    for (size_t i = 0; i < g->n_edges; i++) {
        const struct td_object *o = by_from ? g->edges[i].from : g->edges[i].to;
        if (in_graph(g, o))
            eg.edges[eg.start[o->index + 1]++] = &g->edges[i];
    }
    return eg;
}

static void edge_groups_free(struct edge_groups *eg)
{
    free(eg->start);
    free(eg->edges);
}

/* The first edge that loaded O (its probes explain how it was found);
 * TO groups the edges by target. */
static const struct td_edge *loading_edge(const struct td_graph *g, const struct edge_groups *to,
                                          const struct td_object *o)
{
    if (to->start) {
        if (!in_graph(g, o))
            return NULL;
        for (size_t i = to->start[o->index]; i < to->start[o->index + 1]; i++)
            if (to->edges[i]->res.newly_opened)
                return to->edges[i];
        return NULL;
    }
    for (size_t i = 0; i < g->n_edges; i++)
        if (g->edges[i].to == o && g->edges[i].res.newly_opened)
            return &g->edges[i];
    return NULL;
}

/* ---- text ---- */

struct tree {
    const struct td_graph *g;
    const struct td_term *t;
    unsigned char *printed; /* per object index */
    struct edge_groups from;
    char prefix[512];
};

static void print_probes(struct tree *tr, const struct td_resolution *r, const char *indent)
{
    const struct td_term *t = tr->t;
    fprintf(t->out, "%s%s   tried in this order:%s\n", tr->prefix, indent,
            td_term_style(t, TD_STYLE_RESET));
    for (size_t i = 0; i < r->n_probes; i++) {
        const struct td_probe *p = &r->probes[i];
        fprintf(t->out, "%s%s   %s%2zu. %s%s [%s%s%s] %s%s%s\n", tr->prefix, indent,
                td_term_style(t, TD_STYLE_DIM), i + 1, p->path ? p->path : "(no path)",
                td_term_style(t, TD_STYLE_RESET), td_rule_name(p->rule), p->origin ? " of " : "",
                p->origin ? base_name(p->origin) : "", td_verdict_name(p->verdict),
                p->detail ? ": " : "", p->detail ? p->detail : "");
    }
}

static void print_children(struct tree *tr, const struct td_object *o);

static void print_edge(struct tree *tr, const struct td_edge *e, bool last)
{
    const struct td_term *t = tr->t;
    char via[512];
    const char *branch = last ? "└── " : "├── ";
    if (!e->to && e->res.in_shared_cache) {
        fprintf(t->out, "%s%s%s %s[dyld shared cache]%s\n", tr->prefix, branch, e->name,
                td_term_style(t, TD_STYLE_CYAN), td_term_style(t, TD_STYLE_RESET));
        return;
    }
    if (!e->to) {
        enum td_style st = e->weak || e->delay ? TD_STYLE_YELLOW : TD_STYLE_RED;
        fprintf(t->out, "%s%s%s%s not found%s%s\n", tr->prefix, branch, td_term_style(t, st),
                e->name,
                e->delay  ? " (delay-load)"
                : e->weak ? " (weak)"
                          : "",
                td_term_style(t, TD_STYLE_RESET));
        print_probes(tr, &e->res, last ? "    " : "│   ");
        return;
    }
    /* The tree follows the edges that loaded each object: a library's own
     * needs are listed under the library that caused it to load, once. */
    bool first = e->res.newly_opened && !tr->printed[e->to->index];
    const char *how = e->res.newly_opened ? td_found_via(e->to, via, sizeof via)
                                          : td_rule_name(TD_RULE_ALREADY_LOADED);
    fprintf(t->out, "%s%s%s%s%s %s[%s]%s %s%s%s\n", tr->prefix, branch,
            first ? td_term_style(t, TD_STYLE_BOLD) : "", e->name, td_term_style(t, TD_STYLE_RESET),
            td_term_style(t, TD_STYLE_CYAN), how, td_term_style(t, TD_STYLE_RESET),
            td_term_style(t, TD_STYLE_DIM), e->to->path, td_term_style(t, TD_STYLE_RESET));
    if (!first)
        return;
    tr->printed[e->to->index] = 1;
    size_t len = strlen(tr->prefix);
    if (len + 8 < sizeof tr->prefix) {
        strcat(tr->prefix, last ? "    " : "│   ");
        print_children(tr, e->to);
        tr->prefix[len] = '\0';
    }
}

static void print_children(struct tree *tr, const struct td_object *o)
{
    const struct td_graph *g = tr->g;
    if (tr->from.start && in_graph(g, o)) {
        size_t first = tr->from.start[o->index], end = tr->from.start[o->index + 1];
        for (size_t i = first; i < end; i++)
            print_edge(tr, tr->from.edges[i], i + 1 == end);
        return;
    }
    size_t last = SIZE_MAX;
    for (size_t i = 0; i < g->n_edges; i++)
        if (g->edges[i].from == o)
            last = i;
    for (size_t i = 0; i < g->n_edges; i++)
        if (g->edges[i].from == o)
            print_edge(tr, &g->edges[i], i == last);
}

void td_deps_text(const struct td_graph *g, const struct td_term *t)
{
    struct tree tr = {g, t, calloc(g->count + 1, 1), edge_groups(g, true), ""};
    if (!tr.printed) {
        edge_groups_free(&tr.from);
        return;
    }
    fprintf(t->out, "%splatform %s, profile %s%s\n", td_term_style(t, TD_STYLE_DIM),
            td_platform_name(g->cfg.platform), td_profile_name(g->cfg.profile),
            td_term_style(t, TD_STYLE_RESET));
    for (size_t r = 0; r < g->n_roots; r++) {
        const struct td_object *o = g->objects[r];
        char via[256] = "";
        if (o->found_via != TD_RULE_ROOT) /* loaded by the profile, not named: say how */
            snprintf(via, sizeof via, " [%s]", td_rule_name(o->found_via));
        fprintf(t->out, "%s%s%s %s(%s)%s%s\n", td_term_style(t, TD_STYLE_BOLD), o->path,
                td_term_style(t, TD_STYLE_RESET), td_term_style(t, TD_STYLE_DIM), o->arch, via,
                td_term_style(t, TD_STYLE_RESET));
        tr.printed[o->index] = 1;
        if (o->kind == TD_FILE_ELF && !o->u.elf.interp && o->u.elf.needed_count == 0 &&
            (o->u.elf.type == TD_ET_EXEC || (o->u.elf.dyn.flags_1 & TD_DF_1_PIE)))
            fprintf(t->out, "%s    statically linked: needs no shared library%s\n",
                    td_term_style(t, TD_STYLE_DIM), td_term_style(t, TD_STYLE_RESET));
        print_children(&tr, o);
    }
    free(tr.printed);
    edge_groups_free(&tr.from);
    size_t missing = 0;
    for (size_t i = 0; i < g->n_edges; i++)
        missing += g->edges[i].to == NULL && !g->edges[i].res.in_shared_cache;
    size_t loaded = g->count - g->n_roots;
    fprintf(t->out, "\n%zu librar%s loaded, %zu dependenc%s not found", loaded,
            loaded == 1 ? "y" : "ies", missing, missing == 1 ? "y" : "ies");
    if (g->opts.bind_symbols && g->objects[0]->kind == TD_FILE_ELF)
        fprintf(t->out, ", %zu distinct symbol references checked", g->symbols_checked);
    fprintf(t->out, "\n");
    if (g->findings.count) {
        fprintf(t->out, "\n");
        td_findings_text(t, &g->findings);
    } else {
        fprintf(t->out, "%s✓ everything resolves%s\n", td_term_style(t, TD_STYLE_GREEN),
                td_term_style(t, TD_STYLE_RESET));
    }
}

/* ---- JSON ---- */

static void json_probes(struct td_jsonw *w, const struct td_resolution *r)
{
    td_jw_key(w, "searched");
    td_jw_begin_array(w);
    for (size_t i = 0; r && i < r->n_probes; i++) {
        const struct td_probe *p = &r->probes[i];
        td_jw_begin_object_inline(w);
        td_jw_kstr(w, "path", p->path);
        td_jw_kstr(w, "rule", td_rule_name(p->rule));
        td_jw_kstr(w, "origin", p->origin);
        td_jw_kstr(w, "verdict", td_verdict_name(p->verdict));
        if (p->detail)
            td_jw_kstr(w, "detail", p->detail);
        td_jw_end_object(w);
    }
    td_jw_end_array(w);
}

/* Who needs TO, or (TO NULL) the library MISSING_NAME that was not found. */
static void json_needed_by(struct td_jsonw *w, const struct td_graph *g,
                           const struct edge_groups *by_to, const struct td_object *to,
                           const char *missing_name)
{
    td_jw_key(w, "needed_by");
    td_jw_begin_array(w);
    if (to && by_to->start && in_graph(g, to)) {
        for (size_t i = by_to->start[to->index]; i < by_to->start[to->index + 1]; i++)
            td_jw_string(w, by_to->edges[i]->from->path);
        td_jw_end_array(w);
        return;
    }
    for (size_t i = 0; i < g->n_edges; i++) {
        const struct td_edge *e = &g->edges[i];
        if ((to && e->to == to) ||
            (!to && !e->to && missing_name && strcmp(e->name, missing_name) == 0))
            td_jw_string(w, e->from->path);
    }
    td_jw_end_array(w);
}

static void json_object_entry(struct td_jsonw *w, const struct td_graph *g,
                              const struct edge_groups *by_to, const struct td_object *o)
{
    char via[512];
    const struct td_edge *e = loading_edge(g, by_to, o);
    td_jw_begin_object(w);
    td_jw_kstr(w, "name", e ? e->name : o->name);
    td_jw_kstr(w, "path", o->path);
    td_jw_kstr(w, "found_via", td_found_via(o, via, sizeof via));
    td_jw_kstr(w, "arch", o->arch);
    td_jw_kstr(w, "status", o->found_via == TD_RULE_ROOT ? "root" : o->is_stub ? "stub" : "found");
    td_jw_kstr(w, "soname", o->identity);
    td_jw_kuint(w, "depth", o->depth);
    json_needed_by(w, g, by_to, o, NULL);
    json_probes(w, e ? &e->res : NULL);
    td_jw_end_object(w);
}

void td_deps_json(const struct td_graph *g, FILE *out)
{
    static struct td_jsonw w;
    td_jw_init(&w, out, true);
    td_envelope_begin(&w, "deps", td_platform_name(g->cfg.platform));
    td_deps_json_body(&w, g);
    td_envelope_findings(&w, &g->findings);
    td_envelope_end(&w);
}

void td_deps_json_body(struct td_jsonw *w, const struct td_graph *g)
{
    td_jw_kstr(w, "profile", td_profile_name(g->cfg.profile));
    td_jw_kstr(w, "root", g->cfg.root);
    td_jw_key(w, "libraries");
    td_jw_begin_array(w);
    struct edge_groups by_to = edge_groups(g, false);
    for (size_t i = 0; i < g->count; i++)
        json_object_entry(w, g, &by_to, g->objects[i]);
    for (size_t i = 0; i < g->n_edges; i++) {
        const struct td_edge *e = &g->edges[i];
        bool first = !e->to;
        for (size_t k = 0; first && k < i; k++)
            first = g->edges[k].to || strcmp(g->edges[k].name, e->name) != 0;
        if (!first)
            continue;
        td_jw_begin_object(w);
        td_jw_kstr(w, "name", e->name);
        td_jw_kstr(w, "path", NULL);
        td_jw_kstr(w, "found_via", NULL);
        td_jw_kstr(w, "arch", NULL);
        td_jw_kstr(w, "status",
                   e->res.in_shared_cache       ? "in_shared_cache"
                   : e->res.fatal_wrong_machine ? "wrong_architecture"
                   : e->delay                   ? "missing_delay_load"
                   : e->weak                    ? "missing_weak"
                                                : "missing");
        json_needed_by(w, g, &by_to, NULL, e->name);
        json_probes(w, &e->res);
        td_jw_end_object(w);
    }
    edge_groups_free(&by_to);
    td_jw_end_array(w);
    td_jw_key(w, "symbols");
    td_jw_begin_object(w);
    td_jw_kbool(w, "bound", g->opts.bind_symbols && g->objects[0]->kind == TD_FILE_ELF);
    td_jw_kuint(w, "distinct_references", g->symbols_checked);
    td_jw_kstr(w, "interpreter", g->interpreter ? g->interpreter->path : NULL);
    td_jw_key(w, "unbound");
    td_jw_begin_array(w);
    for (size_t i = 0; i < g->n_unbound; i++) {
        const struct td_unbound *u = &g->unbound[i];
        td_jw_begin_object_inline(w);
        td_jw_kstr(w, "object", u->object->path);
        td_jw_kuint(w, "count", u->total);
        td_jw_key(w, "first");
        td_jw_begin_array(w);
        for (size_t k = 0; k < u->shown; k++)
            td_jw_string(w, u->symbols[k]);
        td_jw_end_array(w);
        td_jw_end_object(w);
    }
    td_jw_end_array(w);
    td_jw_end_object(w);
}

/* ---- markdown ---- */

void td_deps_markdown(const struct td_graph *g, FILE *out)
{
    char via[512];
    fprintf(out, "### torchdoctor deps: %s\n\nplatform %s, profile %s\n\n", g->objects[0]->path,
            td_platform_name(g->cfg.platform), td_profile_name(g->cfg.profile));
    fprintf(out, "| library | found via | path |\n|---|---|---|\n");
    for (size_t i = g->n_roots; i < g->count; i++)
        fprintf(out, "| `%s` | %s | `%s` |\n", g->objects[i]->name,
                td_found_via(g->objects[i], via, sizeof via), g->objects[i]->path);
    for (size_t i = 0; i < g->n_edges; i++)
        if (!g->edges[i].to)
            fprintf(out, "| `%s` | **not found** (needed by `%s`) | |\n", g->edges[i].name,
                    base_name(g->edges[i].from->path));
    fprintf(out, "\n");
    if (!g->findings.count)
        fprintf(out, "No problems found.\n");
    for (size_t i = 0; i < g->findings.count; i++) {
        const struct td_finding *f = &g->findings.items[i];
        fprintf(out, "- **%s** `%s`: %s\n", td_severity_name(f->severity), f->kind, f->detail);
        if (f->fix)
            fprintf(out, "  - fix: %s\n", f->fix);
    }
}

/* ---- html ---- */

struct html_tree {
    const struct td_graph *g;
    FILE *out;
    unsigned char *printed; /* per object index */
    struct edge_groups from;
    unsigned depth;
};

static void html_probes(FILE *out, const struct td_resolution *r, bool open)
{
    if (r->n_probes == 0)
        return;
    fprintf(out,
            "<details class=\"tried\"%s><summary>%zu place%s tried</summary><ol class=\"tried\">",
            open ? " open" : "", r->n_probes, r->n_probes == 1 ? "" : "s");
    for (size_t i = 0; i < r->n_probes; i++) {
        const struct td_probe *p = &r->probes[i];
        fputs("<li><code>", out);
        td_html_text(out, p->path ? p->path : "(no path)");
        fprintf(out, "</code> [%s", td_rule_name(p->rule));
        if (p->origin) {
            fputs(" of ", out);
            td_html_text(out, base_name(p->origin));
        }
        fprintf(out, "] %s", td_verdict_name(p->verdict));
        if (p->detail) {
            fputs(": ", out);
            td_html_text(out, p->detail);
        }
        fputs("</li>", out);
    }
    fputs("</ol></details>", out);
}

static void html_children(struct html_tree *tr, const struct td_object *o);

static void html_edge(struct html_tree *tr, const struct td_edge *e)
{
    FILE *out = tr->out;
    char via[512];
    if (!e->to) {
        bool soft = e->weak || e->delay || e->res.in_shared_cache;
        fprintf(out, "<li class=\"%s\" data-library=\"", soft ? "soft" : "missing");
        td_html_text(out, e->name);
        fputs("\"><code>", out);
        td_html_text(out, e->name);
        fprintf(out, "</code> %s ",
                e->res.in_shared_cache ? "[dyld shared cache]"
                : e->delay             ? "not found (delay-load)"
                : e->weak              ? "not found (weak)"
                                       : "<b>not found</b>");
        html_probes(out, &e->res, true);
        fputs("</li>\n", out);
        return;
    }
    bool first = e->res.newly_opened && !tr->printed[e->to->index];
    const char *how = e->res.newly_opened ? td_found_via(e->to, via, sizeof via)
                                          : td_rule_name(TD_RULE_ALREADY_LOADED);
    fputs("<li data-library=\"", out);
    td_html_text(out, e->name);
    fputs("\">", out);
    bool nest = first && tr->depth < 64;
    if (nest)
        fputs("<details open><summary>", out);
    fputs(first ? "<code><b>" : "<code>", out);
    td_html_text(out, e->name);
    fputs(first ? "</b></code>" : "</code>", out);
    fputs(" <span class=\"via\">[", out);
    td_html_text(out, how);
    fputs("]</span> <span class=\"path\">", out);
    td_html_text(out, e->to->path);
    fputs("</span>", out);
    if (nest) {
        fputs("</summary>", out);
        html_probes(out, &e->res, false);
        tr->printed[e->to->index] = 1;
        tr->depth++;
        html_children(tr, e->to);
        tr->depth--;
        fputs("</details>", out);
    }
    fputs("</li>\n", out);
}

static void html_children(struct html_tree *tr, const struct td_object *o)
{
    const struct td_graph *g = tr->g;
    fputs("<ul class=\"tree\">\n", tr->out);
    if (tr->from.start && in_graph(g, o)) {
        for (size_t i = tr->from.start[o->index]; i < tr->from.start[o->index + 1]; i++)
            html_edge(tr, tr->from.edges[i]);
    } else {
        for (size_t i = 0; i < g->n_edges; i++)
            if (g->edges[i].from == o)
                html_edge(tr, &g->edges[i]);
    }
    fputs("</ul>\n", tr->out);
}

void td_deps_html_tree(const struct td_graph *g, FILE *out)
{
    struct html_tree tr = {g, out, calloc(g->count + 1, 1), edge_groups(g, true), 0};
    if (!tr.printed) {
        edge_groups_free(&tr.from);
        return;
    }
    fprintf(out,
            "<section id=\"tree\">\n<h2>Dependencies</h2>\n<p class=\"via\">platform %s, profile "
            "%s</p>\n",
            td_platform_name(g->cfg.platform), td_profile_name(g->cfg.profile));
    for (size_t r = 0; r < g->n_roots; r++) {
        const struct td_object *o = g->objects[r];
        tr.printed[o->index] = 1;
        fputs("<details open class=\"root\"><summary><code><b>", out);
        td_html_text(out, o->path);
        fputs("</b></code> <span class=\"via\">(", out);
        td_html_text(out, o->arch);
        fputs(")</span></summary>\n", out);
        html_children(&tr, o);
        fputs("</details>\n", out);
    }
    free(tr.printed);
    edge_groups_free(&tr.from);
    size_t missing = 0;
    for (size_t i = 0; i < g->n_edges; i++)
        missing += g->edges[i].to == NULL && !g->edges[i].res.in_shared_cache;
    fprintf(out, "<p>%zu libraries loaded, %zu dependencies not found</p>\n</section>\n",
            g->count - g->n_roots, missing);
}

void td_deps_html(const struct td_graph *g, FILE *out)
{
    char title[4200];
    snprintf(title, sizeof title, "torchdoctor deps: %s", g->count ? g->objects[0]->path : "");
    td_html_begin(out, title);
    td_html_findings(out, &g->findings);
    td_deps_html_tree(g, out);
    td_html_end(out);
}

/* ---- dot ---- */

void td_deps_dot(const struct td_graph *g, FILE *out)
{
    fprintf(out, "digraph deps {\n  rankdir=LR;\n  node [shape=box, fontname=\"monospace\"];\n");
    for (size_t i = 0; i < g->count; i++)
        fprintf(out, "  n%zu [label=\"%s\"%s];\n", i, base_name(g->objects[i]->path),
                g->objects[i]->is_stub ? ", color=orange" : "");
    size_t missing = 0;
    for (size_t i = 0; i < g->n_edges; i++) {
        const struct td_edge *e = &g->edges[i];
        if (e->to) {
            fprintf(out, "  n%u -> n%u%s;\n", e->from->index, e->to->index,
                    e->delay ? " [style=dashed]" : "");
        } else {
            fprintf(out, "  m%zu [label=\"%s\\nnot found\", color=red, fontcolor=red];\n", missing,
                    e->name);
            fprintf(out, "  n%u -> m%zu [color=red];\n", e->from->index, missing++);
        }
    }
    fprintf(out, "}\n");
}
