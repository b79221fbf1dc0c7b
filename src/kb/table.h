/* Private to src/kb: the cell conventions of docs/data.md ("-" for empty,
 * ">=X" bounds); rows are read with base/data.h td_table. */
#ifndef TD_KB_TABLE_H
#define TD_KB_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/data.h"

/* The cell with its comparison operator (">=", "<=", ">", "<", "=")
 * stripped; NULL for "-" or an empty cell. */
const char *kb_value(const struct td_table *k, int i);

/* True for "-" or "". */
bool kb_empty(const char *cell);
/* Copies S into OUT (always terminated); returns OUT. */
char *kb_copy(char *out, size_t cap, const char *s);
/* "linux" or "windows" from OS (NULL: linux). */
const char *kb_os(const char *os);

#endif
