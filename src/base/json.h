/* A small pull reader of JSON (RFC 8259) over a byte buffer: the caller
 * walks the document it expects, taking the values it wants and skipping
 * the rest. No allocation except for unescaped strings; every read is
 * bounded; nesting deeper than TD_JSON_MAX_DEPTH is an error. Strings are
 * spans into the buffer until td_json_strdup unescapes one. */
#ifndef TD_BASE_JSON_H
#define TD_BASE_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"

enum { TD_JSON_MAX_DEPTH = 64 };

enum td_json_type {
    TD_JSON_NONE, /* end of input, or not the start of a value */
    TD_JSON_OBJECT,
    TD_JSON_ARRAY,
    TD_JSON_STRING,
    TD_JSON_NUMBER,
    TD_JSON_BOOL,
    TD_JSON_NULL,
};

struct td_json {
    const char *start, *p, *end;
    const char *error; /* what was wrong, or NULL */
    size_t error_at;   /* its byte offset */
};

/* A string's raw bytes, between the quotes, escapes not yet taken. */
struct td_json_str {
    const char *s;
    size_t len;
    bool escaped; /* holds a backslash */
};

void td_json_init(struct td_json *j, const char *text, size_t len);

/* The type of the value that comes next (whitespace skipped). */
enum td_json_type td_json_peek(struct td_json *j);

/* Enters the object or array that comes next; false (and an error) when
 * something else does. */
bool td_json_enter(struct td_json *j, enum td_json_type type);

/* Inside an object or array entered: true when another member follows
 * (its separating comma taken; FIRST tracks the first member), false at
 * its end (closing bracket taken) or on an error. */
bool td_json_next(struct td_json *j, bool *first);

/* An object member's key and its colon. */
bool td_json_key(struct td_json *j, struct td_json_str *key);

/* Each takes the value that comes next, whatever it is: true when it was
 * a string / a non-negative integer that fits 64 bits (anything else is
 * skipped, and false; j->error says whether the input was bad). */
bool td_json_string(struct td_json *j, struct td_json_str *out);
bool td_json_uint(struct td_json *j, uint64_t *out);
/* Any number (fraction, exponent, sign) as a double; false (value skipped)
 * for anything else. */
bool td_json_double(struct td_json *j, double *out);

/* Skips the value that comes next, whatever it is, validating its
 * brackets and strings. */
bool td_json_skip(struct td_json *j);

/* Skips the value that comes next checking only that its strings end and
 * its brackets balance, at memchr speed: for large sections a reader does
 * not want (fleet skips the deps closure of every node's report). */
bool td_json_skip_loose(struct td_json *j);

/* S with its escapes taken (\uXXXX as UTF-8, surrogate pairs joined; a
 * lone surrogate or a NUL is an error: NULL), NUL-terminated, in A. */
char *td_json_strdup(struct td_arena *a, const struct td_json_str *s);

/* Does S hold exactly the plain text LIT (no escapes)? */
bool td_json_is(const struct td_json_str *s, const char *lit);

#endif
