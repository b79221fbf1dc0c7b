/* The fix scripts of `check -o` (fix_script.h). POSIX sh keeps the fixes as
 * written. PowerShell and cmd.exe get Windows' commands (winget, pip, py,
 * rundll32) as commands, an aside in a fix ("cmd  (or URL)") as a comment
 * line, and each shell's quoting: cmd's metacharacters & | < > ^ outside
 * double quotes are escaped with ^ and % is doubled, as a batch file needs
 * ("cmd /?" and "set /?": batch parameters and %% in batch files). The
 * batch file runs each command through %TD_RUN%, which `fix.bat /dry-run`
 * sets to echo, so it can be read back as it would run. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

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

static bool looks_like_command(const char *fix, enum td_shell shell)
{
    static const char *const posix[] = {"python",  "pip",    "sudo ", "apt ", "apt-get ", "conda ",
                                        "export ", "unset ", "~/",    "/",    "ln ",      "mv "};
    static const char *const windows[] = {"python", "pip", "py ", "conda ", "winget ", "rundll32 "};
    if (shell == TD_SHELL_SH)
        return starts_with_any(fix, posix, sizeof posix / sizeof posix[0]);
    return starts_with_any(fix, windows, sizeof windows / sizeof windows[0]);
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

/* A command for cmd.exe: metacharacters outside "..." escaped, % doubled. */
static void cmd_command(FILE *out, const char *s, size_t n)
{
    bool quoted = false;
    fputs("%TD_RUN% ", out);
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c == '"')
            quoted = !quoted;
        if (c == '%')
            fputc('%', out);
        else if (!quoted && strchr("&|<>^", c))
            fputc('^', out);
        fputc(c, out);
    }
    fputs("\nif errorlevel 1 exit /b 1\n", out);
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
                "set TD_RUN=\nif /i \"%%~1\"==\"/dry-run\" set TD_RUN=echo\n",
                TD_VERSION);
        break;
    }
}

void td_fix_script(FILE *out, const struct td_findings *f, enum td_shell shell)
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
                fprintf(out, "%.*s\n", (int)n, x->fix);
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
