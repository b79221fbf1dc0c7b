/* Shared by fleet_read.c and fleet.c: the intern table. */
#ifndef TD_PROBE_FLEET_INTERNAL_H
#define TD_PROBE_FLEET_INTERNAL_H

#include <stdint.h>

#include "probe/fleet/fleet.h"

struct td_fleet_slot {
    const char *s;
    size_t len;
    uint64_t hash;
    size_t node; /* the node this string is the host of, plus one; 0: none */
};

struct td_fleet_intern {
    struct td_fleet_slot *slots;
    size_t cap, used;
};

struct td_fleet_slot *td_fleet_intern_slot(struct td_fleet *f, const char *s, size_t n);
const char *td_fleet_intern(struct td_fleet *f, const char *s, size_t n);
struct td_fleet_node *td_fleet_node_for(struct td_fleet *f, const char *host, size_t len);

#endif
