/* base/console.h where terminals take UTF-8 and escape codes as they are. */
#include "base/console.h"

#include <unistd.h>

void td_console_init(void) {}

void td_console_restore(void) {}

bool td_console_colors(FILE *out)
{
    return isatty(fileno(out));
}
