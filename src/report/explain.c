/* The three views of an explained error message: JSON (the envelope, the
 * load error's finding with its ranked causes, and the "explain" section),
 * text for a terminal and markdown for a bug report. */
#include "report/explain.h"

#include <string.h>

#include "report/envelope.h"
#include "report/html.h"
#include "report/jsonw.h"

const char *td_local_note_text(const struct td_local_note *n, char *out, size_t cap)
{
    switch (n->kind) {
    case TD_LOCAL_MISSING:
        snprintf(out, cap,
                 "%s needs %s%s, which is in none of the %zu places the loader tries (%s%s)",
                 n->needed_by, n->library, n->delay ? " (delay-loaded)" : "", n->n_places, n->tried,
                 n->more_places ? ", ..." : "");
        break;
    case TD_LOCAL_DEFINED_LOADED:
        snprintf(out, cap, "%s defines %s and is loaded: the reference comes from elsewhere",
                 n->library, n->symbol);
        break;
    case TD_LOCAL_NEWER_COPY:
        snprintf(out, cap,
                 "%s needs %s%s%s, which %s defines; the loader takes %s, which does not: that "
                 "copy is older than the one %s was built against",
                 n->needed_by, n->symbol, n->version[0] ? "@" : "", n->version, n->other,
                 n->library, n->needed_by);
        break;
    case TD_LOCAL_NO_DEFINER:
        snprintf(out, cap,
                 "no library %s loads defines %s; it should come from one of its direct needs: "
                 "%s, so the copy found is older or a different build than the one it was linked "
                 "against",
                 n->needed_by, n->symbol, n->other);
        break;
    case TD_LOCAL_NOT_ANALYSED:
        snprintf(out, cap, "%s could not be analysed: %s", n->library, n->other);
        break;
    }
    return out;
}

static void json_fields(struct td_jsonw *w, const struct td_explain_fields *f)
{
    td_jw_key(w, "fields");
    td_jw_begin_object(w);
    td_jw_kstr(w, "file", f->file);
    td_jw_kstr(w, "file_name", f->file_name);
    td_jw_kstr(w, "needed_by", f->needed_by);
    td_jw_kstr(w, "module", f->module);
    td_jw_kstr(w, "symbol", f->symbol);
    td_jw_kstr(w, "version", f->version);
    td_jw_kstr(w, "error_code", f->error_code);
    td_jw_kstr(w, "win32_name", f->win32_name);
    td_jw_kstr(w, "ntstatus", f->ntstatus);
    td_jw_kstr(w, "ntstatus_name", f->ntstatus_name);
    td_jw_kstr(w, "language", f->language);
    td_jw_kstr(w, "cuda_driver", f->cuda_driver);
    td_jw_key(w, "cuda_versions");
    td_jw_begin_array(w);
    for (int i = 0; i < 2; i++)
        if (f->cuda_versions[i])
            td_jw_string(w, f->cuda_versions[i]);
    td_jw_end_array(w);
    td_jw_kstr(w, "gpu_arch", f->gpu_arch);
    td_jw_kstr(w, "platform", f->platform);
    td_jw_kstr(w, "torch_version", f->torch_version);
    td_jw_end_object(w);
}

static void json_parts(struct td_jsonw *w, const struct td_explain_parts *p)
{
    td_jw_key(w, "parts");
    td_jw_begin_object(w);
    td_jw_key(w, "files");
    td_jw_begin_array(w);
    for (size_t i = 0; i < p->n_files; i++) {
        td_jw_begin_object_inline(w);
        td_jw_kstr(w, "path", p->files[i].path);
        td_jw_kstr(w, "name", p->files[i].name);
        td_jw_kbool(w, "listed", p->files[i].listed);
        td_jw_end_object(w);
    }
    td_jw_end_array(w);
    td_jw_key(w, "symbols");
    td_jw_begin_array(w);
    for (size_t i = 0; i < p->n_symbols; i++) {
        const struct td_part_symbol *y = &p->symbols[i];
        td_jw_begin_object_inline(w);
        td_jw_kstr(w, "name", y->name);
        td_jw_kstr(w, "demangled", y->demangled);
        td_jw_kstr(w, "version", y->version);
        td_jw_kstr(w, "scheme", y->scheme);
        td_jw_kstr(w, "owner", y->owner);
        td_jw_kstr(w, "torch", y->torch);
        td_jw_end_object(w);
    }
    td_jw_end_array(w);
    td_jw_key(w, "versions");
    td_jw_begin_array(w);
    for (size_t i = 0; i < p->n_versions; i++) {
        td_jw_begin_object_inline(w);
        td_jw_kstr(w, "what", p->versions[i].what);
        td_jw_kstr(w, "value", p->versions[i].value);
        td_jw_end_object(w);
    }
    td_jw_end_array(w);
    td_jw_key(w, "codes");
    td_jw_begin_array(w);
    for (size_t i = 0; i < p->n_codes; i++) {
        const struct td_part_code *c = &p->codes[i];
        td_jw_begin_object_inline(w);
        td_jw_kstr(w, "space", c->space);
        td_jw_kstr(w, "value", c->value);
        td_jw_kstr(w, "name", c->name);
        td_jw_kstr(w, "kind", c->kind);
        td_jw_end_object(w);
    }
    td_jw_end_array(w);
    td_jw_kstr(w, "raiser", p->raiser);
    td_jw_kstr(w, "operation", p->operation);
    td_jw_kstr(w, "platform", p->platform);
    td_jw_kstr(w, "platform_from", p->platform_from);
    td_jw_kstr(w, "platform_sign", p->platform_sign);
    td_jw_end_object(w);
}

static void json_causes(struct td_jsonw *w, const struct td_explain_cause *c, size_t n)
{
    td_jw_key(w, "causes");
    td_jw_begin_array(w);
    for (size_t i = 0; i < n; i++) {
        td_jw_begin_object(w);
        td_jw_kstr(w, "kind", c[i].kind);
        td_jw_kstr(w, "detail", c[i].detail);
        td_jw_kstr(w, "fix", c[i].fix);
        td_jw_kstr(w, "confirm", c[i].confirm);
        td_jw_kstr(w, "source", c[i].source);
        if (c[i].provenance) /* only a cause its source did not establish */
            td_jw_kstr(w, "provenance", c[i].provenance);
        td_jw_kstr(w, "id", c[i].id);
        td_jw_kstr(w, "condition", c[i].condition);
        td_jw_kbool(w, "contradicted", c[i].contradicted);
        td_jw_end_object(w);
    }
    td_jw_end_array(w);
}

static void json_findings(struct td_jsonw *w, const struct td_explain_view *v)
{
    td_jw_key(w, "findings");
    td_jw_begin_array(w);
    for (size_t i = 0; i < v->findings->count; i++) {
        td_jw_begin_object(w);
        td_envelope_finding_fields(w, &v->findings->items[i]);
        if (i == 0 && v->n_causes)
            json_causes(w, v->causes, v->n_causes);
        td_jw_end_object(w);
    }
    td_jw_end_array(w);
}

static void json_load(struct td_jsonw *w, const struct td_explain_load *l)
{
    td_jw_key(w, "load_error");
    if (!l->form) {
        td_jw_null(w);
        return;
    }
    td_jw_begin_object(w);
    td_jw_kstr(w, "form", l->form);
    td_jw_kstr(w, "kind", l->kind);
    td_jw_kstr(w, "role", l->role);
    td_jw_kstr(w, "library", l->library);
    td_jw_kstr(w, "needed_by", l->needed_by);
    td_jw_kstr(w, "symbol", l->symbol);
    td_jw_kstr(w, "file", l->file);
    td_jw_kstr(w, "note", l->note);
    td_jw_kstr(w, "defined_by", l->defined_by);
    td_jw_kstr(w, "built_for", l->built_for);
    td_jw_end_object(w);
}

static void json_local(struct td_jsonw *w, const struct td_explain_local *l)
{
    td_jw_key(w, "on_this_machine");
    if (!l->built) {
        td_jw_null(w);
        return;
    }
    td_jw_begin_object(w);
    td_jw_kstr(w, "file", l->file);
    td_jw_kstr(w, "host_path", l->host);
    td_jw_kstr(w, "role", l->role);
    td_jw_kstr(w, "platform", l->platform);
    td_jw_kstr(w, "profile", l->profile);
    td_jw_key(w, "really");
    td_jw_begin_array(w);
    char line[8192];
    for (size_t i = 0; i < l->notes->n; i++)
        td_jw_string(w, td_local_note_text(&l->notes->items[i], line, sizeof line));
    td_jw_end_array(w);
    td_jw_end_object(w);
}

void td_explain_render_json(const struct td_explain_view *v, FILE *out, bool pretty)
{
    static struct td_jsonw w;
    const struct td_explain *x = v->x;
    td_jw_init(&w, out, pretty);
    td_envelope_begin(&w, "explain", v->platform);
    json_findings(&w, v);
    td_jw_key(&w, "explain");
    td_jw_begin_object(&w);
    td_jw_kbool(&w, "matched", x->n_matches > 0);
    td_jw_kstr(&w, "input_encoding", v->input_encoding);
    if (x->shortened) /* only a long text has it (docs/explain.md "Long texts") */
        td_jw_kstr(&w, "input_shortened", x->shortened);
    const struct td_explain_match *m = x->n_matches ? &x->matches[0] : NULL;
    td_jw_kstr(&w, "id", m ? m->id : NULL);
    td_jw_kstr(&w, "kind", m ? m->kind : NULL);
    td_jw_kstr(&w, "cause", m ? m->cause : NULL);
    td_jw_kstr(&w, "fix", m ? m->fix : NULL);
    td_jw_kstr(&w, "source", m ? m->source : NULL);
    if (m && m->provenance) /* only a row whose thread established no cause */
        td_jw_kstr(&w, "provenance", m->provenance);
    td_jw_kbool(&w, "language_neutral", m && m->language_neutral);
    json_fields(&w, &x->fields);
    json_parts(&w, &x->parts);
    json_load(&w, &x->load);
    td_jw_key(&w, "matches");
    td_jw_begin_array(&w);
    for (size_t i = 0; i < x->n_matches; i++) {
        td_jw_begin_object_inline(&w);
        td_jw_kstr(&w, "id", x->matches[i].id);
        td_jw_kuint(&w, "specificity", x->matches[i].specificity);
        td_jw_kbool(&w, "best", i < x->n_best);
        td_jw_kstr(&w, "source", x->matches[i].source);
        td_jw_end_object(&w);
    }
    td_jw_end_array(&w);
    json_local(&w, v->local);
    td_jw_end_object(&w);
    td_envelope_end(&w);
}

static void text_field(const struct td_term *t, const char *label, const char *v)
{
    if (v)
        fprintf(t->out, "  %s%-13s%s %s\n", td_term_style(t, TD_STYLE_DIM), label,
                td_term_style(t, TD_STYLE_RESET), v);
}

/* The platform the files were named for and why, into LINE: the sign the
 * text carries, --platform, or none (this machine's, which --platform can
 * change): a user pasting a text from another machine sees which it was.
 * NULL when the reading has none. */
static const char *platform_line(const struct td_explain_parts *p, char *line, size_t cap)
{
    if (!p->platform)
        return NULL;
    if (p->platform_from && strcmp(p->platform_from, "option") == 0)
        snprintf(line, cap, "%s (--platform)", p->platform);
    else if (p->platform_from && strcmp(p->platform_from, "host") == 0)
        snprintf(line, cap, "%s (no sign in the text: this machine's; --platform says another)",
                 p->platform);
    else
        snprintf(line, cap, "%s (%s)", p->platform,
                 p->platform_sign ? p->platform_sign : "the text");
    return line;
}

static void text_says(const struct td_explain_fields *f, const struct td_term *t)
{
    const char *b = td_term_style(t, TD_STYLE_BOLD), *r = td_term_style(t, TD_STYLE_RESET);
    fprintf(t->out, "%sWhat the message says%s\n", b, r);
    text_field(t, "failed", f->file);
    text_field(t, "needed by", f->needed_by);
    text_field(t, "module", f->module);
    text_field(t, "symbol", f->symbol);
    text_field(t, "version", f->version);
    char code[128] = "";
    if (f->error_code)
        snprintf(code, sizeof code, "%s%s%s%s", f->error_code, f->win32_name ? " (" : "",
                 f->win32_name ? f->win32_name : "", f->win32_name ? ")" : "");
    text_field(t, "error code", code[0] ? code : NULL);
    text_field(t, "NTSTATUS", f->ntstatus);
    text_field(t, "language", f->language);
    text_field(t, "torch", f->torch_version);
    text_field(t, "CUDA (driver)", f->cuda_driver);
    text_field(t, "GPU arch", f->gpu_arch);
}

static void text_causes(const struct td_explain_view *v, const struct td_term *t)
{
    const char *b = td_term_style(t, TD_STYLE_BOLD), *r = td_term_style(t, TD_STYLE_RESET);
    const struct td_explain_load *l = &v->x->load;
    if (l->form) {
        fprintf(t->out, "%sLoad error%s  %s", b, r, l->kind);
        if (l->library)
            fprintf(t->out, " of %s", l->library);
        if (l->needed_by)
            fprintf(t->out, " (needed by %s)", l->needed_by);
        if (l->role)
            fprintf(t->out, "  [role: %s]", l->role);
        fprintf(t->out, "\n");
        if (l->note)
            fprintf(t->out, "  note: %s\n", l->note);
    }
    if (!v->n_causes)
        return;
    fprintf(t->out, "%sLikely causes, most likely first%s\n", b, r);
    for (size_t i = 0; i < v->n_causes; i++) {
        const struct td_explain_cause *c = &v->causes[i];
        fprintf(t->out, "  %zu. %s[%s]%s%s%s %s\n", i + 1, b, c->kind, r, c->id ? " " : "",
                c->id ? c->id : "", c->detail);
        text_field(t, "   fix", c->fix);
        text_field(t, "   confirm", c->confirm);
        text_field(t, "   source", c->source);
        text_field(t, "   provenance", c->provenance);
    }
}

void td_explain_render_text(const struct td_explain_view *v, const struct td_term *t)
{
    const struct td_explain *x = v->x;
    const struct td_explain_local *l = v->local;
    const char *b = td_term_style(t, TD_STYLE_BOLD), *r = td_term_style(t, TD_STYLE_RESET);
    if (x->shortened)
        fprintf(t->out, "%sNote%s: %s\n", b, r, x->shortened);
    if (!x->n_matches && !x->load.form)
        fprintf(t->out, "%sNo known error message matches this text.%s\n", b, r);
    for (size_t i = 0; i < x->n_best; i++) {
        const struct td_explain_match *m = &x->matches[i];
        fprintf(t->out, "%s%s%s  [%s]%s\n", b, m->id, r, m->kind,
                m->language_neutral ? "  (matched across languages)" : "");
        text_field(t, "cause", m->cause);
        text_field(t, "fix", m->fix);
        text_field(t, "source", m->source);
        text_field(t, "provenance", m->provenance);
    }
    text_causes(v, t);
    text_says(&x->fields, t);
    char where[256];
    text_field(t, "platform", platform_line(&x->parts, where, sizeof where));
    char line[8192];
    if (l->built) {
        fprintf(t->out, "%sOn this machine%s: %s %s (%s, profile %s)\n", b, r, l->host, l->role,
                l->platform, l->profile);
        for (size_t i = 0; i < l->notes->n; i++)
            fprintf(t->out, "  %s\n", td_local_note_text(&l->notes->items[i], line, sizeof line));
    } else if (l->notes->n) {
        fprintf(t->out, "  %s\n", td_local_note_text(&l->notes->items[0], line, sizeof line));
    }
    if (x->n_matches > x->n_best) {
        fprintf(t->out, "%sAlso matches%s", b, r);
        for (size_t i = x->n_best; i < x->n_matches; i++)
            fprintf(t->out, "%s %s", i > x->n_best ? "," : "", x->matches[i].id);
        fprintf(t->out, "\n");
    }
    if (v->findings->count) {
        fprintf(t->out, "%sFindings%s\n", b, r);
        td_findings_text(t, v->findings);
    }
    if (!x->n_matches && !x->load.form && !l->built)
        fprintf(t->out, "Run `torchdoctor check` to examine this machine's install instead.\n");
}

void td_explain_render_markdown(const struct td_explain_view *v, FILE *out)
{
    const struct td_explain *x = v->x;
    const struct td_explain_fields *f = &x->fields;
    fprintf(out, "## torchdoctor explain\n\n");
    if (x->shortened)
        fprintf(out, "> Note: %s\n\n", x->shortened);
    if (!x->n_matches && !x->load.form)
        fprintf(out, "No known error message matches this text; run `torchdoctor check`.\n\n");
    for (size_t i = 0; i < x->n_best; i++) {
        const struct td_explain_match *m = &x->matches[i];
        fprintf(out, "**%s** (`%s`): %s\n\n- fix: %s\n- source: %s\n", m->id, m->kind, m->cause,
                m->fix, m->source);
        if (m->provenance)
            fprintf(out, "- provenance: %s\n", m->provenance);
        fputs("\n", out);
    }
    if (x->load.note)
        fprintf(out, "> %s\n\n", x->load.note);
    for (size_t i = 0; i < v->n_causes; i++) {
        const struct td_explain_cause *c = &v->causes[i];
        fprintf(out, "%zu. `%s`: %s\n   - fix: %s\n   - confirm: `%s`\n   - source: %s\n", i + 1,
                c->kind, c->detail, c->fix, c->confirm, c->source);
        if (c->provenance)
            fprintf(out, "   - provenance: %s\n", c->provenance);
    }
    fprintf(out, "%s| field | value |\n|---|---|\n", v->n_causes ? "\n" : "");
    const char *rows[][2] = {
        {"failed", f->file},       {"needed by", f->needed_by}, {"module", f->module},
        {"symbol", f->symbol},     {"version", f->version},     {"error code", f->error_code},
        {"NTSTATUS", f->ntstatus}, {"language", f->language},   {"CUDA (driver)", f->cuda_driver}};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (rows[i][1])
            fprintf(out, "| %s | `%s` |\n", rows[i][0], rows[i][1]);
    char where[256];
    if (platform_line(&x->parts, where, sizeof where))
        fprintf(out, "| platform | %s |\n", where);
    if (v->local->built) {
        fprintf(out, "\n### On this machine (`%s`)\n\n", v->local->host);
        char line[8192];
        for (size_t i = 0; i < v->local->notes->n; i++)
            fprintf(out, "- %s\n",
                    td_local_note_text(&v->local->notes->items[i], line, sizeof line));
    }
    if (v->findings->count) {
        fprintf(out, "\n| severity | kind | library | detail |\n|---|---|---|---|\n");
        for (size_t i = 0; i < v->findings->count; i++) {
            const struct td_finding *g = &v->findings->items[i];
            fprintf(out, "| %s | %s | `%s` | %s |\n", td_severity_name(g->severity), g->kind,
                    g->library ? g->library : "", g->detail);
        }
    }
}

/* ---- html ---- */

static void html_code(FILE *out, const char *tag, const char *s)
{
    fprintf(out, "<%s>", tag);
    td_html_text(out, s);
    fprintf(out, "</%s>", tag);
}

static void html_causes(const struct td_explain_view *v, FILE *out)
{
    if (!v->n_causes)
        return;
    fputs("<section id=\"causes\">\n<h2>Likely causes, most likely first</h2>\n<ol>\n", out);
    for (size_t i = 0; i < v->n_causes; i++) {
        const struct td_explain_cause *c = &v->causes[i];
        fprintf(out, "<li class=\"cause%s\" data-kind=\"", c->contradicted ? " contradicted" : "");
        td_html_text(out, c->kind);
        fputs("\"><p>", out);
        html_code(out, "code", c->kind);
        fputs(" ", out);
        td_html_text(out, c->detail);
        fputs("</p>\n", out);
        if (c->fix) {
            fputs("<p>fix:</p><pre class=\"fix\">", out);
            html_code(out, "code", c->fix);
            fputs("</pre>\n", out);
        }
        if (c->confirm) {
            fputs("<p>tell it apart:</p><pre class=\"confirm\">", out);
            html_code(out, "code", c->confirm);
            fputs("</pre>\n", out);
        }
        if (c->source) {
            fputs("<p class=\"path\">source: ", out);
            td_html_text(out, c->source);
            fputs("</p>\n", out);
        }
        if (c->provenance) {
            fputs("<p class=\"path\">provenance: ", out);
            td_html_text(out, c->provenance);
            fputs("</p>\n", out);
        }
        fputs("</li>\n", out);
    }
    fputs("</ol>\n</section>\n", out);
}

static void html_fields(const struct td_explain_view *v, FILE *out)
{
    const struct td_explain_fields *f = &v->x->fields;
    const char *rows[][2] = {
        {"failed", f->file},       {"needed by", f->needed_by}, {"module", f->module},
        {"symbol", f->symbol},     {"version", f->version},     {"error code", f->error_code},
        {"NTSTATUS", f->ntstatus}, {"language", f->language},   {"CUDA (driver)", f->cuda_driver}};
    fputs("<section id=\"fields\">\n<h2>What the text says</h2>\n<table>\n", out);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (rows[i][1]) {
            fprintf(out, "<tr><th>%s</th><td>", rows[i][0]);
            html_code(out, "code", rows[i][1]);
            fputs("</td></tr>\n", out);
        }
    fputs("</table>\n", out);
    if (v->local->built) {
        char line[8192];
        fputs("<h2>On this machine</h2>\n<p>", out);
        html_code(out, "code", v->local->host);
        fputs("</p>\n<ul class=\"lines\">\n", out);
        for (size_t i = 0; i < v->local->notes->n; i++)
            html_code(out, "li", td_local_note_text(&v->local->notes->items[i], line, sizeof line));
        fputs("</ul>\n", out);
    }
    fputs("</section>\n", out);
}

void td_explain_render_html(const struct td_explain_view *v, FILE *out)
{
    const struct td_explain *x = v->x;
    td_html_begin(out, "torchdoctor explain");
    if (x->shortened) {
        fputs("<p class=\"note\">", out);
        td_html_text(out, x->shortened);
        fputs("</p>\n", out);
    }
    if (!x->n_matches && !x->load.form)
        fputs("<p class=\"warn\">No known error message matches this text; run "
              "<code>torchdoctor check</code>.</p>\n",
              out);
    if (x->load.note) {
        fputs("<p class=\"note\">", out);
        td_html_text(out, x->load.note);
        fputs("</p>\n", out);
    }
    td_html_findings(out, v->findings);
    html_causes(v, out);
    html_fields(v, out);
    td_html_end(out);
}
