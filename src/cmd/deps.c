/* torchdoctor deps FILE...: what the platform's loader would do with each
 * dependency, file by file, without running anything. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dirent.h>

#include "base/compat.h"
#include "cmd/args.h"
#include "cmd/cmd.h"
#include "cmd/deps_graph.h"
#include "graph/graph.h"
#include "loader/windows.h"
#include "probe/apiset.h"
#include "report/deps.h"

enum { MAX_LIST = 64 };

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

static struct td_deps_request request_of(const struct deps_args *a)
{
    return (struct td_deps_request){
        .files = (const char *const *)a->files.v,
        .n_files = (size_t)a->files.n,
        .search_dirs = a->search_dirs.items,
        .n_search_dirs = a->search_dirs.n,
        .env = a->env,
        .n_env = a->n_env,
        .platform = a->platform,
        .profile = a->profile,
        .root = a->root,
        .python = a->python,
        .cpu_level = a->cpu_level,
        .no_symbols = a->no_symbols,
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

static const char *const deps_formats[] = {"text", "json", "markdown", "dot", NULL};
static const char *const deps_platforms[] = {"auto", "linux", "windows", "macos", NULL};
static const char *const deps_profiles[] = {"auto",         "exe", "dlopen", "python-extension",
                                            "torch-import", NULL};

#define AT(field, ctype) TD_AT(struct deps_args, field, ctype)
static const struct td_option deps_options[] = {
    {.name = "--platform",
     .type = TD_ARG_CHOICE,
     .value = "P",
     .choices = deps_platforms,
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
     .value = "DIR",
     .must_exist = true,
     .help = "treat DIR as the target's filesystem root (an extracted image, a Windows drive: "
             "C:\\ is DIR)",
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
                  "the report's form: a text tree, json (docs/schema.md), markdown or dot "
                  "(graphviz)"),
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

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && strcasecmp(s + n - m, tail) == 0;
}

/* The platform whose loader applies: the first file's format decides. */
static enum td_platform pick_platform(const char *opt, const struct td_object *o)
{
    if (opt && strcmp(opt, "windows") == 0)
        return TD_PLATFORM_WINDOWS;
    if (opt && strcmp(opt, "macos") == 0)
        return TD_PLATFORM_MACOS;
    if (opt && strcmp(opt, "linux") == 0)
        return TD_PLATFORM_LINUX;
    if (o->kind == TD_FILE_PE)
        return TD_PLATFORM_WINDOWS;
    if (o->kind == TD_FILE_MACHO || o->kind == TD_FILE_MACHO_FAT)
        return TD_PLATFORM_MACOS;
    return TD_PLATFORM_LINUX;
}

/* The default profile from the file and its surroundings (DESIGN.md). */
static enum td_profile pick_profile(const char *opt, const struct td_object *o, const char *file)
{
    char torch[4096];
    if ((!opt || strcmp(opt, "auto") == 0) && td_torch_dir_of(file, torch, sizeof torch))
        return TD_PROFILE_TORCH_IMPORT;
    static const char *const names[] = {"auto", "exe", "dlopen", "python-extension",
                                        "torch-import"};
    for (int i = 1; opt && i < 5; i++)
        if (strcmp(opt, names[i]) == 0)
            return (enum td_profile)i;
    const char *n = o->name;
    if (strstr(n, ".cpython-") || strstr(n, ".abi3.") || ends_with(n, ".pyd"))
        return TD_PROFILE_PYTHON_EXTENSION;
    if (o->kind == TD_FILE_ELF &&
        (o->u.elf.interp || o->u.elf.type == TD_ET_EXEC || (o->u.elf.dyn.flags_1 & TD_DF_1_PIE)))
        return TD_PROFILE_EXE; /* static-pie programs have DF_1_PIE but no interpreter */
    if (o->kind == TD_FILE_PE && !td_pe_is_dll(&o->u.pe))
        return TD_PROFILE_EXE;
    if ((o->kind == TD_FILE_MACHO || o->kind == TD_FILE_MACHO_FAT) &&
        o->u.macho.filetype == TD_MACHO_EXECUTE)
        return TD_PROFILE_EXE;
    return TD_PROFILE_DLOPEN;
}

/* For a CPython extension "x.cpython-311-x86_64-linux-gnu.so", the
 * interpreter it was built for: python3.11 under the target root. */
static const char *guess_python(const struct td_loader_config *cfg, const char *name, char *out,
                                size_t cap)
{
    const char *tag = strstr(name, ".cpython-3");
    if (!tag)
        return NULL;
    int minor = atoi(tag + 10);
    static const char *const dirs[] = {"/usr/bin", "/usr/local/bin"};
    for (size_t i = 0; i < 2; i++) {
        char target[256];
        snprintf(target, sizeof target, "%s/python3.%d", dirs[i], minor);
        if (td_host_path(cfg, target, out, cap) && access(out, R_OK) == 0)
            return out;
    }
    return NULL;
}

/* Without --root, the target is this machine: its environment applies,
 * then --env entries override. */
static void collect_env(const struct td_deps_request *a, struct td_env_var *all, size_t *n,
                        size_t cap)
{
    static const char *const names[] = {"LD_LIBRARY_PATH", "LD_PRELOAD", "PATH",
                                        "DYLD_LIBRARY_PATH", "DYLD_FALLBACK_LIBRARY_PATH"};
    *n = 0;
    for (size_t i = 0; !a->root && i < sizeof names / sizeof names[0]; i++) {
        const char *v = getenv(names[i]);
        /* PATH of this Linux shell means nothing to a Windows target. */
        if (v && *n < cap)
            all[(*n)++] = (struct td_env_var){names[i], v};
    }
    for (size_t i = 0; i < a->n_env && *n < cap; i++)
        all[(*n)++] = a->env[i];
}

static bool listed(const char *const *list, size_t n, const char *path)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(list[i], path) == 0)
            return true;
    return false;
}

int td_deps_build(const struct td_deps_request *a, struct td_graph *g, struct td_arena *plan_arena,
                  struct td_err *err)
{
    struct td_object *first = td_object_open(a->files[0], NULL, NULL, err);
    if (!first)
        return -1;
    struct td_env_var env[MAX_LIST * 2];
    size_t n_env;
    collect_env(a, env, &n_env, MAX_LIST * 2);
    struct td_loader_config cfg = {
        .platform = pick_platform(a->platform, first),
        .profile = pick_profile(a->profile, first, a->files[0]),
        .root = a->root,
        .search_dirs = a->search_dirs,
        .n_search_dirs = a->n_search_dirs,
        .env = env,
        .n_env = n_env,
        .x86_level = a->cpu_level,
    };
    /* On Windows without --root the target is this system: its own schema. */
    if (cfg.platform == TD_PLATFORM_WINDOWS && !cfg.root)
        cfg.live_apisets = td_probe_live_apisets();
    if (cfg.platform == TD_PLATFORM_WINDOWS && cfg.profile == TD_PROFILE_PYTHON_EXTENSION)
        cfg.load_flags = 0x1100; /* CPython dynload_win.c: DEFAULT_DIRS | DLL_LOAD_DIR */
    char python[4096];
    const char *interp = a->python;
    const char *roots[MAX_LIST * 4];
    size_t n_roots = 0;
    if (cfg.profile == TD_PROFILE_TORCH_IMPORT)
        n_roots = td_torch_import_roots(&cfg, a->files[0], roots, MAX_LIST * 4, plan_arena);
    for (size_t i = 0; i < a->n_files && n_roots < MAX_LIST * 4; i++)
        if (!listed(roots, n_roots, a->files[i]))
            roots[n_roots++] = a->files[i];
    if (!interp && cfg.platform == TD_PLATFORM_LINUX &&
        (cfg.profile == TD_PROFILE_PYTHON_EXTENSION || cfg.profile == TD_PROFILE_TORCH_IMPORT)) {
        for (size_t i = 0; i < n_roots && !interp; i++) {
            const char *base = strrchr(roots[i], '/');
            interp = guess_python(&cfg, base ? base + 1 : roots[i], python, sizeof python);
        }
    }
    td_object_free(first);

    struct td_graph_options opts = {
        .bind_symbols = !a->no_symbols, .headers_only = a->no_symbols, .interpreter = interp};
    if (cfg.profile != TD_PROFILE_TORCH_IMPORT)
        return td_graph_build(g, &cfg, &opts, roots, n_roots, err);
    /* sys.path as far as it matters to torch's CUDA fallback: the site dir
     * holding torch (where pip puts the nvidia-* wheels too). */
    char site[4096];
    const char *sys_path[1] = {site};
    bool have_site = td_torch_dir_of(a->files[0], site, sizeof site) && td_host_last_sep(site);
    if (have_site)
        *td_host_last_sep(site) = '\0';
    return td_torch_import_build(g, &cfg, &opts, a->files[0], a->files, a->n_files, sys_path,
                                 have_site, plan_arena, err);
}

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
    struct td_deps_request req = request_of(&a);
    if (td_deps_build(&req, &g, &plan_arena, &err) != 0) {
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
