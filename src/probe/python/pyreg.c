/* The pure helpers of PEP 514 discovery (pyreg.h): what a registry entry
 * holds turned into paths and versions. Below python.c and
 * python_syspath.c, which both use them. */
#include <stdio.h>
#include <string.h>

#include "probe/python/pyfs.h"
#include "probe/python/pyreg.h"

char *td_pyreg_slashes(struct td_arena *a, const char *s)
{
    char *out = td_arena_strdup(a, s);
    for (char *p = out; p && *p; p++)
        if (*p == '\\')
            *p = '/';
    return out;
}

char *td_pyreg_exe(struct td_arena *a, const struct td_pyreg_entry *e)
{
    if (e->executable_path)
        return td_pyreg_slashes(a, e->executable_path);
    if (!e->install_path)
        return NULL;
    /* PEP 514: without ExecutablePath, python.exe in InstallPath. */
    char *dir = td_pyreg_slashes(a, e->install_path);
    size_t n = dir ? strlen(dir) : 0;
    while (n > 1 && dir[n - 1] == '/')
        dir[--n] = '\0';
    return dir ? td_pyfs_join(a, dir, "python.exe") : NULL;
}

const char *td_pyreg_version(const struct td_pyreg_entry *e)
{
    int major, minor;
    if (e->version)
        return e->version;
    if (e->sys_version)
        return e->sys_version;
    /* PEP 514: PythonCore's tags are "X.Y" or "X.Y-32". */
    if (e->company && e->tag && strcmp(e->company, "PythonCore") == 0 &&
        sscanf(e->tag, "%d.%d", &major, &minor) == 2)
        return e->tag;
    return NULL;
}

char *td_pyreg_user_site(struct td_arena *a, const char *user_base, int major, int minor)
{
    char tmp[TD_PYFS_PATH_MAX];
    int n = snprintf(tmp, sizeof tmp, "%s/Python%d%d/site-packages", user_base, major, minor);
    return n > 0 && (size_t)n < sizeof tmp ? td_pyreg_slashes(a, tmp) : NULL;
}
