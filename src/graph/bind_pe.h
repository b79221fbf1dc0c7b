/* Binding one PE import (by name or by ordinal) to the export that
 * satisfies it, following export forwarders the way the Windows loader
 * does ([PE] "Export Address Table"; Wine's find_forwarded_export). The
 * graph turns a result other than TD_BIND_OK into a finding
 * (missing_symbol, missing_ordinal, bad_forwarder). */
#ifndef TD_GRAPH_BIND_PE_H
#define TD_GRAPH_BIND_PE_H

#include "loader/loader.h"

#define TD_BIND_PE_MAX_HOPS 16

enum td_bind_status {
    TD_BIND_OK,
    TD_BIND_MISSING_SYMBOL,  /* 127 / STATUS_ENTRYPOINT_NOT_FOUND (0xC0000139) */
    TD_BIND_MISSING_ORDINAL, /* STATUS_ORDINAL_NOT_FOUND (0xC0000138) */
    TD_BIND_BAD_FORWARDER,   /* the export forwards somewhere that does not satisfy it */
};

/* Why a forwarder chain broke (TD_BIND_BAD_FORWARDER). */
enum td_forward_problem {
    TD_FORWARD_NONE,
    TD_FORWARD_MALFORMED,       /* not "DLL.name" or "DLL.#N" */
    TD_FORWARD_DLL_MISSING,     /* the target DLL was not found (or failed to load) */
    TD_FORWARD_SYMBOL_MISSING,  /* the target DLL lacks the name */
    TD_FORWARD_ORDINAL_MISSING, /* the target DLL lacks the ordinal */
    TD_FORWARD_CYCLE,           /* the chain comes back to an export it passed */
    TD_FORWARD_TOO_DEEP,        /* more than TD_BIND_PE_MAX_HOPS forwarders */
};

struct td_bind_pe_result {
    enum td_bind_status status;
    enum td_forward_problem problem;
    struct td_object *provider; /* where the export was finally found, or where the chain broke */
    const char *symbol;         /* the name last looked up (NULL when by ordinal) */
    uint32_t ordinal;           /* the ordinal last looked up (when symbol is NULL) */
    const char *chain[TD_BIND_PE_MAX_HOPS]; /* forwarder strings followed, in order */
    size_t n_chain;
    const char *missing_dll;             /* TD_FORWARD_DLL_MISSING: the DLL name searched */
    struct td_resolution dll_resolution; /* the last forwarder DLL lookup (its probes) */
};

/* How bind reaches a forwarder's target module: the graph resolves DLL as a
 * dependency of REQUESTER (through the loader model, API sets included),
 * adopts a newly opened object and loads its closure, and returns the
 * object; NULL when it cannot be loaded (RES tells why). -1 in ERR only
 * when the model itself fails. */
typedef int (*td_bind_pe_load_fn)(void *ctx, struct td_object *requester, const char *dll,
                                  struct td_resolution *res, struct td_object **loaded,
                                  struct td_err *err);

/* Binds FN (an import of IMPORTER's descriptor naming EXPORTER) to
 * EXPORTER's exports. Returns 0 with RES filled, -1 when LOAD failed. */
int td_bind_pe(const struct td_pe_import_func *fn, struct td_object *exporter,
               td_bind_pe_load_fn load, void *ctx, struct td_bind_pe_result *res,
               struct td_err *err);

/* "missing symbol" etc., and the problem in words. */
const char *td_bind_status_name(enum td_bind_status status);
const char *td_forward_problem_name(enum td_forward_problem problem);

#endif
