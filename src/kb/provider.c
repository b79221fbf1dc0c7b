/* Who provides a shared library that is not a file of any installed
 * package (data/cuda_wheel_libraries.tsv, data/windows_runtime_dlls.tsv,
 * data/linux_system_libraries.tsv): the lookups behind a missing_library
 * fix that names a package, a runtime or the driver. */
#include <ctype.h>
#include "base/compat.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "kb/kb.h"
#include "kb/table.h"

static void lower(const char *s, char *out, size_t cap)
{
    size_t i = 0;
    for (; s[i] && i + 1 < cap; i++)
        out[i] = (char)tolower((unsigned char)s[i]);
    out[i] = '\0';
}

bool td_kb_cuda_wheel(const char *library, int cuda_major, char *wheel, size_t cap)
{
    static const char *const cols[] = {"cuda_major", "library", "wheel", NULL};
    struct td_table t;
    if (!library || !td_table_open(&t, "cuda_wheel_libraries", cols))
        return false;
    while (td_table_next(&t))
        if (atoi(td_table_cell(&t, 0)) == cuda_major &&
            fnmatch(td_table_cell(&t, 1), library, 0) == 0) {
            kb_copy(wheel, cap, td_table_cell(&t, 2));
            return true;
        }
    return false;
}

/* S with every "{arch}" replaced by ARCH, into OUT. */
static void with_arch(const char *s, const char *arch, char *out, size_t cap)
{
    size_t used = 0;
    out[0] = '\0';
    while (*s && used + 1 < cap) {
        const char *at = strstr(s, "{arch}");
        size_t n = at ? (size_t)(at - s) : strlen(s);
        used += (size_t)snprintf(out + used, cap - used, "%.*s%s", (int)n, s, at ? arch : "");
        if (used >= cap || !at)
            break;
        s = at + 6;
    }
}

/* A KnownDLL (data/windows_knowndlls.tsv) is part of Windows itself: a
 * System32 without it is a damaged Windows, or --root is not its drive. */
static bool known_dll(const char *dll, struct td_kb_provider *out)
{
    static const char *const cols[] = {"dll", NULL};
    struct td_table t;
    if (!td_table_open(&t, "windows_knowndlls", cols))
        return false;
    while (td_table_next(&t))
        if (strcasecmp(td_table_cell(&t, 0), dll) == 0) {
            kb_copy(out->provider, sizeof out->provider, "Windows itself (a KnownDLL of System32)");
            kb_copy(out->fix, sizeof out->fix,
                    "sfc /scannow  (an elevated prompt: it restores missing system files); with "
                    "--root, give the drive Windows is installed on");
            kb_copy(out->source, sizeof out->source,
                    "data/windows_knowndlls.tsv ; https://learn.microsoft.com/windows-server/"
                    "administration/windows-commands/sfc (/scannow)");
            out->driver = false;
            return true;
        }
    return false;
}

bool td_kb_windows_runtime(const char *dll, const char *arch, struct td_kb_provider *out)
{
    static const char *const cols[] = {"dll", "provider", "install_hint", "source", NULL};
    struct td_table t;
    char name[256], pattern[256];
    if (!dll || !td_table_open(&t, "windows_runtime_dlls", cols))
        return false;
    lower(dll, name, sizeof name);
    while (td_table_next(&t)) {
        lower(td_table_cell(&t, 0), pattern, sizeof pattern);
        if (fnmatch(pattern, name, 0) != 0)
            continue;
        with_arch(td_table_cell(&t, 1), arch ? arch : "x64", out->provider, sizeof out->provider);
        with_arch(td_table_cell(&t, 2), arch ? arch : "x64", out->fix, sizeof out->fix);
        kb_copy(out->source, sizeof out->source, td_table_cell(&t, 3));
        out->driver = strstr(out->provider, "NVIDIA display driver") != NULL;
        return true;
    }
    return known_dll(dll, out);
}

bool td_kb_linux_system_library(const char *library, struct td_kb_provider *out)
{
    static const char *const cols[] = {"library", "provider", "debian", "source", NULL};
    struct td_table t;
    if (!library || !td_table_open(&t, "linux_system_libraries", cols))
        return false;
    while (td_table_next(&t))
        if (strcmp(td_table_cell(&t, 0), library) == 0) {
            out->driver = strcmp(td_table_cell(&t, 1), "driver") == 0;
            kb_copy(out->provider, sizeof out->provider,
                    out->driver ? "the NVIDIA driver" : td_table_cell(&t, 2));
            out->fix[0] = '\0';
            kb_copy(out->source, sizeof out->source, td_table_cell(&t, 3));
            return true;
        }
    return false;
}
