/* What a change between two snapshots can do (data/change_impacts.tsv): the
 * finding kinds it can cause and its impact when it causes none; and the
 * wheel index a torch variant is published on, for the restore script. */
#ifndef TD_KB_CHANGE_H
#define TD_KB_CHANGE_H

#include <stdbool.h>
#include <stddef.h>

enum td_impact { TD_IMPACT_BREAKS, TD_IMPACT_RISKY, TD_IMPACT_NEUTRAL };

/* "breaks", "risky", "neutral". */
const char *td_impact_name(enum td_impact i);

struct td_kb_change {
    char kinds[512];          /* ";"-separated finding kinds it can cause */
    bool match_any;           /* every new finding of those kinds, not only ones naming the item */
    enum td_impact otherwise; /* without a new finding: risky or neutral */
    char detail[256];         /* why it matters */
    char source[512];
};

/* The first row of the table for AREA and ITEM; false when none (the
 * change is then neutral). */
bool td_kb_change(const char *area, const char *item, struct td_kb_change *out);

/* True when the ";"-separated LIST holds KIND. */
bool td_kb_kind_listed(const char *list, const char *kind);

/* The pip index the torch wheels tagged LOCAL ("cu121", "cpu", "rocm6.2",
 * "xpu") are published on, into OUT; NULL when the tables know none (a
 * local build's own tag). From torch_cuda_builds.tsv for CUDA tags,
 * torch_wheel_indexes.tsv otherwise. */
const char *td_kb_variant_index(const char *local, char *out, size_t cap);

#endif
