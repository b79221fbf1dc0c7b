/* The fix scripts of `check -o` (fix_script.h). POSIX sh keeps the fixes as
 * written. PowerShell and cmd.exe get Windows' commands (winget, pip, py,
 * rundll32) as commands, an aside in a fix ("cmd  (or URL)") as a comment
 * line, and each shell's quoting: cmd's metacharacters & | < > ^ outside
 * double quotes are escaped with ^ and % is doubled, as a batch file needs
 * ("cmd /?" and "set /?": batch parameters and %% in batch files). The
 * batch file runs each command through %TD_RUN%, which `fix.bat /dry-run`
 * sets to echo, so it can be read back as it would run. A command's first
 * word, when it is a path, is quoted (spaces, non-ASCII user folders).
 * Encodings: cmd reads a batch file in the console's code page (OEM), so a
 * non-ASCII script is written in the OEM code page where every character
 * has a form there (the exe, on the machine that will run it), else in
 * UTF-8 without a BOM (cmd would run the BOM), behind a "chcp" to the code
 * page it is in, the previous one saved and put back at every exit; PowerShell 5.1
 * reads a script without a BOM as ANSI, so fix.ps1 starts with one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/compat.h"
#include "base/text.h"
#include "report/fix_script.h"

bool td_fix_script_shell(const char *name, enum td_shell *shell)
{
    static const struct {
        const char *ext;
        enum td_shell shell;
    } exts[] = {{".sh", TD_SHELL_SH},
                {".ps1", TD_SHELL_POWERSHELL},
                {".bat", TD_SHELL_CMD},
                {".cmd", TD_SHELL_CMD}};
    size_t n = name ? strlen(name) : 0;
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++) {
        size_t e = strlen(exts[i].ext);
        if (n > e && strcasecmp(name + n - e, exts[i].ext) == 0) {
            *shell = exts[i].shell;
            return true;
        }
    }
    return false;
}

static bool starts_with_any(const char *s, const char *const *starts, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strncmp(s, starts[i], strlen(starts[i])) == 0)
            return true;
    return false;
}

/* The length of the first word of S[0..N) when it is a path ("C:\\...",
 * "C:/...", "\\\\server\\..."), 0 otherwise; *QUOTED when it is in double
 * quotes already (a path with blanks, as probe/install/torch.c writes it). Unquoted,
 * a path with blanks cannot be told from its arguments: up to the first one. */
static size_t leading_path(const char *s, size_t n, bool *quoted)
{
    *quoted = n > 1 && s[0] == '"';
    const char *p = s + *quoted;
    size_t m = n - *quoted;
    bool drive = m > 2 && p[1] == ':' && (p[2] == '\\' || p[2] == '/');
    if (!drive && !(m > 1 && p[0] == '\\' && p[1] == '\\'))
        return 0;
    const char *end = *quoted ? memchr(p, '"', m) : memchr(p, ' ', m);
    if (*quoted)
        return end ? (size_t)(end - s) + 1 : 0;
    return end ? (size_t)(end - s) : n;
}

/* Whether the leading path of S[0..N) names a program (ends in .exe). */
static bool leading_exe(const char *s, size_t n)
{
    bool quoted;
    size_t path = leading_path(s, n, &quoted);
    size_t end = path - quoted; /* before a closing quote */
    return path && end > 4 && strncasecmp(s + end - 4, ".exe", 4) == 0;
}

static bool looks_like_command(const char *fix, enum td_shell shell)
{
    static const char *const posix[] = {"python",  "pip",    "sudo ", "apt ", "apt-get ", "conda ",
                                        "export ", "unset ", "~/",    "/",    "ln ",      "mv "};
    static const char *const windows[] = {"python",  "pip",       "py ", "conda ",
                                          "winget ", "rundll32 ", "del "};
    if (shell == TD_SHELL_SH)
        return starts_with_any(fix, posix, sizeof posix / sizeof posix[0]);
    return starts_with_any(fix, windows, sizeof windows / sizeof windows[0]) ||
           leading_exe(fix, strlen(fix)); /* "C:\...\python.exe" -m pip ... */
}

/* One line of comment text: no line breaks (a detail may quote a
 * multi-line message). In a batch file, % is doubled even in rem. */
static void comment(FILE *out, const char *lead, const char *text, size_t n, enum td_shell shell)
{
    fputs(lead, out);
    for (size_t i = 0; i < n && text[i]; i++) {
        char c = text[i] == '\n' || text[i] == '\r' ? ' ' : text[i];
        if (shell == TD_SHELL_CMD && (c == '%' || c == '^'))
            fputc(c, out);
        fputc(c, out);
    }
    fputc('\n', out);
}

/* A command for cmd.exe: its path quoted, metacharacters outside "..."
 * escaped, % doubled; a failure ends the script (through td_end, which
 * puts the code page back). */
static void cmd_command(FILE *out, const char *s, size_t n)
{
    bool quoted = false, has_quotes;
    size_t path = leading_path(s, n, &has_quotes);
    if (has_quotes)
        path = 0; /* quoted as it is */
    fputs("%TD_RUN% ", out);
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (path && (i == 0 || i == path))
            fputc('"', out);
        if (c == '"')
            quoted = !quoted;
        if (c == '%')
            fputc('%', out);
        else if (!quoted && strchr("&|<>^", c))
            fputc('^', out);
        fputc(c, out);
    }
    if (path == n)
        fputc('"', out);
    fputs("\nif errorlevel 1 set TD_RC=1& goto td_end\n", out);
}

static void ps_command(FILE *out, const char *s, size_t n)
{
    bool quoted;
    size_t path = leading_path(s, n, &quoted);
    if (path && quoted)
        fprintf(out, "& %.*s\n", (int)n, s);
    else if (path)
        fprintf(out, "& \"%.*s\"%.*s\n", (int)path, s, (int)(n - path), s + path);
    else
        fprintf(out, "%.*s\n", (int)n, s);
}

static void header(FILE *out, enum td_shell shell)
{
    switch (shell) {
    case TD_SHELL_SH:
        fprintf(out,
                "#!/bin/sh\n# Fixes proposed by torchdoctor %s check. Read each one before "
                "running this script;\n# lines that are advice rather than commands are "
                "comments.\nset -e\n",
                TD_VERSION);
        break;
    case TD_SHELL_POWERSHELL:
        fprintf(out,
                "# Fixes proposed by torchdoctor %s check. Read each one before running this "
                "script;\n# lines that are advice rather than commands are comments.\n"
                "$ErrorActionPreference = 'Stop'\n",
                TD_VERSION);
        break;
    case TD_SHELL_CMD:
        fprintf(out,
                "@echo off\nrem Fixes proposed by torchdoctor %s check. Read each one before "
                "running this script;\nrem lines that are advice rather than commands are "
                "comments. \"%%~nx0 /dry-run\" only\nrem prints the commands.\n"
                "set TD_RUN=\nset TD_RC=0\nif /i \"%%~1\"==\"/dry-run\" set TD_RUN=echo\n",
                TD_VERSION);
        break;
    }
}

static bool all_ascii(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] >= 0x80)
            return false;
    return true;
}

/* The batch file BODY[0..N) (UTF-8) as OUT will hold it: as is when ASCII;
 * else in the OEM code page where every character converts exactly (the
 * exe, on the machine that will run it), in UTF-8 (65001) otherwise, behind
 * an ASCII "chcp" to that code page. Windows' cmd decodes each line in the
 * code page in force when it reads it, so the chcp line makes the bytes
 * below right whatever code page the console was left in; Wine's cmd (8.0)
 * decodes every line in GetOEMCP() and ignores chcp, so only the OEM form
 * runs there (docs/windows-check.md, "Non-ASCII paths"). */
static void write_batch(FILE *out, const char *body, size_t n)
{
    if (all_ascii(body, n)) {
        fwrite(body, 1, n, out);
        fputs(":td_end\nexit /b %TD_RC%\n", out);
        return;
    }
    size_t len = 0;
    int cp = td_text_oem_cp();
    char *oem = cp > 0 && cp != 65001 ? td_text_to_cp(cp, body, &len) : NULL;
    const char *text = oem ? oem : body;
    if (!oem)
        cp = 65001, len = n;
    const char *rest = strstr(text, "set TD_RUN=\n"); /* the header is ASCII */
    size_t head = rest ? (size_t)(rest - text) : 0;
    fwrite(text, 1, head, out);
    fprintf(out,
            "rem Non-ASCII text below is in code page %d (%s): the console is set to it\n"
            "rem for the script and put back at its end.\n"
            "for /f \"tokens=2 delims=:.\" %%%%c in ('chcp') do set TD_CP=%%%%c\n"
            "chcp %d >nul\n",
            cp, cp == 65001 ? "UTF-8" : "OEM", cp);
    fwrite(text + head, 1, len - head, out);
    fputs(":td_end\nif defined TD_CP chcp %TD_CP% >nul\nexit /b %TD_RC%\n", out);
    free(oem);
}

static void write_script(FILE *out, const struct td_findings *f, enum td_shell shell)
{
    const char *lead = shell == TD_SHELL_CMD ? "rem " : "# ";
    bool dll_note = false;
    header(out, shell);
    for (size_t i = 0; i < f->count; i++) {
        const struct td_finding *x = &f->items[i];
        if (!x->fix || x->severity == TD_SEV_INFO)
            continue;
        bool repeated = false; /* three requesters of one missing file share one fix */
        for (size_t k = 0; k < i && !repeated; k++)
            repeated = f->items[k].fix && f->items[k].severity != TD_SEV_INFO &&
                       strcmp(f->items[k].fix, x->fix) == 0;
        if (repeated)
            continue;
        char what[2048];
        snprintf(what, sizeof what, "%s %s: %s", td_severity_name(x->severity), x->kind, x->detail);
        fputc('\n', out);
        comment(out, lead, what, strlen(what), shell);
        if (shell == TD_SHELL_SH) {
            fprintf(out, "%s%s\n", looks_like_command(x->fix, shell) ? "" : "# ", x->fix);
            continue;
        }
        if (!looks_like_command(x->fix, shell)) {
            comment(out, lead, x->fix, strlen(x->fix), shell);
        } else {
            /* "winget install X  (or https://...)": the command, then the aside */
            const char *aside = strstr(x->fix, "  (");
            size_t n = aside ? (size_t)(aside - x->fix) : strlen(x->fix);
            if (shell == TD_SHELL_CMD)
                cmd_command(out, x->fix, n);
            else
                ps_command(out, x->fix, n);
            if (aside)
                comment(out, lead, aside + 2, strlen(aside + 2), shell);
        }
        if (strcmp(x->kind, TD_KIND_FOUND_ONLY_VIA_PATH) == 0 && x->library && !dll_note) {
            char note[1200], dir[1024];
            snprintf(dir, sizeof dir, "%s", x->library);
            char *sep = strrchr(dir, '\\');
            if (sep)
                *sep = '\0';
            snprintf(note, sizeof note,
                     "In your own code, before import torch: os.add_dll_directory(r\"%s\")", dir);
            comment(out, lead, note, strlen(note), shell);
            dll_note = true;
        }
    }
}

void td_fix_script(FILE *out, const struct td_findings *f, enum td_shell shell)
{
    if (shell == TD_SHELL_POWERSHELL)
        fputs("\xef\xbb\xbf", out); /* UTF-8 BOM: PowerShell 5.1 reads no-BOM scripts as ANSI */
    struct td_memstream ms;
    FILE *mem = shell == TD_SHELL_CMD ? td_memstream_open(&ms) : NULL;
    write_script(mem ? mem : out, f, shell);
    if (!mem)
        return;
    size_t n;
    char *body = td_memstream_close(&ms, &n);
    if (body)
        write_batch(out, body, n);
    free(body);
}
