/* Python installations registered in the Windows registry (PEP 514) and
 * the Windows user site, for python.c. The registry is read by
 * python_windows.c (python_posix.c: none); the helpers that turn what it
 * holds into paths and versions are pure (pyreg.c). Internal to src/probe. */
#ifndef TD_PROBE_PYREG_H
#define TD_PROBE_PYREG_H

#include <stddef.h>

#include "base/arena.h"

/* One HK*\Software\Python\<company>\<tag> key; NULL where a value is unset. */
struct td_pyreg_entry {
    const char *company, *tag;
    const char *install_path;    /* InstallPath's default value */
    const char *executable_path; /* InstallPath\ExecutablePath */
    const char *sys_version;     /* <tag>\SysVersion ("3.11") */
    const char *version;         /* <tag>\Version ("3.11.4") */
};

/* Every registered installation: HKCU, then HKLM's 64-bit and 32-bit
 * views. Arena array; 0 when none (always 0 outside Windows). */
size_t td_pyreg_list(struct td_arena *a, struct td_pyreg_entry **out);

/* The interpreter of E with '/' separators: ExecutablePath, else
 * InstallPath\python.exe; NULL when neither is set. */
char *td_pyreg_exe(struct td_arena *a, const struct td_pyreg_entry *e);

/* The version E declares: Version, else SysVersion, else a PythonCore tag
 * ("3.11", "3.11-32"); NULL when none. */
const char *td_pyreg_version(const struct td_pyreg_entry *e);

/* S with every backslash as '/', in the arena. */
char *td_pyreg_slashes(struct td_arena *a, const char *s);

/* USERBASE\PythonXY\site-packages with '/' separators (CPython
 * Lib/site.py _get_path on Windows). */
char *td_pyreg_user_site(struct td_arena *a, const char *user_base, int major, int minor);

#endif
