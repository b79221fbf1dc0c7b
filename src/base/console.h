/* The terminal the report is written to. On Windows a console shows the
 * program's UTF-8 only in the UTF-8 code page, and escape codes only with
 * virtual-terminal processing on: td_console_init sets both for the run
 * (where the console allows) and td_console_restore, also run at exit and
 * on Ctrl-C, puts back what was there. Elsewhere both do nothing. */
#ifndef TD_BASE_CONSOLE_H
#define TD_BASE_CONSOLE_H

#include <stdbool.h>
#include <stdio.h>

void td_console_init(void);
void td_console_restore(void);
/* Whether OUT is a terminal that shows colour escape codes. */
bool td_console_colors(FILE *out);

#endif
