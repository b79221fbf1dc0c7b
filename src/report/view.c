/* JSON and text renderings of a description; see view.h. */
#include "report/view.h"

#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

enum { LABEL_WIDTH = 16 };

void td_view_init(struct td_view *v, enum td_view_kind kind, FILE *out, const char *color_mode)
{
    memset(v, 0, sizeof *v);
    v->kind = kind;
    td_jw_init(&v->json, out, true);
    td_term_init(&v->term, out, kind == TD_VIEW_TEXT ? color_mode : "never");
}

static FILE *out(struct td_view *v)
{
    return v->term.out;
}

static void pad(struct td_view *v)
{
    for (int i = 0; i < v->indent; i++)
        fputs("  ", out(v));
}

static void json_key(struct td_view *v, const char *key)
{
    if (key)
        td_jw_key(&v->json, key);
}

void td_view_begin(struct td_view *v, const char *key, const char *title)
{
    if (v->kind == TD_VIEW_JSON) {
        json_key(v, key);
        td_jw_begin_object(&v->json);
        return;
    }
    /* Untitled blocks group JSON keys only; text stays at the same depth. */
    if (v->blocks < 64 && title)
        v->titled |= (uint64_t)1 << v->blocks;
    else if (v->blocks < 64)
        v->titled &= ~((uint64_t)1 << v->blocks);
    v->blocks++;
    if (title) {
        pad(v);
        fprintf(out(v), "%s%s%s\n", td_term_style(&v->term, TD_STYLE_BOLD), title,
                td_term_style(&v->term, TD_STYLE_RESET));
        v->indent++;
    }
}

void td_view_end(struct td_view *v)
{
    if (v->kind == TD_VIEW_JSON) {
        td_jw_end_object(&v->json);
        return;
    }
    if (v->blocks > 0)
        v->blocks--;
    bool titled = v->blocks < 64 && (v->titled >> v->blocks & 1);
    if (titled && v->indent > 0)
        v->indent--;
}

void td_view_list_begin(struct td_view *v, const char *key, const char *label)
{
    if (v->kind == TD_VIEW_JSON) {
        json_key(v, key);
        td_jw_begin_array(&v->json);
        return;
    }
    v->list++;
    v->list_label = label;
    v->list_items = 0;
    v->list_inline = false;
}

void td_view_list_begin_inline(struct td_view *v, const char *key, const char *label)
{
    td_view_list_begin(v, key, label);
    v->list_inline = v->kind == TD_VIEW_TEXT && !v->row;
}

void td_view_list_end(struct td_view *v)
{
    if (v->kind == TD_VIEW_JSON) {
        td_jw_end_array(&v->json);
        return;
    }
    if (v->list_inline && v->list_items > 0)
        fputc('\n', out(v));
    v->list_inline = false;
    if (v->list > 0)
        v->list--;
    v->list_label = NULL;
}

/* Text: the label column of a new line (label only for the first line of a list). */
static void text_line_start(struct td_view *v, const char *label)
{
    pad(v);
    if (label)
        fprintf(out(v), "%s%-*s%s ", td_term_style(&v->term, TD_STYLE_DIM), LABEL_WIDTH, label,
                td_term_style(&v->term, TD_STYLE_RESET));
    else if (v->list)
        fprintf(out(v), "%-*s ", LABEL_WIDTH, "");
}

void td_view_row_begin(struct td_view *v)
{
    if (v->kind == TD_VIEW_JSON) {
        td_jw_begin_object_inline(&v->json);
        return;
    }
    const char *label = v->list && v->list_items == 0 ? v->list_label : NULL;
    text_line_start(v, label);
    v->list_items++;
    v->row++;
    v->row_first = true;
}

void td_view_row_end(struct td_view *v)
{
    if (v->kind == TD_VIEW_JSON) {
        td_jw_end_object(&v->json);
        return;
    }
    fputc('\n', out(v));
    if (v->row > 0)
        v->row--;
}

/* Text output of one field, in a row or on a line of its own. */
static void text_field(struct td_view *v, const char *label, const char *value)
{
    if (v->row) {
        if (!v->row_first)
            fputs("  ", out(v));
        if (label && !v->row_first)
            fprintf(out(v), "%s%s%s ", td_term_style(&v->term, TD_STYLE_DIM), label,
                    td_term_style(&v->term, TD_STYLE_RESET));
        fputs(value, out(v));
        v->row_first = false;
        return;
    }
    if (!label)
        return;
    text_line_start(v, label);
    fprintf(out(v), "%s\n", value);
}

void td_view_str(struct td_view *v, const char *key, const char *label, const char *s)
{
    if (v->kind == TD_VIEW_JSON) {
        json_key(v, key);
        td_jw_string(&v->json, s);
        return;
    }
    if (s)
        text_field(v, label, s);
}

enum number_style { NUMBER_UNSIGNED, NUMBER_SIGNED, NUMBER_HEX };

/* One number field: JSON through the writer's own number forms, text as
 * the same digits after the label. */
static void number_field(struct td_view *v, const char *key, const char *label, uint64_t n,
                         enum number_style style)
{
    if (v->kind == TD_VIEW_JSON) {
        json_key(v, key);
        if (style == NUMBER_HEX)
            td_jw_hex(&v->json, n);
        else if (style == NUMBER_SIGNED)
            td_jw_int(&v->json, (int64_t)n);
        else
            td_jw_uint(&v->json, n);
        return;
    }
    char buf[32];
    if (style == NUMBER_HEX)
        snprintf(buf, sizeof buf, "0x%" PRIx64, n);
    else if (style == NUMBER_SIGNED)
        snprintf(buf, sizeof buf, "%" PRId64, (int64_t)n);
    else
        snprintf(buf, sizeof buf, "%" PRIu64, n);
    text_field(v, label, buf);
}

void td_view_uint(struct td_view *v, const char *key, const char *label, uint64_t n)
{
    number_field(v, key, label, n, NUMBER_UNSIGNED);
}

void td_view_int(struct td_view *v, const char *key, const char *label, int64_t n)
{
    number_field(v, key, label, (uint64_t)n, NUMBER_SIGNED);
}

void td_view_hex(struct td_view *v, const char *key, const char *label, uint64_t n)
{
    number_field(v, key, label, n, NUMBER_HEX);
}

void td_view_bool(struct td_view *v, const char *key, const char *label, bool b)
{
    if (v->kind == TD_VIEW_JSON) {
        json_key(v, key);
        td_jw_bool(&v->json, b);
        return;
    }
    if (b && label && v->row)
        text_field(v, NULL, label);
    else if (b && label)
        text_field(v, label, "yes");
}

void td_view_json_str(struct td_view *v, const char *key, const char *s)
{
    if (v->kind == TD_VIEW_JSON) {
        json_key(v, key);
        td_jw_string(&v->json, s);
    }
}

void td_view_item(struct td_view *v, const char *s)
{
    if (v->kind == TD_VIEW_JSON) {
        td_jw_string(&v->json, s);
        return;
    }
    if (v->row) {
        text_field(v, NULL, s ? s : "");
        return;
    }
    if (v->list_inline) {
        if (v->list_items == 0)
            text_line_start(v, v->list_label ? v->list_label : "");
        else
            fputc(' ', out(v));
        fputs(s ? s : "(null)", out(v));
        v->list_items++;
        return;
    }
    const char *label = v->list_items == 0 ? v->list_label : NULL;
    text_line_start(v, label ? label : "");
    fprintf(out(v), "%s\n", s ? s : "(null)");
    v->list_items++;
}

void td_view_text_flag(struct td_view *v, const char *label, bool b)
{
    if (v->kind == TD_VIEW_TEXT && b)
        text_field(v, v->row ? NULL : label, label);
}

void td_view_note(struct td_view *v, const char *fmt, ...)
{
    if (v->kind != TD_VIEW_TEXT)
        return;
    pad(v);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(out(v), fmt, ap);
    va_end(ap);
    fputc('\n', out(v));
}
