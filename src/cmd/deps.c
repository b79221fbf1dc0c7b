/* torchdoctor deps FILE...: what the platform's loader would do with each
 * dependency, file by file, without running anything. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/compat.h"
#include "cmd/cmd.h"
#include "graph/target.h"
#include "probe/apiset.h"
#include "report/deps.h"

extern char **environ;

enum { MAX_LIST = 64 };

struct deps_args {
    const char *files[MAX_LIST];
    size_t n_files;
    const char *search_dirs[MAX_LIST];
    size_t n_search_dirs;
    struct td_env_var env[MAX_LIST];
    char env_names[MAX_LIST][128];
    size_t n_env;
    const char *platform, *profile, *format, *color, *root, *python;
    int cpu_level;
    bool no_symbols;
};

/* The target's environment as one snapshot: this machine's without
 * --root, then the --env entries (a later entry of a name wins). */
static const char **env_snapshot(const struct deps_args *a, struct td_arena *arena)
{
    size_t n_host = 0;
    for (char **e = environ; !a->root && e && *e; e++)
        n_host++;
    const char **envp = td_arena_array(arena, n_host + a->n_env + 1, sizeof *envp);
    for (size_t i = 0; envp && i < n_host; i++)
        envp[i] = environ[i];
    for (size_t i = 0; envp && i < a->n_env; i++) {
        size_t len = strlen(a->env[i].name) + strlen(a->env[i].value) + 2;
        char *kv = td_arena_alloc(arena, len);
        if (kv)
            snprintf(kv, len, "%s=%s", a->env[i].name, a->env[i].value);
        envp[n_host + i] = kv ? kv : "";
    }
    if (envp)
        envp[n_host + a->n_env] = NULL;
    return envp;
}

static struct td_target_request request_of(const struct deps_args *a, struct td_arena *arena)
{
    return (struct td_target_request){
        .files = a->files,
        .n_files = a->n_files,
        .search_dirs = a->search_dirs,
        .n_search_dirs = a->n_search_dirs,
        .envp = env_snapshot(a, arena),
        .platform = a->platform,
        .profile = a->profile,
        .root = a->root,
        .python = a->python,
        .cpu_level = a->cpu_level,
        .symbols = a->no_symbols ? TD_SYMBOLS_NONE : TD_SYMBOLS_ALL,
        /* On Windows without --root the target is this system: its own schema. */
        .live_apisets = a->root ? NULL : td_probe_live_apisets(),
    };
}

static void usage(FILE *out)
{
    fprintf(out,
            "usage: torchdoctor deps FILE... [--platform auto|linux|windows|macos]\n"
            "                        [--profile auto|exe|dlopen|python-extension|torch-import]\n"
            "                        [--search-dir DIR]... [--root DIR] [--env NAME=VALUE]...\n"
            "                        [--python EXE] [--cpu-level 1-4] [--no-symbols]\n"
            "                        [--format text|json|markdown|html|dot] [--color WHEN]\n"
            "\n"
            "Resolves every dependency of FILE the way the target's loader would (glibc ld.so,\n"
            "the Windows loader, dyld), without running anything: how each library was found,\n"
            "every place tried for the ones that were not, and (ELF) every undefined symbol\n"
            "checked against the lookup scope with its version.\n"
            "\n"
            "  --root DIR        treat DIR as the target's filesystem root (an extracted image,\n"
            "                    a Windows drive: C:\\ is DIR)\n"
            "  --env NAME=VALUE  the target's environment (LD_LIBRARY_PATH, PATH, ...); without\n"
            "                    --root, this machine's environment is used\n"
            "  --python EXE      the interpreter whose symbols an extension module may use\n"
            "\n"
            "Exit status: 0 no error found, 1 an error finding, 2 the tool could not do it.\n");
}

static int parse_args(int argc, char **argv, struct deps_args *a)
{
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define OPT(name) (strcmp(s, name) == 0 && v && ++i)
        if (strcmp(s, "--help") == 0 || strcmp(s, "-h") == 0) {
            usage(stdout);
            exit(TD_EXIT_OK);
        } else if (strcmp(s, "--no-symbols") == 0) {
            a->no_symbols = true;
        } else if (OPT("--platform")) {
            a->platform = v;
        } else if (OPT("--profile")) {
            a->profile = v;
        } else if (OPT("--format")) {
            a->format = v;
        } else if (OPT("--color")) {
            a->color = v;
        } else if (OPT("--root")) {
            a->root = v;
        } else if (OPT("--python")) {
            a->python = v;
        } else if (OPT("--cpu-level")) {
            a->cpu_level = atoi(v);
        } else if (OPT("--search-dir")) {
            if (a->n_search_dirs < MAX_LIST)
                a->search_dirs[a->n_search_dirs++] = v;
        } else if (OPT("--env")) {
            const char *eq = strchr(v, '=');
            size_t len = eq ? (size_t)(eq - v) : 0;
            if (!eq || len == 0 || len >= sizeof a->env_names[0] || a->n_env == MAX_LIST) {
                fprintf(stderr, "torchdoctor deps: --env wants NAME=VALUE, not '%s'\n", v);
                return -1;
            }
            memcpy(a->env_names[a->n_env], v, len);
            a->env_names[a->n_env][len] = '\0';
            a->env[a->n_env] = (struct td_env_var){a->env_names[a->n_env], eq + 1};
            a->n_env++;
        } else if (s[0] == '-' && s[1]) {
            fprintf(stderr, "torchdoctor deps: unknown option or missing value: '%s'\n", s);
            return -1;
        } else if (a->n_files < MAX_LIST) {
            a->files[a->n_files++] = s;
        }
#undef OPT
    }
    if (a->n_files == 0) {
        usage(stderr);
        return -1;
    }
    return 0;
}

int td_cmd_deps(int argc, char **argv)
{
    struct deps_args a = {.format = "text", .color = "auto"};
    if (parse_args(argc, argv, &a) != 0)
        return TD_EXIT_USAGE;
    const char *fmt = a.format;
    if (strcmp(fmt, "text") && strcmp(fmt, "json") && strcmp(fmt, "markdown") &&
        strcmp(fmt, "dot") && strcmp(fmt, "html")) {
        fprintf(stderr, "torchdoctor deps: --format must be text, json, markdown, html or dot\n");
        return TD_EXIT_USAGE;
    }

    struct td_err err = {0};
    struct td_graph g = {0};
    struct td_arena plan_arena = {0};
    struct td_target_request req = request_of(&a, &plan_arena);
    if (td_target_build(&req, &g, &plan_arena, &err) != 0) {
        fprintf(stderr, "torchdoctor deps: %s\n", err.msg);
        td_graph_free(&g);
        td_arena_free(&plan_arena);
        return TD_EXIT_USAGE;
    }
    static char outbuf[1 << 16];
    setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
    if (strcmp(fmt, "json") == 0) {
        td_deps_json(&g, stdout);
    } else if (strcmp(fmt, "markdown") == 0) {
        td_deps_markdown(&g, stdout);
    } else if (strcmp(fmt, "dot") == 0) {
        td_deps_dot(&g, stdout);
    } else if (strcmp(fmt, "html") == 0) {
        td_deps_html(&g, stdout);
    } else {
        struct td_term t;
        td_term_init(&t, stdout, a.color);
        td_deps_text(&g, &t);
    }
    fflush(stdout);
    int rc = td_findings_count(&g.findings, TD_SEV_ERROR) ? TD_EXIT_FINDINGS : TD_EXIT_OK;
    td_graph_free_at_exit(&g);
    td_arena_free(&plan_arena);
    return rc;
}
