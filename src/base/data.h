/* Knowledge tables from the data folder (one .tsv file each), embedded at build time so the program
 * stays one file (docs/data.md has the format). */
#ifndef TD_BASE_DATA_H
#define TD_BASE_DATA_H

#include <stdbool.h>
#include <stddef.h>

/* The text of data/NAME.tsv, or NULL when the build has no such table. */
const char *td_data_table(const char *name, size_t *len);

/* Iterates the rows of a table, skipping comments and blank lines. The
 * first row returned is the header. Cells are split at tabs into CELLS
 * (at most MAX; pointers into a per-call copy in LINE, which must hold a
 * whole row). Returns the number of cells, or -1 at the end. */
struct td_tsv {
    const char *text;
    size_t len, pos;
};
void td_tsv_open(struct td_tsv *t, const char *text, size_t len);
int td_tsv_next(struct td_tsv *t, char *line, size_t line_cap, const char **cells, int max);

/* Index of COLUMN in a header row, or -1. */
int td_tsv_column(const char *const *header, int ncells, const char *column);

/* A table read row by row with its columns looked up by name once: the
 * shape every reader of data/ needs. Rows with fewer cells than the header
 * are skipped (docs/data.md: every row has every cell). */
enum { TD_TABLE_MAX_COLS = 16, TD_TABLE_MAX_NAMED = 12 };

struct td_table {
    struct td_tsv tsv;
    int ncols;                   /* cells in the header */
    int col[TD_TABLE_MAX_NAMED]; /* index of each requested column, or -1 */
    const char *cells[TD_TABLE_MAX_COLS];
    char line[8192];
};

/* Opens data/NAME.tsv and finds COLUMNS (NULL-terminated, at most
 * TD_TABLE_MAX_NAMED). False when the build has no such table. */
bool td_table_open(struct td_table *t, const char *name, const char *const *columns);
/* The next complete row; false at the end. */
bool td_table_next(struct td_table *t);
/* Cell of the I-th requested column: "" when the column is absent. */
const char *td_table_cell(const struct td_table *t, int i);

#endif
