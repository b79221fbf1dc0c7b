/* Environment variables checked against the env_vars catalogue: the rule
 * kinds are code here, the variables, their parameters and their sources
 * are rows of data/env_vars.tsv. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/version.h"
#include "kb/kb.h"
#include "kb/table.h"

enum { WHY = 256 };

static bool all_digits(const char *s, size_t n)
{
    if (n == 0)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!isdigit((unsigned char)s[i]))
            return false;
    return true;
}

static bool power_of_two(const char *s, size_t n)
{
    if (!all_digits(s, n) || n > 18)
        return false;
    unsigned long long v = strtoull(s, NULL, 10);
    return v && (v & (v - 1)) == 0;
}

/* Whether WORD (N bytes) is one of the SEP-separated entries of LIST. */
static bool in_list(const char *list, char sep, const char *word, size_t n)
{
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, (char[]){sep, '\0'});
        if (len == n && strncmp(p, word, n) == 0)
            return true;
        p += len + (p[len] == sep);
    }
    return false;
}

/* roundup_power2_divisions: "4" or "[256:1,512:2,>:4]" (sizes in MB, or
 * ">" for everything larger; divisions powers of two). */
static bool divisions_ok(const char *v, size_t n)
{
    if (n == 0)
        return false;
    if (v[0] != '[')
        return power_of_two(v, n);
    if (v[n - 1] != ']')
        return false;
    for (size_t i = 1; i + 1 < n;) {
        size_t end = i;
        while (end + 1 < n && v[end] != ',')
            end++;
        const char *colon = memchr(v + i, ':', end - i);
        if (!colon)
            return false;
        size_t klen = (size_t)(colon - (v + i));
        bool size_ok = (klen == 1 && v[i] == '>') || power_of_two(v + i, klen);
        if (!size_ok || !power_of_two(colon + 1, (size_t)(v + end - colon - 1)))
            return false;
        i = end + 1;
    }
    return true;
}

/* One value against a type of the alloc_conf grammar (env_vars.tsv). */
static bool value_ok(const char *type, const char *v, size_t n)
{
    if (strncmp(type, "int>", 4) == 0)
        return all_digits(v, n) && n < 12 && strtol(v, NULL, 10) > strtol(type + 4, NULL, 10);
    if (strcmp(type, "frac") == 0) {
        char buf[64];
        if (n == 0 || n >= sizeof buf)
            return false;
        memcpy(buf, v, n);
        buf[n] = '\0';
        char *end;
        double x = strtod(buf, &end);
        return *end == '\0' && x > 0 && x < 1;
    }
    if (strcmp(type, "bool") == 0)
        return (n == 4 && strncmp(v, "True", 4) == 0) || (n == 5 && strncmp(v, "False", 5) == 0);
    if (strcmp(type, "divisions") == 0)
        return divisions_ok(v, n);
    return in_list(type, '|', v, n);
}

/* The type of KEY in an alloc_conf arg "key=type;key=type", into TYPE. */
static bool key_type(const char *arg, const char *key, size_t n, char *type, size_t cap)
{
    for (const char *p = arg; *p;) {
        size_t len = strcspn(p, ";");
        const char *eq = memchr(p, '=', len);
        if (eq && (size_t)(eq - p) == n && strncmp(p, key, n) == 0) {
            size_t tl = len - n - 1;
            if (tl >= cap)
                return false;
            memcpy(type, eq + 1, tl);
            type[tl] = '\0';
            return true;
        }
        p += len + (p[len] == ';');
    }
    return false;
}

/* PYTORCH_CUDA_ALLOC_CONF: "key:value,key:value"; spaces are ignored and a
 * value may be a bracketed list with its own commas and colons (the
 * allocator's lexArgs in c10/cuda/CUDAAllocatorConfig.cpp). */
static bool check_alloc_conf(const char *value, const char *arg, char *why)
{
    char conf[1024];
    size_t n = 0;
    for (const char *s = value; *s && n + 1 < sizeof conf; s++)
        if (*s != ' ')
            conf[n++] = *s;
    conf[n] = '\0';
    for (size_t i = 0; i < n;) {
        size_t end = i;
        int depth = 0;
        while (end < n && (conf[end] != ',' || depth)) {
            depth += conf[end] == '[' ? 1 : conf[end] == ']' ? -1 : 0;
            end++;
        }
        const char *entry = conf + i;
        size_t len = end - i;
        i = end + 1;
        if (len == 0)
            continue;
        const char *colon = memchr(entry, ':', len);
        size_t klen = colon ? (size_t)(colon - entry) : len;
        char type[128];
        if (!key_type(arg, entry, klen, type, sizeof type)) {
            snprintf(why, WHY, "'%.*s' is not an allocator option", (int)klen, entry);
            return false;
        }
        if (!colon) {
            snprintf(why, WHY, "'%.*s' has no value (key:value)", (int)klen, entry);
            return false;
        }
        const char *v = colon + 1;
        size_t vlen = len - klen - 1;
        if (!value_ok(type, v, vlen)) {
            snprintf(why, WHY, "%.*s:%.*s is not a valid value (%s)", (int)klen, entry, (int)vlen,
                     v, type);
            return false;
        }
    }
    return true;
}

static bool check_device_list(const char *value, char *why)
{
    size_t index = 0;
    for (const char *p = value;; index++) {
        while (*p == ' ')
            p++;
        size_t len = strcspn(p, ",");
        size_t trimmed = len;
        while (trimmed && p[trimmed - 1] == ' ')
            trimmed--;
        bool ok = all_digits(p, trimmed) || (trimmed > 4 && strncmp(p, "GPU-", 4) == 0) ||
                  (trimmed > 4 && strncmp(p, "MIG-", 4) == 0);
        if (!ok) {
            if (index == 0)
                snprintf(why, WHY, "%s: no GPU is visible",
                         trimmed ? "the first entry is not a device" : "empty");
            else
                snprintf(why, WHY,
                         "entry '%.*s' is not a device: it and every later device are hidden",
                         (int)trimmed, p);
            return false;
        }
        if (!p[len])
            return true;
        p += len + 1;
    }
}

static bool check_positive_ints(const char *value, char *why)
{
    for (const char *p = value;;) {
        size_t len = strcspn(p, ",");
        if (!all_digits(p, len) || strtol(p, NULL, 10) <= 0 || len > 9) {
            snprintf(why, WHY, "'%.*s' is not a positive integer", (int)len, p);
            return false;
        }
        if (!p[len])
            return true;
        p += len + 1;
    }
}

/* The CUDA version a path names: ".../cuda-11.8/..." or "...\CUDA\v11.8". */
static bool path_cuda(const char *entry, size_t n, char *out, size_t cap)
{
    for (size_t i = 0; i + 5 < n; i++) {
        size_t at = 0;
        if (strncasecmp(entry + i, "cuda-", 5) == 0)
            at = i + 5;
        else if (strncasecmp(entry + i, "cuda", 4) == 0 &&
                 (entry[i + 4] == '\\' || entry[i + 4] == '/') &&
                 (entry[i + 5] == 'v' || entry[i + 5] == 'V'))
            at = i + 6;
        if (!at || at >= n || !isdigit((unsigned char)entry[at]))
            continue;
        size_t len = strspn(entry + at, "0123456789.");
        if (at + len > n)
            len = n - at;
        if (len >= cap)
            continue;
        memcpy(out, entry + at, len);
        out[len] = '\0';
        return true;
    }
    return false;
}

static bool check_path_cuda(const char *value, const char *arg, const char *os,
                            const char *torch_cuda, char *why, char *dir, size_t dir_cap)
{
    if (!torch_cuda || !*torch_cuda)
        return true;
    int parts = strcmp(arg, "minor") == 0 ? 2 : 1;
    char want[TD_KB_STR], sep = strcmp(kb_os(os), "windows") == 0 ? ';' : ':';
    td_version_trim(torch_cuda, parts, want, sizeof want);
    for (const char *p = value;;) {
        size_t len = strcspn(p, (char[]){sep, '\0'});
        char found[TD_KB_STR], have[TD_KB_STR];
        if (path_cuda(p, len, found, sizeof found) &&
            td_version_cmp(td_version_trim(found, parts, have, sizeof have), want) != 0) {
            snprintf(dir, dir_cap, "%.*s", (int)len, p);
            snprintf(why, WHY, "%s names CUDA %s, torch is built for CUDA %s", dir, found,
                     torch_cuda);
            return false;
        }
        if (!p[len])
            return true;
        p += len + 1;
    }
}

static bool check_arch_list(const char *value, const char *arg, char *why)
{
    const char *slash = strchr(arg, '/');
    if (!slash)
        return true;
    char names[512];
    snprintf(names, sizeof names, "%.*s", (int)(slash - arg), arg);
    const char *arches = slash + 1;
    for (const char *p = value; *p;) {
        size_t len = strcspn(p, "; ");
        if (len) {
            size_t base = len;
            if (len > 4 && strncmp(p + len - 4, "+PTX", 4) == 0)
                base = len - 4;
            if (!in_list(names, ',', p, len) && !in_list(arches, ',', p, base)) {
                snprintf(why, WHY, "'%.*s' is not a CUDA arch torch knows", (int)len, p);
                return false;
            }
        }
        p += len + (p[len] != '\0');
    }
    return true;
}

static bool os_listed(const char *list, const char *os)
{
    return in_list(list, ',', os, strlen(os)) || in_list(list, '|', os, strlen(os));
}

/* The fix cell with its placeholders filled in (env_vars.tsv header). */
static void expand_fix(const char *tmpl, const char *name, const char *os, const char *dir,
                       const char *torch_cuda, char *out, size_t cap)
{
    bool win = strcmp(kb_os(os), "windows") == 0;
    char set[160], unset[160];
    snprintf(set, sizeof set, "%s %s=", win ? "set" : "export", name);
    snprintf(unset, sizeof unset, win ? "set %s=" : "unset %s", name);
    size_t n = 0;
    out[0] = '\0';
    for (const char *p = tmpl; *p && n + 1 < cap;) {
        const char *rep = NULL;
        size_t skip = 0;
        if (strncmp(p, "{set}", 5) == 0)
            rep = set, skip = 5;
        else if (strncmp(p, "{unset}", 7) == 0)
            rep = unset, skip = 7;
        else if (strncmp(p, "{dir}", 5) == 0)
            rep = dir, skip = 5;
        else if (strncmp(p, "{torch_cuda}", 12) == 0)
            rep = torch_cuda ? torch_cuda : "torch's", skip = 12;
        if (rep) {
            n += (size_t)snprintf(out + n, cap - n, "%s", rep);
            if (n >= cap)
                n = cap - 1;
            p += skip;
        } else {
            out[n++] = *p++;
            out[n] = '\0';
        }
    }
}

void td_kb_check_env(const char *name, const char *value, const char *os, const char *torch_cuda,
                     struct td_findings *f)
{
    const char *cols[] = {"name",    "os",  "rule",   "arg", "severity",
                          "message", "fix", "source", NULL};
    const char *here = os ? os : "linux";
    bool win = strcmp(here, "windows") == 0;
    struct td_table k;
    if (!name || !value || !f || !td_table_open(&k, "env_vars", cols))
        return;
    while (td_table_next(&k)) {
        /* Windows environment names ignore case. */
        if (win ? strcasecmp(td_table_cell(&k, 0), name) != 0
                : strcmp(td_table_cell(&k, 0), name) != 0)
            continue;
        const char *row_os = td_table_cell(&k, 1), *rule = td_table_cell(&k, 2),
                   *arg = td_table_cell(&k, 3);
        if (strcmp(row_os, "any") != 0 && !os_listed(row_os, here))
            continue;
        char why[WHY] = "", dir[512] = "";
        bool ok = true;
        if (strcmp(rule, "alloc_conf") == 0)
            ok = check_alloc_conf(value, arg, why);
        else if (strcmp(rule, "device_list") == 0)
            ok = check_device_list(value, why);
        else if (strcmp(rule, "positive_int_list") == 0)
            ok = check_positive_ints(value, why);
        else if (strcmp(rule, "os_only") == 0) {
            ok = os_listed(arg, here);
            snprintf(why, WHY, "set on %s", here);
        } else if (strcmp(rule, "discouraged") == 0) {
            ok =
                !(strcmp(arg, "*") == 0 ? *value != '\0' : in_list(arg, '|', value, strlen(value)));
            snprintf(why, WHY, "set to %s", value);
        } else if (strcmp(rule, "path_cuda_version") == 0)
            ok = check_path_cuda(value, arg, here, torch_cuda, why, dir, sizeof dir);
        else if (strcmp(rule, "arch_list") == 0)
            ok = check_arch_list(value, arg, why);
        if (ok)
            continue;
        const char *sev = td_table_cell(&k, 4);
        enum td_severity s = strcmp(sev, "error") == 0     ? TD_SEV_ERROR
                             : strcmp(sev, "warning") == 0 ? TD_SEV_WARNING
                                                           : TD_SEV_INFO;
        char fix[1024];
        expand_fix(td_table_cell(&k, 6), name, here, dir, torch_cuda, fix, sizeof fix);
        td_findings_add(f, s, TD_KIND_ENV_VAR_INVALID, NULL, NULL, name, fix,
                        "%s=%.200s: %s; %s (source: %s)", name, value, why, td_table_cell(&k, 5),
                        td_table_cell(&k, 7));
    }
}

bool td_kb_env_known(const char *name)
{
    const char *cols[] = {"name", NULL};
    struct td_table k;
    if (!name || !td_table_open(&k, "env_vars", cols))
        return false;
    while (td_table_next(&k))
        if (strcmp(td_table_cell(&k, 0), name) == 0)
            return true;
    return false;
}
