/* Private to src/kb: reading the embedded tables row by row with their
 * columns looked up by name once, and the cell conventions of docs/data.md
 * ("-" for empty, ">=X" bounds). */
#ifndef TD_KB_TABLE_H
#define TD_KB_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/data.h"

enum { KB_MAX_COLS = 16, KB_MAX_NAMED = 12 };

struct kb_table {
    struct td_tsv tsv;
    int ncols;             /* cells in the header */
    int col[KB_MAX_NAMED]; /* index of each requested column, or -1 */
    const char *cells[KB_MAX_COLS];
    char line[8192];
};

/* Opens data/NAME.tsv and finds COLUMNS (NULL-terminated, at most
 * KB_MAX_NAMED). False when the build has no such table. */
bool kb_open(struct kb_table *k, const char *name, const char *const *columns);
/* The next row with as many cells as the header; false at the end. */
bool kb_next(struct kb_table *k);
/* Cell of the I-th requested column: "" when the column is absent. */
const char *kb_cell(const struct kb_table *k, int i);
/* The cell with its comparison operator (">=", "<=", ">", "<", "=")
 * stripped; NULL for "-" or an empty cell. */
const char *kb_value(const struct kb_table *k, int i);

/* True for "-" or "". */
bool kb_empty(const char *cell);
/* Copies S into OUT (always terminated); returns OUT. */
char *kb_copy(char *out, size_t cap, const char *s);
/* "linux" or "windows" from OS (NULL: linux). */
const char *kb_os(const char *os);

#endif
