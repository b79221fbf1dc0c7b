/* torchdoctor.exe started as its own child in a hidden mode (child.h): the
 * pipes, the timeout and TerminateProcess, and how an exit code reads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <windows.h>

#include "base/data.h"
#include "base/utf8.h"
#include "probe/system/child.h"

static void close_handle(HANDLE *h)
{
    if (*h && *h != INVALID_HANDLE_VALUE)
        CloseHandle(*h);
    *h = NULL;
}

/* Reads what the pipe holds now into BUF (the rest past CAP is dropped). */
static bool drain(HANDLE pipe, char *buf, size_t cap, size_t *used)
{
    DWORD avail = 0;
    char sink[4096];
    if (!PeekNamedPipe(pipe, NULL, 0, NULL, &avail, NULL))
        return false; /* broken: the child closed its end */
    while (avail > 0) {
        DWORD got = 0, want = avail;
        char *to = *used < cap ? buf + *used : sink;
        size_t room = *used < cap ? cap - *used : sizeof sink;
        if (want > room)
            want = (DWORD)room;
        if (!ReadFile(pipe, to, want, &got, NULL) || got == 0)
            return false;
        if (*used < cap)
            *used += got;
        avail -= got;
    }
    return true;
}

size_t td_child_run(const char *mode, const char *input, size_t len, int timeout_ms, char *buf,
                    size_t cap, struct td_child_outcome *o)
{
    SECURITY_ATTRIBUTES sa = {.nLength = sizeof sa, .bInheritHandle = TRUE};
    HANDLE in_read = NULL, in_write = NULL, out_read = NULL, out_write = NULL, null = NULL;
    PROCESS_INFORMATION pi = {0};
    size_t used = 0;
    wchar_t exe[MAX_PATH * 2], cmd[MAX_PATH * 2 + 64];
    memset(o, 0, sizeof *o);
    DWORD n = GetModuleFileNameW(NULL, exe, MAX_PATH * 2);
    if (n == 0 || n >= MAX_PATH * 2) {
        snprintf(o->why, sizeof o->why, "cannot find this program's own file (error %lu)",
                 (unsigned long)GetLastError());
        return 0;
    }
    _snwprintf(cmd, sizeof cmd / sizeof cmd[0], L"\"%ls\" %hs", exe, mode);
    cmd[sizeof cmd / sizeof cmd[0] - 1] = L'\0';
    if (!CreatePipe(&in_read, &in_write, &sa, 0) || !CreatePipe(&out_read, &out_write, &sa, 0)) {
        snprintf(o->why, sizeof o->why, "cannot create a pipe (error %lu)",
                 (unsigned long)GetLastError());
        goto out;
    }
    /* Only the child's ends are inherited. */
    SetHandleInformation(in_write, HANDLE_FLAG_INHERIT, 0);
    SetHandleInformation(out_read, HANDLE_FLAG_INHERIT, 0);
    null = CreateFileW(L"NUL", GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, &sa,
                       OPEN_EXISTING, 0, NULL);
    STARTUPINFOW si = {.cb = sizeof si,
                       .dwFlags = STARTF_USESTDHANDLES,
                       .hStdInput = in_read,
                       .hStdOutput = out_write,
                       .hStdError = null != INVALID_HANDLE_VALUE ? null : out_write};
    if (!CreateProcessW(exe, cmd, NULL, NULL, TRUE, CREATE_NO_WINDOW, NULL, NULL, &si, &pi)) {
        char name[PATH_MAX];
        DWORD code = GetLastError();
        td_wide_to_utf8_buf(exe, name, sizeof name);
        snprintf(o->why, sizeof o->why, "cannot start %s (error %lu)", name, (unsigned long)code);
        goto out;
    }
    o->started = true;
    close_handle(&in_read);
    close_handle(&out_write);
    close_handle(&null);
    /* The plan is small (a few KB): one write fits the pipe's buffer. */
    for (size_t done = 0; done < len;) {
        DWORD w = 0;
        if (!WriteFile(in_write, input + done, (DWORD)(len - done), &w, NULL) || w == 0)
            break;
        done += w;
    }
    close_handle(&in_write);
    ULONGLONG deadline = GetTickCount64() + (ULONGLONG)(timeout_ms > 0 ? timeout_ms : 5000);
    for (;;) {
        bool open = drain(out_read, buf, cap, &used);
        if (WaitForSingleObject(pi.hProcess, 0) == WAIT_OBJECT_0) {
            drain(out_read, buf, cap, &used);
            break;
        }
        if (GetTickCount64() >= deadline) {
            o->timed_out = true;
            TerminateProcess(pi.hProcess, 1);
            WaitForSingleObject(pi.hProcess, 5000);
            break;
        }
        Sleep(open ? 2 : 5);
    }
    DWORD code = 0;
    if (!o->timed_out && GetExitCodeProcess(pi.hProcess, &code)) {
        o->exited = true;
        o->exit_code = code;
    }
out:
    close_handle(&in_read);
    close_handle(&in_write);
    close_handle(&out_read);
    close_handle(&out_write);
    close_handle(&null);
    close_handle(&pi.hThread);
    close_handle(&pi.hProcess);
    return used;
}

void td_child_say(const char *line, size_t n)
{
    HANDLE out = GetStdHandle(STD_OUTPUT_HANDLE);
    for (DWORD done = 0, w = 0; done < n; done += w)
        if (!WriteFile(out, line + done, (DWORD)(n - done), &w, NULL) || w == 0)
            return;
}

void td_child_quiet(void)
{
    SetErrorMode(SEM_FAILCRITICALERRORS | SEM_NOOPENFILEERRORBOX | SEM_NOGPFAULTERRORBOX);
}

const char *td_child_exit_words(unsigned long code, char *out, size_t cap)
{
    static const char *const cols[] = {"ntstatus", "name", NULL};
    struct td_table t;
    snprintf(out, cap, "exit code 0x%08lX", code);
    if (!td_table_open(&t, "windows_ntstatus", cols))
        return out;
    while (td_table_next(&t))
        if (strtoul(td_table_cell(&t, 0), NULL, 16) == code) {
            snprintf(out, cap, "%s (0x%08lX)", td_table_cell(&t, 1), code);
            break;
        }
    return out;
}
