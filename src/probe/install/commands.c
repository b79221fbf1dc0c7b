/* The install, reinstall and remove commands a fix prints (commands.h), in
 * the form of the installer (pip, uv, conda, apt) and of the system the
 * path belongs to. Below every file of src/probe/install/ that writes a
 * fix, so none of them calls back into torch.c for it. */
#include <stdio.h>
#include <string.h>

#include "probe/install/commands.h"

static bool is_shell_plain(const char *s)
{
    for (; *s; s++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+=:@", *s))
            return false;
    return true;
}

/* Appends S to OUT after a space: RAW words as they are (the command's own
 * fixed words), values quoted when the shell would split or expand them:
 * single quotes for sh, double quotes for cmd and PowerShell (QUOTE). */
static void append(char *out, size_t cap, const char *s, bool raw, char quote)
{
    size_t at = strlen(out);
    if (at && at + 1 < cap)
        out[at++] = ' ', out[at] = '\0';
    if (raw || is_shell_plain(s))
        snprintf(out + at, cap - at, "%s", s);
    else
        snprintf(out + at, cap - at, "%c%s%c", quote, s, quote);
}

static void add_word(char *out, size_t cap, const char *s)
{
    append(out, cap, s, false, '\'');
}

void td_install_cmd_add_raw(char *out, size_t cap, const char *s)
{
    append(out, cap, s, true, '\'');
}

/* A Windows path, as the probes hold it ("C:/Users/...")? */
static bool windows_path(const char *p)
{
    return p[0] && p[1] == ':' && (p[2] == '/' || p[2] == '\\');
}

/* A path (the interpreter, a file to delete) as a word of the command: a
 * Windows path in cmd's and PowerShell's form, backslashes, double quotes
 * when it has a blank or a character sh would quote; any other path as
 * add_word quotes it for sh. */
void td_install_cmd_add_path(char *out, size_t cap, const char *exe)
{
    if (!windows_path(exe)) {
        add_word(out, cap, exe);
        return;
    }
    size_t at = strlen(out);
    append(out, cap, exe, false, '"');
    for (char *p = out + at; *p; p++)
        if (*p == '/')
            *p = '\\';
}

const char *td_install_cmd(const char *installer, const char *exe, const char *prefix,
                           const char *debian_package, enum td_install_verb verb, const char *spec,
                           char *out, size_t cap)
{
    out[0] = '\0';
    if (strcmp(installer, "debian") == 0 && debian_package) {
        td_install_cmd_add_raw(out, cap,
                               verb == TD_REMOVE ? "sudo apt-get remove" : "sudo apt-get install");
        if (verb == TD_REINSTALL)
            add_word(out, cap, "--reinstall");
        add_word(out, cap, debian_package);
        return out;
    }
    if (strcmp(installer, "conda") == 0 && prefix) {
        /* conda's spec: "pytorch=2.1.0", "torchvision=0.16" (conda docs, "Package match
         * specifications"). */
        char cspec[256];
        size_t n = strcspn(spec, "=<>");
        const char *op = spec + n;
        bool eq = strncmp(op, "==", 2) == 0;
        const char *name = n == 5 && strncmp(spec, "torch", 5) == 0 ? "pytorch" : NULL;
        snprintf(cspec, sizeof cspec, "%.*s%s%s", name ? 7 : (int)n, name ? name : spec,
                 eq ? "=" : "", eq ? op + 2 : op);
        size_t cl = strlen(cspec);
        if (cl > 2 && strcmp(cspec + cl - 2, ".*") == 0)
            cspec[cl - 2] = '\0';
        td_install_cmd_add_raw(out, cap, verb == TD_REMOVE ? "conda remove" : "conda install");
        add_word(out, cap, "-p");
        add_word(out, cap, prefix);
        if (verb == TD_REINSTALL)
            add_word(out, cap, "--force-reinstall");
        add_word(out, cap, cspec);
        return out;
    }
    bool uv = strcmp(installer, "uv") == 0;
    if (uv) {
        td_install_cmd_add_raw(out, cap, "uv pip");
    } else {
        td_install_cmd_add_path(out, cap, exe);
        td_install_cmd_add_raw(out, cap, "-m pip");
    }
    add_word(out, cap, verb == TD_REMOVE ? "uninstall" : "install");
    if (verb == TD_REINSTALL)
        td_install_cmd_add_raw(out, cap,
                               uv ? "--reinstall --no-deps" : "--force-reinstall --no-deps");
    if (uv) {
        add_word(out, cap, "--python");
        td_install_cmd_add_path(out, cap, exe);
    }
    add_word(out, cap, spec);
    return out;
}

void td_install_cmd_add(char *out, size_t cap, const char *word)
{
    append(out, cap, word, false, '\'');
}

const char *td_remove_cmd(const char *path, bool recursive, char *out, size_t cap)
{
    out[0] = '\0';
    if (windows_path(path))
        td_install_cmd_add_raw(out, cap, recursive ? "rmdir /s /q" : "del");
    else
        td_install_cmd_add_raw(out, cap, recursive ? "rm -r" : "rm");
    td_install_cmd_add_path(out, cap, path);
    return out;
}
