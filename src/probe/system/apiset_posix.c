/* No live API-set schema outside Windows: the loader model keeps
 * data/windows_apisets.tsv. */
#include "probe/system/apiset.h"

const struct td_apiset_map *td_probe_live_apisets(void)
{
    return NULL;
}
