/* A streaming JSON writer. Reports are written as they are walked rather
 * than built as a tree first: a jansson tree of libtorch_cpu's 35k symbols
 * took 170 ms to build and dump here, against a 13 ms budget for the whole
 * inspect (bench/inspect.sh). jansson stays the parser for JSON input. */
#ifndef TD_REPORT_JSONW_H
#define TD_REPORT_JSONW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define TD_JSONW_MAX_DEPTH 32

struct td_jsonw {
    FILE *out;
    bool pretty;
    int depth;
    bool first[TD_JSONW_MAX_DEPTH]; /* no element written yet at this depth */
    bool after_key;
    int inline_from; /* >0: containers at this depth and deeper stay on one line */
    size_t used;     /* bytes waiting in buf; stdio per call cost 4x the whole parse */
    bool wide;       /* AVX2 and BMI1: names are checked 128 bytes a block */
    /* 16 KiB: writers are static, so every page of the buffer filled is
     * a fresh page fault; 64 KiB cost deps 11 more faults than the three
     * write calls it saved. */
    char buf[1 << 14];
};

void td_jw_init(struct td_jsonw *w, FILE *out, bool pretty);
void td_jw_begin_object(struct td_jsonw *w);
/* An object written on one line (rows of long lists: symbols, members). */
void td_jw_begin_object_inline(struct td_jsonw *w);
void td_jw_end_object(struct td_jsonw *w);
void td_jw_begin_array(struct td_jsonw *w);
void td_jw_end_array(struct td_jsonw *w);
void td_jw_key(struct td_jsonw *w, const char *key);

void td_jw_string(struct td_jsonw *w, const char *s); /* NULL writes null */
void td_jw_stringn(struct td_jsonw *w, const char *s, size_t n);
void td_jw_int(struct td_jsonw *w, int64_t v);
void td_jw_uint(struct td_jsonw *w, uint64_t v);
/* A number with DECIMALS digits after the point (milliseconds: 12.345). */
void td_jw_fixed(struct td_jsonw *w, double v, int decimals);
void td_jw_bool(struct td_jsonw *w, bool v);
void td_jw_null(struct td_jsonw *w);
/* Writes "0x..." as a string: JSON numbers lose precision past 2^53. */
void td_jw_hex(struct td_jsonw *w, uint64_t v);

/* key + value shorthands */
void td_jw_kstr(struct td_jsonw *w, const char *key, const char *s);
void td_jw_kint(struct td_jsonw *w, const char *key, int64_t v);
void td_jw_kuint(struct td_jsonw *w, const char *key, uint64_t v);
void td_jw_kbool(struct td_jsonw *w, const char *key, bool v);
void td_jw_khex(struct td_jsonw *w, const char *key, uint64_t v);

/* Ends the document with a newline and flushes. */
void td_jw_finish(struct td_jsonw *w);
/* Hands buffered bytes to the FILE (before anything else writes to it). */
void td_jw_flush(struct td_jsonw *w);
/* Appends bytes that are already JSON: inline, so that a literal of a
 * row (", \"bind\": \"") is a few moves, not a call and a memcpy call
 * (a third of inspect --symbols' JSON time on libtorch_cpu). */
void td_jw_raw_slow(struct td_jsonw *w, const char *text, size_t len);
static inline void td_jw_raw(struct td_jsonw *w, const char *text, size_t len)
{
    if (len <= sizeof w->buf - w->used) {
        memcpy(w->buf + w->used, text, len);
        w->used += len;
        return;
    }
    td_jw_raw_slow(w, text, len);
}
/* The buffer's next free byte, with at least N bytes free from it (N at
 * most the buffer's size; flushed first where fewer are): for a row whose
 * fixed parts are copied in pieces of fixed sizes, ended by td_jw_wrote. */
static inline char *td_jw_room(struct td_jsonw *w, size_t n)
{
    if (sizeof w->buf - w->used < n)
        td_jw_flush(w);
    return w->buf + w->used;
}
/* What was written from td_jw_room's pointer on ends before END. */
static inline void td_jw_wrote(struct td_jsonw *w, const char *end)
{
    w->used = (size_t)(end - w->buf);
}
/* Starts one element of the current array whose text the caller writes with
 * td_jw_raw / td_jw_rawstr (the separator and indentation are done here):
 * for rows written by the hundred thousand, such as symbol tables. */
void td_jw_item(struct td_jsonw *w);
/* What td_jw_item writes before an element that is not the first of the
 * current array, into OUT (room for 80 bytes): its length, or 0 where it
 * would write something else than one fixed piece (a compact or inline
 * array, after a key, at the top level). Rows written by the ten thousand
 * copy it whole instead of calling td_jw_item for each. */
size_t td_jw_item_lead(const struct td_jsonw *w, char *out);
/* The body of S, NUL-terminated within the ROOM bytes that may be read
 * from it on, escaped but without the quotes (td_jw_rawstr_room's
 * middle), written from OUT, a position in W's buffer that the caller
 * holds (td_jw_room); returns the position after it, which may be in a
 * buffer flushed on the way. */
char *td_jw_strbody_at(struct td_jsonw *w, char *out, const char *s, size_t room);
/* S as a quoted, escaped JSON string, with no separator handling. */
void td_jw_rawstr(struct td_jsonw *w, const char *s);
/* td_jw_rawstr of S, NUL-terminated within the ROOM bytes that may be read
 * from it on: its end is found as it is copied (symbol names by the ten
 * thousand, td_elf_dynstr_room). */
void td_jw_rawstr_room(struct td_jsonw *w, const char *s, size_t room);

#endif
