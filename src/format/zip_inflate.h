/* The one place zip member data meets a decompressor (inside the zip
 * module only). zip_inflate.c inflates with zlib where the build has it
 * (TD_HAVE_ZLIB: every build, the Windows one with Debian's static mingw
 * zlib, docs/windows-build.md); a build without it refuses deflated
 * members with a message saying so, and still reads and CRC-checks
 * stored members. */
#ifndef TD_FORMAT_ZIP_INFLATE_H
#define TD_FORMAT_ZIP_INFLATE_H

#include "format/zip.h"

enum { TD_ZIP_NAME_SHOWN = 120 }; /* how much of a member name an error message quotes */

/* Start of an error message naming the member and its central record. */
#define MEMBER_FMT "member '%.*s' (central directory entry at offset 0x%llx): "
#define MEMBER_ARGS(e)                                                                             \
    (int)((e)->name_len < TD_ZIP_NAME_SHOWN ? (e)->name_len : TD_ZIP_NAME_SHOWN), (e)->name,       \
        (unsigned long long)(e)->cd_offset

/* The state of one pass over a member's data. */
struct td_zip_pump {
    const struct td_zip_entry *e;
    td_zip_sink sink;
    void *ctx;
    uint64_t produced;
    uint32_t crc;
};

/* Counts CHUNK, adds it to the CRC and hands it to the sink (zip_inflate.c). */
int td_zip_pump_emit(struct td_zip_pump *p, const uint8_t *chunk, size_t len);

/* CRC-32 of APPNOTE 4.4.7 continued over DATA; td_zip_crc32(0, NULL, 0) is
 * the initial value. */
uint32_t td_zip_crc32(uint32_t crc, const uint8_t *data, size_t len);

/* Inflates the raw deflate stream SRC[0..LEN) of P->e into P, never past
 * the declared uncompressed size. 0, the sink's non-zero return, or -1
 * with ERR. */
int td_zip_inflate(struct td_zip_pump *p, const uint8_t *src, uint64_t len, struct td_err *err);

#endif
