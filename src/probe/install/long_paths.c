/* path_too_long: a torch install with files whose Windows path reaches
 * MAX_PATH (260 characters with the terminating NUL, "Maximum Path Length
 * Limitation", Microsoft Learn) fails to install or load unless
 * HKLM\SYSTEM\CurrentControlSet\Control\FileSystem LongPathsEnabled is 1
 * (pip's "Could not install packages due to an OSError" on such paths). */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "base/compat.h"
#include "base/finding.h"
#include "probe/probe.h"
#include "probe/python/pyfs.h"

enum { MAX_PATH_CHARS = 260, MAX_DEPTH = 24 };

/* PATH's length as Windows counts it: UTF-16 units, so a character past
 * U+FFFF (a 4-byte UTF-8 sequence) is two. */
static size_t utf16_length(const char *path)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)path; *p; p++)
        n += (*p & 0xc0) != 0x80 ? 1 + (*p >= 0xf0) : 0;
    return n;
}

/* The longest file path under DIR (a target path), into LONGEST. */
static void longest_under(const struct td_probe_ctx *ctx, const char *dir, int depth, char *longest,
                          size_t cap)
{
    char host[PATH_MAX], path[PATH_MAX];
    DIR *d = depth < MAX_DEPTH && td_pyfs_host(ctx, dir, host, sizeof host) ? opendir(host) : NULL;
    for (struct dirent *e; d && (e = readdir(d));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= sizeof path)
            continue;
        struct stat st;
        if (td_pyfs_lstat(ctx, path, &st) && S_ISDIR(st.st_mode))
            longest_under(ctx, path, depth + 1, longest, cap);
        else if (utf16_length(path) > utf16_length(longest))
            snprintf(longest, cap, "%s", path);
    }
    if (d)
        closedir(d);
}

/* P as Windows writes it: backslashes, and a target path of a --root tree
 * ("/Users/...", whose C:\ is the root) with its drive, which MAX_PATH
 * counts too. */
static void to_windows(char *p, size_t cap)
{
    size_t n = strlen(p);
    if (p[0] == '/' && n + 3 <= cap) {
        memmove(p + 2, p, n + 1);
        p[0] = 'C', p[1] = ':';
    }
    for (; *p; p++)
        if (*p == '/')
            *p = '\\';
}

static void add_finding(const char *torch_dir, const char *longest, int enabled,
                        struct td_findings *out)
{
    const char *value = enabled < 0 ? "was not read (--root: the analysed system's registry is "
                                      "not this machine's)"
                                    : "is not 1";
    td_findings_add(
        out, enabled < 0 ? TD_SEV_WARNING : TD_SEV_ERROR, TD_KIND_PATH_TOO_LONG, longest, torch_dir,
        NULL,
        "enable long paths (as administrator), then restart the program: reg add "
        "\"HKLM\\SYSTEM\\CurrentControlSet\\Control\\FileSystem\" /v LongPathsEnabled /t "
        "REG_DWORD /d 1 /f  (PowerShell: New-ItemProperty -Path "
        "\"HKLM:\\SYSTEM\\CurrentControlSet\\Control\\FileSystem\" -Name LongPathsEnabled "
        "-Value 1 -PropertyType DWORD -Force); or reinstall the environment under a shorter "
        "folder (such as C:\\venvs\\torch)",
        "%zu characters: a file of this torch install lies at a path of MAX_PATH (260) or more, "
        "and LongPathsEnabled %s; Windows then cannot open it for programs that are not "
        "long-path aware, and pip cannot install there",
        utf16_length(longest), value);
}

void td_rules_long_paths(const struct td_probe_ctx *ctx, const struct td_torch *torch, size_t n,
                         int long_paths_enabled, struct td_findings *out)
{
    if (long_paths_enabled == 1)
        return;
    for (size_t i = 0; i < n; i++) {
        char longest[PATH_MAX] = "";
        longest_under(ctx, torch[i].dir, 0, longest, sizeof longest);
        char dir[PATH_MAX];
        snprintf(dir, sizeof dir, "%s", torch[i].dir);
        to_windows(longest, sizeof longest);
        to_windows(dir, sizeof dir);
        if (utf16_length(longest) < MAX_PATH_CHARS)
            continue;
        add_finding(dir, longest, long_paths_enabled, out);
    }
}
