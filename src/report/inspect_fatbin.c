/* `inspect` for the CUDA fat binary inside an ELF or PE file: what
 * `cuobjdump --list-elf --list-ptx` would tell, read from the entry headers
 * alone (format/fatbin.h). JSON lists every entry; text groups the entries
 * of one kind, architecture and compression on one line each, since
 * libcublasLt holds 5,700 of them. */
#include <stdio.h>
#include <string.h>

#include "format/detect_fatbin.h"
#include "format/fatbin.h"
#include "report/inspect.h"

/* Entries of one kind, architecture and compression (text). */
struct entry_group {
    const struct td_fatbin_entry *first;
    size_t count;
    uint64_t stored, inflated;
};

static const char *kind_name(const struct td_fatbin_entry *e)
{
    return e->kind == TD_FATBIN_ELF ? "sass" : e->kind == TD_FATBIN_PTX ? "ptx" : "other";
}

static void entry_arch(const struct td_fatbin_entry *e, char *out, size_t cap)
{
    if (!td_fatbin_arch_name(e, out, cap))
        snprintf(out, cap, "kind %u arch %u", e->kind, e->arch);
}

static void json_entry(struct td_view *v, const struct td_fatbin_entry *e)
{
    char arch[48], version[16];
    entry_arch(e, arch, sizeof arch);
    snprintf(version, sizeof version, "%u.%u", e->version_major, e->version_minor);
    td_view_row_begin(v);
    td_view_str(v, "kind", NULL, kind_name(e));
    td_view_str(v, "arch", NULL, arch);
    td_view_bool(v, "compressed", NULL, e->compressed);
    td_view_str(v, "compression", NULL, td_fatbin_compression_name(e->compression));
    td_view_uint(v, "size", NULL, e->payload_size);
    if (e->uncompressed_size)
        td_view_uint(v, "uncompressed_size", NULL, e->uncompressed_size);
    else
        td_view_json_str(v, "uncompressed_size", NULL);
    td_view_str(v, "version", NULL, version);
    td_view_hex(v, "offset", NULL, e->offset);
    td_view_row_end(v);
}

static bool same_group(const struct td_fatbin_entry *a, const struct td_fatbin_entry *b)
{
    return a->kind == b->kind && a->arch == b->arch && a->variant == b->variant &&
           a->compression == b->compression;
}

static void text_groups(struct td_view *v, const struct td_fatbin *fb, struct td_arena *arena)
{
    struct entry_group *g = td_arena_array(arena, fb->count, sizeof *g);
    size_t n = 0;
    for (size_t i = 0; g && i < fb->count; i++) {
        const struct td_fatbin_entry *e = &fb->entries[i];
        size_t k = 0;
        while (k < n && !same_group(g[k].first, e))
            k++;
        if (k == n)
            g[n++] = (struct entry_group){.first = e};
        g[k].count++;
        g[k].stored += e->payload_size;
        g[k].inflated += e->uncompressed_size ? e->uncompressed_size : e->payload_size;
    }
    for (size_t k = 0; k < n; k++) {
        const struct td_fatbin_entry *e = g[k].first;
        char arch[48], size[64];
        entry_arch(e, arch, sizeof arch);
        if (e->compressed)
            snprintf(size, sizeof size, "%llu bytes %s (%llu inflated)",
                     (unsigned long long)g[k].stored, td_fatbin_compression_name(e->compression),
                     (unsigned long long)g[k].inflated);
        else
            snprintf(size, sizeof size, "%llu bytes", (unsigned long long)g[k].stored);
        td_view_note(v, "%-16s %-12s %-4s %5zu %-7s %s", "", arch,
                     e->kind == TD_FATBIN_ELF   ? "SASS"
                     : e->kind == TD_FATBIN_PTX ? "PTX"
                                                : "?",
                     g[k].count, g[k].count == 1 ? "entry" : "entries", size);
    }
}

static int describe(struct td_view *v, const char *section, const uint8_t *data, size_t size,
                    struct td_arena *arena, struct td_err *err)
{
    struct td_fatbin fb;
    struct td_err bad = {0};
    td_fatbin_parse(&fb, data, size, arena, &bad);
    td_view_begin(v, "fatbin", NULL);
    td_view_str(v, "section", NULL, section);
    td_view_uint(v, "containers", NULL, fb.containers);
    td_view_note(v, "%-16s %s: %zu container%s, %zu entr%s", "fatbin", section, fb.containers,
                 fb.containers == 1 ? "" : "s", fb.count, fb.count == 1 ? "y" : "ies");
    const char **archs;
    size_t n = td_fatbin_archs(&fb, arena, &archs);
    td_view_list_begin_inline(v, "archs", "gpu archs");
    for (size_t i = 0; i < n; i++)
        td_view_item(v, archs[i]);
    td_view_list_end(v);
    td_view_list_begin(v, "entries", NULL);
    for (size_t i = 0; v->kind == TD_VIEW_JSON && i < fb.count; i++)
        json_entry(v, &fb.entries[i]);
    td_view_list_end(v);
    if (v->kind == TD_VIEW_TEXT)
        text_groups(v, &fb, arena);
    td_view_str(v, "error", "fatbin error", bad.set ? bad.msg : NULL);
    td_view_end(v);
    if (!bad.set)
        return 0;
    td_err_set(err, "%s section: %s", section, bad.msg);
    return -1;
}

/* The block for a section found (or not, or pointing past the file: LOCATE). */
static int describe_found(struct td_view *v, bool found, const struct td_fatbin_section *s,
                          const struct td_err *locate, struct td_arena *arena, struct td_err *err)
{
    if (found)
        return describe(v, s->name, s->data, s->size, arena, err);
    td_view_json_str(v, "fatbin", NULL);
    if (!locate->set)
        return 0;
    td_err_set(err, "%s", locate->msg);
    return -1;
}

int td_inspect_elf_fatbin(struct td_view *v, const struct td_elf *elf, struct td_arena *arena,
                          struct td_err *err)
{
    struct td_fatbin_section s;
    struct td_err locate = {0};
    bool found = td_fatbin_section_elf(elf, &s, &locate);
    return describe_found(v, found, &s, &locate, arena, err);
}

int td_inspect_pe_fatbin(struct td_view *v, const struct td_pe *pe, struct td_arena *arena,
                         struct td_err *err)
{
    struct td_fatbin_section s;
    struct td_err locate = {0};
    bool found = td_fatbin_section_pe(pe, &s, &locate);
    return describe_found(v, found, &s, &locate, arena, err);
}
