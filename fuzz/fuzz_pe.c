/* libFuzzer target for the PE reader: parse, then walk every table the
 * reader offers (imports, delay and bound imports, exports and lookups,
 * version resource, manifest, CodeView record). */
#include <stddef.h>
#include <stdint.h>

#include "format/pe.h"

static void walk_imports(const struct td_pe *pe, bool delay)
{
    struct td_err err = {0};
    struct td_pe_import_dll *dlls;
    size_t n;
    if (td_pe_imports(pe, delay, &dlls, &n, &err) != 0)
        return;
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < dlls[i].count; j++) {
            struct td_pe_import_func fn;
            struct td_err ferr = {0};
            td_pe_import_func(pe, &dlls[i], j, &fn, &ferr);
        }
    }
}

static void walk_exports(const struct td_pe *pe)
{
    struct td_err err = {0};
    struct td_pe_exports ex;
    struct td_pe_export e;
    if (td_pe_exports(pe, &ex, &err) != 0 || !ex.present)
        return;
    for (uint32_t i = 0; i < ex.nfunctions; i++) {
        struct td_err eerr = {0};
        if (td_pe_export_at(pe, &ex, i, &e, &eerr) == 0 && e.name)
            td_pe_export_by_name(pe, &ex, e.name, &e);
    }
    td_pe_export_by_name(pe, &ex, "foo_add", &e);
    for (uint32_t ord = 0; ord < 8; ord++)
        td_pe_export_by_ordinal(pe, &ex, ex.ordinal_base + ord, &e);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct td_arena arena = {.cap = (size_t)16 << 20};
    struct td_err err = {0};
    struct td_pe pe;
    if (td_pe_parse(&pe, data, size, &arena, &err) == 0) {
        struct td_pe_bound_import *bound;
        struct td_pe_version version;
        struct td_pe_manifest manifest;
        struct td_pe_codeview cv;
        size_t n;
        walk_imports(&pe, false);
        walk_imports(&pe, true);
        walk_exports(&pe);
        err.set = false;
        td_pe_bound_imports(&pe, &bound, &n, &err);
        err.set = false;
        if (td_pe_version(&pe, &version, &err) == 0)
            td_pe_version_string(&version, "FileVersion");
        err.set = false;
        td_pe_manifest(&pe, &manifest, &err);
        err.set = false;
        td_pe_codeview(&pe, &cv, &err);
        td_pe_arch_slug(&pe);
    }
    td_arena_free(&arena);
    return 0;
}
