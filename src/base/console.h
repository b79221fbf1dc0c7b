/* The terminal the report is written to. On Windows td_console_init
 * makes text sent to a console arrive through WriteConsoleW (UTF-16, right
 * whatever the console's code page) and turns on virtual-terminal
 * processing where the console has it; td_console_restore, also run at
 * exit, ends that and puts the console's mode back (on Ctrl-C too).
 * Elsewhere both do nothing. */
#ifndef TD_BASE_CONSOLE_H
#define TD_BASE_CONSOLE_H

#include <stdbool.h>
#include <stdio.h>

void td_console_init(void);
void td_console_restore(void);
/* Whether OUT is a terminal that shows colour escape codes. */
bool td_console_colors(FILE *out);

#endif
