/* The Windows tracer: runs the command as a debuggee (DEBUG_ONLY_THIS_PROCESS)
 * and records the loader's debug events: the program and each DLL mapped
 * (CREATE_PROCESS / LOAD_DLL, with QueryPerformanceCounter times), each DLL
 * unmapped, the loader's initial breakpoint, the loader's failure statuses
 * (as first-chance exceptions or as the exit code), loader snaps when the
 * user turned them on (OutputDebugString lines), and the command's stderr
 * (a pipe) for Python's [WinError N] line. trace_pe.c folds the events into
 * the same struct td_trace the Linux tracer fills. */
#define WIN32_LEAN_AND_MEAN
#include <windows.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "trace/trace.h"

enum { STDERR_TAIL = 4096, PATH_CAP = 32768, SNAP_CAP = 8192 };

/* DBG_EXCEPTION_NOT_HANDLED and friends, as winnt.h / ntstatus.h spell them. */
#define TD_EXC_BREAKPOINT 0x80000003u
#define TD_EXC_WX86_BREAKPOINT 0x4000001Fu

/* ---- the command's stderr, read by a thread ---- */

struct reader {
    HANDLE pipe, echo;
    CRITICAL_SECTION lock;
    char *buf;
    size_t len, cap;
};

static DWORD WINAPI reader_main(void *arg)
{
    struct reader *r = arg;
    char chunk[4096];
    DWORD got;
    while (ReadFile(r->pipe, chunk, sizeof chunk, &got, NULL) && got > 0) {
        if (r->echo) {
            DWORD w;
            WriteFile(r->echo, chunk, got, &w, NULL);
        }
        EnterCriticalSection(&r->lock);
        if (r->len + got + 1 > r->cap) {
            size_t cap = r->cap ? r->cap * 2 : 1 << 16;
            while (cap < r->len + got + 1)
                cap *= 2;
            char *grown = realloc(r->buf, cap);
            if (grown)
                r->buf = grown, r->cap = cap;
        }
        if (r->len + got + 1 <= r->cap) {
            memcpy(r->buf + r->len, chunk, got);
            r->len += got;
            r->buf[r->len] = '\0';
        }
        LeaveCriticalSection(&r->lock);
    }
    return 0;
}

/* ---- helpers ---- */

static uint64_t elapsed_ns(LARGE_INTEGER t0, LARGE_INTEGER freq)
{
    LARGE_INTEGER now;
    QueryPerformanceCounter(&now);
    uint64_t ticks = (uint64_t)(now.QuadPart - t0.QuadPart);
    return ticks / (uint64_t)freq.QuadPart * 1000000000u +
           ticks % (uint64_t)freq.QuadPart * 1000000000u / (uint64_t)freq.QuadPart;
}

static char *narrow(struct td_arena *a, const wchar_t *w)
{
    char *u = td_wide_to_utf8(w);
    char *s = td_arena_strdup(a, u ? u : "");
    free(u);
    return s;
}

/* The command line CreateProcessW wants, quoted so that the C runtime's
 * argument splitting (CommandLineToArgvW's rules) gives ARGV back. */
static wchar_t *command_line(const char *const *argv)
{
    size_t cap = 16;
    for (size_t i = 0; argv[i]; i++)
        cap += strlen(argv[i]) * 2 + 3;
    char *s = malloc(cap), *p = s;
    if (!s)
        return NULL;
    for (size_t i = 0; argv[i]; i++) {
        const char *a = argv[i];
        bool quote = !*a || strpbrk(a, " \t\n\v\"");
        if (i)
            *p++ = ' ';
        if (!quote) {
            p += sprintf(p, "%s", a);
            continue;
        }
        *p++ = '"';
        for (;; a++) {
            size_t slashes = 0;
            while (*a == '\\')
                a++, slashes++;
            if (!*a) {
                for (size_t k = 0; k < slashes * 2; k++)
                    *p++ = '\\';
                break;
            }
            for (size_t k = 0; k < (*a == '"' ? slashes * 2 + 1 : slashes); k++)
                *p++ = '\\';
            *p++ = *a;
        }
        *p++ = '"';
    }
    *p = '\0';
    wchar_t *w = td_utf8_to_wide(s); /* exactly: the arguments arrived as UTF-8 */
    free(s);
    return w;
}

static void describe(DWORD code, char *out, size_t cap)
{
    td_win_error_text(code, out, cap);
}

/* "\\?\C:\x" -> "C:\x", "\\?\UNC\h\s" -> "\\h\s": the form the loader and users write. */
static const wchar_t *plain_path(wchar_t *p)
{
    if (wcsncmp(p, L"\\\\?\\UNC\\", 8) == 0) {
        p += 6;
        p[0] = L'\\';
        return p;
    }
    return wcsncmp(p, L"\\\\?\\", 4) == 0 ? p + 4 : p;
}

/* The name the debuggee's loader gave the image (lpImageName: the address
 * of a pointer to the string, either of which may be NULL). */
static const char *image_name(struct td_trace *t, HANDLE process, void *where, WORD unicode,
                              size_t ptr_size)
{
    uint64_t at = 0;
    SIZE_T got = 0;
    if (!where || !ReadProcessMemory(process, where, &at, ptr_size, &got) || got != ptr_size || !at)
        return NULL;
    static wchar_t w[PATH_CAP];
    size_t unit = unicode ? 2 : 1, n = 0;
    unsigned char c[2] = {0, 0};
    /* One character at a time: the string may end just before unmapped memory. */
    for (; n + 1 < PATH_CAP; n++) {
        if (!ReadProcessMemory(process, (const void *)(uintptr_t)(at + n * unit), c, unit, &got) ||
            got != unit)
            break;
        w[n] = (wchar_t)(unicode ? c[0] | c[1] << 8 : c[0]);
        if (!w[n])
            break;
    }
    w[n < PATH_CAP ? n : PATH_CAP - 1] = 0;
    return w[0] ? narrow(&t->arena, plain_path(w)) : NULL;
}

/* The image's path: the name the loader gave it, else its file handle's. */
static const char *image_path(struct td_trace *t, HANDLE process, HANDLE file, void *name,
                              WORD unicode, size_t ptr_size)
{
    const char *p = image_name(t, process, name, unicode, ptr_size);
    if (p || !file)
        return p;
    static wchar_t w[PATH_CAP];
    DWORD n = GetFinalPathNameByHandleW(file, w, PATH_CAP, FILE_NAME_NORMALIZED | VOLUME_NAME_DOS);
    return n > 0 && n < PATH_CAP ? narrow(&t->arena, plain_path(w)) : NULL;
}

static void add_event(struct td_trace *t, enum td_trace_event_kind kind, uint64_t t_ns,
                      uint64_t cookie, const char *path)
{
    struct td_trace_event *e = td_trace_add_event(t);
    if (e)
        *e = (struct td_trace_event){.kind = kind, .t_ns = t_ns, .cookie = cookie, .path = path};
}

/* An OutputDebugString text: loader snaps, line by line. The failed step
 * is kept in LAST_ERROR and applied after stderr, which it overrides. */
static void debug_string(struct td_trace *t, HANDLE process, const OUTPUT_DEBUG_STRING_INFO *o,
                         uint64_t now, char *last_error)
{
    static char text[SNAP_CAP];
    size_t unit = o->fUnicode ? 2 : 1, n = o->nDebugStringLength * unit;
    if (n > sizeof text - 2)
        n = sizeof text - 2;
    SIZE_T got = 0;
    if (!ReadProcessMemory(process, o->lpDebugStringData, text, n, &got))
        return;
    size_t len = 0;
    for (size_t k = 0; k + unit <= got; k += unit) {
        unsigned c = unit == 2 ? (unsigned char)text[k] | (unsigned char)text[k + 1] << 8
                               : (unsigned char)text[k];
        if (!c)
            break;
        text[len++] = c < 0x80 ? (char)c : '?'; /* snaps are ASCII but for paths */
    }
    text[len] = '\0';
    for (char *line = text, *end; *line; line = end) {
        end = line + strcspn(line, "\r\n");
        char keep = *end;
        *end = '\0';
        if (strstr(line, "Unable to load DLL: \""))
            snprintf(last_error, SNAP_CAP, "%s", line);
        else
            td_trace_pe_snap(t, line, now);
        *end = keep;
        end += strspn(end, "\r\n");
    }
}

/* ---- the runner ---- */

static HANDLE inheritable(HANDLE h)
{
    HANDLE dup = NULL;
    if (!h || h == INVALID_HANDLE_VALUE ||
        !DuplicateHandle(GetCurrentProcess(), h, GetCurrentProcess(), &dup, 0, TRUE,
                         DUPLICATE_SAME_ACCESS))
        return NULL;
    return dup;
}

/* Splits the command's stderr into lines for td_trace_parse_error and keeps its tail. */
static void read_stderr(struct td_trace *t, const char *buf, size_t len)
{
    char line[8192];
    size_t n = 0;
    for (size_t i = 0; i <= len; i++) {
        char c = i < len ? buf[i] : '\n';
        if (c == '\n') {
            line[n] = '\0';
            if (n)
                td_trace_parse_error(t, line);
            n = 0;
        } else if (c != '\r' && n + 1 < sizeof line) {
            line[n++] = c;
        }
    }
    size_t from = len > STDERR_TAIL ? len - STDERR_TAIL : 0;
    char *tail = td_arena_alloc(&t->arena, len - from + 1);
    if (tail) {
        size_t k = 0;
        for (size_t i = from; i < len; i++)
            if (buf[i] != '\r')
                tail[k++] = buf[i];
        tail[k] = '\0';
        t->stderr_tail = tail;
    }
}

int td_trace_run(const char *const *argv, const struct td_trace_options *opts, struct td_trace *out,
                 struct td_err *err)
{
    memset(out, 0, sizeof *out);
    out->argv = argv;
    out->exit_status = -1;
    out->windows = true;
    int rc = -1;
    HANDLE err_r = NULL, err_w = NULL, in = NULL, outh = NULL, thread = NULL;
    PROCESS_INFORMATION pi = {0};
    struct reader *r = calloc(1, sizeof *r);
    wchar_t *cmd = command_line(argv);
    char *last_error = calloc(1, SNAP_CAP);
    bool reader_done = true;
    if (!r || !cmd || !last_error) {
        td_err_set(err, "out of memory");
        goto done;
    }
    SECURITY_ATTRIBUTES sa = {sizeof sa, NULL, TRUE};
    if (!CreatePipe(&err_r, &err_w, &sa, 0) ||
        !SetHandleInformation(err_r, HANDLE_FLAG_INHERIT, 0)) {
        td_err_set(err, "cannot create a pipe (Windows error %lu)", (unsigned long)GetLastError());
        goto done;
    }
    /* The command's stdout goes to our stderr: our stdout is the report. */
    in = inheritable(GetStdHandle(STD_INPUT_HANDLE));
    outh = inheritable(GetStdHandle(STD_ERROR_HANDLE));
    STARTUPINFOW si = {.cb = sizeof si, .dwFlags = STARTF_USESTDHANDLES};
    si.hStdInput = in;
    si.hStdOutput = outh;
    si.hStdError = err_w;
    /* No "DLL not found" message box that would wait for a click: the
     * child inherits this error mode. */
    UINT old_mode = SetErrorMode(SEM_FAILCRITICALERRORS | SEM_NOOPENFILEERRORBOX);
    LARGE_INTEGER freq, t0;
    QueryPerformanceFrequency(&freq);
    QueryPerformanceCounter(&t0);
    BOOL started =
        CreateProcessW(NULL, cmd, NULL, NULL, TRUE, DEBUG_ONLY_THIS_PROCESS, NULL, NULL, &si, &pi);
    DWORD start_error = GetLastError();
    SetErrorMode(old_mode);
    CloseHandle(err_w);
    err_w = NULL;
    if (!started) {
        char why[256];
        describe(start_error, why, sizeof why);
        td_err_set(err, "cannot run %s: %s", argv[0], why);
        goto done;
    }
    r->pipe = err_r;
    r->echo = opts->echo_stderr ? GetStdHandle(STD_ERROR_HANDLE) : NULL;
    InitializeCriticalSection(&r->lock);
    thread = CreateThread(NULL, 0, reader_main, r, 0, NULL);
    reader_done = thread == NULL;

    BOOL me_wow = FALSE, it_wow = FALSE;
    IsWow64Process(GetCurrentProcess(), &me_wow);
    IsWow64Process(pi.hProcess, &it_wow);
    size_t ptr_size = sizeof(void *) == 8 && it_wow && !me_wow ? 4 : sizeof(void *);
    bool seen_bp = false, seen_wx86_bp = false, exited = false;
    uint32_t exception_status = 0;
    DWORD exit_code = 0;
    while (!exited) {
        DEBUG_EVENT ev;
        if (!WaitForDebugEvent(&ev, 100)) {
            if (!out->timed_out && opts->timeout_ms > 0 &&
                elapsed_ns(t0, freq) > (uint64_t)opts->timeout_ms * 1000000u) {
                TerminateProcess(pi.hProcess, 1);
                out->timed_out = true;
            }
            continue;
        }
        uint64_t now = elapsed_ns(t0, freq);
        DWORD cont = DBG_CONTINUE;
        bool ours = ev.dwProcessId == pi.dwProcessId;
        switch (ev.dwDebugEventCode) {
        case CREATE_PROCESS_DEBUG_EVENT: {
            const CREATE_PROCESS_DEBUG_INFO *c = &ev.u.CreateProcessInfo;
            const char *path =
                image_path(out, c->hProcess, c->hFile, c->lpImageName, c->fUnicode, ptr_size);
            add_event(out, TD_TEV_OPEN, now, (uint64_t)(uintptr_t)c->lpBaseOfImage,
                      path ? path : argv[0]);
            if (c->hFile)
                CloseHandle(c->hFile);
            break;
        }
        case LOAD_DLL_DEBUG_EVENT: {
            const LOAD_DLL_DEBUG_INFO *d = &ev.u.LoadDll;
            const char *path =
                image_path(out, pi.hProcess, d->hFile, d->lpImageName, d->fUnicode, ptr_size);
            if (path)
                add_event(out, TD_TEV_OPEN, now, (uint64_t)(uintptr_t)d->lpBaseOfDll, path);
            if (d->hFile)
                CloseHandle(d->hFile);
            break;
        }
        case UNLOAD_DLL_DEBUG_EVENT:
            add_event(out, TD_TEV_CLOSE, now, (uint64_t)(uintptr_t)ev.u.UnloadDll.lpBaseOfDll,
                      NULL);
            break;
        case EXCEPTION_DEBUG_EVENT: {
            const EXCEPTION_RECORD *x = &ev.u.Exception.ExceptionRecord;
            uint32_t code = (uint32_t)x->ExceptionCode;
            if (code == TD_EXC_BREAKPOINT && !seen_bp) {
                seen_bp = true; /* the loader's: the program's imports are mapped */
                add_event(out, TD_TEV_PREINIT, now, 0, NULL);
            } else if (code == TD_EXC_WX86_BREAKPOINT && !seen_wx86_bp) {
                seen_wx86_bp = true; /* the same, for the 32-bit side of a WOW64 process */
                add_event(out, TD_TEV_PREINIT, now, 0, NULL);
            } else {
                cont = DBG_EXCEPTION_NOT_HANDLED;
                if (!exception_status && ev.u.Exception.dwFirstChance) {
                    struct td_trace probe = {0};
                    if (td_trace_pe_status(&probe, code, "exception"))
                        exception_status = code; /* a loader status raised as an exception */
                    td_arena_free(&probe.arena);
                }
            }
            break;
        }
        case OUTPUT_DEBUG_STRING_EVENT:
            debug_string(out, pi.hProcess, &ev.u.DebugString, now, last_error);
            break;
        case EXIT_PROCESS_DEBUG_EVENT:
            if (ours) {
                exit_code = ev.u.ExitProcess.dwExitCode;
                out->duration_ns = now;
                exited = true;
            }
            break;
        default:
            break;
        }
        ContinueDebugEvent(ev.dwProcessId, ev.dwThreadId, cont);
    }
    out->exit_status = (int)exit_code;
    if (out->timed_out)
        out->exit_status = -1;

    /* The stderr pipe ends when the last process holding it does; the
     * command's own children may outlive it, so wait a second at most. */
    if (thread) {
        if (WaitForSingleObject(thread, 1000) != WAIT_OBJECT_0) {
            CancelSynchronousIo(thread);
            reader_done = WaitForSingleObject(thread, 1000) == WAIT_OBJECT_0;
        } else {
            reader_done = true;
        }
    }
    EnterCriticalSection(&r->lock);
    if (exception_status)
        td_trace_pe_status(out, exception_status, "exception");
    else if (!out->timed_out)
        td_trace_pe_status(out, exit_code, "exit code");
    read_stderr(out, r->buf ? r->buf : "", r->len);
    LeaveCriticalSection(&r->lock);
    if (last_error[0])
        td_trace_pe_snap(out, last_error, out->duration_ns);
    td_trace_build_libraries_pe(out);
    rc = 0;
done:
    if (pi.hProcess)
        CloseHandle(pi.hProcess);
    if (pi.hThread)
        CloseHandle(pi.hThread);
    if (thread)
        CloseHandle(thread);
    if (err_w)
        CloseHandle(err_w);
    if (in)
        CloseHandle(in);
    if (outh)
        CloseHandle(outh);
    if (reader_done) {
        /* A reader still blocked in ReadFile keeps its pipe and buffer. */
        if (err_r)
            CloseHandle(err_r);
        if (r && r->pipe)
            DeleteCriticalSection(&r->lock);
        if (r)
            free(r->buf);
        free(r);
    }
    free(cmd);
    free(last_error);
    return rc;
}
