/* snapshot --restore-script: the commands that put an environment's
 * distributions back at their recorded versions, each torch build from the
 * wheel index of its variant, the torch stack removed first so no file of
 * another variant stays behind. Written for the user to read and run; never
 * run here. */
#include <stdio.h>
#include <string.h>

#include "report/snapshot.h"

bool td_restore_shell_of(const char *file, enum td_restore_shell *out)
{
    static const struct {
        const char *ext;
        enum td_restore_shell shell;
    } exts[] = {{".sh", TD_RESTORE_SH}, {".ps1", TD_RESTORE_PS1}, {".bat", TD_RESTORE_BAT}};
    size_t n = file ? strlen(file) : 0;
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++) {
        size_t e = strlen(exts[i].ext);
        if (n > e && strcmp(file + n - e, exts[i].ext) == 0) {
            *out = exts[i].shell;
            return true;
        }
    }
    return false;
}

static const char *comment(enum td_restore_shell sh)
{
    return sh == TD_RESTORE_BAT ? "rem" : "#";
}

/* S as one argument of SH: single quotes for sh and PowerShell (a quote
 * inside doubled or closed and reopened), double quotes for cmd (which has
 * no escape for a quote inside: it is dropped). */
static void quoted(FILE *out, enum td_restore_shell sh, const char *s)
{
    fputc(sh == TD_RESTORE_BAT ? '"' : '\'', out);
    for (; *s; s++) {
        if (*s == '\'' && sh == TD_RESTORE_SH)
            fputs("'\\''", out);
        else if (*s == '\'' && sh == TD_RESTORE_PS1)
            fputs("''", out);
        else if (*s != '"' || sh != TD_RESTORE_BAT)
            fputc(*s, out);
    }
    fputc(sh == TD_RESTORE_BAT ? '"' : '\'', out);
}

/* The start of a pip command line: `"$PY" -m pip `. */
static void pip(FILE *out, enum td_restore_shell sh, const char *args)
{
    static const char *const py[] = {"\"$PY\"", "& $Py", "\"%PY%\""};
    fprintf(out, "%s -m pip %s", py[sh], args);
}

/* Ends a command: PowerShell and cmd do not stop on a failing program. */
static void end_command(FILE *out, enum td_restore_shell sh)
{
    if (sh == TD_RESTORE_PS1)
        fputs("\nif ($LASTEXITCODE) { exit $LASTEXITCODE }\n", out);
    else if (sh == TD_RESTORE_BAT)
        fputs(" || exit /b 1\n", out);
    else
        fputc('\n', out);
}

static bool debian_owned(const struct td_snap_package *p)
{
    return strcmp(p->installer, "debian") == 0;
}

/* The distributions that make a torch install one variant or another. */
static bool torch_stack(const struct td_snap_package *p)
{
    static const char *const names[] = {"torch",      "torchvision",    "torchaudio",
                                        "triton",     "pytorch-triton", "xformers",
                                        "flash-attn", "flash_attn"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(p->name, names[i]) == 0)
            return true;
    return strncmp(p->name, "nvidia-", 7) == 0 || strncmp(p->name, "nvidia_", 7) == 0 || p->local;
}

/* pip itself is left alone: a pip replacing itself halfway through a
 * script is how environments end up without one. */
static bool restorable(const struct td_snap_package *p)
{
    return !debian_owned(p) && strcmp(p->name, "pip") != 0;
}

static void header(FILE *out, const struct td_check_report *r, const struct td_snapshot *s,
                   const struct td_snap_env *env, enum td_restore_shell sh)
{
    const char *c = comment(sh);
    if (sh == TD_RESTORE_SH)
        fputs("#!/bin/sh\n", out);
    if (sh == TD_RESTORE_BAT)
        fputs("@echo off\n", out);
    fprintf(out,
            "%s Restores the Python distributions of %s as `torchdoctor snapshot` recorded\n"
            "%s them at %s. Written by torchdoctor; read it, then run it yourself.\n"
            "%s Usage: restore PYTHON (default: the interpreter of the snapshot).\n"
            "%s Every package is installed at its version with --no-deps: the snapshot\n"
            "%s lists every distribution, so pip has nothing to resolve.\n",
            c, env->python, c, s->taken_at, c, c, c);
    fprintf(out, "%s What a script cannot restore:\n", c);
    if (r->gpu.driver_version)
        fprintf(out,
                "%s   the NVIDIA driver: it was %s (CUDA %d.%d); install that driver yourself\n", c,
                r->gpu.driver_version, r->gpu.cuda_driver_version / 1000,
                r->gpu.cuda_driver_version % 1000 / 10);
    else
        fprintf(out, "%s   the NVIDIA driver (the snapshot saw none)\n", c);
    if (r->win.probed)
        fprintf(out, "%s   the Microsoft Visual C++ runtime: it was %s\n", c,
                r->win.vc_redist ? r->win.vc_redist : "not registered");
    for (size_t i = 0; i < env->n_packages; i++)
        if (debian_owned(&env->packages[i]))
            fprintf(out, "%s   %s %s, a Debian package (apt-get install --reinstall)\n", c,
                    env->packages[i].name, env->packages[i].version);
    if (sh == TD_RESTORE_SH) {
        fputs("set -eu\nPY=${1:-", out);
        quoted(out, sh, env->python);
        fputs("}\n", out);
    } else if (sh == TD_RESTORE_PS1) {
        fputs("$ErrorActionPreference = 'Stop'\n$Py = if ($args.Count) { $args[0] } else { ", out);
        quoted(out, sh, env->python);
        fputs(" }\n", out);
    } else {
        char set[4200];
        snprintf(set, sizeof set, "PY=%s", env->python);
        fputs("setlocal\nset \"PY=%~1\"\nif \"%PY%\"==\"\" set ", out);
        quoted(out, sh, set);
        fputs("\n", out);
    }
}

/* Step 1: `pip uninstall -y` of the installed torch stack (none when pip
 * installed none of it: pip refuses an uninstall of nothing). */
static void uninstall_stack(FILE *out, const struct td_snap_env *env, enum td_restore_shell sh)
{
    size_t n = 0;
    for (size_t i = 0; i < env->n_packages; i++)
        n += torch_stack(&env->packages[i]) && restorable(&env->packages[i]);
    if (n == 0) {
        fprintf(out, "%s 1. No torch stack that pip installed: nothing to remove.\n", comment(sh));
        return;
    }
    fprintf(out,
            "%s 1. Remove the torch stack first, so that no file of another variant\n"
            "%s    (+cpu beside +cu121) stays mixed in.\n",
            comment(sh), comment(sh));
    pip(out, sh, "uninstall -y");
    for (size_t i = 0; i < env->n_packages; i++)
        if (torch_stack(&env->packages[i]) && restorable(&env->packages[i]))
            fputc(' ', out), quoted(out, sh, env->packages[i].name);
    end_command(out, sh);
}

static void spec(FILE *out, enum td_restore_shell sh, const struct td_snap_package *p)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s==%s", p->name, p->version);
    fputc(' ', out);
    quoted(out, sh, buf);
}

/* Step 2: one install per wheel index (the variant's), and per URL. */
static void install_indexed(FILE *out, const struct td_snap_env *env, enum td_restore_shell sh)
{
    size_t n = 0;
    for (size_t i = 0; i < env->n_packages; i++)
        n += env->packages[i].index_url && restorable(&env->packages[i]);
    if (n == 0)
        return;
    fprintf(out,
            "%s 2. Builds from their own wheel index (the variant's, or the URL pip recorded).\n",
            comment(sh));
    for (size_t i = 0; i < env->n_packages; i++) {
        const struct td_snap_package *p = &env->packages[i];
        if (!p->index_url || !restorable(p))
            continue;
        bool seen = false; /* this index had its command at an earlier package */
        for (size_t k = 0; k < i && !seen; k++)
            seen = env->packages[k].index_url && restorable(&env->packages[k]) &&
                   strcmp(env->packages[k].index_from, "variant") == 0 &&
                   strcmp(env->packages[k].index_url, p->index_url) == 0;
        if (seen)
            continue;
        if (strcmp(p->index_from, "direct_url.json") == 0) {
            pip(out, sh, "install --no-deps");
            fputc(' ', out);
            quoted(out, sh, p->index_url);
            end_command(out, sh);
            continue;
        }
        pip(out, sh, "install --no-deps --index-url ");
        quoted(out, sh, p->index_url);
        for (size_t k = i; k < env->n_packages; k++)
            if (env->packages[k].index_url && restorable(&env->packages[k]) &&
                strcmp(env->packages[k].index_from, "variant") == 0 &&
                strcmp(env->packages[k].index_url, p->index_url) == 0)
                spec(out, sh, &env->packages[k]);
        end_command(out, sh);
    }
}

/* Step 3: the rest from pip's configured index (PyPI unless told). */
static void install_rest(FILE *out, const struct td_snap_env *env, enum td_restore_shell sh)
{
    size_t n = 0;
    for (size_t i = 0; i < env->n_packages; i++) {
        const struct td_snap_package *p = &env->packages[i];
        if (p->local && !p->index_url && restorable(p))
            fprintf(out,
                    "%s %s %s: the tables know no index for +%s; install it from where it "
                    "came\n",
                    comment(sh), p->name, p->version, p->local);
        n += !p->index_url && !p->local && restorable(p);
    }
    if (n == 0)
        return;
    fprintf(out, "%s 3. Everything else at its version, from pip's index.\n", comment(sh));
    pip(out, sh, "install --no-deps");
    for (size_t i = 0; i < env->n_packages; i++) {
        const struct td_snap_package *p = &env->packages[i];
        if (!p->index_url && !p->local && restorable(p))
            spec(out, sh, p);
    }
    end_command(out, sh);
}

void td_restore_script(FILE *out, const struct td_check_report *r, const struct td_snapshot *s,
                       const struct td_snap_env *env, enum td_restore_shell sh)
{
    header(out, r, s, env, sh);
    uninstall_stack(out, env, sh);
    install_indexed(out, env, sh);
    install_rest(out, env, sh);
}
