/* The parts every loader model shares: probes, names, the target's
 * environment and the mapping of target paths under --root. Below the
 * models (linux.c, windows.c, macos.c); choosing one is select.c's. */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "loader/loader.h"

struct td_probe *td_probe_add(struct td_loader *L, struct td_resolution *out, const char *path,
                              enum td_rule rule, const char *origin, enum td_verdict verdict,
                              const char *detail)
{
    /* Probes grow by doubling inside the arena; the old array stays there.
     * Most resolutions have one probe (already loaded, or the cache's
     * answer): room for eight each was 340 KB of fresh pages for torch's
     * 1,250 resolutions. */
    size_t n = out->n_probes;
    if ((n & (n - 1)) == 0) {
        size_t cap = n ? n * 2 : 1;
        struct td_probe *grown = td_arena_array(&L->arena, cap, sizeof *grown);
        if (!grown)
            return NULL;
        if (n)
            memcpy(grown, out->probes, n * sizeof *grown);
        out->probes = grown;
    }
    struct td_probe *p = &out->probes[out->n_probes++];
    p->path = path ? td_arena_strdup(&L->arena, path) : NULL;
    p->rule = rule;
    p->origin = origin;
    p->verdict = verdict;
    p->detail = detail ? td_arena_strdup(&L->arena, detail) : NULL;
    return p;
}

const char *td_rule_name(enum td_rule rule)
{
    static const char *const names[TD_RULE_COUNT] = {
        [TD_RULE_ROOT] = "command line",
        [TD_RULE_PATH_IN_NAME] = "path in the name",
        [TD_RULE_ALREADY_LOADED] = "already loaded",
        [TD_RULE_PRELOAD] = "preloaded",
        [TD_RULE_SEARCH_DIR] = "--search-dir",
        [TD_RULE_RPATH] = "rpath",
        [TD_RULE_LD_LIBRARY_PATH] = "LD_LIBRARY_PATH",
        [TD_RULE_RUNPATH] = "runpath",
        [TD_RULE_LD_CACHE] = "ld.so.cache",
        [TD_RULE_DEFAULT_DIR] = "default path",
        [TD_RULE_API_SET] = "API set",
        [TD_RULE_KNOWN_DLL] = "KnownDLLs",
        [TD_RULE_DLL_LOAD_DIR] = "DLL load dir",
        [TD_RULE_APP_DIR] = "application dir",
        [TD_RULE_USER_DIR] = "add_dll_directory",
        [TD_RULE_SYSTEM32] = "System32",
        [TD_RULE_SYSTEM16] = "16-bit system dir",
        [TD_RULE_WINDOWS_DIR] = "Windows dir",
        [TD_RULE_CURRENT_DIR] = "current dir",
        [TD_RULE_PATH_ENV] = "PATH",
        [TD_RULE_LC_RPATH] = "LC_RPATH",
        [TD_RULE_LOADER_PATH] = "@loader_path",
        [TD_RULE_TORCH_SYS_PATH] = "sys.path (torch _preload_cuda_deps)",
        [TD_RULE_EXECUTABLE_PATH] = "@executable_path",
        [TD_RULE_DYLD_LIBRARY_PATH] = "DYLD_LIBRARY_PATH",
        [TD_RULE_DYLD_FALLBACK] = "DYLD_FALLBACK_LIBRARY_PATH",
        [TD_RULE_INSTALL_NAME] = "install name",
    };
    return rule < TD_RULE_COUNT && names[rule] ? names[rule] : "unknown rule";
}

const char *td_verdict_name(enum td_verdict verdict)
{
    switch (verdict) {
    case TD_VERDICT_FOUND:
        return "found";
    case TD_VERDICT_ABSENT:
        return "absent";
    case TD_VERDICT_WRONG_CLASS:
        return "wrong class";
    case TD_VERDICT_WRONG_MACHINE:
        return "wrong machine";
    case TD_VERDICT_NOT_A_LIBRARY:
        return "not a library";
    case TD_VERDICT_UNREADABLE:
        return "unreadable";
    case TD_VERDICT_SKIPPED:
        return "skipped";
    }
    return "unknown";
}

const char *td_platform_name(enum td_platform platform)
{
    return platform == TD_PLATFORM_WINDOWS ? "windows"
           : platform == TD_PLATFORM_MACOS ? "macos"
                                           : "linux";
}

const char *td_profile_name(enum td_profile profile)
{
    switch (profile) {
    case TD_PROFILE_EXE:
        return "exe";
    case TD_PROFILE_DLOPEN:
        return "dlopen";
    case TD_PROFILE_PYTHON_EXTENSION:
        return "python-extension";
    case TD_PROFILE_TORCH_IMPORT:
        return "torch-import";
    case TD_PROFILE_AUTO:
        break;
    }
    return "auto";
}

const char *td_config_env(const struct td_loader_config *cfg, const char *name)
{
    /* The last --env of a name wins, as a later assignment would. */
    const char *value = NULL;
    for (size_t i = 0; i < cfg->n_env; i++)
        if (strcmp(cfg->env[i].name, name) == 0)
            value = cfg->env[i].value;
    return value;
}

/* Appends COMPONENT to OUT (a host directory), matching an existing entry
 * without regard to case when the exact name is absent (Windows targets). */
static bool append_component(char *out, size_t cap, const char *component, size_t n, bool fold)
{
    size_t len = strlen(out);
    if (len + 1 + n + 1 > cap)
        return false;
    if (len == 0 || out[len - 1] != '/')
        out[len++] = '/';
    memcpy(out + len, component, n);
    out[len + n] = '\0';
    if (!fold)
        return true;
    FILE *exists = fopen(out, "r");
    if (exists) {
        fclose(exists);
        return true;
    }
    out[len] = '\0';
    DIR *d = opendir(len ? out : "/");
    const struct dirent *e;
    bool matched = false;
    while (d && (e = readdir(d)) != NULL) {
        if (strlen(e->d_name) == n && strncasecmp(e->d_name, component, n) == 0) {
            memcpy(out + len, e->d_name, n);
            matched = true;
            break;
        }
    }
    if (d)
        closedir(d);
    if (!matched)
        memcpy(out + len, component, n);
    out[len + n] = '\0';
    return true;
}

/* snprintf(OUT, CAP, "%s", S) without printf's cost (every path the
 * loader tries comes through here): OUT, or NULL when S does not fit. */
static char *copy_path(char *out, size_t cap, const char *s)
{
    size_t n = strlen(s);
    if (cap == 0)
        return NULL;
    size_t k = n < cap ? n : cap - 1;
    memcpy(out, s, k);
    out[k] = '\0';
    return n < cap ? out : NULL;
}

char *td_host_path(const struct td_loader_config *cfg, const char *target_path, char *out,
                   size_t cap)
{
    bool windows = cfg->platform == TD_PLATFORM_WINDOWS;
    const char *root = cfg->root;
    const char *rest = target_path;
#ifdef _WIN32
    /* On Windows itself, a Windows target without --root is this machine,
     * whose paths are host paths; so is a path already under the root. */
    if (windows && (!root || strncasecmp(target_path, root, strlen(root)) == 0))
        return copy_path(out, cap, target_path);
#endif
    /* A host path given as is (under the root, or any absolute host path
     * when there is no root) is already what we want. */
    if (target_path[0] == '/' &&
        (!root || strncmp(target_path, root, strlen(root)) == 0 || !windows)) {
        if (!root || strncmp(target_path, root, strlen(root)) == 0)
            return copy_path(out, cap, target_path);
    }
    /* A relative path on this machine stays relative: ld.so opens it from
     * the process's current directory (an empty or relative LD_LIBRARY_PATH
     * element, a relative FILE argument). */
    if (!root && !windows && target_path[0] != '/')
        return copy_path(out, cap, target_path);
    if (windows && isalpha((unsigned char)rest[0]) && rest[1] == ':')
        rest += 2; /* "C:" : the root stands for the drive */
    if (!copy_path(out, cap, root ? root : ""))
        return NULL;
    while (*rest) {
        while (*rest == '/' || (windows && *rest == '\\'))
            rest++;
        size_t n = strcspn(rest, windows ? "/\\" : "/");
        if (n == 0)
            break;
        if (!append_component(out, cap, rest, n, windows))
            return NULL;
        rest += n;
    }
    if (out[0] == '\0')
        copy_path(out, cap, "/");
    return out;
}
