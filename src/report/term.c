/* Colour decisions and escape sequences for text reports. */
#include "report/term.h"
#include "base/console.h"

#include <stdlib.h>
#include <string.h>

void td_term_init(struct td_term *t, FILE *out, const char *mode)
{
    t->out = out;
    if (mode && strcmp(mode, "always") == 0)
        t->color = true;
    else if (mode && strcmp(mode, "never") == 0)
        t->color = false;
    else
        t->color = td_console_colors(out) && !getenv("NO_COLOR");
}

const char *td_term_style(const struct td_term *t, enum td_style style)
{
    static const char *const codes[] = {
        [TD_STYLE_RESET] = "\033[0m",   [TD_STYLE_BOLD] = "\033[1m",
        [TD_STYLE_DIM] = "\033[2m",     [TD_STYLE_RED] = "\033[31m",
        [TD_STYLE_YELLOW] = "\033[33m", [TD_STYLE_GREEN] = "\033[32m",
        [TD_STYLE_CYAN] = "\033[36m",   [TD_STYLE_MAGENTA] = "\033[35m",
    };
    return t->color ? codes[style] : "";
}
