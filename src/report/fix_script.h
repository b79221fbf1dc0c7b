/* check -o FILE.sh / .ps1 / .bat: the fixes of a report as a script the
 * user reads, then runs. Advice that is not a command is a comment. */
#ifndef TD_REPORT_FIX_SCRIPT_H
#define TD_REPORT_FIX_SCRIPT_H

#include <stdio.h>

#include "base/finding.h"

enum td_shell { TD_SHELL_SH, TD_SHELL_POWERSHELL, TD_SHELL_CMD };

/* The shell a script file name asks for (.sh, .ps1, .bat or .cmd, any
 * case); false when NAME is not a script name. */
bool td_fix_script_shell(const char *name, enum td_shell *shell);

void td_fix_script(FILE *out, const struct td_findings *f, enum td_shell shell);

#endif
