/* A small matcher for POSIX extended regular expressions, for builds whose
 * C library has no <regex.h> (mingw-w64: base/compat.h maps regcomp and
 * regexec onto it there). Bytes, not characters; the syntax is ERE's:
 * literals and '\'-escaped literals, '.', bracket expressions (ranges,
 * '^' negation, [:class:] names), groups, '|', '*', '+', '?', '{n}',
 * '{n,}', '{n,m}', '^' and '$'. No back-references and no GNU escapes
 * (\w, \b, ...). The match is the leftmost one and, from there, the
 * longest, as POSIX asks; groups are those of the first path (greedy, left
 * alternative first) that reaches that end, which is POSIX's answer
 * whenever the pattern is not ambiguous about them. Matching is a
 * backtracking search that never visits an (instruction, position) pair
 * twice, so its time is bounded by pattern size x text length.
 * tests/base/test_base_ere.c compares it with glibc's regexec. */
#ifndef TD_BASE_ERE_H
#define TD_BASE_ERE_H

#include <stdbool.h>
#include <stddef.h>

enum {
    TD_ERE_NEWLINE = 1, /* REG_NEWLINE: '.' and '[^...]' do not match '\n'; '^'/'$' match at
                           line boundaries */
    TD_ERE_ICASE = 2,   /* letters match either case (ASCII) */
};

struct td_ere;

struct td_ere_span {
    long so, eo; /* -1, -1 when the group took no part */
};

/* NULL when PATTERN is not a valid ERE (or is too large); *NSUB is the
 * number of groups. */
struct td_ere *td_ere_compile(const char *pattern, int flags, size_t *nsub);
/* Whether TEXT holds a match; fills M[0] (the whole match) and M[1..N-1]
 * (the groups). false too when the text is too long to search safely. */
bool td_ere_exec(const struct td_ere *re, const char *text, size_t n, struct td_ere_span *m);
/* The same with execution flags: TD_ERE_NOTBOL (REG_NOTBOL), the text's
 * first byte is not the start of a line, so '^' does not match there;
 * TD_ERE_NOTEOL (REG_NOTEOL), its end is not the end of a line, so '$'
 * does not match there. */
enum { TD_ERE_NOTBOL = 1, TD_ERE_NOTEOL = 2 };
bool td_ere_exec_flags(const struct td_ere *re, const char *text, size_t n, struct td_ere_span *m,
                       int eflags);
void td_ere_free(struct td_ere *re);

#endif
