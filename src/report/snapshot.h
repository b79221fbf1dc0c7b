/* The snapshot document (DESIGN.md "snapshot and diff"): check's envelope
 * and sections with "command": "snapshot", plus the snapshot section; the
 * path rewriting that keeps it comparable across home folders; and the
 * restore script written from it. */
#ifndef TD_REPORT_SNAPSHOT_H
#define TD_REPORT_SNAPSHOT_H

#include <stdbool.h>
#include <stdio.h>

#include "probe/diagnose.h"
#include "snapshot/snapshot.h"

/* The whole document to OUT; PRETTY false writes it on one line (the log). */
void td_snapshot_json(const struct td_check_report *r, const struct td_snapshot *s, bool pretty,
                      FILE *out);

/* Rewrites BUF (malloc'd, *LEN bytes) so it no longer names HOME (as "~")
 * and, when not NULL, the user name USER (as a path segment "<user>") and
 * the host name HOST ("<host>"). Returns the new buffer (BUF is freed). */
char *td_text_unpersonal(char *buf, size_t *len, const char *home, const char *user,
                         const char *host);

/* td_snapshot_json into memory, then td_text_unpersonal (HOME always;
 * USER and HOST when not NULL: --redact). Malloc'd; NULL when out of memory. */
char *td_snapshot_text(const struct td_check_report *r, const struct td_snapshot *s, bool pretty,
                       const char *home, const char *user, const char *host, size_t *len);

enum td_restore_shell { TD_RESTORE_SH, TD_RESTORE_PS1, TD_RESTORE_BAT };

/* The shell FILE's name asks for (".sh", ".ps1", ".bat"); false for none. */
bool td_restore_shell_of(const char *file, enum td_restore_shell *out);

/* The script that reinstalls ENV's distributions of snapshot S (the driver
 * and what else a script cannot restore said in comments). */
void td_restore_script(FILE *out, const struct td_check_report *r, const struct td_snapshot *s,
                       const struct td_snap_env *env, enum td_restore_shell shell);

#endif
