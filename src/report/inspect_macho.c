/* `inspect` for Mach-O images: what otool -L -l and nm -m would show. */
#include "report/inspect.h"

#include <stdio.h>
#include <string.h>

static const char *dylib_kind_word(enum td_macho_dylib_kind k)
{
    switch (k) {
    case TD_MACHO_DYLIB_LOAD:
        return "load";
    case TD_MACHO_DYLIB_WEAK:
        return "weak";
    case TD_MACHO_DYLIB_REEXPORT:
        return "reexport";
    case TD_MACHO_DYLIB_LAZY:
        return "lazy";
    case TD_MACHO_DYLIB_UPWARD:
        return "upward";
    }
    return "load";
}

static const char *type_word(uint32_t filetype)
{
    switch (filetype) {
    case TD_MACHO_EXECUTE:
        return "executable";
    case TD_MACHO_DYLIB:
        return "dynamic library";
    case TD_MACHO_BUNDLE:
        return "bundle";
    case TD_MACHO_OBJECT:
        return "object";
    case TD_MACHO_DYLINKER:
        return "dynamic linker";
    case TD_MACHO_DYLIB_STUB:
        return "dylib stub";
    }
    return "other";
}

struct walk_ctx {
    struct td_view *v;
    const struct td_macho *m;
    uint32_t count;
};

static int count_export(void *ctx, const struct td_macho_export *e)
{
    ((struct walk_ctx *)ctx)->count++;
    return 0;
}

static int list_export(void *ctx, const struct td_macho_export *e)
{
    struct walk_ctx *w = ctx;
    td_view_row_begin(w->v);
    td_view_str(w->v, "name", NULL, e->name);
    td_view_bool(w->v, "defined", NULL, true);
    td_view_bool(w->v, "weak", "weak", (e->flags & TD_MACHO_EXPORT_WEAK) != 0);
    if (e->flags & TD_MACHO_EXPORT_REEXPORT) {
        const struct td_macho_dylib *d = td_macho_ordinal_dylib(w->m, (uint32_t)e->ordinal);
        td_view_str(w->v, "library", "re-exported from", d ? d->name : "?");
    } else {
        td_view_hex(w->v, "address", NULL, e->address);
    }
    td_view_row_end(w->v);
    return 0;
}

static int list_undefined(void *ctx, const struct td_macho_undef *u)
{
    struct walk_ctx *w = ctx;
    const struct td_macho_dylib *d = td_macho_ordinal_dylib(w->m, u->library_ordinal);
    td_view_row_begin(w->v);
    td_view_str(w->v, "name", NULL, u->name);
    td_view_bool(w->v, "defined", NULL, false);
    td_view_str(w->v, "library", "from",
                d                                                       ? d->name
                : u->library_ordinal == TD_MACHO_DYNAMIC_LOOKUP_ORDINAL ? "(dynamic lookup)"
                : u->library_ordinal == TD_MACHO_EXECUTABLE_ORDINAL     ? "(main executable)"
                                                                        : "(flat namespace)");
    td_view_bool(w->v, "weak", "weak", u->weak_ref);
    td_view_row_end(w->v);
    return 0;
}

int td_inspect_macho(struct td_view *v, const struct td_macho *m, const struct td_inspect_opts *o,
                     struct td_arena *arena, struct td_err *err)
{
    const char *cls = m->is_64 ? "Mach-O 64-bit" : "Mach-O 32-bit";
    const char *arch = td_macho_arch_slug(m->cputype, m->cpusubtype);
    const char *machine = td_macho_cpu_name(m->cputype);
    char ver[TD_MACHO_VERSION_MAX], ver2[TD_MACHO_VERSION_MAX];
    int rc = 0;

    td_view_json_str(v, "format", "macho");
    td_view_json_str(v, "class", cls);
    td_view_json_str(v, "endian", m->big_endian ? "big" : "little");
    td_view_json_str(v, "arch", arch ? arch : "unknown");
    td_view_json_str(v, "machine", machine);
    td_view_json_str(v, "type", type_word(m->filetype));
    td_view_note(v, "%s %s, %s (%s)", cls, type_word(m->filetype), arch ? arch : "unknown",
                 machine);
    td_view_str(v, "name", "install name", m->install_name);

    td_view_list_begin(v, "dependencies", "loads");
    for (size_t i = 0; i < m->ndylibs; i++) {
        const struct td_macho_dylib *d = &m->dylibs[i];
        td_view_row_begin(v);
        td_view_str(v, "name", NULL, d->name);
        td_view_str(v, "kind", NULL, dylib_kind_word(d->kind));
        td_view_str(v, "compatibility_version", "compat",
                    td_macho_version_string(d->compatibility_version, ver));
        td_view_str(v, "current_version", "current",
                    td_macho_version_string(d->current_version, ver2));
        td_view_row_end(v);
    }
    td_view_list_end(v);

    td_view_list_begin(v, "rpath", "rpath");
    for (size_t i = 0; i < m->nrpaths; i++)
        td_view_item(v, m->rpaths[i]);
    td_view_list_end(v);
    td_inspect_path_list(v, "runpath", NULL, NULL);
    td_view_json_str(v, "interpreter", NULL);
    char uuid[40] = "";
    for (int i = 0; m->has_uuid && i < 16; i++)
        snprintf(uuid + 2 * i, 3, "%02x", m->uuid[i]);
    td_view_str(v, "build_id", "uuid", m->has_uuid ? uuid : NULL);

    td_view_list_begin_inline(v, "flags", "flags");
    for (uint32_t bit = 1; bit; bit <<= 1)
        if ((m->flags & bit) && td_macho_flag_name(bit))
            td_view_item(v, td_macho_flag_name(bit));
    td_view_list_end(v);

    uint32_t defined = 0, undefined = 0;
    struct td_err e_sym = {0};
    bool counted = m->has_symtab && td_macho_symbol_counts(m, &defined, &undefined, &e_sym) == 0;
    struct walk_ctx w = {v, m, 0};
    struct td_err e_trie = {0};
    bool trie_ok = td_macho_exports_walk(m, arena, count_export, &w, &e_trie) == 0;
    td_view_begin(v, "symbols", NULL);
    if (v->kind == TD_VIEW_JSON) {
        td_view_json_str(v, "source", "export trie and symbol table");
        if (trie_ok && m->trie_source != TD_MACHO_TRIE_NONE)
            td_view_uint(v, "defined", NULL, w.count);
        else if (counted)
            td_view_uint(v, "defined", NULL, defined);
        else
            td_view_json_str(v, "defined", NULL);
        if (counted)
            td_view_uint(v, "undefined", NULL, undefined);
        else
            td_view_json_str(v, "undefined", NULL);
    }
    td_view_end(v);
    td_view_note(v, "%-16s %u exported, %u undefined", "symbols",
                 trie_ok && m->trie_source != TD_MACHO_TRIE_NONE ? w.count : defined, undefined);

    td_view_begin(v, "macho", NULL);
    const char *platform = td_macho_platform_name(m->platform);
    td_view_str(v, "platform", "platform",
                m->version_source == TD_MACHO_VERSION_NONE ? NULL
                : platform                                 ? platform
                                                           : "unknown");
    td_view_str(
        v, "min_os", "min OS",
        m->version_source == TD_MACHO_VERSION_NONE ? NULL : td_macho_version_string(m->minos, ver));
    td_view_str(v, "sdk", "sdk",
                m->version_source == TD_MACHO_VERSION_NONE ? NULL
                                                           : td_macho_version_string(m->sdk, ver2));
    td_view_str(v, "filetype", NULL, td_macho_filetype_name(m->filetype));
    td_view_bool(v, "has_main", NULL, m->has_main);
    td_view_bool(v, "chained_fixups", NULL, m->has_chained_fixups);
    td_view_bool(v, "code_signature", "signed", m->has_code_signature);
    td_view_uint(v, "unknown_commands", NULL, m->unknown_cmds);
    td_view_end(v);

    if (o->symbols) {
        td_view_list_begin(v, "symbol_list", "symbol table");
        if (td_macho_exports_walk(m, arena, list_export, &w, err) != 0 ||
            td_macho_undefined_walk(m, list_undefined, &w, err) != 0)
            rc = -1;
        td_view_list_end(v);
    }
    const struct td_err *errs[] = {&e_sym, &e_trie};
    for (size_t i = 0; i < 2 && rc == 0; i++)
        if (errs[i]->set) {
            td_err_set(err, "%s", errs[i]->msg);
            rc = -1;
        }
    return rc;
}
