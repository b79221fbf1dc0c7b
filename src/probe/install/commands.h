/* The commands a fix of src/probe/install/ prints (commands.c): install,
 * reinstall or remove a distribution, delete a file. Internal to
 * src/probe/install/ (torch_internal.h includes it). */
#ifndef TD_PROBE_INSTALL_COMMANDS_H
#define TD_PROBE_INSTALL_COMMANDS_H

#include <stdbool.h>
#include <stddef.h>

enum td_install_verb { TD_INSTALL, TD_REINSTALL, TD_REMOVE };

/* The command that installs, reinstalls or removes SPEC (pip syntax:
 * "torchvision==0.16.*", "torch==2.1.0+cu121", "torch") with INSTALLER
 * ("pip", "uv", "conda", "debian", "unknown") for the interpreter EXE /
 * environment PREFIX, into OUT. DEBIAN_PACKAGE names the package when
 * INSTALLER is "debian". */
const char *td_install_cmd(const char *installer, const char *exe, const char *prefix,
                           const char *debian_package, enum td_install_verb verb, const char *spec,
                           char *out, size_t cap);

/* Appends one more word to a command from td_install_cmd, quoted when the
 * shell would split or expand it. */
void td_install_cmd_add(char *out, size_t cap, const char *word);
/* Appends WORDS as they are (a command's own fixed words: "-m pip"). */
void td_install_cmd_add_raw(char *out, size_t cap, const char *words);
/* Appends PATH as a word: a Windows path ("C:/...") in cmd's and
 * PowerShell's form, backslashes, in double quotes when it has a blank or
 * a character sh would quote; any other path quoted for sh. */
void td_install_cmd_add_path(char *out, size_t cap, const char *path);

/* The command that deletes PATH (a folder with RECURSIVE) into OUT, in the
 * form of the system the path belongs to: rm for a POSIX path, del/rmdir
 * with backslashes in double quotes for a Windows one ("C:/..."), which
 * both cmd.exe and PowerShell accept for del. */
const char *td_remove_cmd(const char *path, bool recursive, char *out, size_t cap);

#endif
