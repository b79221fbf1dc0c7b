/* Fake system roots for the probe tests: a temporary directory that files
 * are written into (ROOT/etc/os-release, ROOT/proc/meminfo, ...) and links
 * to fixture binaries, removed at the end. */
#ifndef TD_TESTS_PROBE_FAKEROOT_H
#define TD_TESTS_PROBE_FAKEROOT_H

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"

struct fakeroot {
    char dir[256];
};

static void fakeroot_mkdirs(const char *path)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(buf, 0755);
            *p = '/';
        }
    mkdir(buf, 0755);
}

static void fakeroot_init(struct fakeroot *r)
{
    snprintf(r->dir, sizeof r->dir, "/tmp/td-probe-XXXXXX");
    assert_non_null(mkdtemp(r->dir));
}

/* Writes LEN bytes of TEXT (LEN 0: strlen) to ROOT/REL, creating directories. */
static void fakeroot_write(const struct fakeroot *r, const char *rel, const char *text, size_t len)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", r->dir, rel);
    char *slash = strrchr(path, '/');
    *slash = '\0';
    fakeroot_mkdirs(path);
    *slash = '/';
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fwrite(text, 1, len ? len : strlen(text), f);
    fclose(f);
}

static void fakeroot_dir(const struct fakeroot *r, const char *rel)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", r->dir, rel);
    fakeroot_mkdirs(path);
}

/* ROOT/REL becomes a symbolic link to TARGET (a host path). */
static void fakeroot_link(const struct fakeroot *r, const char *rel, const char *target)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", r->dir, rel);
    char *slash = strrchr(path, '/');
    *slash = '\0';
    fakeroot_mkdirs(path);
    *slash = '/';
    assert_int_equal(symlink(target, path), 0);
}

static int fakeroot_rm(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static void fakeroot_free(struct fakeroot *r)
{
    nftw(r->dir, fakeroot_rm, 16, FTW_DEPTH | FTW_PHYS);
}

#endif
