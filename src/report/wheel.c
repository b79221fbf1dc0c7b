/* Renders `torchdoctor wheel` (report/wheel.h): the facts of each wheel and
 * the findings of the rules, as text, JSON or markdown. */
#include "report/wheel.h"

#include <stdlib.h>
#include <string.h>

#include "report/envelope.h"
#include "report/jsonw.h"

static const char *const size_names[TD_WHEEL_SIZE_KINDS] = {"native",  "debug_info", "python",
                                                            "headers", "metadata",   "other"};

static void arch_list(const struct td_wheel_binary *b, char *out, size_t cap)
{
    out[0] = '\0';
    for (size_t i = 0; i < b->narches; i++)
        snprintf(out + strlen(out), cap - strlen(out), "%s%s", i ? "+" : "", b->arches[i]);
}

static void cuda_list(const struct td_wheel_binary *b, char *out, size_t cap)
{
    out[0] = '\0';
    for (size_t i = 0; i < b->ncuda; i++)
        snprintf(out + strlen(out), cap - strlen(out), "%s%s", i ? " " : "", b->cuda_arches[i]);
}

static void json_strings(struct td_jsonw *w, const char *key, const char *const *v, size_t n)
{
    td_jw_key(w, key);
    td_jw_begin_array(w);
    for (size_t i = 0; i < n; i++)
        td_jw_string(w, v[i]);
    td_jw_end_array(w);
}

static void json_binary(struct td_jsonw *w, const struct td_wheel_binary *b)
{
    td_jw_begin_object(w);
    td_jw_kstr(w, "path", b->path);
    td_jw_kstr(w, "format", b->format);
    td_jw_kstr(w, "os", b->os);
    json_strings(w, "arches", b->arches, b->narches);
    td_jw_kint(w, "bits", b->bits);
    td_jw_kbool(w, "extension", b->is_extension);
    json_strings(w, "needed", b->needed, b->nneeded);
    td_jw_key(w, "symbol_versions");
    td_jw_begin_array(w);
    for (size_t i = 0; i < b->nverrefs; i++) {
        td_jw_begin_object_inline(w);
        td_jw_kstr(w, "library", b->verrefs[i].library);
        td_jw_kstr(w, "version", b->verrefs[i].version);
        td_jw_kstr(w, "symbol", b->verrefs[i].symbol);
        td_jw_kuint(w, "count", b->verrefs[i].count);
        td_jw_end_object(w);
    }
    td_jw_end_array(w);
    if (b->macos_min_major >= 0) {
        char v[16];
        snprintf(v, sizeof v, "%d.%d", b->macos_min_major, b->macos_min_minor);
        td_jw_kstr(w, "macos_min", v);
    } else {
        td_jw_kstr(w, "macos_min", NULL);
    }
    td_jw_kuint(w, "debug_bytes", b->debug_bytes);
    json_strings(w, "cuda_arches", b->cuda_arches, b->ncuda);
    td_jw_kstr(w, "not_parsed", b->not_parsed);
    td_jw_end_object(w);
}

static void json_wheel(struct td_jsonw *w, const struct td_wheel_facts *f)
{
    td_jw_begin_object(w);
    td_jw_kstr(w, "path", f->path);
    td_jw_kstr(w, "name", f->name);
    td_jw_kstr(w, "version", f->version);
    td_jw_kstr(w, "python_tag", f->python_tags);
    td_jw_kstr(w, "abi_tag", f->abi_tags);
    td_jw_kstr(w, "platform_tag", f->platform_tags);
    td_jw_kstr(w, "requires_torch", f->torch_requirement);
    td_jw_kuint(w, "members", f->members);
    td_jw_kuint(w, "bytes", f->bytes);
    td_jw_kuint(w, "compressed_bytes", f->compressed_bytes);
    td_jw_key(w, "sizes");
    td_jw_begin_object(w);
    for (int k = 0; k < TD_WHEEL_SIZE_KINDS; k++)
        td_jw_kuint(w, size_names[k], f->size_by_kind[k]);
    td_jw_end_object(w);
    td_jw_kbool(w, "record", f->has_record);
    td_jw_kuint(w, "record_verified", f->record_checked);
    td_jw_key(w, "binaries");
    td_jw_begin_array(w);
    for (size_t i = 0; i < f->nbinaries; i++)
        json_binary(w, &f->binaries[i]);
    td_jw_end_array(w);
    td_jw_end_object(w);
}

void td_wheel_json(const struct td_wheel_report *r, FILE *out)
{
    struct td_jsonw *w = malloc(sizeof *w);
    if (!w)
        return;
    td_jw_init(w, out, true);
    td_envelope_begin(w, "wheel", td_host_platform());
    td_envelope_findings(w, r->findings);
    td_jw_key(w, "wheels");
    td_jw_begin_array(w);
    for (size_t i = 0; i < r->n; i++)
        json_wheel(w, &r->wheels[i]);
    td_jw_end_array(w);
    td_envelope_end(w);
    free(w);
}

static void mb(char *out, size_t cap, uint64_t n)
{
    if (n < 1000)
        snprintf(out, cap, "%llu B", (unsigned long long)n);
    else
        snprintf(out, cap, n >= 1000000 ? "%.1f MB" : "%.1f kB", n >= 1000000 ? n / 1e6 : n / 1e3);
}

void td_wheel_text(const struct td_wheel_report *r, const struct td_term *t)
{
    FILE *out = t->out;
    const char *bold = td_term_style(t, TD_STYLE_BOLD), *reset = td_term_style(t, TD_STYLE_RESET);
    for (size_t i = 0; i < r->n; i++) {
        const struct td_wheel_facts *f = &r->wheels[i];
        char a[32], b[32];
        mb(a, sizeof a, f->bytes);
        mb(b, sizeof b, f->compressed_bytes);
        fprintf(out, "%s%s%s\n  tags %s-%s-%s; %llu members, %s unpacked (%s in the wheel)\n", bold,
                f->filename, reset, f->python_tags ? f->python_tags : "?",
                f->abi_tags ? f->abi_tags : "?", f->platform_tags ? f->platform_tags : "?",
                (unsigned long long)f->members, a, b);
        if (f->torch_requirement)
            fprintf(out, "  requires %s\n", f->torch_requirement);
        fprintf(out, "  sizes:");
        for (int k = 0; k < TD_WHEEL_SIZE_KINDS; k++)
            if (f->size_by_kind[k]) {
                mb(a, sizeof a, f->size_by_kind[k]);
                fprintf(out, " %s %s;", size_names[k], a);
            }
        fprintf(out, "\n  RECORD: %s, %llu hashes verified\n", f->has_record ? "present" : "absent",
                (unsigned long long)f->record_checked);
        for (size_t k = 0; k < f->nbinaries; k++) {
            const struct td_wheel_binary *x = &f->binaries[k];
            char arches[64], cuda[512];
            arch_list(x, arches, sizeof arches);
            cuda_list(x, cuda, sizeof cuda);
            fprintf(out, "  %s  %s %s %d-bit%s, %zu needed", x->path, x->format, arches, x->bits,
                    x->is_extension ? ", extension" : "", x->nneeded);
            if (x->macos_min_major >= 0)
                fprintf(out, ", macOS >= %d.%d", x->macos_min_major, x->macos_min_minor);
            if (x->debug_bytes) {
                mb(a, sizeof a, x->debug_bytes);
                fprintf(out, ", debug %s", a);
            }
            if (x->ncuda)
                fprintf(out, ", CUDA %s", cuda);
            if (x->not_parsed)
                fprintf(out, " (not parsed: %s)", x->not_parsed);
            fprintf(out, "\n");
        }
        fprintf(out, "\n");
    }
    if (r->findings->count)
        td_findings_text(t, r->findings);
    else
        fprintf(out, "No findings.\n");
}

void td_wheel_markdown(const struct td_wheel_report *r, FILE *out)
{
    fprintf(out, "### torchdoctor wheel\n");
    for (size_t i = 0; i < r->n; i++) {
        const struct td_wheel_facts *f = &r->wheels[i];
        fprintf(out,
                "\n**%s** (%llu members, %llu bytes unpacked)\n\n"
                "| member | format | arch | needed | CUDA | debug bytes |\n"
                "|---|---|---|---|---|---|\n",
                f->filename, (unsigned long long)f->members, (unsigned long long)f->bytes);
        for (size_t k = 0; k < f->nbinaries; k++) {
            const struct td_wheel_binary *x = &f->binaries[k];
            char arches[64], cuda[512];
            arch_list(x, arches, sizeof arches);
            cuda_list(x, cuda, sizeof cuda);
            fprintf(out, "| `%s` | %s | %s | %zu | %s | %llu |\n", x->path, x->format, arches,
                    x->nneeded, cuda[0] ? cuda : "-", (unsigned long long)x->debug_bytes);
        }
    }
    for (size_t i = 0; i < r->findings->count; i++) {
        const struct td_finding *f = &r->findings->items[i];
        fprintf(out, "\n- **%s** `%s`: %s\n", td_severity_name(f->severity), f->kind, f->detail);
        if (f->fix)
            fprintf(out, "  - fix: `%s`\n", f->fix);
    }
}
