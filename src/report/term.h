/* Terminal styling for text reports: colour only on a terminal, never when
 * NO_COLOR is set (no-color.org), and always when forced by --color. */
#ifndef TD_REPORT_TERM_H
#define TD_REPORT_TERM_H

#include <stdbool.h>
#include <stdio.h>

enum td_style {
    TD_STYLE_RESET,
    TD_STYLE_BOLD,
    TD_STYLE_DIM,
    TD_STYLE_RED,
    TD_STYLE_YELLOW,
    TD_STYLE_GREEN,
    TD_STYLE_CYAN,
    TD_STYLE_MAGENTA
};

struct td_term {
    FILE *out;
    bool color;
};

/* MODE is "auto", "always" or "never" (NULL = auto). */
void td_term_init(struct td_term *t, FILE *out, const char *mode);
/* The escape sequence for STYLE, or "" when colour is off. */
const char *td_term_style(const struct td_term *t, enum td_style style);

#endif
