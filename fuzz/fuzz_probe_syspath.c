/* libFuzzer target for the sys.path model (probe/python/python_syspath.c): the
 * input, split at NUL bytes, becomes a Windows embeddable python311._pth, a
 * .pth file of its site-packages and a venv's pyvenv.cfg in a scratch
 * root; both interpreters are then described and their torch resolved. */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "probe/probe.h"

static char root[64];

static void put(const char *rel, const uint8_t *data, size_t size)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    FILE *f = fopen(path, "wb");
    if (!f)
        return;
    fwrite(data, 1, size, f);
    fclose(f);
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

static void remove_root(void)
{
    nftw(root, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void make_root(void)
{
    static const char *const dirs[] = {
        "emb",      "emb/Lib",  "emb/Lib/site-packages", "emb/Lib/site-packages/torch",      "venv",
        "venv/bin", "venv/lib", "venv/lib/python3.11",   "venv/lib/python3.11/site-packages"};
    snprintf(root, sizeof root, "/tmp/td-fuzz-syspath-XXXXXX");
    if (!mkdtemp(root))
        abort();
    atexit(remove_root);
    char path[256];
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
        snprintf(path, sizeof path, "%s/%s", root, dirs[i]);
        mkdir(path, 0755);
    }
    put("emb/python.exe", (const uint8_t *)"MZ", 2);
    put("emb/python311.dll", (const uint8_t *)"MZ", 2);
    put("emb/Lib/site-packages/torch/__init__.py", (const uint8_t *)"#", 1);
    put("venv/bin/python3.11", (const uint8_t *)"#", 1);
}

/* The next NUL-separated part of DATA from *AT. */
static size_t part(const uint8_t *data, size_t size, size_t *at, const uint8_t **out)
{
    *out = data + *at;
    const uint8_t *nul = *at < size ? memchr(data + *at, 0, size - *at) : NULL;
    size_t n = nul ? (size_t)(nul - *out) : size - *at;
    *at += n + (nul ? 1 : 0);
    return n;
}

static void probe(const char *exe, const char *const *envp)
{
    struct td_arena arena = {.cap = 16 << 20};
    struct td_probe_ctx ctx = {.root = root, .arena = &arena, .envp = envp, .home = "/home"};
    struct td_python *py;
    size_t n;
    if (td_probe_pythons(&ctx, exe, &py, &n) == 0) {
        struct td_torch *t;
        size_t nt;
        struct td_findings f = {0};
        td_probe_torch(&ctx, py, n, 0, &t, &nt, &f);
        td_findings_free(&f);
    }
    td_arena_free(&arena);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!root[0])
        make_root();
    size_t at = 0;
    const uint8_t *p;
    size_t n = part(data, size, &at, &p);
    put("emb/python311._pth", p, n);
    n = part(data, size, &at, &p);
    put("emb/Lib/site-packages/a.pth", p, n);
    n = part(data, size, &at, &p);
    put("venv/pyvenv.cfg", p, n);
    static const char *const envp[] = {"PYTHONPATH=rel::/x", "PYTHONHOME=/venv", NULL};
    static const char *const none[] = {NULL};
    probe("/emb/python.exe", none);
    probe("/venv/bin/python3.11", envp);
    return 0;
}
