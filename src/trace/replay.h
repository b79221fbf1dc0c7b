/* check --live on Windows: torch's DLL loading replayed for real in a child
 * torchdoctor.exe (`__replay`, replay_windows.c), and what it saw merged
 * with the static model (replay.c, platform-neutral so it is unit-tested
 * on Linux too).
 *
 * The parent sends the plan on the child's stdin, one line each,
 * tab-separated (Windows file names cannot hold a tab):
 *   dir <TAB> PATH                        os.add_dll_directory(PATH)
 *   load <TAB> FLAGS <TAB> MODE <TAB> FILE   MODE: "warn" (ctypes.CDLL of a
 *                                         VC++ runtime: failure only warns)
 *                                         or "retry" (torch\lib: on 126, the
 *                                         PATH retry with LoadLibraryW)
 * and the child answers on stdout:
 *   dir <TAB> CODE <TAB> PATH             AddDllDirectory's error (0: added)
 *   load <TAB> CODE <TAB> RETRY <TAB> INIT <TAB> MODE <TAB> FILE
 *       CODE   GetLastError of LoadLibraryExW(FILE, NULL, FLAGS), 0 loaded
 *       RETRY  "-" when not retried, else LoadLibraryW's error (0 loaded)
 *       INIT   for 1114: the import of FILE whose own load fails with 1114
 *              (its initialiser, or one below it), "." when every import
 *              loads (FILE's own DllMain failed), "-" otherwise
 *       MODE   as sent
 *   done                                  every load was tried */
#ifndef TD_PROBE_REPLAY_H
#define TD_PROBE_REPLAY_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "base/finding.h"
#include "graph/graph.h"

struct td_replay_load {
    const char *file; /* as sent: a full path, or a bare runtime name */
    long code;        /* LoadLibraryExW's GetLastError; 0 = loaded */
    long retry;       /* the PATH retry's error; -1 = not retried */
    const char *init; /* 1114: the import that failed too, "." FILE itself, NULL unknown */
    bool warn_only;   /* a VC++ runtime probe: torch only prints a warning */
};

struct td_replay {
    bool ran;  /* a child was started */
    bool done; /* it said "done" */
    bool timed_out;
    const char *detail; /* how the child ended when not cleanly, NULL otherwise */
    struct td_replay_load *loads;
    size_t n_loads;
    const char **failed_dirs; /* "PATH (error N)" for each AddDllDirectory that failed */
    size_t n_failed_dirs;
};

/* Parses the child's answer (LEN bytes, untrusted: bounded; malformed or
 * unfinished lines are ignored). Loads go into OUT (ARENA); true when the
 * answer ends with "done". */
bool td_replay_parse(const char *text, size_t len, struct td_arena *arena, struct td_replay *out);

/* After a child's answer was parsed into R: true when the child gave no
 * word of its loads although it neither finished nor ran out of time (it
 * could not be started, or died before its first load), so that one more
 * child is worth starting. */
bool td_replay_worth_retry(const struct td_replay *r, bool timed_out);

/* The error torch itself would raise: a load's final code (the retry's when
 * retried), 0 when it loaded in the end. */
long td_replay_final(const struct td_replay_load *l);

/* Findings from the replay of the torch whose static closure is G (NULL
 * when none was built): 1114 -> init_failure naming the DLL whose
 * initialiser failed; 127 -> missing_symbol, with the procedure the static
 * model names; 193 -> wrong_architecture naming the file of the wrong
 * machine; 126 after the retry -> missing_library naming what the static
 * model misses; 126 then loaded by the retry -> found_only_via_path. A
 * finding the static model already made (same kind, same library) is not
 * repeated. WHO is the Python (needed_by of the torch-level findings). */
void td_replay_findings(const struct td_replay *r, const struct td_graph *g, const char *who,
                        struct td_findings *f);

#ifdef _WIN32
/* Runs the replay for G's plan (its roots in torch\lib and G->cfg.dll_dirs)
 * in a child with TIMEOUT_MS. Never fails: how it went is in OUT. */
void td_replay_run(const struct td_graph *g, int timeout_ms, struct td_arena *arena,
                   struct td_replay *out);
#endif

#endif
