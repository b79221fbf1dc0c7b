/* The Windows loader model: how an import-table entry, a forwarder target or
 * a LoadLibrary(Ex)W argument becomes a file, rule by rule. Each rule is one
 * short function; the orders are the lists below. Sources: docs/windows-loader.md
 * ([SO] search order, [LLX] LoadLibraryExW, [AS]/[ASL] API sets). */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "base/compat.h"
#include "base/data.h"
#include "loader/loader.h"
#include "loader/windows.h"

#define SEARCH_FLAGS                                                                               \
    (TD_LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR | TD_LOAD_LIBRARY_SEARCH_APPLICATION_DIR |                \
     TD_LOAD_LIBRARY_SEARCH_USER_DIRS | TD_LOAD_LIBRARY_SEARCH_SYSTEM32 |                          \
     TD_LOAD_LIBRARY_SEARCH_DEFAULT_DIRS)

/* Checked before any directory, in this order ([SO] "Factors that affect
 * searching": API sets, loaded-module list, known DLLs). */
static const enum td_rule before_search[] = {TD_RULE_API_SET, TD_RULE_ALREADY_LOADED,
                                             TD_RULE_KNOWN_DLL};
/* [SO] "Standard search order for unpackaged apps", SafeDllSearchMode on. */
static const enum td_rule standard_order[] = {
    TD_RULE_APP_DIR,     TD_RULE_SYSTEM32, TD_RULE_SYSTEM16,  TD_RULE_WINDOWS_DIR,
    TD_RULE_CURRENT_DIR, TD_RULE_PATH_ENV, TD_RULE_SEARCH_DIR};
/* [SO]: with SafeDllSearchMode 0 "the current directory moves from position 5 to position 2". */
static const enum td_rule unsafe_order[] = {
    TD_RULE_APP_DIR,     TD_RULE_CURRENT_DIR, TD_RULE_SYSTEM32,  TD_RULE_SYSTEM16,
    TD_RULE_WINDOWS_DIR, TD_RULE_PATH_ENV,    TD_RULE_SEARCH_DIR};
/* [SO] "Search order using LOAD_LIBRARY_SEARCH flags": each applies only when
 * its flag is set; PATH and the current directory are never searched. */
static const enum td_rule flags_order[] = {TD_RULE_DLL_LOAD_DIR, TD_RULE_APP_DIR, TD_RULE_USER_DIR,
                                           TD_RULE_SYSTEM32, TD_RULE_SEARCH_DIR};

struct apiset {
    const char *contract, *host;
};

struct win_state {
    struct apiset *apisets;
    size_t n_apisets;
    const char **known; /* 64-bit \KnownDlls */
    size_t n_known;
};

/* One name being resolved for one requester. */
struct search {
    struct td_loader *L;
    const struct td_loader_config *cfg;
    struct win_state *st;
    struct td_object *requester;
    struct td_object *root; /* whose LoadLibrary call (or process start) this is */
    const struct td_loaded *loaded;
    struct td_resolution *out;
    const char *name;
    uint16_t machine;    /* the process's IMAGE_FILE_MACHINE_*; 0 = unknown */
    uint32_t flags;      /* LoadLibraryExW flags in force */
    bool torch_fallback; /* torch's retry: LoadLibraryW with dll_paths prefixed to PATH */
    bool stop;           /* a file was taken, or the load failed at one */
};

/* ---- paths ---- */

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/'), *bslash = strrchr(path, '\\');
    const char *sep = slash > bslash ? slash : bslash;
    return sep ? sep + 1 : path;
}

static bool is_windows_path(const char *p)
{
    return isalpha((unsigned char)p[0]) && p[1] == ':';
}

/* A host path under --root written as the target sees it ("C:\app\x.dll"). */
static const char *target_form(struct search *s, const char *path)
{
    const char *root = s->cfg->root;
    size_t n = root ? strlen(root) : 0;
    while (n > 1 && TD_HOST_SEP(root[n - 1]))
        n--;
    if (!root || strncmp(path, root, n) != 0 || (!TD_HOST_SEP(path[n]) && path[n] != '\0'))
        return path;
    char *t = td_arena_alloc(&s->L->arena, strlen(path + n) + 4);
    if (!t)
        return path;
    strcpy(t, "C:");
    strcat(t, path[n] ? path + n : "\\");
    for (char *c = t; *c; c++)
        if (*c == '/')
            *c = '\\';
    return t;
}

static const char *dir_of(struct search *s, const char *path)
{
    const char *base = base_name(path);
    size_t n = (size_t)(base - path);
    if (n > 1 && !(n == 3 && path[1] == ':'))
        n--; /* drop the separator, but keep "C:\" and "/" */
    return td_arena_strndup(&s->L->arena, path, n);
}

static const char *join(struct search *s, const char *dir, const char *name)
{
    size_t n = strlen(dir);
    char sep = strchr(dir, '\\') || is_windows_path(dir) ? '\\' : '/';
    bool has_sep = n && (dir[n - 1] == '\\' || dir[n - 1] == '/');
    char *p = td_arena_alloc(&s->L->arena, n + strlen(name) + 2);
    if (p)
        sprintf(p, "%s%s%s", dir, has_sep ? "" : (char[]){sep, 0}, name);
    return p;
}

/* Makes HOST name an existing file, matching the last component without
 * regard to case as NTFS does; false when there is no such file. */
static bool find_file(char *host)
{
    struct stat st;
#ifdef _WIN32
    /* This host matches names as NTFS does; only the spelling is learnt. */
    return td_host_spelling(host) && stat(host, &st) == 0 && S_ISREG(st.st_mode);
#endif
    if (stat(host, &st) == 0)
        return S_ISREG(st.st_mode);
    char *slash = strrchr(host, '/');
    if (!slash)
        return false;
    *slash = '\0';
    DIR *d = opendir(host[0] ? host : "/");
    *slash = '/';
    const struct dirent *e;
    bool found = false;
    while (d && !found && (e = readdir(d)) != NULL) {
        if (strcasecmp(e->d_name, slash + 1) == 0) {
            strcpy(slash + 1, e->d_name);
            found = stat(host, &st) == 0 && S_ISREG(st.st_mode);
        }
    }
    if (d)
        closedir(d);
    return found;
}

/* ---- candidates ---- */

static bool has_mz(const char *host)
{
    char magic[2] = {0};
    FILE *f = fopen(host, "rb");
    bool mz = f && fread(magic, 1, 2, f) == 2 && magic[0] == 'M' && magic[1] == 'Z';
    if (f)
        fclose(f);
    return mz;
}

/* The process's machine: the configured one (python.exe's), else the
 * program's (the first root), else ROOT's. */
static uint16_t process_machine(const struct td_loader *L, const struct td_object *root)
{
    const struct td_object *exe = L->main ? L->main : root;
    if (L->cfg->process_machine)
        return L->cfg->process_machine;
    return exe && exe->kind == TD_FILE_PE ? exe->u.pe.machine : 0;
}

static const char *machine_detail(struct search *s, const struct td_pe *pe)
{
    char buf[96];
    const struct td_pe_machine_info *want = td_pe_machine_info(s->machine);
    snprintf(buf, sizeof buf, "%s %s, the process is %s: error 193 (ERROR_BAD_EXE_FORMAT)",
             pe->pe32plus ? "PE32+" : "PE32", td_pe_arch_slug(pe), want ? want->slug : "?");
    return td_arena_strdup(&s->L->arena, buf);
}

/* TARGET with its last component spelled as on disk (HOST's). */
static const char *on_disk_name(struct search *s, const char *target, const char *host)
{
    const char *disk = base_name(host), *want = base_name(target);
    if (strcmp(disk, want) == 0)
        return target;
    char *t = td_arena_alloc(&s->L->arena, (size_t)(want - target) + strlen(disk) + 1);
    if (!t)
        return target;
    memcpy(t, target, (size_t)(want - target));
    strcpy(t + (want - target), disk);
    return t;
}

/* Tries TARGET (a target path): absent goes on; anything that exists ends
 * the search, because Windows takes the first file of that name and fails
 * the load when it is not a loadable image of the process's machine
 * (pytorch-facts §8.4; unlike glibc, nothing is skipped). */
static void try_file(struct search *s, enum td_rule rule, const char *target, const char *origin,
                     const char *detail)
{
    char host[4096];
    if (!target || !td_host_path(s->cfg, target, host, sizeof host) || !find_file(host)) {
        td_probe_add(s->L, s->out, target, rule, origin, TD_VERDICT_ABSENT, detail);
        return;
    }
    s->stop = true;
    target = on_disk_name(s, target, host);
    struct td_err e = {0};
    struct td_object *o = td_object_open(host, target, NULL, &e);
    if (!o || o->kind != TD_FILE_PE) {
        /* Not an image at all (193), or an MZ file that does not parse. */
        bool image = !o && has_mz(host);
        td_probe_add(s->L, s->out, target, rule, origin,
                     image ? TD_VERDICT_UNREADABLE : TD_VERDICT_NOT_A_LIBRARY,
                     image ? e.msg : "not a PE image: error 193 (ERROR_BAD_EXE_FORMAT)");
        s->out->fatal_wrong_machine = !image;
        td_object_free(o);
        return;
    }
    if (s->machine && o->u.pe.machine != s->machine) {
        td_probe_add(s->L, s->out, target, rule, origin, TD_VERDICT_WRONG_MACHINE,
                     machine_detail(s, &o->u.pe));
        s->out->fatal_wrong_machine = true;
        td_object_free(o);
        return;
    }
    td_probe_add(s->L, s->out, target, rule, origin, TD_VERDICT_FOUND, detail);
    s->out->object = o;
    s->out->newly_opened = true;
    s->out->rule = rule;
    s->out->origin = origin;
}

static void try_dir(struct search *s, enum td_rule rule, const char *dir, const char *origin,
                    const char *detail)
{
    try_file(s, rule, dir ? join(s, dir, s->name) : NULL, origin, detail);
}

static void skipped(struct search *s, enum td_rule rule, const char *why)
{
    td_probe_add(s->L, s->out, NULL, rule, NULL, TD_VERDICT_SKIPPED, why);
}

static bool uses_search_flags(const struct search *s)
{
    return (s->flags & SEARCH_FLAGS) != 0;
}

static const char *system32(struct search *s)
{
    /* File System Redirector: a 32-bit process on 64-bit Windows sees
     * SysWOW64 as System32 ("File System Redirector", Microsoft Docs). */
    if (s->machine == TD_PE_MACHINE_I386) {
        char host[4096];
        struct stat st;
        if (td_host_path(s->cfg, "C:\\Windows\\SysWOW64", host, sizeof host) &&
            stat(host, &st) == 0 && S_ISDIR(st.st_mode))
            return "C:\\Windows\\SysWOW64";
    }
    return "C:\\Windows\\System32";
}

/* ---- the rules ---- */

static const char *apiset_host(const struct win_state *st, const char *name, const char **contract)
{
    /* data/windows_apisets.tsv header: lower-case, drop ".dll", cut at the last '-'. */
    char key[256];
    size_t n = strlen(name);
    if (n >= sizeof key)
        return NULL;
    for (size_t i = 0; i <= n; i++)
        key[i] = (char)tolower((unsigned char)name[i]);
    if (n > 4 && strcmp(key + n - 4, ".dll") == 0)
        key[n - 4] = '\0';
    char *dash = strrchr(key, '-');
    if (!dash)
        return NULL;
    *dash = '\0';
    for (size_t i = 0; i < st->n_apisets; i++) {
        if (strcmp(st->apisets[i].contract, key) == 0) {
            *contract = st->apisets[i].contract;
            return st->apisets[i].host;
        }
    }
    return NULL;
}

static void search_name(struct search *s, const char *name, bool api_sets);

/* [AS]: names starting "api-" or "ext-" are contracts resolved through the
 * schema to a host DLL, which is then resolved like any other name. */
static void rule_api_set(struct search *s)
{
    if (strncasecmp(s->name, "api-", 4) != 0 && strncasecmp(s->name, "ext-", 4) != 0)
        return;
    const char *contract = NULL;
    const char *host = apiset_host(s->st, s->name, &contract);
    char detail[320];
    if (!contract) {
        /* [WL] build_import_name: an unknown contract is an ordinary file name. */
        skipped(s, TD_RULE_API_SET, "not in the API-set schema: searched as a DLL file");
        return;
    }
    if (strcmp(host, "-") == 0) {
        snprintf(detail, sizeof detail, "contract %s has no host DLL", contract);
        td_probe_add(s->L, s->out, s->name, TD_RULE_API_SET, NULL, TD_VERDICT_ABSENT, detail);
        s->stop = true;
        return;
    }
    snprintf(detail, sizeof detail, "contract %s -> %s", contract, host);
    td_probe_add(s->L, s->out, host, TD_RULE_API_SET, NULL, TD_VERDICT_FOUND, detail);
    search_name(s, host, false);
    s->stop = true;
    s->out->api_set_host = host;
    if (s->out->object)
        s->out->rule = TD_RULE_API_SET;
}

/* [SO] "the system resolves to the already-loaded DLL no matter which
 * directory it's in": matched by base name, without regard to case. */
static void rule_already_loaded(struct search *s)
{
    for (size_t i = 0; s->loaded && i < s->loaded->count; i++) {
        struct td_object *o = s->loaded->objects[i];
        if (o->kind == TD_FILE_PE && strcasecmp(base_name(o->path), s->name) == 0) {
            td_probe_add(s->L, s->out, o->path, TD_RULE_ALREADY_LOADED, NULL, TD_VERDICT_FOUND,
                         NULL);
            s->out->object = o;
            s->out->rule = TD_RULE_ALREADY_LOADED;
            s->stop = true;
            return;
        }
    }
}

/* [SO]: a known DLL is always the system's copy, never one elsewhere. */
static void rule_known_dll(struct search *s)
{
    bool known = false;
    for (size_t i = 0; i < s->st->n_known && !known; i++)
        known = strcasecmp(s->st->known[i], s->name) == 0;
    if (!known)
        return;
    if (s->machine != TD_PE_MACHINE_AMD64) {
        /* 32-bit processes use \KnownDlls32 (lucasg/Dependencies#113), not tabled. */
        skipped(s, TD_RULE_KNOWN_DLL, "only the 64-bit KnownDLLs list is known");
        return;
    }
    try_dir(s, TD_RULE_KNOWN_DLL, system32(s), NULL, "KnownDLLs: the System32 copy is used");
    s->stop = true; /* an app copy can never stand in for a known DLL */
}

/* The directory of the DLL the LoadLibraryEx call names, for its
 * dependencies ([LLX] LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR; [SO]
 * LOAD_WITH_ALTERED_SEARCH_PATH with an absolute path). */
static const char *load_dir(struct search *s)
{
    if (!s->requester || !s->root)
        return NULL;
    const char *p = target_form(s, s->root->path);
    return is_windows_path(p) || p[0] == '/' ? dir_of(s, p) : NULL;
}

static void rule_dll_load_dir(struct search *s)
{
    if (!(s->flags & TD_LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR))
        return;
    const char *dir = load_dir(s);
    if (!dir)
        skipped(s, TD_RULE_DLL_LOAD_DIR, "the DLL was not loaded by full path");
    else
        try_dir(s, TD_RULE_DLL_LOAD_DIR, dir, s->root->path, NULL);
}

static const char *app_dir(struct search *s)
{
    if (s->cfg->app_dir)
        return target_form(s, s->cfg->app_dir);
    if (s->cfg->profile == TD_PROFILE_PYTHON_EXTENSION ||
        s->cfg->profile == TD_PROFILE_TORCH_IMPORT)
        return NULL; /* python.exe's directory, which only the caller knows */
    struct td_object *exe = s->L->main ? s->L->main : s->root;
    return exe ? dir_of(s, target_form(s, exe->path)) : NULL;
}

static void rule_app_dir(struct search *s)
{
    if (uses_search_flags(s) && !(s->flags & (TD_LOAD_LIBRARY_SEARCH_APPLICATION_DIR |
                                              TD_LOAD_LIBRARY_SEARCH_DEFAULT_DIRS)))
        return;
    if (!uses_search_flags(s) && (s->flags & TD_LOAD_WITH_ALTERED_SEARCH_PATH) && load_dir(s)) {
        try_dir(s, TD_RULE_DLL_LOAD_DIR, load_dir(s), s->root->path,
                "LOAD_WITH_ALTERED_SEARCH_PATH: replaces the application directory");
        return;
    }
    const char *dir = app_dir(s);
    if (!dir)
        skipped(s, TD_RULE_APP_DIR, "the application (python.exe) directory is not known");
    else
        try_dir(s, TD_RULE_APP_DIR, dir, NULL, NULL);
}

static void rule_user_dirs(struct search *s)
{
    if (!(s->flags & (TD_LOAD_LIBRARY_SEARCH_USER_DIRS | TD_LOAD_LIBRARY_SEARCH_DEFAULT_DIRS)))
        return;
    /* [SO]: with several, "the order in which the paths are searched is
     * unspecified"; the model uses the order of the calls. */
    const char *why = s->cfg->n_dll_dirs > 1 ? "order among AddDllDirectory dirs is unspecified "
                                               "by Microsoft: call order assumed"
                                             : NULL;
    for (size_t i = 0; i < s->cfg->n_dll_dirs && !s->stop; i++)
        try_dir(s, TD_RULE_USER_DIR, target_form(s, s->cfg->dll_dirs[i]), NULL, why);
}

static void rule_system32(struct search *s)
{
    if (uses_search_flags(s) &&
        !(s->flags & (TD_LOAD_LIBRARY_SEARCH_SYSTEM32 | TD_LOAD_LIBRARY_SEARCH_DEFAULT_DIRS)))
        return;
    try_dir(s, TD_RULE_SYSTEM32, system32(s), NULL, NULL);
}

static void rule_system16(struct search *s)
{
    try_dir(s, TD_RULE_SYSTEM16, "C:\\Windows\\System", NULL, NULL);
}

static void rule_windows_dir(struct search *s)
{
    try_dir(s, TD_RULE_WINDOWS_DIR, "C:\\Windows", NULL, NULL);
}

static void rule_current_dir(struct search *s)
{
    if (s->cfg->cwd)
        try_dir(s, TD_RULE_CURRENT_DIR, target_form(s, s->cfg->cwd), NULL, NULL);
}

static void path_entries(struct search *s, const char *list, const char *detail)
{
    while (list && *list && !s->stop) {
        size_t n = strcspn(list, ";");
        if (n) {
            const char *dir = td_arena_strndup(&s->L->arena, list, n);
            try_dir(s, TD_RULE_PATH_ENV, dir ? target_form(s, dir) : NULL, NULL, detail);
        }
        list += n + (list[n] == ';');
    }
}

static void rule_path_env(struct search *s)
{
    /* torch/__init__.py: os.environ["PATH"] = ";".join(dll_paths + [PATH]) (pytorch-facts §3.1). */
    for (size_t i = 0; s->torch_fallback && i < s->cfg->n_dll_dirs && !s->stop; i++)
        try_dir(s, TD_RULE_PATH_ENV, target_form(s, s->cfg->dll_dirs[i]), NULL,
                "prefixed to PATH by torch after error 126");
    path_entries(s, td_config_env(s->cfg, "PATH"), NULL);
}

static void rule_search_dir(struct search *s)
{
    for (size_t i = 0; i < s->cfg->n_search_dirs && !s->stop; i++)
        try_dir(s, TD_RULE_SEARCH_DIR, target_form(s, s->cfg->search_dirs[i]), NULL,
                "--search-dir: not a place Windows searches");
}

static void run_rule(struct search *s, enum td_rule rule)
{
    switch (rule) {
    case TD_RULE_API_SET:
        rule_api_set(s);
        break;
    case TD_RULE_ALREADY_LOADED:
        rule_already_loaded(s);
        break;
    case TD_RULE_KNOWN_DLL:
        rule_known_dll(s);
        break;
    case TD_RULE_DLL_LOAD_DIR:
        rule_dll_load_dir(s);
        break;
    case TD_RULE_APP_DIR:
        rule_app_dir(s);
        break;
    case TD_RULE_USER_DIR:
        rule_user_dirs(s);
        break;
    case TD_RULE_SYSTEM32:
        rule_system32(s);
        break;
    case TD_RULE_SYSTEM16:
        rule_system16(s);
        break;
    case TD_RULE_WINDOWS_DIR:
        rule_windows_dir(s);
        break;
    case TD_RULE_CURRENT_DIR:
        rule_current_dir(s);
        break;
    case TD_RULE_PATH_ENV:
        rule_path_env(s);
        break;
    case TD_RULE_SEARCH_DIR:
        rule_search_dir(s);
        break;
    default:
        break;
    }
}

static void run_order(struct search *s, const enum td_rule *order, size_t n)
{
    for (size_t i = 0; i < n && !s->stop; i++)
        run_rule(s, order[i]);
}

static void search_name(struct search *s, const char *name, bool api_sets)
{
    const char *saved = s->name;
    s->name = name;
    run_order(s, before_search + !api_sets,
              sizeof before_search / sizeof before_search[0] - !api_sets);
    if (uses_search_flags(s))
        run_order(s, flags_order, sizeof flags_order / sizeof flags_order[0]);
    else if (s->cfg->unsafe_dll_search)
        run_order(s, unsafe_order, sizeof unsafe_order / sizeof unsafe_order[0]);
    else
        run_order(s, standard_order, sizeof standard_order / sizeof standard_order[0]);
    s->name = saved;
}

/* ---- set-up ---- */

/* The LoadLibraryExW flags in force for the chosen profile. */
static uint32_t profile_flags(const struct td_loader_config *cfg, const struct td_object *root)
{
    switch (cfg->profile) {
    case TD_PROFILE_EXE:
        return 0; /* implicit links of a started program: the standard order */
    case TD_PROFILE_PYTHON_EXTENSION:
    case TD_PROFILE_TORCH_IMPORT:
        /* dynload_win.c and torch/__init__.py: LoadLibraryExW(path, NULL, 0x1100). */
        return TD_LOAD_LIBRARY_SEARCH_DEFAULT_DIRS | TD_LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR;
    case TD_PROFILE_AUTO:
        if (root && root->kind == TD_FILE_PE && !td_pe_is_dll(&root->u.pe))
            return 0;
        return cfg->load_flags;
    case TD_PROFILE_DLOPEN:
        break;
    }
    return cfg->load_flags;
}

/* [LLX]: "If the string specifies a module name without a path and the
 * file name extension is omitted, the function appends ... .dll"; a
 * trailing '.' means "no extension". */
static const char *module_name(struct td_loader *L, const char *name)
{
    size_t n = strlen(name);
    if (n && name[n - 1] == '.')
        return td_arena_strndup(&L->arena, name, n - 1);
    if (strchr(name, '.'))
        return name;
    char *p = td_arena_alloc(&L->arena, n + 5);
    if (p)
        sprintf(p, "%s.dll", name);
    return p;
}

static int resolve(struct td_loader *L, struct td_object *requester, const char *name, bool delay,
                   const struct td_loaded *loaded, struct td_resolution *out, struct td_err *err)
{
    /* A delay-load import is searched the same way when first called ([ASL]). */
    (void)delay;
    memset(out, 0, sizeof *out);
    struct search s = {.L = L,
                       .cfg = L->cfg,
                       .st = L->state,
                       .requester = requester,
                       .loaded = loaded,
                       .out = out};
    s.root = requester;
    while (s.root && s.root->loader)
        s.root = s.root->loader;
    s.machine = process_machine(L, s.root);
    s.flags = profile_flags(L->cfg, s.root);
    name = module_name(L, name);
    if (!name) {
        td_err_set(err, "out of memory");
        return -1;
    }
    if (strchr(name, '\\') || strchr(name, '/')) {
        s.name = name; /* a path: used as is, nothing is searched */
        try_file(&s, TD_RULE_PATH_IN_NAME, name, NULL, NULL);
        return 0;
    }
    search_name(&s, name, true);
    if (!out->object && !s.stop && L->cfg->profile == TD_PROFILE_TORCH_IMPORT) {
        /* torch/__init__.py: on error 126 only, LoadLibraryW with PATH =
         * dll_paths;PATH, i.e. the standard order (pytorch-facts §3.1). */
        s.flags = 0;
        s.torch_fallback = true;
        search_name(&s, name, true);
    }
    return 0;
}

/* The live schema, when the cmd layer read it: its hosts are the ones this
 * very system's loader uses, so they replace the table's, rows and all. */
static int live_apisets(struct td_loader *L, struct win_state *st, struct td_err *err)
{
    const struct td_apiset_map *m = L->cfg->live_apisets;
    st->apisets = td_arena_array(&L->arena, m->count ? m->count : 1, sizeof *st->apisets);
    if (!st->apisets) {
        td_err_set(err, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < m->count; i++)
        st->apisets[i] = (struct apiset){m->contracts[i].contract, m->contracts[i].host};
    st->n_apisets = m->count;
    return 0;
}

static int read_apisets(struct td_loader *L, struct win_state *st, struct td_err *err)
{
    if (L->cfg->live_apisets)
        return live_apisets(L, st, err);
    size_t len;
    const char *text = td_data_table("windows_apisets", &len);
    struct td_tsv t;
    char line[4096];
    const char *cells[8];
    td_tsv_open(&t, text, len);
    int n = td_tsv_next(&t, line, sizeof line, cells, 8);
    int c_contract = td_tsv_column(cells, n, "contract"), c_host = td_tsv_column(cells, n, "host");
    int c_win = td_tsv_column(cells, n, "windows_host");
    if (!text || c_contract < 0 || c_host < 0 || c_win < 0) {
        td_err_set(err, "data/windows_apisets.tsv: missing or without its columns");
        return -1;
    }
    size_t cap = 1024;
    st->apisets = td_arena_array(&L->arena, cap, sizeof *st->apisets);
    while ((n = td_tsv_next(&t, line, sizeof line, cells, 8)) > c_win && st->apisets) {
        if (st->n_apisets == cap)
            break;
        /* The host Windows is known to use wins; else the schema's (the table's note). */
        const char *host = strcmp(cells[c_win], "-") != 0 ? cells[c_win] : cells[c_host];
        st->apisets[st->n_apisets].contract = td_arena_strdup(&L->arena, cells[c_contract]);
        st->apisets[st->n_apisets++].host = td_arena_strdup(&L->arena, host);
    }
    return st->apisets ? 0 : (td_err_set(err, "out of memory"), -1);
}

static int read_known(struct td_loader *L, struct win_state *st, struct td_err *err)
{
    size_t len;
    const char *text = td_data_table("windows_knowndlls", &len);
    struct td_tsv t;
    char line[4096];
    const char *cells[8];
    td_tsv_open(&t, text, len);
    int n = td_tsv_next(&t, line, sizeof line, cells, 8);
    int c_dll = td_tsv_column(cells, n, "dll");
    if (!text || c_dll < 0) {
        td_err_set(err, "data/windows_knowndlls.tsv: missing or without its dll column");
        return -1;
    }
    size_t cap = 256;
    st->known = td_arena_array(&L->arena, cap, sizeof *st->known);
    while ((n = td_tsv_next(&t, line, sizeof line, cells, 8)) > c_dll && st->known &&
           st->n_known < cap)
        st->known[st->n_known++] = td_arena_strdup(&L->arena, cells[c_dll]);
    return st->known ? 0 : (td_err_set(err, "out of memory"), -1);
}

static int init(struct td_loader *L, struct td_err *err)
{
    struct win_state *st = td_arena_alloc(&L->arena, sizeof *st);
    if (!st) {
        td_err_set(err, "out of memory");
        return -1;
    }
    L->state = st;
    return read_apisets(L, st, err) == 0 && read_known(L, st, err) == 0 ? 0 : -1;
}

/* torch's _load_dll_libraries stops at a DLL of another machine: WinError
 * 193 (ERROR_BAD_EXE_FORMAT), before any of its imports is looked at. */
static bool refuses_root(const struct td_loader *L, const struct td_object *o, char *why,
                         size_t cap)
{
    uint16_t want = L->cfg->process_machine;
    if (!want || o->kind != TD_FILE_PE || o->u.pe.machine == want)
        return false;
    const struct td_pe_machine_info *info = td_pe_machine_info(want);
    snprintf(why, cap, "%s %s, the process is %s: error 193 (ERROR_BAD_EXE_FORMAT)",
             o->u.pe.pe32plus ? "PE32+" : "PE32", td_pe_arch_slug(&o->u.pe),
             info ? info->slug : "?");
    return true;
}

/* The loader cannot see packages: probe/install/provider.c replaces this with the
 * wheel or Windows runtime that provides NAME whenever it knows one. */
static void fix_missing(const char *name, char *out, size_t cap)
{
    snprintf(out, cap,
             "install what provides %s from its vendor (never a DLL-download site), then put "
             "it next to the DLL that needs it or add its folder with os.add_dll_directory()",
             name);
}

const struct td_loader_ops td_loader_windows = {.name = "windows",
                                                .init = init,
                                                .resolve = resolve,
                                                .refuses_root = refuses_root,
                                                .fix_missing = fix_missing};
