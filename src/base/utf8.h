/* Text encodings. Every string inside torchdoctor is UTF-8; the Windows
 * build converts at its edges (arguments, environment, file names, the
 * registry, children, the console) with the functions below, all in
 * base/utf8_windows.c, so no other file converts. */
#ifndef TD_BASE_UTF8_H
#define TD_BASE_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/* The longest prefix of S[0..N) that does not end inside a UTF-8
 * sequence: where a stream of UTF-8 can be cut and converted. */
size_t td_utf8_whole(const char *s, size_t n);
/* How many leading bytes of S[0..N) are valid UTF-8 (RFC 3629), and
 * whether all are. */
size_t td_utf8_valid_prefix(const char *s, size_t n);
bool td_utf8_valid(const char *s, size_t n);

#ifdef _WIN32
#include <wchar.h>

/* Exact conversions (an invalid sequence fails, NULL); malloc'd results. */
wchar_t *td_utf8_to_wide(const char *s);
char *td_wide_to_utf8(const wchar_t *w);
/* W in UTF-8 into OUT; its length, or 0 (OUT "") when it does not fit or
 * does not convert. */
size_t td_wide_to_utf8_buf(const wchar_t *w, char *out, size_t cap);
/* PATH as the ...W file functions want it: UTF-16, in the "\\?\" form
 * when it is too long for MAX_PATH. malloc'd; NULL if not UTF-8. */
wchar_t *td_path_to_wide(const char *path);
/* wmain's arguments in UTF-8 (NULL-terminated, malloc'd), and freeing them. */
char **td_utf8_argv(int argc, wchar_t **wargv);
void td_utf8_argv_free(char **argv);
/* The environment block (GetEnvironmentStringsW) as "NAME=VALUE" strings in
 * UTF-8, NULL-terminated; free with td_utf8_argv_free. */
char **td_environ_utf8(void);
/* The system's message for a Windows error CODE, in UTF-8, on one line. */
const char *td_win_error_text(unsigned long code, char *out, size_t cap);
#endif

#endif
