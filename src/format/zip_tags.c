/* Wheel tags and extension module suffixes (format/wheel_tag.h): the forms
 * of packaging.python.org "Platform compatibility tags" and of CPython's
 * extension suffixes, parsed without allocating. The glibc of a legacy
 * manylinux alias is data (data/manylinux_glibc.tsv, kb/wheel.c), not
 * written here. */
#include "format/wheel_tag.h"

#include <stdio.h>
#include <string.h>

static bool starts(const char *s, size_t len, const char *prefix)
{
    size_t n = strlen(prefix);
    return len >= n && memcmp(s, prefix, n) == 0;
}

static bool equals(const char *s, size_t len, const char *word)
{
    return strlen(word) == len && memcmp(s, word, len) == 0;
}

const char *td_wheel_arch_canonical(const char *w, size_t len)
{
    static const struct {
        const char *word, *canonical;
    } words[] = {
        {"x86_64", "x86_64"},
        {"amd64", "x86_64"},
        {"AMD64", "x86_64"},
        {"x64", "x86_64"},
        {"i686", "x86"},
        {"i386", "x86"},
        {"x86", "x86"},
        {"win32", "x86"},
        {"aarch64", "aarch64"},
        {"arm64", "aarch64"},
        {"armv7l", "arm"},
        {"arm", "arm"},
        {"ppc64le", "ppc64le"},
        {"ppc64", "ppc64"},
        {"s390x", "s390x"},
        {"riscv64", "riscv64"},
        {"loongarch64", "loongarch64"},
        {"universal2", "universal2"},
        {"universal", "universal"},
        {"intel", "intel"},
    };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (equals(w, len, words[i].word))
            return words[i].canonical;
    return NULL;
}

static bool set_arch(struct td_wheel_platform *p, const char *w, size_t len)
{
    const char *c = td_wheel_arch_canonical(w, len);
    if (!c)
        return false;
    snprintf(p->arch, sizeof p->arch, "%s", c);
    return true;
}

/* "2_17_x86_64" -> 2, 17 and the rest; false when not NUMBER_NUMBER_REST. */
static bool two_numbers(const char *s, size_t len, int *major, int *minor, size_t *used)
{
    int v[2] = {0, 0};
    size_t i = 0;
    for (int k = 0; k < 2; k++) {
        size_t start = i;
        while (i < len && s[i] >= '0' && s[i] <= '9' && i - start < 6)
            v[k] = v[k] * 10 + (s[i++] - '0');
        if (i == start || i >= len || s[i] != '_')
            return false;
        i++;
    }
    *major = v[0];
    *minor = v[1];
    *used = i;
    return true;
}

int td_wheel_platform_parse(const char *tag, size_t len, struct td_wheel_platform *p)
{
    memset(p, 0, sizeof *p);
    p->major = p->minor = -1;
    p->os = TD_WHEEL_OS_OTHER;
    size_t used;
    static const char *const legacy[] = {"manylinux1_", "manylinux2010_", "manylinux2014_"};
    if (equals(tag, len, "any")) {
        p->os = TD_WHEEL_OS_ANY;
        return 0;
    }
    for (size_t i = 0; i < 3; i++) {
        size_t n = strlen(legacy[i]);
        if (starts(tag, len, legacy[i]) && set_arch(p, tag + n, len - n)) {
            p->os = TD_WHEEL_OS_MANYLINUX;
            p->legacy = true;
            return 0;
        }
    }
    if (starts(tag, len, "manylinux_") &&
        two_numbers(tag + 10, len - 10, &p->major, &p->minor, &used) &&
        set_arch(p, tag + 10 + used, len - 10 - used)) {
        p->os = TD_WHEEL_OS_MANYLINUX;
        return 0;
    }
    if (starts(tag, len, "musllinux_") &&
        two_numbers(tag + 10, len - 10, &p->major, &p->minor, &used) &&
        set_arch(p, tag + 10 + used, len - 10 - used)) {
        p->os = TD_WHEEL_OS_MUSLLINUX;
        return 0;
    }
    if (starts(tag, len, "macosx_") && two_numbers(tag + 7, len - 7, &p->major, &p->minor, &used) &&
        set_arch(p, tag + 7 + used, len - 7 - used)) {
        p->os = TD_WHEEL_OS_MACOS;
        return 0;
    }
    if (starts(tag, len, "linux_") && set_arch(p, tag + 6, len - 6)) {
        p->os = TD_WHEEL_OS_LINUX;
        return 0;
    }
    if (equals(tag, len, "win32") || equals(tag, len, "win_amd64") ||
        equals(tag, len, "win_arm64")) {
        p->os = TD_WHEEL_OS_WINDOWS;
        set_arch(p, equals(tag, len, "win32") ? "win32" : tag + 4,
                 equals(tag, len, "win32") ? 5 : len - 4);
        return 0;
    }
    p->major = p->minor = -1;
    p->arch[0] = '\0';
    return -1;
}

/* "311t" -> 3, 11, free-threaded; "3" -> 3, -1. Flags after the digits
 * are the old "m"/"u"/"d" and PEP 703's "t". */
static bool version_digits(const char *s, size_t len, int *major, int *minor, bool *ft, bool *dbg)
{
    if (len == 0 || s[0] < '0' || s[0] > '9')
        return false;
    *major = s[0] - '0';
    *minor = -1;
    size_t i = 1;
    if (i < len && s[i] >= '0' && s[i] <= '9') {
        *minor = 0;
        while (i < len && s[i] >= '0' && s[i] <= '9' && i < 4)
            *minor = *minor * 10 + (s[i++] - '0');
    }
    for (; i < len; i++) {
        if (s[i] == 't')
            *ft = true;
        else if (s[i] == 'd')
            *dbg = true;
        else if (s[i] != 'm' && s[i] != 'u')
            return false;
    }
    return true;
}

int td_wheel_python_parse(const char *tag, size_t len, struct td_wheel_python *out)
{
    memset(out, 0, sizeof *out);
    out->major = out->minor = -1;
    if (equals(tag, len, "abi3") || equals(tag, len, "none")) {
        snprintf(out->impl, sizeof out->impl, "%.*s", (int)len, tag);
        return 0;
    }
    static const char *const impls[] = {"cp", "py", "pp", "ip", "jy", "graalpy"};
    for (size_t i = 0; i < sizeof impls / sizeof impls[0]; i++) {
        size_t n = strlen(impls[i]);
        if (starts(tag, len, impls[i]) && version_digits(tag + n, len - n, &out->major, &out->minor,
                                                         &out->free_threaded, &out->debug)) {
            snprintf(out->impl, sizeof out->impl, "%s", impls[i]);
            return 0;
        }
    }
    out->major = out->minor = -1;
    return -1;
}

int td_wheel_ext_parse(const char *base, size_t len, struct td_wheel_ext *out)
{
    memset(out, 0, sizeof *out);
    out->major = out->minor = -1;
    size_t stem;
    if (len > 3 && memcmp(base + len - 3, ".so", 3) == 0)
        stem = len - 3;
    else if (len > 4 && memcmp(base + len - 4, ".pyd", 4) == 0)
        stem = len - 4;
    else
        return -1;
    const char *dot = memchr(base, '.', stem);
    size_t mod = dot ? (size_t)(dot - base) : stem;
    if (mod == 0 || mod >= sizeof out->module)
        return -1;
    memcpy(out->module, base, mod);
    out->module[mod] = '\0';
    if (!dot)
        return 0;
    const char *t = dot + 1;
    size_t n = stem - mod - 1;
    bool dbg = false;
    if (equals(t, n, "abi3")) {
        out->tagged = out->abi3 = true;
        return 1;
    }
    size_t skip = starts(t, n, "cpython-") ? 8 : starts(t, n, "cp") ? 2 : 0;
    if (skip == 0) {
        if (!starts(t, n, "pypy"))
            return -1;
        const char *dash = memchr(t, '-', n);
        out->tagged = true; /* PyPy's "pypy39-pp73-ARCH-linux-gnu": its own ABI, not CPython's */
        if (dash) {
            const char *dash2 = memchr(dash + 1, '-', n - (size_t)(dash + 1 - t));
            if (dash2)
                snprintf(out->platform, sizeof out->platform, "%.*s",
                         (int)(n - (size_t)(dash2 + 1 - t)), dash2 + 1);
        }
        return 1;
    }
    const char *dash = memchr(t + skip, '-', n - skip);
    size_t vlen = dash ? (size_t)(dash - t) - skip : n - skip;
    if (!version_digits(t + skip, vlen, &out->major, &out->minor, &out->free_threaded, &dbg) ||
        out->minor < 0) {
        out->major = out->minor = -1;
        return -1;
    }
    if (dash)
        snprintf(out->platform, sizeof out->platform, "%.*s", (int)(n - (size_t)(dash + 1 - t)),
                 dash + 1);
    out->tagged = true;
    return 1;
}
