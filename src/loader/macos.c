/* The macOS loader model: how dyld (dyld4, macOS 12 and later) turns an
 * install name from LC_LOAD_DYLIB and its kin into a file, rule by rule,
 * with every place tried recorded as a probe. docs/macos-loader.md has the
 * rules with their sources; short names used in the comments below:
 *   [dyld.1]  dyld(1), apple-oss-distributions/dyld:doc/man/man1/dyld.1
 *   [Loader]  dyld4 Loader.cpp (getLoader, forEachPath, forEachResolvedAtPathVar)
 *   [Config]  dyld4 DyldProcessConfig.cpp (PathOverrides::forEachPathVariant,
 *             forEachDylibFallback) */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "base/map.h"
#include "loader/loader.h"

/* Built-in directories of dyld. [Config] forEachDylibFallback: macOS
 * "classic" mode tries /usr/local/lib then /usr/lib ("$HOME/lib" is
 * commented out since dyld4); [dyld.1] DYLD_FALLBACK_LIBRARY_PATH: "a
 * default fallback search path of: /usr/local/lib:/usr/lib". */
static const char *const default_fallback_dirs[] = {"/usr/local/lib", "/usr/lib"};

/* Install names that macOS 11+ serves from the dyld shared cache, with no
 * file on disk (macOS Big Sur 11.0.1 Release Notes, 62986286: "copies of
 * dynamic libraries are no longer present on the filesystem"). */
static const char *const shared_cache_prefixes[] = {"/usr/lib/", "/System/Library/"};

#define SHARED_CACHE_DETAIL "system library in the dyld shared cache"
#define MAX_CHAIN 64 /* images whose LC_RPATHs are searched: a bound against cycles */

/* One resolution in progress. */
struct search {
    struct td_loader *L;
    struct td_object *requester;
    const char *name; /* the install name as the load command wrote it */
    const struct td_loaded *loaded;
    struct td_resolution *out;
    struct td_err *err;
    bool done;     /* found, or settled as a shared-cache library: later rules are not tried */
    bool failed;   /* out of memory: the model cannot go on */
    bool in_cache; /* settled as a library of the dyld shared cache */
};

static bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static const char *leaf_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static bool is_macho(const struct td_object *o)
{
    return o && (o->kind == TD_FILE_MACHO || o->kind == TD_FILE_MACHO_FAT);
}

static void probe(struct search *s, const char *path, enum td_rule rule, const char *origin,
                  enum td_verdict verdict, const char *detail)
{
    if (!td_probe_add(s->L, s->out, path, rule, origin, verdict, detail)) {
        td_err_set(s->err, "out of memory recording a probe");
        s->failed = true;
        s->done = true;
    }
}

static void take(struct search *s, struct td_object *o, bool newly_opened, enum td_rule rule,
                 const char *origin)
{
    s->out->object = o;
    s->out->newly_opened = newly_opened;
    s->out->rule = rule;
    s->out->origin = origin;
    s->done = true;
}

/* DIR (the directory part of PATH, "." when it has none) + REST into OUT. */
static bool join_dir_of(char *out, size_t cap, const char *path, const char *rest)
{
    const char *slash = strrchr(path, '/');
    int n = slash ? snprintf(out, cap, "%.*s%s", (int)(slash - path), path, rest)
                  : snprintf(out, cap, ".%s", rest);
    return n >= 0 && (size_t)n < cap;
}

/* [Loader] concatenatePaths: no double slash where a directory ending in
 * '/' meets a tail starting with one. */
static bool concat_path(char *out, size_t cap, const char *dir, const char *tail)
{
    size_t len = strlen(dir);
    if (len && dir[len - 1] == '/' && tail[0] == '/')
        tail++;
    int n = snprintf(out, cap, "%s%s", dir, tail);
    return n >= 0 && (size_t)n < cap;
}

/* ---- one candidate file ---- */

static struct td_object *loaded_by_path(const struct search *s, const char *path, uint64_t dev,
                                        uint64_t ino)
{
    for (size_t i = 0; i < s->loaded->count; i++) {
        struct td_object *o = s->loaded->objects[i];
        if (strcmp(o->path, path) == 0 || (ino && o->ino == ino && o->dev == dev))
            return o;
    }
    return NULL;
}

static bool in_shared_cache_prefix(const char *path)
{
    for (size_t i = 0; i < sizeof shared_cache_prefixes / sizeof *shared_cache_prefixes; i++)
        if (starts_with(path, shared_cache_prefixes[i]))
            return true;
    return false;
}

/* The slices a process of the requester's architecture loads, best first
 * (dyld mach_o::GradedArchitectures: load_arm64 = {arm64},
 * load_arm64e_keysOff = {arm64e, arm64}, load_mac = {x86_64},
 * load_macHaswell = {x86_64h, x86_64}, load_watchSeries4 = {arm64_32}).
 * Part of dyld's algorithm, so code; an architecture not listed here loads
 * only slices of its own CPU type. */
static const struct {
    const char *process;
    const char *loads[3];
} graded_archs[] = {
    {"arm64", {"arm64"}},       {"arm64e", {"arm64e", "arm64"}},
    {"x86_64", {"x86_64"}},     {"x86_64h", {"x86_64h", "x86_64"}},
    {"arm64_32", {"arm64_32"}},
};

static const char *const *loadable_archs(const struct td_object *r)
{
    for (size_t i = 0; is_macho(r) && i < sizeof graded_archs / sizeof *graded_archs; i++)
        if (strcmp(graded_archs[i].process, r->arch) == 0)
            return graded_archs[i].loads;
    return NULL;
}

/* Whether the requester's process loads an image of ARCH (a slug) and CPUTYPE. */
static bool loads_arch(const struct td_object *r, const char *arch, uint32_t cputype)
{
    const char *const *archs = loadable_archs(r);
    if (!archs)
        return !is_macho(r) || cputype == r->u.macho.cputype;
    for (size_t i = 0; i < 3 && archs[i]; i++)
        if (arch && strcmp(archs[i], arch) == 0)
            return true;
    return false;
}

/* "'arm64e' or 'arm64'": what the requester needs, as dyld words it. */
static void needed_archs(const struct td_object *r, char *out, size_t cap)
{
    const char *const *archs = loadable_archs(r);
    if (!archs) {
        snprintf(out, cap, "'%s'", r->arch);
        return;
    }
    size_t len = 0;
    out[0] = '\0';
    for (size_t i = 0; i < 3 && archs[i]; i++) {
        int n = snprintf(out + len, cap - len, "%s'%s'", i ? " or " : "", archs[i]);
        if (n < 0 || (size_t)n >= cap - len)
            break;
        len += (size_t)n;
    }
}

/* The architectures of a universal file as "x86_64,arm64" into HAVE, and
 * the best slice for the requester (NULL: none it loads). */
static const char *fat_choice(const struct td_object *o, const struct td_object *r, char *have,
                              size_t cap)
{
    struct td_arena scratch = {0};
    struct td_macho_fat fat;
    struct td_err ignore = {0};
    const char *best = NULL;
    size_t best_grade = SIZE_MAX, len = 0;
    have[0] = '\0';
    const char *const *archs = loadable_archs(r);
    if (td_macho_fat_parse(o->map.data, o->map.size, &scratch, &fat, &ignore) == 0) {
        for (uint32_t i = 0; i < fat.nslices; i++) {
            /* slugs are constant strings: valid after the arena goes */
            const char *slug = td_macho_arch_slug(fat.slices[i].cputype, fat.slices[i].cpusubtype);
            int n = snprintf(have + len, cap - len, "%s%s", i ? "," : "", slug ? slug : "unknown");
            if (n >= 0 && (size_t)n < cap - len)
                len += (size_t)n;
            for (size_t g = 0; slug && archs && g < 3 && archs[g]; g++)
                if (strcmp(archs[g], slug) == 0 && g < best_grade) {
                    best = slug;
                    best_grade = g;
                }
            if (slug && !archs && !best && loads_arch(r, slug, fat.slices[i].cputype))
                best = slug;
        }
    }
    td_arena_free(&scratch);
    return best;
}

/* Why dyld would refuse O for the requester, into WHY; false when it takes it. */
static bool incompatible(const struct search *s, const struct td_object *o,
                         enum td_verdict *verdict, char *why, size_t cap)
{
    const struct td_object *r = s->requester;
    if (!is_macho(o)) {
        *verdict = TD_VERDICT_NOT_A_LIBRARY;
        snprintf(why, cap, "not a mach-o file (%s)", td_file_kind_name(o->kind));
        return true;
    }
    if (!loads_arch(r, o->arch, o->u.macho.cputype)) {
        /* The wording of dyld's MachOFile::compatibleSlice / Universal::bestSlice. */
        char need[128], have[256];
        needed_archs(r, need, sizeof need);
        *verdict = TD_VERDICT_WRONG_MACHINE;
        if (o->kind == TD_FILE_MACHO_FAT) {
            fat_choice(o, r, have, sizeof have);
            snprintf(why, cap, "fat file, but missing compatible architecture (have '%s', need %s)",
                     have, need);
        } else {
            snprintf(why, cap,
                     "mach-o file, but is an incompatible architecture (have '%s', need %s)",
                     o->arch, need);
        }
        return true;
    }
    if (is_macho(r) && r->u.macho.platform && o->u.macho.platform &&
        r->u.macho.platform != o->u.macho.platform) {
        const char *have = td_macho_platform_name(o->u.macho.platform);
        const char *need = td_macho_platform_name(r->u.macho.platform);
        *verdict = TD_VERDICT_WRONG_MACHINE;
        snprintf(why, cap, "mach-o file, but incompatible platform (have '%s', need '%s')",
                 have ? have : "unknown", need ? need : "unknown");
        return true;
    }
    if (o->u.macho.filetype != TD_MACHO_DYLIB) {
        /* A dependency must be an MH_DYLIB (a bundle or program only by dlopen). */
        const char *type = td_macho_filetype_name(o->u.macho.filetype);
        *verdict = TD_VERDICT_NOT_A_LIBRARY;
        snprintf(why, cap, "mach-o file, but is %s, not a dylib",
                 type ? type : "of an unknown type");
        return true;
    }
    return false;
}

/* Opens HOST taking, from a universal file, the best slice the requester's
 * process loads (dyld: Universal::bestSlice over the graded architectures). */
static struct td_object *open_for_requester(const struct search *s, const char *host,
                                            const char *target, struct td_err *err)
{
    const struct td_object *r = s->requester;
    const char *const *archs = loadable_archs(r);
    struct td_object *o = td_object_open(host, target, archs ? archs[0] : NULL, err);
    if (!o || o->kind != TD_FILE_MACHO_FAT)
        return o;
    char have[256];
    const char *best = fat_choice(o, r, have, sizeof have);
    if (!best || strcmp(best, o->arch) == 0)
        return o;
    struct td_object *again = td_object_open(host, target, best, err);
    if (!again)
        return o;
    td_object_free(o);
    return again;
}

/* Tries TARGET (a path on the target system) the way getLoader does for
 * each possible path [Loader]: already loaded by path or inode, then on
 * disk, then loadable for this process. A refused file is recorded and
 * the search goes on. */
static void try_path(struct search *s, const char *target, enum td_rule rule, const char *origin)
{
    if (s->done)
        return;
    struct td_object *already = loaded_by_path(s, target, 0, 0);
    if (already) {
        probe(s, target, rule, origin, TD_VERDICT_FOUND, NULL);
        take(s, already, false, rule, origin);
        return;
    }
    char host[4096];
    if (!td_host_path(s->L->cfg, target, host, sizeof host)) {
        probe(s, target, rule, origin, TD_VERDICT_SKIPPED, "path too long");
        return;
    }
    struct stat st;
    if (stat(host, &st) != 0) {
        if (rule == TD_RULE_INSTALL_NAME && in_shared_cache_prefix(target)) {
            /* macOS 11+: found in the shared cache at its install name; no fallback. */
            probe(s, target, rule, origin, TD_VERDICT_SKIPPED, SHARED_CACHE_DETAIL);
            s->out->rule = rule;
            s->in_cache = true;
            s->done = true;
            return;
        }
        probe(s, target, rule, origin, TD_VERDICT_ABSENT, NULL);
        return;
    }
    if (!S_ISREG(st.st_mode)) {
        probe(s, target, rule, origin, TD_VERDICT_NOT_A_LIBRARY, "not a file");
        return;
    }
    already = loaded_by_path(s, target, (uint64_t)st.st_dev, (uint64_t)st.st_ino);
    if (already) {
        probe(s, target, rule, origin, TD_VERDICT_FOUND, NULL);
        take(s, already, false, rule, origin);
        return;
    }
    struct td_err err = {0};
    struct td_object *o = open_for_requester(s, host, target, &err);
    if (!o) {
        struct td_map m;
        struct td_err ignore = {0};
        enum td_file_kind kind = TD_FILE_UNKNOWN;
        if (td_map_open(host, &m, &ignore) == 0) {
            kind = td_detect(m.data, m.size);
            td_map_close(&m);
        }
        if (kind == TD_FILE_MACHO || kind == TD_FILE_MACHO_FAT) {
            probe(s, target, rule, origin, TD_VERDICT_UNREADABLE, err.msg);
        } else {
            char why[128];
            snprintf(why, sizeof why, "not a mach-o file (%s)", td_file_kind_name(kind));
            probe(s, target, rule, origin, TD_VERDICT_NOT_A_LIBRARY, why);
        }
        return;
    }
    enum td_verdict verdict;
    char why[512];
    if (incompatible(s, o, &verdict, why, sizeof why)) {
        td_object_free(o);
        probe(s, target, rule, origin, verdict, why);
        return;
    }
    probe(s, target, rule, origin, TD_VERDICT_FOUND, NULL);
    if (s->failed) {
        td_object_free(o);
        return;
    }
    take(s, o, true, rule, origin);
}

/* ---- the rules, in dyld's order ---- */

/* A loaded image answers to this name. An @rpath name: by its install name
 * (LC_ID_DYLIB) or the name it was first requested by ([Loader] getLoader:
 * "for @rpath paths, first check if already loaded as rpath"; dyld test
 * dlopen-rpath-prev-override: "Processing of @rpath ... always checks
 * existing loaded images before using LC_RPATHs"). A path: by its path.
 * Other forms are matched per candidate path (and inode) in try_path. */
static void rule_already_loaded(struct search *s)
{
    bool rpath = starts_with(s->name, "@rpath/");
    for (size_t i = 0; i < s->loaded->count; i++) {
        struct td_object *o = s->loaded->objects[i];
        bool match = s->name[0] == '/' && strcmp(o->path, s->name) == 0;
        if (rpath) {
            match =
                (o->identity && strcmp(o->identity, s->name) == 0) || strcmp(o->name, s->name) == 0;
            for (uint32_t a = 0; !match && a < o->alias_count && a < 8; a++)
                match = o->aliases[a] && strcmp(o->aliases[a], s->name) == 0;
        }
        if (match) {
            probe(s, o->path, TD_RULE_ALREADY_LOADED, NULL, TD_VERDICT_FOUND, NULL);
            take(s, o, false, TD_RULE_ALREADY_LOADED, NULL);
            return;
        }
    }
}

/* Calls FN for each directory of a colon-separated list, empty ones too
 * ([Config] forEachInColonList passes them on: "" + "/" + leaf). */
static void each_dir(struct search *s, const char *list, enum td_rule rule)
{
    const char *leaf = leaf_name(s->name);
    while (list && !s->done) {
        size_t n = strcspn(list, ":");
        char path[4096];
        int len = snprintf(path, sizeof path, "%.*s/%s", (int)n, list, leaf);
        if (len < 0 || (size_t)len >= sizeof path)
            probe(s, NULL, rule, NULL, TD_VERDICT_SKIPPED, "path too long");
        else if (rule != TD_RULE_DYLD_FALLBACK || strcmp(path, s->name) != 0)
            try_path(s, path, rule, NULL); /* [Config]: "don't try original path again" */
        list = list[n] ? list + n + 1 : NULL;
    }
}

/* [Config] getFrameworkPartialPath: ".../Foo.framework/Foo" or
 * ".../Foo.framework/Versions/A/Foo". DYLD_LIBRARY_PATH and the library
 * fallbacks do not apply to those (DYLD_FRAMEWORK_PATH does; not modelled). */
static bool is_framework(const char *name)
{
    const char *dot = NULL;
    for (const char *p = strstr(name, ".framework/"); p; p = strstr(p + 1, ".framework/"))
        dot = p;
    if (!dot)
        return false;
    const char *start = dot;
    while (start > name && start[-1] != '/')
        start--;
    size_t len = (size_t)(dot - start);
    const char *leaf = leaf_name(name);
    return strlen(leaf) == len && strncmp(leaf, start, len) == 0;
}

/* [dyld.1] DYLD_LIBRARY_PATH: "the dynamic linker looks for its leaf name in
 * each directory", before the install name, whatever its form. */
static void rule_dyld_library_path(struct search *s)
{
    if (!is_framework(s->name))
        each_dir(s, td_config_env(s->L->cfg, "DYLD_LIBRARY_PATH"), TD_RULE_DYLD_LIBRARY_PATH);
}

/* [dyld.1] @loader_path/: "the directory containing the mach-o binary which
 * contains the load command". */
static void rule_loader_path(struct search *s)
{
    if (!starts_with(s->name, "@loader_path/"))
        return;
    char path[4096];
    if (join_dir_of(path, sizeof path, s->requester->path, s->name + strlen("@loader_path")))
        try_path(s, path, TD_RULE_LOADER_PATH, s->requester->path);
    else
        probe(s, NULL, TD_RULE_LOADER_PATH, s->requester->path, TD_VERDICT_SKIPPED,
              "path too long");
}

/* [dyld.1] @executable_path/: "the directory containing the main executable
 * for the process". */
static void rule_executable_path(struct search *s)
{
    if (!starts_with(s->name, "@executable_path/"))
        return;
    const struct td_object *main = s->L->main;
    char path[4096];
    if (!main)
        probe(s, s->name, TD_RULE_EXECUTABLE_PATH, NULL, TD_VERDICT_SKIPPED,
              "no main executable is known: @executable_path cannot be expanded");
    else if (join_dir_of(path, sizeof path, main->path, s->name + strlen("@executable_path")))
        try_path(s, path, TD_RULE_EXECUTABLE_PATH, main->path);
    else
        probe(s, NULL, TD_RULE_EXECUTABLE_PATH, main->path, TD_VERDICT_SKIPPED, "path too long");
}

/* The images whose LC_RPATHs @rpath is searched through: the requester, the
 * image that loaded it, and so on up to the main executable, which is always
 * at the bottom (dlopen starts its chain with it: dyld4 DyldAPIs.cpp). */
static size_t rpath_chain(const struct search *s, const struct td_object **chain)
{
    size_t n = 0;
    bool has_main = false;
    for (const struct td_object *o = s->requester; o && n < MAX_CHAIN - 1; o = o->loader) {
        bool seen = false;
        for (size_t i = 0; i < n; i++)
            seen = seen || chain[i] == o;
        if (seen)
            break;
        chain[n++] = o;
        has_main = has_main || o == s->L->main;
    }
    if (!has_main && s->L->main)
        chain[n++] = s->L->main;
    return n;
}

/* One LC_RPATH value of IMAGE, expanded and joined with TAIL ("/libx.dylib"). */
static void try_rpath(struct search *s, const struct td_object *image, const char *rpath,
                      const char *tail)
{
    char dir[4096], path[4096];
    const struct td_object *main = s->L->main;
    const char *cwd = s->L->cfg->cwd;
    char why[512];
    bool ok = true;
    if (starts_with(rpath, "@loader_path") && (rpath[12] == '/' || rpath[12] == '\0')) {
        /* [dyld.1] @rpath/: "an LC_RPATH ... that starts with @loader_path/ ... relative
         * to the image containing the LC_RPATH". */
        ok = join_dir_of(dir, sizeof dir, image->path, rpath + 12);
    } else if (starts_with(rpath, "@executable_path") && (rpath[16] == '/' || rpath[16] == '\0')) {
        if (!main) {
            snprintf(why, sizeof why, "LC_RPATH '%s': no main executable is known", rpath);
            probe(s, NULL, TD_RULE_LC_RPATH, image->path, TD_VERDICT_SKIPPED, why);
            return;
        }
        ok = join_dir_of(dir, sizeof dir, main->path, rpath + 16);
    } else if (rpath[0] == '/') {
        ok = snprintf(dir, sizeof dir, "%s", rpath) < (int)sizeof dir;
    } else if (rpath[0] == '@') {
        snprintf(why, sizeof why, "LC_RPATH '%s': dyld expands no such @ variable", rpath);
        probe(s, NULL, TD_RULE_LC_RPATH, image->path, TD_VERDICT_SKIPPED, why);
        return;
    } else if (!cwd) {
        /* [Loader]: a relative LC_RPATH is used as is: relative to the current directory. */
        snprintf(why, sizeof why, "relative LC_RPATH '%s': the current directory is not known",
                 rpath);
        probe(s, NULL, TD_RULE_LC_RPATH, image->path, TD_VERDICT_SKIPPED, why);
        return;
    } else {
        ok = snprintf(dir, sizeof dir, "%s/%s", cwd, rpath) < (int)sizeof dir;
    }
    if (ok && concat_path(path, sizeof path, dir, tail))
        try_path(s, path, TD_RULE_LC_RPATH, image->path);
    else
        probe(s, NULL, TD_RULE_LC_RPATH, image->path, TD_VERDICT_SKIPPED, "path too long");
}

/* [dyld.1] @rpath/: "substituted with each path in the run path list until
 * a loadable dylib is found"; [Loader] forEachResolvedAtPathVar walks the
 * load chain from the requester back to the main executable. */
static void rule_rpath(struct search *s)
{
    if (!starts_with(s->name, "@rpath/"))
        return;
    const struct td_object *chain[MAX_CHAIN];
    size_t n = rpath_chain(s, chain);
    const char *tail = s->name + strlen("@rpath");
    for (size_t i = 0; i < n && !s->done; i++) {
        if (!is_macho(chain[i]))
            continue;
        const struct td_macho *m = &chain[i]->u.macho;
        for (size_t r = 0; r < m->nrpaths && !s->done; r++)
            try_rpath(s, chain[i], m->rpaths[r], tail);
    }
}

/* An absolute install name is tried as is [dyld.1] "DYNAMIC LIBRARY LOADING". */
static void rule_install_name(struct search *s)
{
    if (s->name[0] == '/')
        try_path(s, s->name, TD_RULE_INSTALL_NAME, NULL);
}

/* A relative install name ("libx.dylib", "../x.dylib") is opened relative to
 * the current directory ([Loader] isFileRelativePath; refused in hardened
 * programs). */
static void rule_relative(struct search *s)
{
    if (s->name[0] == '/' || s->name[0] == '@')
        return;
    char path[4096];
    const char *cwd = s->L->cfg->cwd;
    if (!cwd)
        probe(s, s->name, TD_RULE_CURRENT_DIR, NULL, TD_VERDICT_SKIPPED,
              "relative install name: the current directory is not known");
    else if (snprintf(path, sizeof path, "%s/%s", cwd, s->name) < (int)sizeof path)
        try_path(s, path, TD_RULE_CURRENT_DIR, NULL);
}

/* [Config] forEachPathVariant, last: the leaf name in each
 * DYLD_FALLBACK_LIBRARY_PATH directory, or in the default ones when it is
 * not set, for every form of install name (@rpath ones too). */
static void rule_fallback(struct search *s)
{
    if (is_framework(s->name))
        return;
    const char *env = td_config_env(s->L->cfg, "DYLD_FALLBACK_LIBRARY_PATH");
    if (env) {
        each_dir(s, env, TD_RULE_DYLD_FALLBACK);
        return;
    }
    for (size_t i = 0; i < sizeof default_fallback_dirs / sizeof *default_fallback_dirs; i++)
        each_dir(s, default_fallback_dirs[i], TD_RULE_DYLD_FALLBACK);
}

/* dyld's search order ([Loader] getLoader + forEachPath, [Config]
 * forEachPathVariant): overrides, then the install name (one of the
 * @-forms or a path), then the fallbacks. Each rule applies only to the
 * names it knows and stops when something is taken. */
static void (*const search_order[])(struct search *) = {
    rule_already_loaded, rule_dyld_library_path, rule_loader_path, rule_executable_path,
    rule_rpath,          rule_install_name,      rule_relative,    rule_fallback,
};

/* The load command that named NAME in the requester, strongest kind first:
 * one plain LC_LOAD_DYLIB makes a weak one of the same name required. */
static bool dylib_kind(const struct td_object *r, const char *name, enum td_macho_dylib_kind *kind)
{
    bool found = false;
    for (size_t i = 0; is_macho(r) && i < r->u.macho.ndylibs; i++) {
        const struct td_macho_dylib *d = &r->u.macho.dylibs[i];
        if (strcmp(d->name, name) != 0)
            continue;
        if (!found || *kind == TD_MACHO_DYLIB_WEAK || *kind == TD_MACHO_DYLIB_LAZY)
            *kind = d->kind;
        found = true;
    }
    return found;
}

/* A miss that is not an error for dyld is said so in a last probe. */
static void note_optional_miss(struct search *s)
{
    enum td_macho_dylib_kind kind = TD_MACHO_DYLIB_LOAD;
    if (!dylib_kind(s->requester, s->name, &kind))
        return;
    if (kind == TD_MACHO_DYLIB_WEAK)
        /* [Loader] getLoader: "if dylib could not be found, but is not required, clear error". */
        probe(s, s->name, TD_RULE_INSTALL_NAME, s->requester->path, TD_VERDICT_SKIPPED,
              "weak dylib (LC_LOAD_WEAK_DYLIB): missing is not an error, its symbols bind to NULL");
    else if (kind == TD_MACHO_DYLIB_LAZY)
        probe(s, s->name, TD_RULE_INSTALL_NAME, s->requester->path, TD_VERDICT_SKIPPED,
              "lazy dylib (LC_LAZY_LOAD_DYLIB): loaded on first use, a miss fails only then");
}

static int resolve(struct td_loader *L, struct td_object *requester, const char *name, bool delay,
                   const struct td_loaded *loaded, struct td_resolution *out, struct td_err *err)
{
    static const struct td_loaded none = {NULL, 0};
    memset(out, 0, sizeof *out);
    struct search s = {L, requester, name, loaded ? loaded : &none, out, err, false, false, false};
    for (size_t i = 0; i < sizeof search_order / sizeof *search_order && !s.done; i++)
        search_order[i](&s);
    if (!out->object && !s.failed && !s.in_cache)
        note_optional_miss(&s);
    out->in_shared_cache = s.in_cache;
    return s.failed ? -1 : 0;
}

static void fix_missing(const char *name, char *out, size_t cap)
{
    snprintf(out, cap,
             "install the library that provides %s, or add an LC_RPATH that reaches it "
             "(install_name_tool -add_rpath DIR FILE, on a copy)",
             name);
}

const struct td_loader_ops td_loader_macos = {
    .name = "macos", .resolve = resolve, .fix_missing = fix_missing};
