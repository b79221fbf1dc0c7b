/* PE import binding with forwarders followed and cycles caught (see
 * bind_pe.h). Pure lookups in the exporting objects' export tables; the
 * only way out to other modules is the caller's load function. */
#include "graph/bind_pe.h"

#include <stdlib.h>
#include <string.h>

struct visit {
    const struct td_object *object;
    uint32_t ordinal;
};

static bool lookup(struct td_object *o, bool by_ordinal, const char *name, uint32_t ordinal,
                   struct td_pe_export *e)
{
    struct td_pe_exports ex;
    struct td_err ignore = {0};
    if (o->kind != TD_FILE_PE || td_pe_exports(&o->u.pe, &ex, &ignore) != 0 || !ex.present)
        return false;
    return by_ordinal ? td_pe_export_by_ordinal(&o->u.pe, &ex, ordinal, e)
                      : td_pe_export_by_name(&o->u.pe, &ex, name, e);
}

static void broken(struct td_bind_pe_result *res, struct td_object *at, enum td_forward_problem p)
{
    res->status = TD_BIND_BAD_FORWARDER;
    res->problem = p;
    res->provider = at;
}

/* "OTHER.func" / "OTHER.#12": the module is everything before the last
 * '.', to which the loader appends ".dll" (Wine find_forwarded_export
 * likewise cuts at strrchr '.'). */
static bool parse_forwarder(struct td_object *o, const char *fwd, const char **dll,
                            const char **name, uint32_t *ordinal)
{
    const char *dot = strrchr(fwd, '.');
    if (!dot || dot == fwd || !dot[1])
        return false;
    char *d = td_arena_alloc(&o->arena, (size_t)(dot - fwd) + 5);
    if (!d)
        return false;
    memcpy(d, fwd, (size_t)(dot - fwd));
    strcpy(d + (dot - fwd), ".dll");
    *dll = d;
    *name = NULL;
    if (dot[1] == '#') {
        char *end;
        unsigned long n = strtoul(dot + 2, &end, 10);
        if (*end || end == dot + 2 || n > 0xffff)
            return false;
        *ordinal = (uint32_t)n;
    } else {
        *name = dot + 1;
    }
    return true;
}

int td_bind_pe(const struct td_pe_import_func *fn, struct td_object *exporter,
               td_bind_pe_load_fn load, void *ctx, struct td_bind_pe_result *res,
               struct td_err *err)
{
    memset(res, 0, sizeof *res);
    struct visit seen[TD_BIND_PE_MAX_HOPS];
    struct td_object *o = exporter;
    const char *name = fn->by_ordinal ? NULL : fn->name;
    uint32_t ordinal = fn->ordinal;
    for (size_t hop = 0;; hop++) {
        res->symbol = name;
        res->ordinal = ordinal;
        struct td_pe_export e;
        if (!lookup(o, name == NULL, name, ordinal, &e)) {
            if (hop == 0) {
                res->status = name ? TD_BIND_MISSING_SYMBOL : TD_BIND_MISSING_ORDINAL;
                res->provider = o;
            } else {
                broken(res, o, name ? TD_FORWARD_SYMBOL_MISSING : TD_FORWARD_ORDINAL_MISSING);
            }
            return 0;
        }
        if (!e.forwarder) {
            res->status = TD_BIND_OK;
            res->provider = o;
            return 0;
        }
        for (size_t i = 0; i < hop; i++) {
            if (seen[i].object == o && seen[i].ordinal == e.ordinal) {
                broken(res, o, TD_FORWARD_CYCLE);
                return 0;
            }
        }
        if (hop == TD_BIND_PE_MAX_HOPS) {
            broken(res, o, TD_FORWARD_TOO_DEEP);
            return 0;
        }
        seen[hop] = (struct visit){o, e.ordinal};
        res->chain[res->n_chain++] = e.forwarder;
        const char *dll;
        if (!parse_forwarder(o, e.forwarder, &dll, &name, &ordinal)) {
            broken(res, o, TD_FORWARD_MALFORMED);
            return 0;
        }
        struct td_object *next = NULL;
        if (load(ctx, o, dll, &res->dll_resolution, &next, err) != 0)
            return -1;
        if (!next) {
            res->missing_dll = dll;
            broken(res, o, TD_FORWARD_DLL_MISSING);
            return 0;
        }
        o = next;
    }
}

const char *td_bind_status_name(enum td_bind_status status)
{
    static const char *const names[] = {"ok", "missing symbol", "missing ordinal", "bad forwarder"};
    return status <= TD_BIND_BAD_FORWARDER ? names[status] : "unknown";
}

const char *td_forward_problem_name(enum td_forward_problem problem)
{
    static const char *const names[] = {"none",
                                        "malformed forwarder",
                                        "forwarded DLL not found",
                                        "forwarded name not exported",
                                        "forwarded ordinal not exported",
                                        "forwarder cycle",
                                        "forwarder chain too long"};
    return problem <= TD_FORWARD_TOO_DEEP ? names[problem] : "unknown";
}
