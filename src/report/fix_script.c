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
 * UTF-8 without a BOM (cmd would run the BOM) behind a "chcp 65001", the
 * previous code page saved and put back at every exit; PowerShell 5.1
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
 * "C:/...", "\\\\server\\..."), to be quoted; 0 otherwise. A path with
 * blanks cannot be told from its arguments, so only up to the first blank. */
static size_t leading_path(const char *s, size_t n)
{
    bool drive = n > 2 && s[1] == ':' && (s[2] == '\\' || s[2] == '/');
    if (!drive && !(n > 1 && s[0] == '\\' && s[1] == '\\'))
        return 0;
    size_t k = 0;
    while (k < n && s[k] != ' ')
        k++;
    return k;
}

static bool looks_like_command(const char *fix, enum td_shell shell)
{
    static const char *const posix[] = {"python",  "pip",    "sudo ", "apt ", "apt-get ", "conda ",
                                        "export ", "unset ", "~/",    "/",    "ln ",      "mv "};
    static const char *const windows[] = {"python", "pip", "py ", "conda ", "winget ", "rundll32 "};
    if (shell == TD_SHELL_SH)
        return starts_with_any(fix, posix, sizeof posix / sizeof posix[0]);
    size_t path = leading_path(fix, strlen(fix)); /* "C:\...\python.exe -m pip ..." */
    return starts_with_any(fix, windows, sizeof windows / sizeof windows[0]) ||
           (path > 4 && strncasecmp(fix + path - 4, ".exe", 4) == 0);
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
    bool quoted = false;
    size_t path = leading_path(s, n);
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
    size_t path = leading_path(s, n);
    if (path)
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

/* cmd reads each line as it runs it: after chcp 65001 the rest is UTF-8. */
static const char chcp_begin[] =
    "rem Non-ASCII text below is UTF-8: the console's code page is set to 65001\n"
    "rem for the script and put back at its end.\n"
    "for /f \"tokens=2 delims=:.\" %%c in ('chcp') do set TD_CP=%%c\n"
    "chcp 65001 >nul\n";

static bool all_ascii(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] >= 0x80)
            return false;
    return true;
}

/* The batch file BODY[0..N) (UTF-8) as OUT will hold it: as is when ASCII,
 * in the OEM code page when it converts exactly, else behind chcp 65001. */
static void write_batch(FILE *out, const char *body, size_t n)
{
    size_t len = 0;
    char *oem = all_ascii(body, n) ? NULL : td_text_to_cp(td_text_oem_cp(), body, &len);
    if (all_ascii(body, n) || oem) {
        fwrite(oem ? oem : body, 1, oem ? len : n, out);
        fputs(":td_end\nexit /b %TD_RC%\n", out);
    } else {
        const char *rest = strstr(body, "set TD_RUN=\n"); /* the header is ASCII */
        size_t head = rest ? (size_t)(rest - body) : 0;
        fwrite(body, 1, head, out);
        fputs(chcp_begin, out);
        fwrite(body + head, 1, n - head, out);
        fputs(":td_end\nif defined TD_CP chcp %TD_CP% >nul\nexit /b %TD_RC%\n", out);
    }
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
