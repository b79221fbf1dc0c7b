/* A wheel's RECORD file (packaging.python.org "Recording installed
 * projects" and "Binary distribution format"; PEP 376, PEP 627): CSV rows
 * of path, "algorithm=urlsafe-base64 digest" (no padding) and size. */
#ifndef TD_FORMAT_RECORD_H
#define TD_FORMAT_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/err.h"

struct td_record_row {
    const char *path; /* unquoted, NUL-terminated arena copy; see path_len */
    size_t path_len;
    const char *algorithm; /* "sha256", ...; NULL when the hash field is empty */
    const uint8_t *digest; /* decoded bytes; NULL when the hash field is empty */
    size_t digest_len;
    bool has_size; /* false when the size field is empty (RECORD itself, .pyc) */
    uint64_t size;
    size_t line; /* 1-based line where the row starts */
};

/* A row that could not be read: where, and why. */
struct td_record_problem {
    size_t line;
    const char *message; /* "line 7: 2 fields, expected 3 (path,hash,size)" */
};

struct td_record {
    struct td_record_row *rows; /* in file order, well-formed rows only */
    size_t count;
    struct td_record_problem *problems; /* malformed rows, in file order */
    size_t problem_count;
};

/* Parses RECORD text as Python's csv module (excel dialect) writes it:
 * quoted fields may hold commas, doubled quotes and line breaks; blank
 * lines are skipped. Returns 0 when every row is well-formed; 1 when some
 * were not (they are listed in problems, and the first also in ERR); -1
 * when the arena cap was reached (ERR set). Never skips a row silently. */
int td_record_parse(struct td_record *r, const char *text, size_t len, struct td_arena *arena,
                    struct td_err *err);

/* The row for PATH (exact bytes), or NULL; linear. */
const struct td_record_row *td_record_find(const struct td_record *r, const char *path, size_t len);

/* Decodes urlsafe base64 (RFC 4648 §5; '=' padding optional) into OUT of
 * room CAP. Returns the decoded length, or -1 when S is not such text or
 * does not fit. */
long td_record_b64_decode(const char *s, size_t len, uint8_t *out, size_t cap);

#endif
