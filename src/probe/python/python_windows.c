/* Python installations registered under HKCU/HKLM\Software\Python, as PEP
 * 514 defines them (https://peps.python.org/pep-0514/): each
 * <Company>\<Tag> key (PythonCore is the python.org installer's company)
 * with InstallPath (its default value the installation's folder),
 * InstallPath\ExecutablePath, SysVersion and Version. HKCU is searched
 * first, then HKLM in its 64-bit and 32-bit views (KEY_WOW64_64KEY,
 * KEY_WOW64_32KEY), as the py launcher does. Only read; nothing written. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#include "base/registry.h"
#include "probe/python/pyreg.h"

enum { MAX_ENTRIES = 128, NAME_CAP = 768, VALUE_CAP = 4096 }; /* UTF-8 bytes */

/* A REG_SZ value NAME (NULL: the default value) of KEY\SUB; NULL when unset. */
static const char *value(struct td_arena *a, HKEY key, const char *sub, const char *name)
{
    char buf[VALUE_CAP];
    return td_reg_string(key, sub, name, 0, buf, sizeof buf) ? td_arena_strdup(a, buf) : NULL;
}

/* The name of subkey I of KEY into OUT; false past the last one. */
static bool subkey(HKEY key, DWORD i, char *out)
{
    return td_reg_subkey(key, i, out, NAME_CAP);
}

static void scan(struct td_arena *a, HKEY root, REGSAM view, struct td_pyreg_entry *items,
                 size_t *n)
{
    HKEY python;
    if (!td_reg_open(root, "Software\\Python", view, &python))
        return;
    char company[NAME_CAP], tag[NAME_CAP];
    for (DWORD c = 0; subkey(python, c, company); c++) {
        HKEY ck;
        if (!td_reg_open(python, company, view, &ck))
            continue;
        for (DWORD t = 0; *n < MAX_ENTRIES && subkey(ck, t, tag); t++) {
            HKEY tk;
            if (!td_reg_open(ck, tag, view, &tk))
                continue;
            struct td_pyreg_entry e = {
                .company = td_arena_strdup(a, company),
                .tag = td_arena_strdup(a, tag),
                .install_path = value(a, tk, "InstallPath", NULL),
                .executable_path = value(a, tk, "InstallPath", "ExecutablePath"),
                .sys_version = value(a, tk, NULL, "SysVersion"),
                .version = value(a, tk, NULL, "Version"),
            };
            RegCloseKey(tk);
            if (e.install_path || e.executable_path)
                items[(*n)++] = e;
        }
        RegCloseKey(ck);
    }
    RegCloseKey(python);
}

size_t td_pyreg_list(struct td_arena *a, struct td_pyreg_entry **out)
{
    size_t n = 0;
    *out = td_arena_array(a, MAX_ENTRIES, sizeof **out);
    if (!*out)
        return 0;
    scan(a, HKEY_CURRENT_USER, 0, *out, &n);
    scan(a, HKEY_LOCAL_MACHINE, KEY_WOW64_64KEY, *out, &n);
    scan(a, HKEY_LOCAL_MACHINE, KEY_WOW64_32KEY, *out, &n);
    return n;
}
