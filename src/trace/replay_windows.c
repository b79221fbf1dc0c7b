/* check --live on Windows: torch's DLL loading (torch/__init__.py
 * _load_dll_libraries, pytorch-facts §3.1) done for real in a child
 * torchdoctor.exe (`__replay`), since the initialiser that fails behind
 * WinError 1114 cannot be known without running it. The child does what
 * torch does: os.add_dll_directory (AddDllDirectory) for each dll_path,
 * ctypes.CDLL of the VC++ runtimes, then LoadLibraryExW(0x1100) of every
 * torch\lib\*.dll in glob order and, on 126 only, LoadLibraryW after
 * prepending the dll_paths to PATH. It does not call
 * SetDefaultDllDirectories, as CPython does not: torch's PATH retry relies
 * on LoadLibraryW searching PATH. Unlike torch it goes on after a failure,
 * so every DLL gets its code. Protocol: replay.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <windows.h>

#include "base/map.h"
#include "base/utf8.h"
#include "format/pe.h"
#include "probe/system/child.h"
#include "trace/replay.h"

#define PLAN_CAP ((size_t)1 << 20)
#define ANSWER_CAP ((size_t)256 << 10)

/* ---- the child ---- */

static wchar_t *wide(const char *s)
{
    return td_utf8_to_wide(s);
}

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
    char line[4096];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n > sizeof line - 2)
        n = (int)sizeof line - 2;
    line[n++] = '\n';
    td_child_say(line, (size_t)n);
}

/* After a 1114 for FILE: which of its imports fails alone with 1114.
 * Imports already loaded are not the culprit; the others are loaded one by
 * one through the same directories (LOAD_LIBRARY_SEARCH_DEFAULT_DIRS, which
 * holds torch\lib and every dll_path). "." when every import loads. */
static void init_culprit(const char *file, char *out, size_t cap)
{
    struct td_map m;
    struct td_err err = {0};
    struct td_arena arena = {0};
    struct td_pe pe;
    struct td_pe_import_dll *dlls = NULL;
    size_t n = 0;
    snprintf(out, cap, "-");
    if (td_map_open(file, &m, &err) != 0)
        return;
    if (td_pe_parse(&pe, m.data, m.size, &arena, &err) == 0 &&
        td_pe_imports(&pe, false, &dlls, &n, &err) == 0) {
        snprintf(out, cap, ".");
        for (size_t i = 0; i < n; i++) {
            wchar_t *name = wide(dlls[i].name);
            bool skip = !name || GetModuleHandleW(name); /* loaded already: not the culprit */
            HMODULE h = skip ? NULL : LoadLibraryExW(name, NULL, LOAD_LIBRARY_SEARCH_DEFAULT_DIRS);
            bool culprit = !skip && !h && GetLastError() == ERROR_DLL_INIT_FAILED;
            free(name);
            if (culprit) {
                snprintf(out, cap, "%s", dlls[i].name);
                break;
            }
        }
    }
    td_map_close(&m);
    td_arena_free(&arena);
}

/* os.environ["PATH"] = ";".join(dll_paths + [os.environ["PATH"]]) */
static void patch_path(const char *dirs)
{
    wchar_t *wdirs = wide(dirs);
    DWORD n = GetEnvironmentVariableW(L"PATH", NULL, 0);
    size_t len = (wdirs ? wcslen(wdirs) : 0) + n + 2;
    wchar_t *path = wdirs ? malloc(len * sizeof *path) : NULL;
    if (path) {
        int used = swprintf(path, len, L"%ls;", wdirs);
        if (n == 0 ||
            GetEnvironmentVariableW(L"PATH", path + used, (DWORD)(len - (size_t)used)) == 0)
            path[used > 0 ? used - 1 : 0] = L'\0';
        SetEnvironmentVariableW(L"PATH", path);
    }
    free(path);
    free(wdirs);
}

/* AddDllDirectory, looked up rather than imported: Windows 7 without
 * KB2533623 lacks it, and torchdoctor.exe must still start there (torch
 * then uses LoadLibraryW only: with_load_library_flags). */
typedef void *(WINAPI *add_dll_directory_fn)(const wchar_t *);

static DWORD add_dll_directory(const wchar_t *dir)
{
    FARPROC p = GetProcAddress(GetModuleHandleW(L"kernel32.dll"), "AddDllDirectory");
    add_dll_directory_fn add;
    if (!p)
        return ERROR_PROC_NOT_FOUND;
    memcpy(&add, &p, sizeof add);
    return add(dir) ? 0 : GetLastError();
}

static char *read_stdin(size_t *len)
{
    HANDLE in = GetStdHandle(STD_INPUT_HANDLE);
    char *buf = malloc(PLAN_CAP + 1);
    DWORD got;
    *len = 0;
    while (buf && *len < PLAN_CAP &&
           ReadFile(in, buf + *len, (DWORD)(PLAN_CAP - *len), &got, NULL) && got > 0)
        *len += got;
    if (buf)
        buf[*len] = '\0';
    return buf;
}

int td_replay_child(void)
{
    size_t len;
    char *plan = read_stdin(&len);
    char dirs[32768] = "";
    size_t dirs_used = 0;
    bool path_patched = false;
    td_child_quiet();
    for (char *line = plan, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        line[strcspn(line, "\r")] = '\0';
        char *f[4] = {line, NULL, NULL, NULL};
        for (int k = 1; k < 4 && f[k - 1]; k++)
            if ((f[k] = strchr(f[k - 1], '\t')) != NULL)
                *f[k]++ = '\0';
        if (strcmp(f[0], "dir") == 0 && f[1]) {
            wchar_t *w = wide(f[1]);
            DWORD code = w ? add_dll_directory(w) : ERROR_OUTOFMEMORY;
            free(w);
            int n = snprintf(dirs + dirs_used, sizeof dirs - dirs_used, "%s%s",
                             dirs_used ? ";" : "", f[1]);
            if (n > 0 && (size_t)n < sizeof dirs - dirs_used)
                dirs_used += (size_t)n;
            say("dir\t%lu\t%s", (unsigned long)code, f[1]);
        } else if (strcmp(f[0], "load") == 0 && f[3]) {
            unsigned long flags = strtoul(f[1], NULL, 0);
            bool retry_mode = strcmp(f[2], "retry") == 0;
            wchar_t *w = wide(f[3]);
            HMODULE h = w ? LoadLibraryExW(w, NULL, flags) : NULL;
            DWORD code = h ? 0 : GetLastError();
            char retry[16] = "-", init[300] = "-";
            if (!h && code == ERROR_MOD_NOT_FOUND && retry_mode && w) {
                if (!path_patched)
                    patch_path(dirs);
                path_patched = true;
                HMODULE again = LoadLibraryW(w);
                snprintf(retry, sizeof retry, "%lu", again ? 0ul : (unsigned long)GetLastError());
            }
            if (code == ERROR_DLL_INIT_FAILED)
                init_culprit(f[3], init, sizeof init);
            free(w);
            say("load\t%lu\t%s\t%s\t%s\t%s", (unsigned long)code, retry, init, f[2], f[3]);
        }
    }
    free(plan);
    say("done");
    ExitProcess(0); /* no DllMain(DLL_PROCESS_DETACH) of what was loaded */
}

/* ---- the parent ---- */

static bool ends_with_dll(const char *s)
{
    size_t n = strlen(s);
    return n > 4 && _stricmp(s + n - 4, ".dll") == 0;
}

void td_replay_run(const struct td_graph *g, int timeout_ms, struct td_arena *arena,
                   struct td_replay *out)
{
    static const char *const runtimes[] = {"vcruntime140.dll", "msvcp140.dll",
                                           "vcruntime140_1.dll"};
    memset(out, 0, sizeof *out);
    size_t cap = 4096, used = 0;
    for (size_t i = 0; i < g->cfg.n_dll_dirs; i++)
        cap += strlen(g->cfg.dll_dirs[i]) + 8;
    for (size_t i = 0; i < g->n_roots && i < g->count; i++)
        cap += strlen(g->objects[i]->path) + 32;
    char *plan = malloc(cap), *answer = malloc(ANSWER_CAP);
    if (!plan || !answer) {
        out->detail = "out of memory";
        goto done;
    }
#define ADD(...) used += (size_t)snprintf(plan + used, cap - used, __VA_ARGS__)
    for (size_t i = 0; i < g->cfg.n_dll_dirs; i++)
        ADD("dir\t%s\n", g->cfg.dll_dirs[i]);
    /* ctypes.CDLL: LOAD_LIBRARY_SEARCH_DEFAULT_DIRS; vcruntime140_1.dll not on ARM64 */
    for (size_t i = 0; i < (sizeof(void *) == 8 ? 3u : 2u); i++)
        ADD("load\t0x1000\twarn\t%s\n", runtimes[i]);
    for (size_t i = 0; i < g->n_roots && i < g->count; i++)
        if (ends_with_dll(g->objects[i]->path))
            ADD("load\t0x1100\tretry\t%s\n", g->objects[i]->path);
#undef ADD
    struct td_child_outcome o;
    /* A child that ends without a word of its loads (it could not be
     * started, or died before its first) is started once more: a start has
     * failed under load, and a load that kills the process does it again. */
    for (int attempt = 0; attempt < 2; attempt++) {
        memset(out, 0, sizeof *out);
        size_t n = td_child_run("__replay", plan, used, timeout_ms, answer, ANSWER_CAP, &o);
        td_replay_parse(answer, n, arena, out);
        if (!td_replay_worth_retry(out, o.timed_out))
            break;
    }
    out->ran = o.started;
    out->timed_out = o.timed_out;
    char words[160], detail[500];
    if (!o.started) {
        snprintf(detail, sizeof detail, "the replay's child could not be started: %s", o.why);
        out->detail = td_arena_strdup(arena, detail);
    } else if (o.timed_out) {
        snprintf(detail, sizeof detail,
                 "no answer within %d ms; the child was killed after %zu "
                 "loads",
                 timeout_ms, out->n_loads);
        out->detail = td_arena_strdup(arena, detail);
    } else if (!out->done || o.exit_code != 0) {
        snprintf(detail, sizeof detail, "the child ended with %s after %zu loads",
                 td_child_exit_words(o.exit_code, words, sizeof words), out->n_loads);
        out->detail = td_arena_strdup(arena, detail);
    }
done:
    free(plan);
    free(answer);
}
