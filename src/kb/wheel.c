/* Wheel platform tags: the glibc a manylinux tag promises to need
 * (manylinux_glibc: PEP 513/571/599 legacy names, PEP 600 rule). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/version.h"
#include "kb/kb.h"
#include "kb/table.h"

/* The glibc of one tag ("manylinux2014_x86_64", "manylinux_2_28_aarch64"). */
static bool one_tag(const char *tag, size_t len, char *out, size_t cap)
{
    const char *cols[] = {"tag", "glibc_min", NULL};
    struct td_table k;
    char t[128];
    if (len >= sizeof t)
        return false;
    memcpy(t, tag, len);
    t[len] = '\0';
    if (td_table_open(&k, "manylinux_glibc", cols)) {
        while (td_table_next(&k)) {
            const char *name = td_table_cell(&k, 0);
            size_t n = strlen(name);
            /* Legacy names (manylinux1/2010/2014), alone or plus "_ARCH";
             * the PEP 600 forms follow their rule below. */
            if (strncmp(name, "manylinux_", 10) == 0 || strchr(name, 'X') ||
                strncmp(t, name, n) != 0 || (t[n] && t[n] != '_'))
                continue;
            const char *v = kb_value(&k, 1);
            if (v) {
                kb_copy(out, cap, v);
                return true;
            }
        }
    }
    /* PEP 600: manylinux_${GLIBCMAJOR}_${GLIBCMINOR}_${ARCH}. */
    int major, minor, used = 0;
    if (sscanf(t, "manylinux_%d_%d%n", &major, &minor, &used) == 2 && used > 0 &&
        (t[used] == '\0' || t[used] == '_') && major > 0 && minor >= 0) {
        snprintf(out, cap, "%d.%d", major, minor);
        return true;
    }
    return false;
}

const char *td_kb_manylinux_glibc(const char *tag, char *out, size_t cap)
{
    if (!tag)
        return NULL;
    /* A compressed tag set ("manylinux_2_17_x86_64.manylinux2014_x86_64")
     * installs where any member does: the lowest glibc of them. */
    bool found = false;
    char best[TD_KB_STR] = "", v[TD_KB_STR];
    for (const char *p = tag; *p;) {
        size_t len = strcspn(p, ".");
        if (one_tag(p, len, v, sizeof v) && (!found || td_version_cmp(v, best) < 0)) {
            kb_copy(best, sizeof best, v);
            found = true;
        }
        p += len + (p[len] == '.');
    }
    return found ? kb_copy(out, cap, best) : NULL;
}
