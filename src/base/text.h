/* Pasted text in whatever encoding it was saved in, as UTF-8. The order
 * tried (docs/explain.md, "Input encodings"): a UTF-8 or UTF-16 byte-order
 * mark; valid UTF-8; on Windows the console's input code page; then the
 * code pages of the error catalogue's languages, GBK (936), Shift-JIS
 * (932), Windows-1251 and Windows-1252 (data/codepages.tsv), of which the
 * one that decodes the text without error and gives the most characters
 * typical of its language, where that language puts them, is taken. */
#ifndef TD_BASE_TEXT_H
#define TD_BASE_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct td_decoded {
    char *utf8; /* malloc'd, NUL-terminated */
    size_t len;
    char encoding[24]; /* "utf-8", "utf-16le", "cp936", ..., "unknown" */
};

/* Decodes BYTES[0..N) into OUT. 0, or -1 when out of memory. Text that no
 * candidate decodes is passed on as it is ("unknown"). */
int td_text_decode(const char *bytes, size_t n, struct td_decoded *out);

/* The code points of the bytes 0x80-0xFF in code page CP of
 * data/codepages.tsv (0: unmapped, or a lead byte) into HIGH; false when
 * the table cannot be read. */
bool td_text_codepage_high(int cp, uint16_t high[128]);

/* Windows: the console's input code page (the ANSI one without a console),
 * and BYTES converted from code page CP by the system (text_windows.c;
 * NULL when they are not valid in it). Elsewhere 0 and NULL (text_posix.c). */
int td_text_console_cp(void);
char *td_text_from_cp(int cp, const char *bytes, size_t n, size_t *len);
/* Windows: the OEM code page consoles start in (GetOEMCP), and UTF8 in
 * code page CP when every character has an exact byte form there (NULL
 * otherwise). Elsewhere 0 and NULL. */
int td_text_oem_cp(void);
char *td_text_to_cp(int cp, const char *utf8, size_t *len);

#endif
