/* The rules of `torchdoctor wheel` (kb/wheel.h): each binary of a wheel
 * against every platform tag the wheel claims (machine, OS, symbol
 * versions, macOS minimum), its needs against the platform's policy and
 * torch's libraries, its Python ABI against the wheel's tags, vendored
 * runtimes, RECORD, debug info and CUDA code. Facts in, findings out. */
#include "kb/wheel.h"

#include "base/compat.h" /* fnmatch, FNM_CASEFOLD on every build */

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/version.h"
#include "kb/kb.h"
#include "kb/table.h"

#define NEEDED_BY(w, b, buf) (snprintf(buf, sizeof buf, "%s!%s", (w)->filename, (b)->path), buf)

static const char *base_of(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

bool td_kb_wheel_unmangle(const char *name, char *out, size_t cap)
{
    /* auditwheel: libfoo-<8 hex>.so[.N] (auditwheel/repair.py copylib:
     * "{base}-{shorthash}{ext}"); delvewheel: foo-<32 hex>.dll. */
    const char *dash = strrchr(name, '-');
    kb_copy(out, cap, name);
    if (!dash)
        return false;
    size_t hex = 0;
    while (isxdigit((unsigned char)dash[1 + hex]))
        hex++;
    const char *rest = dash + 1 + hex;
    bool so = hex == 8 && strncmp(rest, ".so", 3) == 0;
    bool dll = hex == 32 && strcasecmp(rest, ".dll") == 0;
    if (!so && !dll)
        return false;
    snprintf(out, cap, "%.*s%s", (int)(dash - name), name, rest);
    return true;
}

bool td_kb_wheel_glibc(const struct td_wheel_platform *p, const char *tag, int *major, int *minor)
{
    if (p->os != TD_WHEEL_OS_MANYLINUX)
        return false;
    if (!p->legacy) {
        *major = p->major;
        *minor = p->minor;
        return true;
    }
    char v[32];
    return td_kb_manylinux_glibc(tag, v, sizeof v) && sscanf(v, "%d.%d", major, minor) == 2;
}

static const char *os_of(const struct td_wheel_platform *p)
{
    switch (p->os) {
    case TD_WHEEL_OS_LINUX:
    case TD_WHEEL_OS_MANYLINUX:
    case TD_WHEEL_OS_MUSLLINUX:
        return "linux";
    case TD_WHEEL_OS_WINDOWS:
        return "windows";
    case TD_WHEEL_OS_MACOS:
        return "macos";
    default:
        return NULL;
    }
}

/* The wheel's tags, split, as the rules need them. */
struct tags {
    const struct td_wheel_facts *w;
    char plat_text[64][80]; /* each platform tag's text */
    size_t nplat;
    int py_min_minor; /* lowest cp3X python tag's minor, -1 none */
    bool abi3;
    int abi_minor[16]; /* cp3X abi tags */
    size_t nabi;
    int py_minor[16]; /* cp3X python tags: the versions when the ABI tag is "none" */
    size_t npyv;
};

static void split(const char *field, char out[][80], size_t cap, size_t *n)
{
    *n = 0;
    for (const char *p = field ? field : ""; *p && *n < cap;) {
        size_t len = strcspn(p, ".");
        snprintf(out[(*n)++], 80, "%.*s", (int)len, p);
        p += len + (p[len] == '.');
    }
}

static void read_tags(struct tags *t, const struct td_wheel_facts *w)
{
    memset(t, 0, sizeof *t);
    t->w = w;
    t->py_min_minor = -1;
    split(w->platform_tags, t->plat_text, 64, &t->nplat);
    char items[16][80];
    size_t n;
    split(w->python_tags, items, 16, &n);
    for (size_t i = 0; i < n; i++) {
        struct td_wheel_python p;
        if (td_wheel_python_parse(items[i], strlen(items[i]), &p) == 0 &&
            strcmp(p.impl, "cp") == 0 && p.major == 3 && p.minor >= 0 &&
            (t->py_min_minor < 0 || p.minor < t->py_min_minor))
            t->py_min_minor = p.minor;
        if (td_wheel_python_parse(items[i], strlen(items[i]), &p) == 0 &&
            strcmp(p.impl, "cp") == 0 && p.major == 3 && p.minor >= 0 && t->npyv < 16)
            t->py_minor[t->npyv++] = p.minor;
    }
    split(w->abi_tags, items, 16, &n);
    for (size_t i = 0; i < n; i++) {
        struct td_wheel_python p;
        if (td_wheel_python_parse(items[i], strlen(items[i]), &p) != 0)
            continue;
        if (strcmp(p.impl, "abi3") == 0)
            t->abi3 = true;
        else if (strcmp(p.impl, "cp") == 0 && p.major == 3 && p.minor >= 0 && t->nabi < 16)
            t->abi_minor[t->nabi++] = p.minor;
    }
}

static bool has_arch(const struct td_wheel_binary *b, const char *arch)
{
    for (size_t i = 0; i < b->narches; i++)
        if (strcmp(b->arches[i], arch) == 0)
            return true;
    return false;
}

/* The architectures of B, '+'-joined, by the names its platform uses
 * (macOS and its tags say arm64 where ELF says aarch64). */
static void arches_text(const struct td_wheel_binary *b, char *out, size_t cap)
{
    bool mac = strcmp(b->os, "macos") == 0;
    out[0] = '\0';
    for (size_t i = 0; i < b->narches; i++) {
        const char *a = mac && strcmp(b->arches[i], "aarch64") == 0 ? "arm64" : b->arches[i];
        snprintf(out + strlen(out), cap - strlen(out), "%s%s", i ? "+" : "", a);
    }
}

/* What the platform's loader does with a file of another machine, in its
 * own words. */
static const char *loader_refusal(const char *os)
{
    return strcmp(os, "windows") == 0 ? "LoadLibrary fails with WinError 193 (\"%1 is not a valid "
                                        "Win32 application\")"
           : strcmp(os, "macos") == 0 ? "dyld refuses it (\"mach-o file, but is an incompatible "
                                        "architecture\")"
                                      : "ld.so skips it (wrong ELF class or machine) and the "
                                        "import fails";
}

/* ---- 1. tags against contents ---- */

static void check_platform(const struct tags *t, const struct td_wheel_binary *b,
                           struct td_findings *out)
{
    const struct td_wheel_facts *w = t->w;
    char nb[1024], have[64];
    arches_text(b, have, sizeof have);
    bool any_os = false;
    char seen[64][TD_WHEEL_ARCH_MAX];
    size_t nseen = 0;
    for (size_t i = 0; i < w->nplatforms; i++) {
        const struct td_wheel_platform *p = &w->platforms[i];
        if (p->os == TD_WHEEL_OS_ANY && b->program) {
            /* pip's and setuptools' own wheels carry Windows launchers
             * (t64.exe, cli-64.exe) that pip copies to make console scripts. */
            td_findings_add(out, TD_SEV_INFO, TD_KIND_WRONG_ARCHITECTURE, base_of(b->path),
                            NEEDED_BY(w, b, nb), NULL, NULL,
                            "%s is a %s %s program, not a library: no import loads it, and "
                            "it runs only on that OS and machine although the tag 'any' "
                            "installs it everywhere",
                            b->path, b->os, have);
            return;
        }
        if (p->os == TD_WHEEL_OS_ANY) {
            td_findings_add(out, TD_SEV_ERROR, TD_KIND_WRONG_ARCHITECTURE, base_of(b->path),
                            NEEDED_BY(w, b, nb), NULL,
                            "build the wheel per platform (pip wheel . / python -m build on each "
                            "target) so its tag names the OS and machine",
                            "%s is a native %s %s binary, but the platform tag 'any' installs it "
                            "on every OS and machine",
                            b->path, b->os, have);
            return;
        }
        const char *os = os_of(p);
        if (!os || strcmp(os, b->os) != 0)
            continue;
        any_os = true;
        bool dup = false;
        for (size_t k = 0; k < nseen; k++)
            dup |= strcmp(seen[k], p->arch) == 0;
        if (dup || nseen == 64)
            continue;
        snprintf(seen[nseen++], TD_WHEEL_ARCH_MAX, "%s", p->arch);
        bool fits = strcmp(p->arch, "universal2") == 0
                        ? has_arch(b, "x86_64") && has_arch(b, "aarch64")
                    : strcmp(p->arch, "universal") == 0 || strcmp(p->arch, "intel") == 0
                        ? has_arch(b, "x86_64")
                        : has_arch(b, p->arch);
        if (!fits)
            td_findings_add(out, TD_SEV_ERROR, TD_KIND_WRONG_ARCHITECTURE, base_of(b->path),
                            NEEDED_BY(w, b, nb), NULL,
                            "rebuild the member for the tag's machine, or retag the wheel for the "
                            "machine it holds (wheel tags --platform-tag)",
                            "%s is %s code, but the wheel's tag %s promises %s: %s", b->path, have,
                            t->plat_text[i < t->nplat ? i : 0], p->arch, loader_refusal(b->os));
    }
    if (!any_os && w->nplatforms)
        td_findings_add(out, TD_SEV_ERROR, TD_KIND_WRONG_ARCHITECTURE, base_of(b->path),
                        NEEDED_BY(w, b, nb), NULL,
                        "build this member for the wheel's platform, or drop it from the wheel",
                        "%s is a %s binary (%s), but no platform tag of the wheel (%s) is %s: "
                        "it can never load where the wheel installs",
                        b->path, b->os, have, w->platform_tags, b->os);
}

static void check_python_abi(const struct tags *t, const struct td_wheel_binary *b,
                             struct td_findings *out)
{
    const struct td_wheel_facts *w = t->w;
    char nb[1024];
    if (!b->is_extension || !b->ext.tagged || b->ext.abi3 || b->ext.major != 3)
        return;
    char fix[256];
    if (t->abi3) {
        snprintf(fix, sizeof fix,
                 "build the module with Py_LIMITED_API and the .abi3 suffix (setuptools: "
                 "py_limited_api=True), or tag the wheel cp3%d-cp3%d",
                 b->ext.minor, b->ext.minor);
        td_findings_add(out, TD_SEV_ERROR, TD_KIND_PYTHON_ABI_MISMATCH, base_of(b->path),
                        NEEDED_BY(w, b, nb), NULL, fix,
                        "%s is named for CPython 3.%d only, but the wheel's ABI tag is abi3: "
                        "other Pythons the tag admits do not import it (ModuleNotFoundError)",
                        b->path, b->ext.minor);
        return;
    }
    const int *minors = t->nabi ? t->abi_minor : t->py_minor;
    size_t n = t->nabi ? t->nabi : t->npyv;
    if (n == 0)
        return;
    for (size_t i = 0; i < n; i++)
        if (minors[i] == b->ext.minor)
            return;
    snprintf(fix, sizeof fix,
             "build the wheel with the interpreter its tag names (python3.%d -m build), or "
             "retag it cp3%d",
             minors[0], b->ext.minor);
    td_findings_add(out, TD_SEV_ERROR, TD_KIND_PYTHON_ABI_MISMATCH, base_of(b->path),
                    NEEDED_BY(w, b, nb), NULL, fix,
                    "%s is built for CPython 3.%d, but the wheel's tags say %s-%s: pip installs "
                    "it on that Python, where `import %s` fails (ModuleNotFoundError)",
                    b->path, b->ext.minor, w->python_tags, w->abi_tags, b->ext.module);
}

/* The platform part of an extension's suffix: CPython imports only names
 * of its own EXTENSION_SUFFIXES ("cpython-311-x86_64-linux-gnu",
 * "cp311-win_amd64"; importlib.machinery), so a module named for another
 * machine or C library is never found where its code would run. */
static void check_ext_platform(const struct tags *t, const struct td_wheel_binary *b,
                               struct td_findings *out)
{
    const char *plat = b->ext.platform;
    if (!b->is_extension || !plat[0] || b->narches != 1)
        return;
    char word[32];
    const char *arch = NULL;
    bool musl = strstr(plat, "-linux-musl") != NULL, gnu = strstr(plat, "-linux-gnu") != NULL;
    struct td_wheel_platform wp;
    if (musl || gnu) {
        size_t len = strcspn(plat, "-");
        snprintf(word, sizeof word, "%.*s", (int)len, plat);
        arch = strcmp(word, "powerpc64le") == 0 ? "ppc64le"
               : strcmp(word, "powerpc64") == 0 ? "ppc64"
                                                : td_wheel_arch_canonical(word, strlen(word));
    } else if (td_wheel_platform_parse(plat, strlen(plat), &wp) == 0 &&
               wp.os == TD_WHEEL_OS_WINDOWS) {
        arch = td_wheel_arch_canonical(wp.arch, strlen(wp.arch));
    }
    bool libc_wrong = false;
    for (size_t k = 0; k < t->w->nplatforms; k++)
        libc_wrong |= (musl && t->w->platforms[k].os == TD_WHEEL_OS_MANYLINUX) ||
                      (gnu && t->w->platforms[k].os == TD_WHEEL_OS_MUSLLINUX);
    /* One root cause: code of a machine no tag names is wrong_architecture
     * (check_platform); here the code fits the tags and the name does not. */
    bool code_fits = false, name_fits = false;
    for (size_t k = 0; k < t->w->nplatforms; k++) {
        const struct td_wheel_platform *q = &t->w->platforms[k];
        if (!os_of(q) || strcmp(os_of(q), b->os) != 0)
            continue;
        code_fits |= strcmp(q->arch, b->arches[0]) == 0;
        name_fits |= arch && strcmp(q->arch, arch) == 0;
    }
    if (!code_fits || ((!arch || name_fits) && !libc_wrong))
        return;
    char nb[1024];
    td_findings_add(out, TD_SEV_ERROR, TD_KIND_PYTHON_ABI_MISMATCH, base_of(b->path),
                    NEEDED_BY(t->w, b, nb), NULL,
                    "name the module with the suffix of the interpreter it is built for "
                    "(python -c \"import importlib.machinery as m; print(m.EXTENSION_SUFFIXES)\")",
                    "%s is named for %s but %s: CPython looks for its own suffix there, so "
                    "`import %s` fails (ModuleNotFoundError)",
                    b->path, plat,
                    libc_wrong ? "the wheel's tags are for the other C library"
                               : "its code and the wheel's tags are for another machine",
                    b->ext.module);
}

/* PE: which python DLL it imports against the tags. */
static void check_python_dll(const struct tags *t, const struct td_wheel_binary *b,
                             struct td_findings *out)
{
    const struct td_wheel_facts *w = t->w;
    char nb[1024];
    for (size_t i = 0; i < b->nneeded; i++) {
        int minor;
        const char *n = b->needed[i];
        if (strncasecmp(n, "python3", 7) != 0)
            continue;
        bool stable = strcasecmp(n, "python3.dll") == 0;
        if (t->abi3 && !stable)
            td_findings_add(out, TD_SEV_ERROR, TD_KIND_PYTHON_ABI_MISMATCH, n, NEEDED_BY(w, b, nb),
                            NULL, "link against python3.lib (the stable ABI) with Py_LIMITED_API",
                            "%s imports %s, one Python version's DLL, but the wheel's ABI tag is "
                            "abi3: on any other Python the import fails (%s not found)",
                            b->path, n, n);
        else if (!stable && sscanf(n + 7, "%d", &minor) == 1 && t->nabi) {
            bool ok = false;
            for (size_t k = 0; k < t->nabi; k++)
                ok |= t->abi_minor[k] == minor;
            if (!ok)
                td_findings_add(out, TD_SEV_ERROR, TD_KIND_PYTHON_ABI_MISMATCH, n,
                                NEEDED_BY(w, b, nb), NULL,
                                "build the wheel with the Python its tag names",
                                "%s imports %s (CPython 3.%d), but the wheel's ABI tag is %s",
                                b->path, n, minor, w->abi_tags);
        }
    }
}

/* abi3: the symbols outside the limited API of the wheel's oldest Python. */
static void check_limited_api(const struct tags *t, const struct td_wheel_binary *b,
                              struct td_findings *out)
{
    const struct td_wheel_facts *w = t->w;
    if (!t->abi3 || b->npy == 0)
        return;
    char nb[1024];
    int floor = t->py_min_minor >= 0 ? t->py_min_minor : 2;
    static const char *const cols[] = {"symbol", "limited_since", NULL};
    for (size_t i = 0; i < b->npy; i++) {
        struct td_table k;
        char since[16] = "";
        if (!td_table_open(&k, "python_limited_api", cols))
            return;
        while (td_table_next(&k)) /* the last row wins: later rows correct generated ones */
            if (strcmp(td_table_cell(&k, 0), b->py_symbols[i]) == 0)
                kb_copy(since, sizeof since, td_table_cell(&k, 1));
        if (!since[0])
            continue;
        /* "3.X": limited from 3.X; ">3.X": not limited in 3.X's headers. */
        int maj = 0, min = 0;
        bool never = since[0] == '>';
        if (sscanf(since + never, "%d.%d", &maj, &min) != 2 || (never ? floor > min : min <= floor))
            continue;
        td_findings_add(out, TD_SEV_ERROR, TD_KIND_PYTHON_ABI_MISMATCH, NULL, NEEDED_BY(w, b, nb),
                        b->py_symbols[i],
                        never ? "use a limited-API equivalent, or build a version-specific wheel"
                              : "raise the wheel's Python tag to the version that added it "
                                "(Py_LIMITED_API=0x03XX0000 and cp3XX-abi3), or avoid it",
                        "%s uses %s, %s %s, but the wheel is tagged cp3%d-abi3: Pythons the tag "
                        "admits fail to import it",
                        b->path, b->py_symbols[i],
                        never ? "not in the limited API of CPython"
                              : "in the limited API only from",
                        never ? since + 1 : since, floor);
    }
}

/* ---- 2. external dependencies ---- */

static bool carried(const struct td_wheel_facts *w, const char *name)
{
    const char *base = base_of(name);
    for (size_t i = 0; i < w->nbinaries; i++) {
        const struct td_wheel_binary *o = &w->binaries[i];
        if (strcasecmp(base_of(o->path), base) == 0 ||
            (o->soname && strcasecmp(base_of(o->soname), base) == 0))
            return true;
    }
    return false;
}

static bool table_glob(const char *table, const char *platform, const char *name, char *provider,
                       size_t cap)
{
    static const char *const cols[] = {"platform", "pattern", "provider", NULL};
    struct td_table k;
    if (!td_table_open(&k, table, cols))
        return false;
    bool icase = strcmp(platform, "windows") == 0;
    while (td_table_next(&k))
        if (strcmp(td_table_cell(&k, 0), platform) == 0 &&
            fnmatch(td_table_cell(&k, 1), name, icase ? FNM_CASEFOLD : 0) == 0) {
            kb_copy(provider, cap, td_table_cell(&k, 2));
            return true;
        }
    return false;
}

static bool knowndll(const char *name)
{
    static const char *const cols[] = {"dll", NULL};
    struct td_table k;
    if (!td_table_open(&k, "windows_knowndlls", cols))
        return false;
    while (td_table_next(&k))
        if (strcasecmp(td_table_cell(&k, 0), name) == 0)
            return true;
    return false;
}

/* The policy a Linux tag allows NAME under: true when listed. */
static bool policy_allows(const struct td_wheel_platform *p, const char *tag, const char *name)
{
    static const char *const cols[] = {"family", "library", "since", NULL};
    struct td_table k;
    int gmaj, gmin;
    bool musl = p->os == TD_WHEEL_OS_MUSLLINUX;
    if (!musl && !td_kb_wheel_glibc(p, tag, &gmaj, &gmin))
        return false;
    if (!td_table_open(&k, "manylinux_policy", cols))
        return false;
    while (td_table_next(&k)) {
        if (strcmp(td_table_cell(&k, 0), musl ? "musllinux" : "manylinux") != 0 ||
            strcmp(td_table_cell(&k, 1), name) != 0)
            continue;
        int a, b;
        if (musl)
            return true;
        if (sscanf(td_table_cell(&k, 2), "manylinux_%d_%d", &a, &b) == 2 &&
            (gmaj > a || (gmaj == a && gmin >= b)))
            return true;
    }
    return false;
}

static int cuda_major_of(const char *name)
{
    int major = 0;
    const char *so = strstr(name, ".so.");
    if (strncmp(name, "libcudart", 9) == 0 && so && sscanf(so + 4, "%d", &major) == 1)
        return major;
    return 0;
}

static void check_needs(const struct tags *t, const struct td_wheel_binary *b,
                        struct td_findings *out)
{
    const struct td_wheel_facts *w = t->w;
    char nb[1024], provider[64];
    int cuda_major = 0;
    for (size_t i = 0; i < b->nneeded; i++)
        if (!cuda_major)
            cuda_major = cuda_major_of(b->needed[i]);
    for (size_t i = 0; i < b->nneeded; i++) {
        const char *n = b->needed[i];
        if (carried(w, n))
            continue;
        if (strcmp(b->os, "macos") == 0 && strncmp(n, "@", 1) != 0 && n[0] != '/')
            continue; /* a bare install name: resolved like a relative path, not judged */
        if (table_glob("wheel_system_libraries", b->os, n, provider, sizeof provider)) {
            if (strcmp(provider, "vc_redist") == 0)
                td_findings_add(out, TD_SEV_INFO, TD_KIND_MISSING_LIBRARY, n, NEEDED_BY(w, b, nb),
                                NULL, "https://aka.ms/vs/17/release/vc_redist.x64.exe",
                                "%s needs %s from the Visual C++ Redistributable (CPython ships "
                                "vcruntime140.dll; msvcp140.dll needs the redistributable)",
                                b->path, n);
            continue;
        }
        if (strcmp(b->os, "windows") == 0 &&
            (knowndll(n) || strncasecmp(n, "api-", 4) == 0 || strncasecmp(n, "ext-", 4) == 0))
            continue;
        if (w->torch_requirement) {
            char wheel[96];
            if (table_glob("wheel_provided_libraries", b->os, n, provider, sizeof provider)) {
                td_findings_add(out, TD_SEV_INFO, TD_KIND_MISSING_LIBRARY, n, NEEDED_BY(w, b, nb),
                                NULL, NULL, "%s needs %s from %s (torch's own)", b->path, n,
                                w->torch_requirement);
                continue;
            }
            if (td_kb_cuda_wheel(n, cuda_major ? cuda_major : 12, wheel, sizeof wheel) ||
                td_kb_cuda_wheel(n, 13, wheel, sizeof wheel) ||
                td_kb_cuda_wheel(n, 11, wheel, sizeof wheel)) {
                td_findings_add(out, TD_SEV_INFO, TD_KIND_MISSING_LIBRARY, n, NEEDED_BY(w, b, nb),
                                NULL, NULL, "%s needs %s from %s, which %s pulls in on Linux",
                                b->path, n, wheel, w->torch_requirement);
                continue;
            }
        }
        /* Linux: the policy of each tag of the binary's OS. */
        const char *why = NULL;
        char whybuf[160];
        bool linux_ok = strcmp(b->os, "linux") == 0 && w->nplatforms > 0;
        for (size_t k = 0; linux_ok && k < w->nplatforms; k++) {
            const struct td_wheel_platform *p = &w->platforms[k];
            if (!os_of(p) || strcmp(os_of(p), "linux") != 0)
                continue;
            const char *tag = k < t->nplat ? t->plat_text[k] : "";
            if (p->os == TD_WHEEL_OS_LINUX) {
                snprintf(whybuf, sizeof whybuf, "the tag %s promises no system libraries", tag);
                why = whybuf;
                linux_ok = false;
            } else if (!policy_allows(p, tag, n)) {
                snprintf(whybuf, sizeof whybuf, "not in %s's policy", tag);
                why = whybuf;
                linux_ok = false;
            }
        }
        if (linux_ok)
            continue;
        td_findings_add(out, b->needed_weak && b->needed_weak[i] ? TD_SEV_WARNING : TD_SEV_ERROR,
                        TD_KIND_MISSING_LIBRARY, n, NEEDED_BY(w, b, nb), NULL,
                        strcmp(b->os, "linux") == 0     ? "auditwheel repair WHEEL (copies it in "
                                                          "and retags), or link it statically"
                        : strcmp(b->os, "windows") == 0 ? "delvewheel repair WHEEL (copies the DLL "
                                                          "in beside the module)"
                                                        : "delocate-wheel WHEEL (copies the dylib "
                                                          "into the wheel)",
                        "%s needs %s, %s, and the wheel does not carry it%s", b->path, n,
                        why ? why : "not a library of the platform",
                        w->torch_requirement ? " (nor does torch)" : "");
    }
}

/* ---- 3. symbol versions and the macOS minimum ---- */

/* The newest version the policy of glibc MAJ.MIN allows for PREFIX on ARCH. */
static bool symver_max(int maj, int min, const char *arch, const char *prefix, char *out,
                       size_t cap, char *policy, size_t pcap)
{
    static const char *const cols[] = {"policy", "arch", "prefix", "max", NULL};
    struct td_table k;
    int best_a = -1, best_b = -1, top_a = -1, top_b = -1;
    if (!td_table_open(&k, "manylinux_symbol_versions", cols))
        return false;
    while (td_table_next(&k)) {
        int a, b;
        if (strcmp(td_table_cell(&k, 1), arch) != 0 || strcmp(td_table_cell(&k, 2), prefix) != 0 ||
            sscanf(td_table_cell(&k, 0), "manylinux_%d_%d", &a, &b) != 2)
            continue;
        if (a > top_a || (a == top_a && b > top_b)) {
            top_a = a;
            top_b = b;
        }
        if ((a < maj || (a == maj && b <= min)) && (a > best_a || (a == best_a && b > best_b))) {
            best_a = a;
            best_b = b;
            kb_copy(out, cap, td_table_cell(&k, 3));
            kb_copy(policy, pcap, td_table_cell(&k, 0));
        }
    }
    /* A glibc newer than the newest policy listed: its ceiling is not known. */
    return best_a >= 0 && (maj < top_a || (maj == top_a && min <= top_b));
}

static bool numeric(const char *v)
{
    return *v && strspn(v, "0123456789.") == strlen(v);
}

static void check_versions(const struct tags *t, const struct td_wheel_binary *b,
                           struct td_findings *out)
{
    const struct td_wheel_facts *w = t->w;
    char nb[1024];
    /* The lowest glibc among the tags: a compressed set installs where any does. */
    int gmaj = -1, gmin = -1;
    const char *gtag = NULL;
    for (size_t k = 0; k < w->nplatforms && k < t->nplat; k++) {
        int a, c;
        if (td_kb_wheel_glibc(&w->platforms[k], t->plat_text[k], &a, &c) &&
            (gmaj < 0 || a < gmaj || (a == gmaj && c < gmin))) {
            gmaj = a;
            gmin = c;
            gtag = t->plat_text[k];
        }
    }
    if (gmaj < 0 || strcmp(b->format, "elf") != 0 || b->narches == 0)
        return;
    static const char *const prefixes[] = {"GLIBC_", "GLIBCXX_", "CXXABI_", "GCC_"};
    for (size_t i = 0; i < b->nverrefs; i++) {
        const struct td_wheel_verref *r = &b->verrefs[i];
        for (size_t p = 0; p < 4; p++) {
            size_t plen = strlen(prefixes[p]);
            const char *v = r->version + plen;
            if (strncmp(r->version, prefixes[p], plen) != 0 || !numeric(v))
                continue;
            char max[32], limit[80], policy[40] = "";
            if (p == 0) {
                snprintf(max, sizeof max, "%d.%d", gmaj, gmin);
                snprintf(limit, sizeof limit, "glibc %s (PEP 600)", max);
            } else {
                char pre[16];
                snprintf(pre, sizeof pre, "%.*s", (int)plen - 1, prefixes[p]);
                if (!symver_max(gmaj, gmin, b->arches[0], pre, max, sizeof max, policy,
                                sizeof policy))
                    break;
                snprintf(limit, sizeof limit, "%s_%s (auditwheel's %s policy)", pre, max, policy);
            }
            if (td_version_cmp(v, max) > 0) {
                char sym[256];
                snprintf(sym, sizeof sym, "%s@%s", r->symbol, r->version);
                td_findings_add(
                    out, TD_SEV_ERROR, TD_KIND_SYMBOL_VERSION_TOO_NEW, r->library,
                    NEEDED_BY(w, b, nb), sym,
                    "build in the manylinux image of the tag (quay.io/pypa/manylinux...), or "
                    "raise the tag to the glibc that has it (auditwheel show / repair "
                    "--plat)",
                    "%s in %s is too new for %s: the tag promises at most %s; %u symbol(s) need "
                    "%s",
                    sym, b->path, gtag, limit, r->count, r->version);
            }
            break;
        }
    }
}

static void check_macos(const struct tags *t, const struct td_wheel_binary *b,
                        struct td_findings *out)
{
    const struct td_wheel_facts *w = t->w;
    char nb[1024];
    if (b->macos_min_major < 0)
        return;
    for (size_t k = 0; k < w->nplatforms && k < t->nplat; k++) {
        const struct td_wheel_platform *p = &w->platforms[k];
        if (p->os != TD_WHEEL_OS_MACOS)
            continue;
        if (b->macos_min_major > p->major ||
            (b->macos_min_major == p->major && b->macos_min_minor > p->minor)) {
            char sym[32];
            snprintf(sym, sizeof sym, "macOS %d.%d", b->macos_min_major, b->macos_min_minor);
            td_findings_add(out, TD_SEV_ERROR, TD_KIND_SYMBOL_VERSION_TOO_NEW, NULL,
                            NEEDED_BY(w, b, nb), sym,
                            "build with MACOSX_DEPLOYMENT_TARGET set to the tag's version, or "
                            "retag the wheel macosx_X_Y for the minimum it has",
                            "%s needs macOS %d.%d (its minimum OS version), but the tag %s "
                            "promises %d.%d: dyld refuses it on older macOS",
                            b->path, b->macos_min_major, b->macos_min_minor, t->plat_text[k],
                            p->major, p->minor);
            return;
        }
    }
}

/* ---- 4. vendored runtimes ---- */

static void check_vendored(const struct tags *t, const struct td_wheel_binary *b,
                           struct td_findings *out)
{
    const struct td_wheel_facts *w = t->w;
    static const char *const cols[] = {"family",        "pattern",  "platform",
                                       "collides_with", "severity", NULL};
    char plain[256], nb[1024];
    /* NVIDIA's own wheels are the copies torch loads, not a second one. */
    if (w->name && strncmp(w->name, "nvidia", 6) == 0)
        return;
    bool mangled = td_kb_wheel_unmangle(base_of(b->path), plain, sizeof plain);
    struct td_table k;
    if (!td_table_open(&k, "wheel_unique_runtimes", cols))
        return;
    bool icase = strcmp(b->os, "windows") == 0;
    while (td_table_next(&k)) {
        if (strcmp(td_table_cell(&k, 2), b->os) != 0 ||
            fnmatch(td_table_cell(&k, 1), plain, icase ? FNM_CASEFOLD : 0) != 0)
            continue;
        enum td_severity sev =
            strcmp(td_table_cell(&k, 4), "error") == 0 ? TD_SEV_ERROR : TD_SEV_WARNING;
        if (!w->torch_requirement)
            sev = sev == TD_SEV_ERROR ? TD_SEV_WARNING : TD_SEV_INFO;
        char how[320] = "";
        if (mangled)
            snprintf(how, sizeof how, " (%s, a copy renamed by auditwheel/delvewheel)",
                     base_of(b->path));
        td_findings_add(out, sev, TD_KIND_DUPLICATE_RUNTIME, plain, NEEDED_BY(w, b, nb), NULL,
                        "link against the copy torch already loads instead of vendoring one "
                        "(auditwheel repair --exclude / delvewheel --exclude NAME)",
                        "the wheel carries its own %s %s%s: it collides with %s%s",
                        td_table_cell(&k, 0), plain, how, td_table_cell(&k, 3),
                        w->torch_requirement ? "" : " when loaded beside torch");
        return;
    }
}

/* ---- 6. CUDA code against the torch build ---- */

static void check_cuda(const struct tags *t, const struct td_wheel_binary *b,
                       struct td_findings *out)
{
    const struct td_wheel_facts *w = t->w;
    if (b->ncuda == 0 || !w->torch_requirement || !w->version)
        return;
    /* The CUDA build: the local version "+cu128" (torch's own convention). */
    const char *cu = strstr(w->version, "+cu");
    int digits = 0;
    char torch[16] = "", cuda[16] = "";
    if (!cu || sscanf(cu + 3, "%d", &digits) != 1 || digits < 100)
        return;
    snprintf(cuda, sizeof cuda, "%d.%d", digits / 10, digits % 10);
    const char *v = strpbrk(w->torch_requirement, "0123456789");
    int ta, tb;
    if (!v || sscanf(v, "%d.%d", &ta, &tb) != 2)
        return;
    snprintf(torch, sizeof torch, "%d.%d", ta, tb);
    char arches[32][8], ptx[8];
    size_t n = td_kb_torch_arches(torch, cuda, strcmp(b->os, "windows") == 0 ? "windows" : "linux",
                                  arches, 32, ptx);
    char missing[256] = "", nb[1024];
    for (size_t i = 0; i < n; i++) {
        int maj, min;
        if (!td_kb_parse_cc(arches[i], &maj, &min) ||
            td_kb_arch_runs((const char *const *)b->cuda_arches, b->ncuda, maj, min))
            continue;
        snprintf(missing + strlen(missing), sizeof missing - strlen(missing), "%ssm_%d%d",
                 missing[0] ? ", " : "", maj, min);
    }
    if (missing[0])
        td_findings_add(out, TD_SEV_WARNING, TD_KIND_GPU_ARCH_UNSUPPORTED, NULL,
                        NEEDED_BY(w, b, nb), NULL,
                        "rebuild with TORCH_CUDA_ARCH_LIST covering torch's list (and +PTX for "
                        "the newest)",
                        "%s has no code for %s (no SASS, no PTX that JITs to it), which torch %s "
                        "CUDA %s runs on: its kernels fail there (no kernel image is available)",
                        b->path, missing, torch, cuda);
}

/* ---- 5. integrity and size ---- */

static void check_record(const struct td_wheel_facts *w, struct td_findings *out)
{
    if (!w->has_record)
        td_findings_add(out, TD_SEV_ERROR, TD_KIND_CORRUPTED_FILE, "RECORD", w->filename, NULL,
                        "rebuild the wheel (python -m build); a wheel must list its files in "
                        ".dist-info/RECORD",
                        "%s has no .dist-info/RECORD: pip cannot verify or uninstall it",
                        w->filename);
    for (size_t i = 0; i < w->nrecord_issues; i++) {
        const struct td_wheel_record_issue *r = &w->record_issues[i];
        char nb[1024];
        snprintf(nb, sizeof nb, "%s!%s", w->filename, r->path);
        bool corrupt = strcmp(r->kind, TD_KIND_CORRUPTED_FILE) == 0;
        td_findings_add(out, corrupt ? TD_SEV_ERROR : TD_SEV_WARNING, r->kind, NULL, nb, NULL,
                        corrupt ? "download the wheel again; if it persists, rebuild it (the "
                                  "file was changed after RECORD was written)"
                                : "regenerate RECORD (wheel pack DIR) so it lists every file",
                        "%s", r->detail);
    }
    for (size_t i = 0; i < w->nproblems; i++)
        td_findings_add(out, TD_SEV_ERROR, TD_KIND_UNREADABLE_FILE, NULL, w->filename, NULL, NULL,
                        "%s", w->problems[i]);
    uint64_t debug = w->size_by_kind[TD_WHEEL_SIZE_DEBUG];
    if (debug > 0) {
        bool big = debug >= ((uint64_t)64 << 20) || debug * 4 >= w->bytes;
        td_findings_add(out, big ? TD_SEV_WARNING : TD_SEV_INFO, TD_KIND_DEBUG_INFO_LEFT, NULL,
                        w->filename, NULL,
                        "strip --strip-debug the native members before packing (or build "
                        "without -g)",
                        "debug info left in: strip would save %.1f MB of %.1f MB unpacked "
                        "(.debug_* sections of the native members)",
                        (double)debug / 1e6, (double)w->bytes / 1e6);
    }
}

void td_kb_wheel_check(const struct td_wheel_facts *w, struct td_findings *out)
{
    struct tags *t = calloc(1, sizeof *t);
    if (!t)
        return;
    read_tags(t, w);
    for (size_t i = 0; i < w->nbinaries; i++) {
        const struct td_wheel_binary *b = &w->binaries[i];
        if (b->narches == 0)
            continue;
        check_platform(t, b, out);
        check_python_abi(t, b, out);
        check_ext_platform(t, b, out);
        check_python_dll(t, b, out);
        check_limited_api(t, b, out);
        check_needs(t, b, out);
        check_versions(t, b, out);
        check_macos(t, b, out);
        check_vendored(t, b, out);
        check_cuda(t, b, out);
    }
    check_record(w, out);
    free(t);
}
