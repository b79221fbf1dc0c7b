/* base/console.h on Windows: the console's output code page set to UTF-8
 * and virtual-terminal processing turned on for the run, both put back at
 * exit; a file or pipe gets the UTF-8 bytes untouched. */
#include "base/console.h"

#include <io.h>
#include <stdlib.h>

#include <windows.h>

#ifndef ENABLE_VIRTUAL_TERMINAL_PROCESSING
#define ENABLE_VIRTUAL_TERMINAL_PROCESSING 0x0004
#endif

/* What the run changed, to put it back: stdout's and stderr's console modes
 * (one console may be both) and the console's output code page. */
static struct {
    bool saved_cp, saved_mode[2], vt[2];
    UINT cp;
    DWORD mode[2];
    HANDLE handle[2];
} state;

static int stream_index(FILE *out)
{
    return out == stdout ? 0 : out == stderr ? 1 : -1;
}

static BOOL WINAPI on_break(DWORD type)
{
    td_console_restore();
    return FALSE; /* and let the default handler end the process */
}

/* VT processing exists from Windows 10 1511; older consoles refuse the mode
 * and the report stays plain ("Console Virtual Terminal Sequences"). */
static void enable_vt(int i, DWORD std)
{
    HANDLE h = GetStdHandle(std);
    DWORD mode;
    if (h == INVALID_HANDLE_VALUE || !h || !GetConsoleMode(h, &mode))
        return; /* not a console: a file or a pipe */
    state.handle[i] = h;
    state.mode[i] = mode;
    state.saved_mode[i] = true;
    state.vt[i] = (mode & ENABLE_VIRTUAL_TERMINAL_PROCESSING) ||
                  SetConsoleMode(h, mode | ENABLE_VIRTUAL_TERMINAL_PROCESSING);
}

void td_console_init(void)
{
    enable_vt(0, STD_OUTPUT_HANDLE);
    enable_vt(1, STD_ERROR_HANDLE);
    if (!state.saved_mode[0] && !state.saved_mode[1])
        return;
    state.cp = GetConsoleOutputCP();
    state.saved_cp = state.cp != CP_UTF8 && SetConsoleOutputCP(CP_UTF8);
    atexit(td_console_restore);
    SetConsoleCtrlHandler(on_break, TRUE);
}

void td_console_restore(void)
{
    fflush(stdout);
    fflush(stderr);
    for (int i = 0; i < 2; i++)
        if (state.saved_mode[i]) {
            SetConsoleMode(state.handle[i], state.mode[i]);
            state.saved_mode[i] = false;
        }
    if (state.saved_cp) {
        SetConsoleOutputCP(state.cp);
        state.saved_cp = false;
    }
}

bool td_console_colors(FILE *out)
{
    int i = stream_index(out);
    return i >= 0 ? state.vt[i] : false;
}
