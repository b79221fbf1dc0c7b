/* The system probe on Windows (probe.h): the real version from ntdll's
 * RtlGetVersion (GetVersionEx lies to programs without a compatibility
 * manifest), the product name from the registry, memory, free disk of the
 * user profile; and the Windows-only facts torch depends on: the VC++
 * redistributable and System32's runtime DLL versions, KnownDLLs and
 * SafeDllSearchMode, CUDA_PATH. Registry values are read, never written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <windows.h>

#include "base/map.h"
#include "base/registry.h"
#include "base/utf8.h"
#include "format/pe.h"
#include "probe/probe.h"

static const char *const CURRENT_VERSION = "SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion";
static const char *const SESSION_MANAGER = "SYSTEM\\CurrentControlSet\\Control\\Session Manager";
static const char *const FILE_SYSTEM = "SYSTEM\\CurrentControlSet\\Control\\FileSystem";
static const char *const VC_RUNTIME = "SOFTWARE\\Microsoft\\VisualStudio\\14.0\\VC\\Runtimes\\x64";

/* A REG_SZ value of HKLM\KEY, or NULL. The 64-bit view, also from x86. */
static const char *reg_string(const struct td_probe_ctx *ctx, const char *key, const char *name)
{
    char buf[1024];
    return td_reg_string(HKEY_LOCAL_MACHINE, key, name, RRF_SUBKEY_WOW6464KEY, buf, sizeof buf)
               ? td_arena_strdup(ctx->arena, buf)
               : NULL;
}

static bool reg_dword(const char *key, const char *name, DWORD *out)
{
    return td_reg_dword(HKEY_LOCAL_MACHINE, key, name, RRF_SUBKEY_WOW6464KEY, out);
}

typedef LONG(WINAPI *rtl_get_version_fn)(OSVERSIONINFOW *);

static bool real_version(unsigned *major, unsigned *minor, unsigned *build)
{
    HMODULE ntdll = GetModuleHandleW(L"ntdll.dll");
    FARPROC proc = ntdll ? GetProcAddress(ntdll, "RtlGetVersion") : NULL;
    OSVERSIONINFOW v = {.dwOSVersionInfoSize = sizeof v};
    rtl_get_version_fn get;
    if (!proc)
        return false;
    memcpy(&get, &proc, sizeof get);
    if (get(&v) != 0)
        return false;
    *major = v.dwMajorVersion, *minor = v.dwMinorVersion, *build = v.dwBuildNumber;
    return true;
}

static const char *machine_name(void)
{
    SYSTEM_INFO si;
    GetNativeSystemInfo(&si);
    switch (si.wProcessorArchitecture) {
    case PROCESSOR_ARCHITECTURE_AMD64:
        return "x86_64";
    case PROCESSOR_ARCHITECTURE_ARM64:
        return "aarch64";
    case PROCESSOR_ARCHITECTURE_INTEL:
        return "i686";
    default:
        return NULL;
    }
}

const char *td_probe_hostname(struct td_arena *a)
{
    wchar_t wbuf[MAX_COMPUTERNAME_LENGTH + 1];
    char buf[4 * (MAX_COMPUTERNAME_LENGTH + 1)];
    DWORD n = sizeof wbuf / sizeof wbuf[0];
    if (GetComputerNameW(wbuf, &n) && td_wide_to_utf8_buf(wbuf, buf, sizeof buf))
        return td_arena_strdup(a, buf);
    return NULL;
}

int td_probe_system(const struct td_probe_ctx *ctx, struct td_system *out)
{
    struct td_arena *a = ctx->arena;
    char buf[512];
    memset(out, 0, sizeof *out);
    out->os = "windows";
    out->distro_id = "windows";
    out->machine = machine_name();
    unsigned major, minor, build;
    if (real_version(&major, &minor, &build)) {
        snprintf(buf, sizeof buf, "%u.%u.%u", major, minor, build);
        out->kernel = td_arena_strdup(a, buf);
        snprintf(buf, sizeof buf, "%u.%u", major, minor);
        out->distro_version = td_arena_strdup(a, buf);
    }
    const char *product = reg_string(ctx, CURRENT_VERSION, "ProductName");
    const char *display = reg_string(ctx, CURRENT_VERSION, "DisplayVersion");
    if (!display)
        display = reg_string(ctx, CURRENT_VERSION, "ReleaseId");
    if (product) {
        snprintf(buf, sizeof buf, "%s%s%s", product, display ? " " : "", display ? display : "");
        out->distro = td_arena_strdup(a, buf);
    }
    wchar_t wbuf[MAX_COMPUTERNAME_LENGTH + 1];
    DWORD n = sizeof wbuf / sizeof wbuf[0];
    if (GetComputerNameW(wbuf, &n) && td_wide_to_utf8_buf(wbuf, buf, sizeof buf))
        out->hostname = td_arena_strdup(a, buf);
    MEMORYSTATUSEX mem = {.dwLength = sizeof mem};
    if (GlobalMemoryStatusEx(&mem)) {
        out->ram_total = mem.ullTotalPhys;
        out->ram_available = mem.ullAvailPhys;
        /* the commit limit is RAM plus the page files */
        out->swap_total =
            mem.ullTotalPageFile > mem.ullTotalPhys ? mem.ullTotalPageFile - mem.ullTotalPhys : 0;
    }
    const char *profile = getenv("USERPROFILE");
    wchar_t *where = td_utf8_to_wide(profile && *profile ? profile : "C:\\");
    ULARGE_INTEGER free_bytes;
    if (where && GetDiskFreeSpaceExW(where, &free_bytes, NULL, NULL))
        out->disk_free = free_bytes.QuadPart;
    free(where);
    return 0;
}

/* The FileVersion of a PE file's version resource, "14.38.33135.0". */
static const char *file_version(const struct td_probe_ctx *ctx, const char *path)
{
    struct td_map m;
    struct td_err err = {0};
    struct td_pe pe;
    struct td_pe_version v;
    const char *version = NULL;
    if (td_map_open(path, &m, &err) != 0)
        return NULL;
    if (td_pe_parse(&pe, m.data, m.size, ctx->arena, &err) == 0 &&
        td_pe_version(&pe, &v, &err) == 0 && v.present) {
        char buf[64];
        snprintf(buf, sizeof buf, "%u.%u.%u.%u", v.file_version[0], v.file_version[1],
                 v.file_version[2], v.file_version[3]);
        version = td_arena_strdup(ctx->arena, buf);
    }
    td_map_close(&m);
    return version;
}

static void runtime_dlls(const struct td_probe_ctx *ctx, struct td_windows *out)
{
    static const char *const names[] = {"vcruntime140.dll", "vcruntime140_1.dll", "msvcp140.dll"};
    wchar_t wdir[MAX_PATH];
    char dir[PATH_MAX], path[PATH_MAX + 32];
    UINT n = GetSystemDirectoryW(wdir, sizeof wdir / sizeof wdir[0]);
    if (n == 0 || n >= sizeof wdir / sizeof wdir[0] || !td_wide_to_utf8_buf(wdir, dir, sizeof dir))
        return;
    out->system32 = td_arena_strdup(ctx->arena, dir);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        struct td_windows_dll *d = &out->runtime_dlls[out->n_runtime_dlls++];
        d->name = names[i];
        snprintf(path, sizeof path, "%s\\%s", dir, names[i]);
        if (access(path, F_OK) != 0)
            continue;
        d->path = td_arena_strdup(ctx->arena, path);
        d->version = file_version(ctx, path);
    }
}

/* The values of Session Manager\KnownDLLs (name -> DLL file name). */
static void known_dlls(const struct td_probe_ctx *ctx, struct td_windows *out)
{
    char key[256];
    HKEY h;
    snprintf(key, sizeof key, "%s\\KnownDLLs", SESSION_MANAGER);
    if (!td_reg_open(HKEY_LOCAL_MACHINE, key, KEY_WOW64_64KEY, &h))
        return;
    DWORD count = 0;
    if (RegQueryInfoKeyW(h, NULL, NULL, NULL, NULL, NULL, NULL, &count, NULL, NULL, NULL, NULL) ==
            ERROR_SUCCESS &&
        count > 0 && count < 4096)
        out->known_dlls = td_arena_array(ctx->arena, count, sizeof *out->known_dlls);
    for (DWORD i = 0; out->known_dlls && i < count; i++) {
        char data[1024];
        if (td_reg_value_string(h, i, data, sizeof data))
            out->known_dlls[out->n_known_dlls++] = td_arena_strdup(ctx->arena, data);
    }
    RegCloseKey(h);
}

int td_probe_windows(const struct td_probe_ctx *ctx, struct td_windows *out)
{
    memset(out, 0, sizeof *out);
    out->probed = true;
    out->product = reg_string(ctx, CURRENT_VERSION, "ProductName");
    out->display_version = reg_string(ctx, CURRENT_VERSION, "DisplayVersion");
    if (!out->display_version)
        out->display_version = reg_string(ctx, CURRENT_VERSION, "ReleaseId");
    real_version(&out->major, &out->minor, &out->build);
    DWORD installed = 0, safe = 0;
    if (reg_dword(VC_RUNTIME, "Installed", &installed) && installed == 1)
        out->vc_redist = reg_string(ctx, VC_RUNTIME, "Version");
    out->safe_dll_search_mode =
        reg_dword(SESSION_MANAGER, "SafeDllSearchMode", &safe) ? (int)safe : -1;
    runtime_dlls(ctx, out);
    known_dlls(ctx, out);
    /* Under --root the files are another system's, whose registry is not
     * read: its LongPathsEnabled is unknown. Unset means off. */
    DWORD long_paths = 0;
    out->long_paths_enabled = ctx->root && strcmp(ctx->root, "/") != 0 ? -1
                              : reg_dword(FILE_SYSTEM, "LongPathsEnabled", &long_paths)
                                  ? long_paths == 1
                                  : 0;
    const char *cuda = getenv("CUDA_PATH");
    out->cuda_path = cuda && *cuda ? td_arena_strdup(ctx->arena, cuda) : NULL;
    char **env = td_environ_utf8();
    size_t n = 0;
    for (char **e = env; e && *e; e++)
        n += strncmp(*e, "CUDA_PATH_V", 11) == 0;
    out->cuda_path_versions = n ? td_arena_array(ctx->arena, n, sizeof(char *)) : NULL;
    for (char **e = env; out->cuda_path_versions && *e; e++)
        if (strncmp(*e, "CUDA_PATH_V", 11) == 0)
            out->cuda_path_versions[out->n_cuda_path_versions++] = td_arena_strdup(ctx->arena, *e);
    td_utf8_argv_free(env);
    return 0;
}
