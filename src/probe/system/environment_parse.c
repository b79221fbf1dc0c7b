/* Pure parsers of the files the environment probe reads (mountinfo, cgroup
 * files, /proc/self/limits, a driver .inf, the CUDA toolkit's version
 * file, library file names). Bytes may be anything: every read stays
 * inside LEN. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "probe/system/environment.h"

/* The next line of TEXT from *POS (no newline). */
static bool next_line(const char *text, size_t len, size_t *pos, const char **line, size_t *n)
{
    if (*pos >= len)
        return false;
    const char *start = text + *pos;
    const char *nl = memchr(start, '\n', len - *pos);
    *line = start;
    *n = nl ? (size_t)(nl - start) : len - *pos;
    *pos += *n + 1;
    return true;
}

/* Digits at P (before END) as a number; false on none or overflow. */
static bool number_at(const char **p, const char *end, uint64_t *v)
{
    const char *s = *p;
    *v = 0;
    for (; *p < end && isdigit((unsigned char)**p); (*p)++) {
        if (*v > (UINT64_MAX - 9) / 10)
            return false;
        *v = *v * 10 + (uint64_t)(**p - '0');
    }
    return *p > s;
}

static uint64_t with_suffix(uint64_t v, char unit)
{
    int shift = unit == 'k' || unit == 'K'   ? 10
                : unit == 'm' || unit == 'M' ? 20
                : unit == 'g' || unit == 'G' ? 30
                                             : 0;
    return shift && v > (UINT64_MAX >> shift) ? UINT64_MAX : v << shift;
}

/* mountinfo (proc(5)): "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - tmpfs
 * shm rw,size=65536k": the fifth field is the mount point, the super
 * options follow the " - type source " part. */
bool td_parse_mount_size(const char *text, size_t len, const char *mount_point, uint64_t *bytes,
                         bool *found)
{
    size_t pos = 0, n, mp = strlen(mount_point);
    const char *line;
    bool hit = false;
    *found = false;
    while (next_line(text, len, &pos, &line, &n)) {
        const char *p = line, *end = line + n;
        for (int field = 0; field < 4 && p < end; field++) {
            p = memchr(p, ' ', (size_t)(end - p));
            p = p ? p + 1 : end;
        }
        if ((size_t)(end - p) <= mp || memcmp(p, mount_point, mp) != 0 || p[mp] != ' ')
            continue;
        *found = true; /* a later mount on the same point hides this one: keep reading */
        hit = false;
        const char *sep = NULL;
        for (const char *q = p; q + 3 <= end && !sep; q++)
            if (q[0] == ' ' && q[1] == '-' && q[2] == ' ')
                sep = q + 3;
        for (const char *q = sep; q && q + 5 <= end; q++) {
            if ((q[-1] == ',' || q[-1] == ' ') && memcmp(q, "size=", 5) == 0) {
                const char *v = q + 5;
                uint64_t b;
                if (number_at(&v, end, &b)) {
                    *bytes = with_suffix(b, v < end ? *v : 0);
                    hit = true;
                }
                break;
            }
        }
    }
    return hit;
}

/* cgroups(7): "hierarchy-ID:controller-list:cgroup-path"; v2 is "0::path". */
bool td_parse_cgroup_path(const char *text, size_t len, const char *controller, char *out,
                          size_t cap)
{
    size_t pos = 0, n, cn = controller ? strlen(controller) : 0;
    const char *line;
    while (next_line(text, len, &pos, &line, &n)) {
        const char *c1 = memchr(line, ':', n);
        const char *c2 = c1 ? memchr(c1 + 1, ':', (size_t)(line + n - c1 - 1)) : NULL;
        if (!c2)
            continue;
        bool match = false;
        if (!controller)
            match = c1 - line == 1 && line[0] == '0' && c2 == c1 + 1;
        else
            for (const char *w = c1 + 1; w < c2;) {
                const char *comma = memchr(w, ',', (size_t)(c2 - w));
                const char *we = comma ? comma : c2;
                if ((size_t)(we - w) == cn && memcmp(w, controller, cn) == 0)
                    match = true;
                w = we + 1;
            }
        if (match) {
            size_t k = (size_t)(line + n - c2 - 1);
            if (k >= cap)
                return false;
            memcpy(out, c2 + 1, k);
            out[k] = '\0';
            return true;
        }
    }
    return false;
}

double td_parse_cpu_max(const char *text, size_t len)
{
    const char *p = text, *end = text + len;
    uint64_t quota, period;
    if (!number_at(&p, end, &quota) || p >= end || *p != ' ')
        return 0;
    p++;
    if (!number_at(&p, end, &period) || period == 0)
        return 0;
    return (double)quota / (double)period;
}

uint64_t td_parse_limit_bytes(const char *text, size_t len)
{
    const char *p = text;
    uint64_t v;
    if (!number_at(&p, text + len, &v) || v > (UINT64_C(1) << 62))
        return 0;
    return v;
}

unsigned td_parse_cpu_list(const char *text, size_t len)
{
    const char *p = text, *end = text + len;
    unsigned total = 0;
    while (p < end && total < 1u << 20) {
        uint64_t a, b;
        if (!number_at(&p, end, &a))
            break;
        b = a;
        if (p < end && *p == '-') {
            p++;
            if (!number_at(&p, end, &b) || b < a)
                break;
        }
        if (b - a >= (1u << 20))
            break;
        total += (unsigned)(b - a + 1);
        if (p >= end || *p != ',')
            break;
        p++;
    }
    return total;
}

bool td_parse_memlock(const char *text, size_t len, uint64_t *soft)
{
    static const char key[] = "Max locked memory";
    size_t pos = 0, n;
    const char *line;
    while (next_line(text, len, &pos, &line, &n)) {
        if (n < sizeof key || memcmp(line, key, sizeof key - 1) != 0)
            continue;
        const char *p = line + sizeof key - 1, *end = line + n;
        while (p < end && *p == ' ')
            p++;
        if ((size_t)(end - p) >= 9 && memcmp(p, "unlimited", 9) == 0) {
            *soft = UINT64_MAX;
            return true;
        }
        return number_at(&p, end, soft);
    }
    return false;
}

bool td_parse_lib_driver_version(const char *name, char *out, size_t cap)
{
    const char *so = strstr(name, ".so.");
    if (!so || cap == 0)
        return false;
    const char *v = so + 4;
    int parts = 0;
    for (const char *p = v; *p;) {
        if (!isdigit((unsigned char)*p))
            return false;
        while (isdigit((unsigned char)*p))
            p++;
        parts++;
        if (*p == '.')
            p++;
        else if (*p)
            return false;
    }
    /* "1" and "1.1" are sonames (WSL's libcuda.so.1.1), not driver releases. */
    if (parts < 2 || (parts == 2 && strcmp(v, "1.1") == 0) || strlen(v) >= cap)
        return false;
    snprintf(out, cap, "%s", v);
    return true;
}

bool td_parse_inf_driver(const char *text, size_t len, char *out, size_t cap)
{
    char ascii[65536];
    size_t n = 0;
    for (size_t i = 0; i < len && n + 1 < sizeof ascii; i++)
        if (text[i]) /* UTF-16LE text read as bytes: its NULs dropped */
            ascii[n++] = text[i];
    ascii[n] = '\0';
    for (size_t i = 0; i + 9 < n; i++) {
        if (strncasecmp(ascii + i, "DriverVer", 9) != 0)
            continue;
        const char *p = ascii + i + 9, *end = ascii + n;
        while (p < end && (*p == ' ' || *p == '\t' || *p == '='))
            p++;
        const char *comma = memchr(p, ',', (size_t)(end - p));
        if (!comma)
            continue;
        /* 31.0.15.4633: NVIDIA's release is the last digit of the third
         * part and the fourth part, 5 46.33. */
        uint64_t a, b, c, d;
        const char *q = comma + 1;
        while (q < end && *q == ' ')
            q++;
        if (!number_at(&q, end, &a) || q >= end || *q++ != '.' || !number_at(&q, end, &b) ||
            q >= end || *q++ != '.' || !number_at(&q, end, &c) || q >= end || *q++ != '.' ||
            !number_at(&q, end, &d) || d > 9999)
            continue;
        unsigned release = (unsigned)(c % 10) * 10000 + (unsigned)d;
        return snprintf(out, cap, "%u.%02u", release / 100, release % 100) < (int)cap;
    }
    return false;
}

/* The value after "KEY:" on a line of TEXT, trimmed. */
static bool key_value(const char *text, size_t len, const char *key, char *out, size_t cap)
{
    size_t pos = 0, n, k = strlen(key);
    const char *line;
    while (next_line(text, len, &pos, &line, &n)) {
        if (n <= k || memcmp(line, key, k) != 0 || line[k] != ':')
            continue;
        const char *p = line + k + 1, *end = line + n;
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        while (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
            end--;
        if (end == p || (size_t)(end - p) >= cap)
            return false;
        memcpy(out, p, (size_t)(end - p));
        out[end - p] = '\0';
        return true;
    }
    return false;
}

bool td_parse_gpu_information(const char *text, size_t len, char *out, size_t cap)
{
    return key_value(text, len, "Model", out, cap);
}

/* A dotted version starting at P: "12.4.1". */
static bool version_at(const char *p, const char *end, char *out, size_t cap)
{
    const char *s = p;
    while (p < end && (isdigit((unsigned char)*p) || *p == '.'))
        p++;
    if (p == s || !isdigit((unsigned char)*s) || !memchr(s, '.', (size_t)(p - s)) ||
        (size_t)(p - s) >= cap)
        return false;
    memcpy(out, s, (size_t)(p - s));
    out[p - s] = '\0';
    return true;
}

bool td_parse_cuda_version_file(const char *text, size_t len, char *out, size_t cap)
{
    const char *end = text + len;
    /* version.json (CUDA 11.1 and later): the "version" of the "cuda" object. */
    for (size_t i = 0; i + 6 <= len; i++) {
        if (memcmp(text + i, "\"cuda\"", 6) != 0)
            continue;
        for (size_t j = i + 6; j + 9 <= len && text[j] != '}'; j++)
            if (memcmp(text + j, "\"version\"", 9) == 0) {
                const char *p = text + j + 9;
                while (p < end && (*p == ' ' || *p == ':' || *p == '"' || *p == '\t'))
                    p++;
                return version_at(p, end, out, cap);
            }
    }
    static const char txt[] = "CUDA Version ";
    for (size_t i = 0; i + sizeof txt - 1 <= len; i++)
        if (memcmp(text + i, txt, sizeof txt - 1) == 0)
            return version_at(text + i + sizeof txt - 1, end, out, cap);
    return false;
}
