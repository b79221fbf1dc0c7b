/* PEP 514 registry discovery (pyreg.h) elsewhere than Windows: nothing. */
#include "probe/python/pyreg.h"

size_t td_pyreg_list(struct td_arena *a, struct td_pyreg_entry **out)
{
    (void)a;
    *out = NULL;
    return 0;
}
