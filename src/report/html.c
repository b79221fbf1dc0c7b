/* HTML pieces shared by check, deps and explain (report/html.h). Nothing
 * the page shows is trusted: file names, paths, details and fixes all come
 * from the files and environment under inspection. */
#include "report/html.h"

#include <string.h>

void td_html_text(FILE *out, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&':
            fputs("&amp;", out);
            break;
        case '<':
            fputs("&lt;", out);
            break;
        case '>':
            fputs("&gt;", out);
            break;
        case '"':
            fputs("&quot;", out);
            break;
        case '\'':
            fputs("&#39;", out);
            break;
        default:
            fputc(*s, out);
        }
    }
}

static const char page_style[] =
    "body{font:15px/1.45 system-ui,sans-serif;margin:2em auto;max-width:72em;padding:0 1em;"
    "color:#1d1d1f;background:#fff}"
    "h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em;border-bottom:1px solid #ddd}"
    "code,pre{font:13px/1.4 ui-monospace,monospace}"
    "pre{background:#f5f5f7;padding:.6em 4em .6em .8em;overflow-x:auto;border-radius:4px;"
    "white-space:pre-wrap;overflow-wrap:anywhere;"
    "position:relative}"
    ".finding{border-left:4px solid #888;padding:.2em .9em;margin:.8em 0}"
    ".finding.error{border-color:#c62828}.finding.warning{border-color:#e6a000}"
    ".finding.info{border-color:#1e88e5}"
    ".sev{font-weight:600;text-transform:uppercase;font-size:.8em;margin-right:.5em}"
    ".error .sev,.bad{color:#c62828}.warning .sev,.warn{color:#a66f00}.info .sev{color:#1565c0}"
    ".ok{color:#2e7d32}"
    "ul.lines{list-style:none;padding-left:.5em}ul.lines li{margin:.15em 0}"
    "ul.tree{list-style:none;padding-left:1.2em;border-left:1px dotted #bbb}"
    "summary{cursor:pointer}.via{color:#555}.path{color:#777}.missing{color:#c62828}"
    "ol.tried{color:#555;font-size:.92em}"
    "button.copy{position:absolute;top:.3em;right:.3em;font-size:.75em}";

void td_html_begin(FILE *out, const char *title)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>",
          out);
    td_html_text(out, title);
    fprintf(out, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>", page_style);
    td_html_text(out, title);
    fputs("</h1>\n", out);
}

static void finding_html(FILE *out, const struct td_finding *x)
{
    const char *sev = td_severity_name(x->severity);
    fprintf(out, "<div class=\"finding %s\" data-kind=\"", sev);
    td_html_text(out, x->kind);
    fprintf(out, "\">\n<p><span class=\"sev\">%s</span><code>", sev);
    td_html_text(out, x->kind);
    fputs("</code>", out);
    if (x->library) {
        fputs(" <code class=\"library\">", out);
        td_html_text(out, x->library);
        fputs("</code>", out);
    }
    if (x->needed_by) {
        fputs(" needed by <code class=\"needed-by\">", out);
        td_html_text(out, x->needed_by);
        fputs("</code>", out);
    }
    if (x->symbol) {
        fputs(" symbol <code class=\"symbol\">", out);
        td_html_text(out, x->symbol);
        fputs("</code>", out);
    }
    fputs("</p>\n<p class=\"detail\">", out);
    td_html_text(out, x->detail);
    fputs("</p>\n", out);
    if (x->fix) {
        fputs("<pre class=\"fix\"><code>", out);
        td_html_text(out, x->fix);
        fputs("</code></pre>\n", out);
    }
    fputs("</div>\n", out);
}

void td_html_findings(FILE *out, const struct td_findings *f)
{
    size_t e = td_findings_count(f, TD_SEV_ERROR), w = td_findings_count(f, TD_SEV_WARNING);
    fputs("<section id=\"findings\">\n<h2>Findings</h2>\n", out);
    if (f->count == 0)
        fputs("<p class=\"ok\">✓ No problem found.</p>\n", out);
    else
        fprintf(out, "<p class=\"%s\">%zu error%s, %zu warning%s</p>\n", e ? "bad" : "warn", e,
                e == 1 ? "" : "s", w, w == 1 ? "" : "s");
    for (size_t i = 0; i < f->count; i++)
        finding_html(out, &f->items[i]);
    fputs("</section>\n", out);
}

/* Copy buttons on code blocks; without JS the blocks are still selectable. */
static const char page_script[] =
    "document.querySelectorAll('pre').forEach(function(p){var b=document.createElement('button');"
    "b.className='copy';b.textContent='copy';b.onclick=function(){navigator.clipboard&&"
    "navigator.clipboard.writeText(p.innerText.replace(/copy$/,''));};p.appendChild(b);});";

void td_html_end(FILE *out)
{
    fprintf(out,
            "<footer><p class=\"path\">torchdoctor %s</p></footer>\n<script>%s</script>\n"
            "</body>\n</html>\n",
            TD_VERSION, page_script);
}
