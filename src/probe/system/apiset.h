/* The running system's API-set schema, as its loader holds it. */
#ifndef TD_PROBE_APISET_H
#define TD_PROBE_APISET_H

#include "format/apiset.h"

/* Windows: the schema at PEB->ApiSetMap, parsed once (kept for the
 * process's life); NULL when it cannot be read or is not version 6, and
 * always NULL elsewhere (apiset_posix.c). */
const struct td_apiset_map *td_probe_live_apisets(void);

#endif
