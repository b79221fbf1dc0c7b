/* check --health (report/check.h): the verdict as one line a Slurm drain
 * reason can hold, and the scontrol command that would drain the node,
 * printed for the health-check wrapper or the admin, never run. */
#include <stdio.h>
#include <string.h>

#include "report/check.h"

enum { REASON_MAX = 160 };

/* S made safe inside a double-quoted shell word and a Slurm reason: one
 * line, printable ASCII, no quotes, backslashes, dollars or backquotes. */
static void reason_text(const char *s, char *out, size_t cap)
{
    size_t n = 0;
    for (; s && *s && n + 4 < cap; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '`' || c == '\\' || c == '$')
            out[n++] = '\'';
        else if (c < 0x20 || c >= 0x7f)
            out[n++] = c >= 0x80 && (c & 0xC0) == 0x80 ? '\0' : ' ';
        else
            out[n++] = (char)c;
        if (out[n - 1] == '\0')
            n--; /* a UTF-8 continuation byte: its lead became one space */
    }
    if (s && *s && n + 4 >= cap)
        memcpy(out + n, "...", 3), n += 3;
    out[n] = '\0';
}

int td_check_health(const struct td_check_report *r, FILE *out)
{
    const struct td_finding *worst = NULL;
    size_t errors = 0;
    for (size_t i = 0; i < r->findings.count; i++)
        if (r->findings.items[i].severity == TD_SEV_ERROR && errors++ == 0)
            worst = &r->findings.items[i];
    char reason[REASON_MAX + 64], detail[REASON_MAX];
    if (!worst) {
        fprintf(out, "torchdoctor: healthy: %zu GPU%s, driver %s, torch %s\n", r->gpu.n_gpus,
                r->gpu.n_gpus == 1 ? "" : "s",
                r->gpu.driver_version ? r->gpu.driver_version : "none",
                r->n_torch && r->torch[0].version ? r->torch[0].version : "none");
        return 0;
    }
    reason_text(worst->detail, detail, sizeof detail);
    snprintf(reason, sizeof reason, "torchdoctor: %s: %s%s", worst->kind, detail,
             errors > 1 ? " (and more)" : "");
    fprintf(out, "%s\n", reason);
    const char *host = r->sys.hostname ? r->sys.hostname : "$(hostname -s)";
    char safe_host[128];
    reason_text(host, safe_host, sizeof safe_host);
    fprintf(out, "scontrol update nodename=%s state=drain reason=\"%s\"\n", safe_host, reason);
    return 1;
}
