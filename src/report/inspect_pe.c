/* `inspect` for PE images: what dumpbin /headers /imports /exports shows. */
#include "report/inspect.h"

#include <stdio.h>
#include <string.h>

static void describe_deps(struct td_view *v, struct td_pe_import_dll *dlls, size_t n,
                          const char *kind)
{
    for (size_t i = 0; i < n; i++) {
        td_view_row_begin(v);
        td_view_str(v, "name", "name", dlls[i].name);
        td_view_json_str(v, "kind", kind);
        td_view_bool(v, "delay_load", "delay-load", strcmp(kind, "delay") == 0);
        td_view_uint(v, "functions", "functions", dlls[i].count);
        td_view_row_end(v);
    }
}

static void describe_flags(struct td_view *v, const struct td_pe *pe)
{
    char names[512];
    td_view_list_begin_inline(v, "flags", "flags");
    td_pe_flag_names(TD_PE_FLAGS_FILE, pe->characteristics, names, sizeof names);
    for (char *tok = strtok(names, "|"); tok; tok = strtok(NULL, "|"))
        td_view_item(v, tok);
    td_pe_flag_names(TD_PE_FLAGS_DLL, pe->dll_characteristics, names, sizeof names);
    for (char *tok = strtok(names, "|"); tok; tok = strtok(NULL, "|"))
        td_view_item(v, tok);
    td_view_list_end(v);
}

static void describe_version(struct td_view *v, const struct td_pe_version *ver)
{
    char buf[64];
    if (!ver->present) {
        td_view_json_str(v, "version_info", NULL);
        return;
    }
    td_view_begin(v, "version_info", "version resource");
    snprintf(buf, sizeof buf, "%u.%u.%u.%u", ver->file_version[0], ver->file_version[1],
             ver->file_version[2], ver->file_version[3]);
    td_view_str(v, "file_version", "file version", buf);
    snprintf(buf, sizeof buf, "%u.%u.%u.%u", ver->product_version[0], ver->product_version[1],
             ver->product_version[2], ver->product_version[3]);
    td_view_str(v, "product_version", "product", buf);
    td_view_begin(v, "strings", NULL);
    for (size_t i = 0; i < ver->nstrings; i++)
        td_view_str(v, ver->strings[i].key, ver->strings[i].key, ver->strings[i].value);
    td_view_end(v);
    td_view_end(v);
}

static void describe_manifest(struct td_view *v, const struct td_pe_manifest *m)
{
    td_view_list_begin(v, "manifest_dependencies", "manifest deps");
    for (size_t i = 0; m->present && i < m->ndeps; i++) {
        td_view_row_begin(v);
        td_view_str(v, "name", "name", m->deps[i].name);
        td_view_str(v, "version", "version", m->deps[i].version);
        td_view_str(v, "arch", "arch", m->deps[i].arch);
        td_view_row_end(v);
    }
    td_view_list_end(v);
}

static int describe_export_list(struct td_view *v, const struct td_pe *pe,
                                const struct td_pe_exports *ex, struct td_err *err)
{
    for (uint32_t i = 0; ex->present && i < ex->nfunctions; i++) {
        struct td_pe_export x;
        if (td_pe_export_at(pe, ex, i, &x, err) != 0)
            return -1;
        if (x.rva == 0)
            continue;
        td_view_row_begin(v);
        td_view_str(v, "name", NULL, x.name ? x.name : "(by ordinal only)");
        td_view_bool(v, "defined", NULL, true);
        td_view_uint(v, "ordinal", "ordinal", x.ordinal);
        td_view_str(v, "forwarder", "->", x.forwarder);
        td_view_row_end(v);
    }
    return 0;
}

static int describe_import_list(struct td_view *v, const struct td_pe *pe,
                                struct td_pe_import_dll *dlls, size_t n, struct td_err *err)
{
    for (size_t d = 0; d < n; d++) {
        for (size_t i = 0; i < dlls[d].count; i++) {
            struct td_pe_import_func f;
            if (td_pe_import_func(pe, &dlls[d], i, &f, err) != 0)
                return -1;
            td_view_row_begin(v);
            if (f.by_ordinal) {
                char ord[32];
                snprintf(ord, sizeof ord, "#%u", f.ordinal);
                td_view_str(v, "name", NULL, ord);
                td_view_uint(v, "ordinal", NULL, f.ordinal);
            } else {
                td_view_str(v, "name", NULL, f.name);
                td_view_uint(v, "hint", "hint", f.hint);
            }
            td_view_bool(v, "defined", NULL, false);
            td_view_str(v, "library", "from", dlls[d].name);
            td_view_bool(v, "delay", "delay-load", dlls[d].delay);
            td_view_row_end(v);
        }
    }
    return 0;
}

static size_t function_total(const struct td_pe_import_dll *dlls, size_t n)
{
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += dlls[i].count;
    return total;
}

static uint32_t used_exports(const struct td_pe *pe, const struct td_pe_exports *ex,
                             struct td_err *err)
{
    uint32_t used = 0;
    for (uint32_t i = 0; ex->present && i < ex->nfunctions; i++) {
        struct td_pe_export x;
        if (td_pe_export_at(pe, ex, i, &x, err) != 0)
            break;
        used += x.rva != 0;
    }
    return used;
}

int td_inspect_pe(struct td_view *v, const struct td_pe *pe, const struct td_inspect_opts *o,
                  struct td_arena *arena, struct td_err *err)
{
    struct td_pe_import_dll *imports = NULL, *delayed = NULL;
    size_t nimports = 0, ndelayed = 0;
    struct td_pe_exports ex = {0};
    struct td_pe_version ver = {0};
    struct td_pe_manifest man = {0};
    struct td_pe_codeview cv = {0};
    struct td_pe_bound_import *bound = NULL;
    size_t nbound = 0;
    int rc = 0;

    /* Each table is read on its own: one malformed table must not hide the others. */
    struct td_err e_imp = {0}, e_del = {0}, e_exp = {0}, e_ver = {0}, e_man = {0}, e_cv = {0},
                  e_bnd = {0};
    td_pe_imports(pe, false, &imports, &nimports, &e_imp);
    td_pe_imports(pe, true, &delayed, &ndelayed, &e_del);
    td_pe_exports(pe, &ex, &e_exp);
    td_pe_version(pe, &ver, &e_ver);
    td_pe_manifest(pe, &man, &e_man);
    td_pe_codeview(pe, &cv, &e_cv);
    td_pe_bound_imports(pe, &bound, &nbound, &e_bnd);

    const char *cls = pe->pe32plus ? "PE32+" : "PE32";
    const char *arch = td_pe_arch_slug(pe);
    const char *machine = pe->machine_info ? pe->machine_info->description : "unknown machine";
    const char *type = td_pe_is_dll(pe) ? "DLL" : "executable";
    td_view_json_str(v, "format", "pe");
    td_view_json_str(v, "class", cls);
    td_view_json_str(v, "endian", "little");
    td_view_json_str(v, "arch", arch);
    td_view_json_str(v, "machine", machine);
    td_view_json_str(v, "type", type);
    td_view_note(v, "%s %s, %s, subsystem %s%s", cls, type, machine,
                 td_pe_subsystem_name(pe->subsystem), pe->managed ? ", .NET (CLR header)" : "");
    td_view_str(v, "name", "export name", ex.present ? ex.dll_name : NULL);

    td_view_list_begin(v, "dependencies", "imports");
    describe_deps(v, imports, nimports, "import");
    describe_deps(v, delayed, ndelayed, "delay");
    td_view_list_end(v);
    td_inspect_path_list(v, "rpath", NULL, NULL);
    td_inspect_path_list(v, "runpath", NULL, NULL);
    td_view_json_str(v, "interpreter", NULL);
    /* The GUID as dumpbin, objdump and a symbol server's key write it:
     * Data1, Data2 and Data3 are little-endian in the record. */
    char guid[64] = "";
    static const uint8_t order[16] = {3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15};
    if (cv.present) {
        for (int i = 0; i < 16; i++)
            snprintf(guid + 2 * i, 3, "%02x", cv.guid[order[i]]);
        snprintf(guid + 32, sizeof guid - 32, "-%u", cv.age);
    }
    td_view_str(v, "build_id", "pdb guid", cv.present ? guid : NULL);
    describe_flags(v, pe);

    uint32_t nexports = used_exports(pe, &ex, &e_exp);
    td_view_begin(v, "symbols", NULL);
    td_view_json_str(v, "source", "export and import tables");
    if (v->kind == TD_VIEW_JSON) {
        td_view_uint(v, "defined", NULL, nexports);
        td_view_uint(v, "undefined", NULL,
                     function_total(imports, nimports) + function_total(delayed, ndelayed));
    }
    td_view_end(v);
    td_view_note(v, "%-16s %u exported, %zu imported (%zu delay-loaded)", "symbols", nexports,
                 function_total(imports, nimports) + function_total(delayed, ndelayed),
                 function_total(delayed, ndelayed));

    td_view_begin(v, "pe", NULL);
    td_view_hex(v, "machine", NULL, pe->machine);
    td_view_str(v, "subsystem", NULL, td_pe_subsystem_name(pe->subsystem));
    td_view_hex(v, "image_base", NULL, pe->image_base);
    td_view_hex(v, "entry_rva", NULL, pe->entry_rva);
    td_view_hex(v, "timestamp", NULL, pe->timestamp);
    char lv[32];
    snprintf(lv, sizeof lv, "%u.%u", pe->linker_major, pe->linker_minor);
    td_view_str(v, "linker_version", "linker", lv);
    snprintf(lv, sizeof lv, "%u.%u", pe->os_major, pe->os_minor);
    td_view_str(v, "os_version", "min OS", lv);
    td_view_bool(v, "managed", ".NET", pe->managed);
    td_view_str(v, "hybrid", "hybrid",
                pe->hybrid == TD_PE_HYBRID_ARM64EC      ? "arm64ec"
                : pe->hybrid == TD_PE_HYBRID_ARM64X     ? "arm64x"
                : pe->hybrid == TD_PE_HYBRID_CHPE_X86   ? "chpe-x86"
                : pe->hybrid == TD_PE_HYBRID_NOT_PARSED ? "not parsed"
                                                        : NULL);
    td_view_list_begin(v, "bound_imports", "bound to");
    for (size_t i = 0; i < nbound; i++)
        if (!bound[i].forwarder_ref)
            td_view_item(v, bound[i].name);
    td_view_list_end(v);
    describe_version(v, &ver);
    describe_manifest(v, &man);
    td_view_str(v, "pdb", "pdb", cv.present && cv.pdb_path && *cv.pdb_path ? cv.pdb_path : NULL);
    td_view_list_begin(v, "sections", NULL);
    for (uint16_t i = 0; v->kind == TD_VIEW_JSON && i < pe->nsections; i++)
        td_view_item(v, pe->sections[i].name);
    td_view_list_end(v);
    td_view_end(v);
    struct td_err e_fat = {0};
    td_inspect_pe_fatbin(v, pe, o, arena, &e_fat);

    if (o->symbols) {
        td_view_list_begin(v, "symbol_list", "symbol table");
        if (describe_export_list(v, pe, &ex, err) != 0 ||
            describe_import_list(v, pe, imports, nimports, err) != 0 ||
            describe_import_list(v, pe, delayed, ndelayed, err) != 0)
            rc = -1;
        td_view_list_end(v);
    }

    /* Report the first table that was malformed (after describing the rest). */
    const struct td_err *errs[] = {&e_imp, &e_del, &e_exp, &e_ver, &e_man, &e_cv, &e_bnd, &e_fat};
    for (size_t i = 0; i < sizeof errs / sizeof errs[0] && rc == 0; i++)
        if (errs[i]->set) {
            td_err_set(err, "%s", errs[i]->msg);
            rc = -1;
        }
    return rc;
}
