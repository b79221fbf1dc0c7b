/* One description, two renderings. Describers (inspect_*.c) say what a
 * report contains once, through these calls; the view renders it either as
 * JSON (keys) or as indented text (labels), so the two never drift apart. */
#ifndef TD_REPORT_VIEW_H
#define TD_REPORT_VIEW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/err.h"
#include "report/jsonw.h"
#include "report/term.h"

enum td_view_kind { TD_VIEW_JSON, TD_VIEW_TEXT };

struct td_view {
    enum td_view_kind kind;
    struct td_jsonw json;
    struct td_term term;
    int indent;     /* text: current indentation level */
    int row;        /* text: >0 while inside a row (one line) */
    bool row_first; /* text: no cell written on the current row yet */
    int list;       /* text: >0 while inside a list of scalars */
    const char *list_label;
    int list_items;
    bool list_inline; /* text: scalar items joined on the label's line */
    uint64_t titled;  /* text: bit per open block, set when it printed a heading */
    int blocks;       /* text: open blocks */
};

void td_view_init(struct td_view *v, enum td_view_kind kind, FILE *out, const char *color_mode);

/* A titled block (JSON: "key": {...}; in an array: {...}). TITLE is the text
 * heading (NULL: no heading line), printed in bold. */
void td_view_begin(struct td_view *v, const char *key, const char *title);
void td_view_end(struct td_view *v);

/* A list (JSON array). In text, scalars print one per line under LABEL. */
void td_view_list_begin(struct td_view *v, const char *key, const char *label);
void td_view_list_end(struct td_view *v);
/* Like td_view_list_begin, but text shows the items on one line. */
void td_view_list_begin_inline(struct td_view *v, const char *key, const char *label);

/* A row: JSON object, text one line whose cells are separated by spaces. */
void td_view_row_begin(struct td_view *v);
void td_view_row_end(struct td_view *v);

/* Fields. LABEL is the text label (NULL: JSON only). A NULL string is
 * written as JSON null and left out of text. In a row, the label is dropped
 * for the first cell and written as "label value" for the others. */
void td_view_str(struct td_view *v, const char *key, const char *label, const char *s);
void td_view_uint(struct td_view *v, const char *key, const char *label, uint64_t n);
void td_view_int(struct td_view *v, const char *key, const char *label, int64_t n);
void td_view_hex(struct td_view *v, const char *key, const char *label, uint64_t n);
/* Text shows only true flags (as the label alone). */
void td_view_bool(struct td_view *v, const char *key, const char *label, bool b);
/* Text only: LABEL when B is true; nothing in JSON. */
void td_view_text_flag(struct td_view *v, const char *label, bool b);
/* JSON only: nothing in text. */
void td_view_json_str(struct td_view *v, const char *key, const char *s);

/* A scalar list item. */
void td_view_item(struct td_view *v, const char *s);

/* Plain text line at the current indentation (nothing in JSON). */
void td_view_note(struct td_view *v, const char *fmt, ...) TD_PRINTF(2, 3);

#endif
