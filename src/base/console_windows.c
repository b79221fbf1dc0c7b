/* base/console.h on Windows. A console does not take UTF-8 bytes reliably
 * (the C runtime converts them byte by byte, or per the console's code
 * page), so stdout and stderr, when they are a console, are redirected
 * into a pipe whose reader thread writes the text with WriteConsoleW,
 * which reads right whatever the code page. Virtual-terminal processing is
 * turned on for the run; everything is put back at exit. A file or a pipe
 * gets the UTF-8 bytes untouched. */
#include "base/console.h"
#include "base/compat.h"
#include "base/utf8.h"

#include <fcntl.h>
#include <io.h>
#include <stdint.h>
#include <stdlib.h>

#include <windows.h>

#ifndef ENABLE_VIRTUAL_TERMINAL_PROCESSING
#define ENABLE_VIRTUAL_TERMINAL_PROCESSING 0x0004
#endif

enum { CHUNK = 4096 };

/* One of stdout (0) and stderr (1) while it goes to a console. */
struct relay {
    bool active, vt, saved_mode;
    HANDLE console, pipe, thread;
    DWORD mode;
    int saved_fd; /* the console's descriptor, put back at the end */
};
static struct relay relays[2];

/* UTF-8 BYTES as UTF-16 on the console (an invalid byte shows as U+FFFD). */
static void write_wide(HANDLE console, const char *bytes, size_t n)
{
    wchar_t w[CHUNK + 4];
    int len = n ? MultiByteToWideChar(CP_UTF8, 0, bytes, (int)n, w, CHUNK + 4) : 0;
    for (int done = 0; done < len;) {
        DWORD wrote = 0;
        if (!WriteConsoleW(console, w + done, (DWORD)(len - done), &wrote, NULL) || !wrote)
            return;
        done += (int)wrote;
    }
}

/* Copies the pipe to the console, never cutting a character in two. */
static DWORD WINAPI relay_main(void *arg)
{
    struct relay *r = arg;
    char buf[CHUNK + 4];
    size_t keep = 0;
    DWORD got;
    while (ReadFile(r->pipe, buf + keep, CHUNK, &got, NULL) && got > 0) {
        size_t n = keep + got, whole = td_utf8_whole(buf, n);
        write_wide(r->console, buf, whole);
        keep = n - whole;
        memmove(buf, buf + whole, keep);
    }
    write_wide(r->console, buf, keep);
    return 0;
}

/* VT processing exists from Windows 10 1511; older consoles refuse the mode
 * and the report stays plain ("Console Virtual Terminal Sequences"). */
static void enable_vt(struct relay *r)
{
    r->saved_mode = true;
    r->vt = (r->mode & ENABLE_VIRTUAL_TERMINAL_PROCESSING) ||
            SetConsoleMode(r->console, r->mode | ENABLE_VIRTUAL_TERMINAL_PROCESSING);
}

static void relay_start(struct relay *r, FILE *stream, DWORD std)
{
    int fd = fileno(stream);
    HANDLE h = GetStdHandle(std), read_end, write_end;
    if (h == INVALID_HANDLE_VALUE || !h || !GetConsoleMode(h, &r->mode))
        return; /* not a console: a file or a pipe takes the bytes as they are */
    r->console = h;
    enable_vt(r);
    /* The console stays open as a descriptor of its own: _dup2 below
     * closes the handle fd had (the one GetStdHandle gave). */
    fflush(stream);
    r->saved_fd = _dup(fd);
    if (r->saved_fd < 0 || !CreatePipe(&read_end, &write_end, NULL, 0))
        return;
    int wfd = _open_osfhandle((intptr_t)write_end, _O_TEXT); /* CRLF, as before */
    if (wfd < 0 || _dup2(wfd, fd) != 0) {
        if (wfd >= 0)
            _close(wfd);
        else
            CloseHandle(write_end);
        CloseHandle(read_end);
        return;
    }
    _close(wfd);
    r->console = (HANDLE)_get_osfhandle(r->saved_fd);
    r->pipe = read_end;
    r->thread = CreateThread(NULL, 0, relay_main, r, 0, NULL);
    r->active = r->thread != NULL;
    setvbuf(stream, NULL, _IONBF, 0); /* show output as it comes, as a console does */
}

/* Ends the redirection: the console's descriptor back in place closes the
 * pipe, the thread writes what is left and ends. */
static void relay_stop(struct relay *r, FILE *stream)
{
    fflush(stream);
    if (r->active) {
        _dup2(r->saved_fd, fileno(stream));
        WaitForSingleObject(r->thread, 5000);
        CloseHandle(r->thread);
        CloseHandle(r->pipe);
        r->active = false;
        r->console = GetStdHandle(r == &relays[0] ? STD_OUTPUT_HANDLE : STD_ERROR_HANDLE);
    }
    if (r->saved_mode) {
        SetConsoleMode(r->console, r->mode);
        r->saved_mode = false;
    }
    if (r->saved_fd > 0)
        _close(r->saved_fd);
    r->saved_fd = -1;
}

static BOOL WINAPI on_break(DWORD type)
{
    for (int i = 0; i < 2; i++)
        if (relays[i].saved_mode)
            SetConsoleMode(relays[i].console, relays[i].mode);
    return FALSE; /* and let the default handler end the process */
}

void td_console_init(void)
{
    relay_start(&relays[0], stdout, STD_OUTPUT_HANDLE);
    relay_start(&relays[1], stderr, STD_ERROR_HANDLE);
    if (relays[0].saved_mode || relays[1].saved_mode) {
        atexit(td_console_restore);
        SetConsoleCtrlHandler(on_break, TRUE);
    }
}

void td_console_restore(void)
{
    relay_stop(&relays[0], stdout);
    relay_stop(&relays[1], stderr);
}

static const struct relay *relay_of(int fd)
{
    return fd == 1 ? &relays[0] : fd == 2 ? &relays[1] : NULL;
}

bool td_console_colors(FILE *out)
{
    const struct relay *r = relay_of(fileno(out));
    return r && r->vt;
}

int td_isatty(int fd)
{
    const struct relay *r = relay_of(fd);
    return (r && r->active) || _isatty(fd);
}
