/* torchdoctor deps FILE...: what the platform's loader would do with each
 * dependency, file by file, without running anything. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/compat.h"
#include "cmd/args.h"
#include "cmd/cmd.h"
#include "graph/target.h"
#include "probe/system/apiset.h"
#include "probe/install/provider.h"
#include "report/deps.h"

extern char **environ;

struct deps_args {
    struct td_operands files;
    struct td_arg_list search_dirs, env_given;
    struct td_env_var env[TD_ARG_LIST_MAX];
    char env_names[TD_ARG_LIST_MAX][128];
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
        .files = (const char *const *)a->files.v,
        .n_files = (size_t)a->files.n,
        .search_dirs = a->search_dirs.items,
        .n_search_dirs = a->search_dirs.n,
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

/* --env NAME=VALUE: a name of at most 127 bytes, then "=". */
static const char *env_check(const char *v)
{
    size_t len = strcspn(v, "=");
    return v[len] == '=' && len > 0 && len < 128 ? NULL : "NAME=VALUE";
}

/* The --env values as variables: each name copied out of its NAME=VALUE. */
static void split_env(struct deps_args *a)
{
    for (size_t i = 0; i < a->env_given.n; i++) {
        const char *v = a->env_given.items[i];
        size_t len = strcspn(v, "=");
        memcpy(a->env_names[i], v, len);
        a->env_names[i][len] = '\0';
        a->env[i] = (struct td_env_var){a->env_names[i], v + len + 1};
    }
    a->n_env = a->env_given.n;
}

static const char *const deps_formats[] = {"text", "json", "markdown", "html", "dot", NULL};
static const char *const deps_profiles[] = {"auto",         "exe", "dlopen", "python-extension",
                                            "torch-import", NULL};

#define AT(field, ctype) TD_AT(struct deps_args, field, ctype)
static const struct td_option deps_options[] = {
    {.name = "--platform",
     .type = TD_ARG_CHOICE,
     .value = "P",
     .choices = td_platform_choices,
     .def = "auto",
     .help = "whose loader to model; auto goes by the first file's format",
     .at = AT(platform, const char *)},
    {.name = "--profile",
     .type = TD_ARG_CHOICE,
     .value = "NAME",
     .choices = deps_profiles,
     .def = "auto",
     .help = "how the first file is loaded, which decides the search order: a program started "
             "normally, a plain dlopen/LoadLibrary, CPython loading an extension module, or "
             "`import torch`; auto picks one from the file and the layout around it and says "
             "which",
     .at = AT(profile, const char *)},
    {.name = "--search-dir",
     .type = TD_ARG_DIR,
     .value = "DIR",
     .repeat = true,
     .help = "a further directory to search (os.add_dll_directory on Windows)",
     .at = AT(search_dirs, struct td_arg_list)},
    {.name = "--root",
     .type = TD_ARG_DIR,
     .absolute = true,
     .value = "DIR",
     .must_exist = true,
     .help = "treat DIR as the target's filesystem root (an extracted image, a Windows drive: "
             "C:\\ is DIR); a Windows target needs one on Linux",
     .at = AT(root, const char *)},
    {.name = "--env",
     .type = TD_ARG_STRING,
     .value = "NAME=VALUE",
     .repeat = true,
     .check = env_check,
     .help = "the target's environment (LD_LIBRARY_PATH, PATH, ...); without --root, this "
             "machine's environment is used, and these override it",
     .at = AT(env_given, struct td_arg_list)},
    {.name = "--python",
     .type = TD_ARG_FILE,
     .value = "EXE",
     .must_exist = true,
     .help = "the interpreter whose symbols an extension module may use",
     .at = AT(python, const char *)},
    {.name = "--cpu-level",
     .type = TD_ARG_INT,
     .value = "N",
     .min = 1,
     .max = 4,
     .help = "the x86-64 level (glibc-hwcaps) of the target CPU; without it, this CPU's",
     .at = AT(cpu_level, int)},
    {.name = "--no-symbols",
     .type = TD_ARG_FLAG,
     .help = "find the libraries only; do not bind symbols",
     .at = AT(no_symbols, bool)},
    TD_OPT_FORMAT(struct deps_args, format, deps_formats,
                  "the report's form: a text tree, json (docs/schema.md), markdown, html (one "
                  "self-contained page) or dot (graphviz)"),
    TD_OPT_COLOR(struct deps_args, color),
    {0},
};
#undef AT

static const struct td_example deps_examples[] = {
    {"torchdoctor deps site-packages/torch/_C.cpython-311-x86_64-linux-gnu.so",
     "what `import torch` would load, and what it would miss"},
    {"torchdoctor deps --format json --env LD_LIBRARY_PATH=/usr/local/cuda/lib64 "
     "libtorch_cuda.so",
     "the same library with another LD_LIBRARY_PATH, as JSON"},
    {"torchdoctor deps --root /mnt/c --platform windows /mnt/c/venv/Lib/site-packages/torch/lib/"
     "torch_cuda.dll",
     "a Windows install seen from Linux: C:\\ is /mnt/c"},
    {0},
};

const struct td_args_spec td_deps_args = {
    .command = "deps",
    .operands = "FILE...",
    .min_operands = 1,
    .max_operands = TD_ARG_LIST_MAX,
    .description =
        "Resolves every dependency of FILE the way the target's loader would (glibc ld.so, the "
        "Windows loader, dyld), without running anything: how each library was found, every "
        "place tried for the ones that were not, and (ELF) every undefined symbol checked "
        "against the lookup scope with its version.",
    .options = deps_options,
    .examples = deps_examples,
};

int td_cmd_deps(int argc, char **argv)
{
    struct deps_args a = {0};
    int status = td_args_parse(&td_deps_args, argc, argv, &a, &a.files);
    if (status != TD_ARGS_CONTINUE)
        return status;
    split_env(&a);
    const char *fmt = a.format;

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
#ifndef _WIN32
    /* DESIGN.md "--root": the target system is DIR. Without one, this host
     * is the target, and it has no System32, KnownDLLs or API set schema:
     * every system DLL would be "missing" and its fix "sfc /scannow". */
    if (!a.root && g.cfg.platform == TD_PLATFORM_WINDOWS) {
        fprintf(stderr,
                "torchdoctor deps: %s: the target is Windows, and this machine has no Windows to "
                "resolve imports against (System32, KnownDLLs, the API set schema): give "
                "--root DIR, the folder that C:\\ is (a mounted or extracted Windows drive, such "
                "as /mnt/c); 'torchdoctor inspect' lists its imports, and 'torchdoctor wheel' "
                "checks a Windows wheel, without one\n",
                a.files.n ? a.files.v[0] : "the file");
        td_graph_free(&g);
        td_arena_free(&plan_arena);
        return TD_EXIT_USAGE;
    }
#endif
    td_name_providers(&g, NULL);
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
