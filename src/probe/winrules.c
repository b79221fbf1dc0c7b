/* Verdicts of `check` over the Windows-only facts (rules.h): the System32
 * VC++ runtime against the floor torch's release needs
 * (data/windows_vc_runtime_min.tsv), and PATH. Platform-neutral, so they
 * are unit-tested on Linux with the facts written by hand. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/data.h"
#include "base/version.h"
#include "kb/kb.h"
#include "probe/rules.h"

/* The install hint of data/windows_runtime_dlls.tsv for DLL, into OUT:
 * the command, without its "  (or URL)" aside. */
static const char *runtime_fix(const char *dll, char *out, size_t cap)
{
    struct td_kb_provider p;
    snprintf(out, cap, "winget install Microsoft.VCRedist.2015+.x64");
    if (td_kb_windows_runtime(dll, "x64", &p)) {
        const char *aside = strstr(p.fix, "  (");
        snprintf(out, cap, "%.*s", (int)(aside ? (size_t)(aside - p.fix) : strlen(p.fix)), p.fix);
    }
    return out;
}

void td_rules_vc_runtime(const struct td_windows *w, const struct td_torch *torch, size_t n_torch,
                         struct td_findings *f)
{
    static const char *const cols[] = {"torch_min", "dll", "min_version", "source", NULL};
    for (size_t k = 0; w && w->probed && k < n_torch; k++) {
        const char *tv = torch[k].base_version ? torch[k].base_version : torch[k].version;
        for (size_t i = 0; tv && i < w->n_runtime_dlls; i++) {
            const struct td_windows_dll *d = &w->runtime_dlls[i];
            struct td_table t;
            char need[64] = "", source[1024] = "", fix[256];
            if (!d->version || !td_table_open(&t, "windows_vc_runtime_min", cols))
                continue;
            /* the row of the highest torch_min not above this torch */
            char best_torch[64] = "";
            while (td_table_next(&t))
                if (strcasecmp(td_table_cell(&t, 1), d->name) == 0 &&
                    td_version_cmp(tv, td_table_cell(&t, 0)) >= 0 &&
                    (!best_torch[0] || td_version_cmp(td_table_cell(&t, 0), best_torch) > 0)) {
                    snprintf(best_torch, sizeof best_torch, "%s", td_table_cell(&t, 0));
                    snprintf(need, sizeof need, "%s", td_table_cell(&t, 2));
                    snprintf(source, sizeof source, "%s", td_table_cell(&t, 3));
                }
            if (!need[0] || td_version_cmp(d->version, need) >= 0)
                continue;
            td_findings_add(
                f, TD_SEV_ERROR, TD_KIND_VC_RUNTIME_TOO_OLD, d->path ? d->path : d->name,
                torch[k].dir, NULL, runtime_fix(d->name, fix, sizeof fix),
                "%s is %s; torch %s needs %s or newer (import torch fails with WinError "
                "1114 in c10.dll's initialisation). Source: %.300s",
                d->name, d->version, torch[k].version, need, source);
        }
    }
}

/* ---- PATH ---- */

static bool same_dir(const char *a, size_t an, const char *b, size_t bn)
{
    while (an && (a[an - 1] == '\\' || a[an - 1] == '/'))
        an--;
    while (bn && (b[bn - 1] == '\\' || b[bn - 1] == '/'))
        bn--;
    if (an != bn)
        return false;
    for (size_t i = 0; i < an; i++) {
        char x = a[i] == '/' ? '\\' : (char)tolower((unsigned char)a[i]);
        char y = b[i] == '/' ? '\\' : (char)tolower((unsigned char)b[i]);
        if (x != y)
            return false;
    }
    return true;
}

static bool contains_nocase(const char *s, size_t n, const char *what)
{
    size_t m = strlen(what);
    for (size_t i = 0; i + m <= n; i++)
        if (strncasecmp(s + i, what, m) == 0)
            return true;
    return false;
}

/* "CUDA_PATH_V11_8=C:\..." -> version "11.8" and the folder. */
static bool cuda_var(const char *var, char *ver, size_t vcap, const char **dir)
{
    const char *eq = strchr(var, '=');
    if (strncmp(var, "CUDA_PATH_V", 11) != 0 || !eq || (size_t)(eq - var - 11) >= vcap)
        return false;
    snprintf(ver, vcap, "%.*s", (int)(eq - var - 11), var + 11);
    for (char *c = ver; *c; c++)
        if (*c == '_')
            *c = '.';
    *dir = eq + 1;
    return true;
}

void td_rules_path(const char *path, bool (*exists)(const char *dir, void *ctx), void *ctx,
                   const char *const *cuda_vars, size_t n_cuda_vars, const char *torch_cuda,
                   struct td_findings *f)
{
    const char *edit = "remove or fix it in PATH: System Properties > Environment Variables "
                       "(or: rundll32 sysdm.cpl,EditEnvironmentVariables)";
    size_t index = 0;
    for (const char *p = path; p && *p; index++) {
        const char *end = strchr(p, ';');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        const char *entry = p;
        p = end ? end + 1 : p + n;
        char dir[1024];
        if (n == 0 || n >= sizeof dir)
            continue;
        snprintf(dir, sizeof dir, "%.*s", (int)n, entry);
        /* a later duplicate of an earlier entry */
        size_t first = 0, k = 0;
        bool dup = false;
        for (const char *q = path; q < entry && !dup; k++) {
            const char *qe = strchr(q, ';');
            size_t qn = qe ? (size_t)(qe - q) : strlen(q);
            if (same_dir(q, qn, entry, n))
                dup = true, first = k;
            q = qe ? qe + 1 : q + qn;
        }
        if (dup) {
            td_findings_add(f, TD_SEV_INFO, TD_KIND_ENV_VAR_INVALID, dir, "PATH", NULL, edit,
                            "PATH entry %zu repeats entry %zu (%s): harmless, but PATH is long "
                            "and every DLL search walks it",
                            index + 1, first + 1, dir);
            continue;
        }
        if (!exists(dir, ctx)) {
            td_findings_add(f, TD_SEV_WARNING, TD_KIND_ENV_VAR_INVALID, dir, "PATH", NULL, edit,
                            "PATH entry %zu (%s) does not exist: left over from an uninstall, or "
                            "mistyped",
                            index + 1, dir);
            continue;
        }
        if (contains_nocase(dir, strlen(dir), "Program Files (x86)") ||
            contains_nocase(dir, strlen(dir), "SysWOW64"))
            td_findings_add(f, TD_SEV_WARNING, TD_KIND_ENV_VAR_INVALID, dir, "PATH", NULL, edit,
                            "PATH entry %zu (%s) is a 32-bit folder: a DLL that torch's PATH retry "
                            "finds there is WinError 193 in 64-bit Python",
                            index + 1, dir);
        for (size_t c = 0; torch_cuda && c < n_cuda_vars; c++) {
            char ver[32], bin[1100];
            const char *root;
            if (!cuda_var(cuda_vars[c], ver, sizeof ver, &root) || strcmp(ver, torch_cuda) == 0)
                continue;
            snprintf(bin, sizeof bin, "%s\\bin", root);
            if (same_dir(dir, strlen(dir), bin, strlen(bin)))
                td_findings_add(
                    f, TD_SEV_WARNING, TD_KIND_SHADOWED_LIBRARY, dir, "PATH", NULL, edit,
                    "PATH entry %zu is the bin folder of CUDA %s (%s) while torch is built for "
                    "CUDA %s: a CUDA DLL torch's own folders lack is taken from it by torch's PATH "
                    "retry, of the wrong version",
                    index + 1, ver, dir, torch_cuda);
        }
    }
}
