/* torchdoctor deps FILE...: what the platform's loader would do with each
 * dependency, file by file, without running anything. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dirent.h>

#include "base/compat.h"
#include "cmd/cmd.h"
#include "cmd/deps_graph.h"
#include "graph/graph.h"
#include "loader/windows.h"
#include "probe/apiset.h"
#include "report/deps.h"

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

static struct td_deps_request request_of(const struct deps_args *a)
{
    return (struct td_deps_request){
        .files = a->files,
        .n_files = a->n_files,
        .search_dirs = a->search_dirs,
        .n_search_dirs = a->n_search_dirs,
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
    if (!opt && td_torch_dir_of(file, torch, sizeof torch))
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
