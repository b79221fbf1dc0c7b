/* Zip archives (PKWARE APPNOTE 6.3.x) and Python wheels built on them: the
 * central directory, member data (stored or deflated), and the wheel's own
 * text files (file name, WHEEL, METADATA). Pure functions over a buffer. */
#ifndef TD_FORMAT_ZIP_H
#define TD_FORMAT_ZIP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/err.h"
#include "format/buf.h"

enum {
    TD_ZIP_STORED = 0,
    TD_ZIP_DEFLATED = 8,
};

/* General purpose bit flags (APPNOTE 4.4.4). */
enum {
    TD_ZIP_FLAG_ENCRYPTED = 1u << 0,
    TD_ZIP_FLAG_DATA_DESCRIPTOR = 1u << 3,
    TD_ZIP_FLAG_STRONG_ENCRYPTION = 1u << 6,
    TD_ZIP_FLAG_UTF8 = 1u << 11,
};

/* One central directory record, with ZIP64 overrides already applied. */
struct td_zip_entry {
    const char *name; /* arena copy, NUL-terminated (the name may hold NULs: use name_len) */
    size_t name_len;
    uint16_t version_made_by; /* high byte: host system (3 = Unix, APPNOTE 4.4.2) */
    uint16_t flags;
    uint16_t method;
    uint32_t crc32;
    uint64_t compressed_size;
    uint64_t uncompressed_size;
    uint64_t local_header_offset;
    uint32_t external_attr;
    uint64_t cd_offset; /* where this record starts in the buffer */
    bool zip64;         /* a ZIP64 extended information field was used */
};

struct td_zip_index;

struct td_zip {
    struct td_buf buf;
    struct td_zip_entry *entries; /* in central directory order */
    size_t count;
    uint64_t eocd_offset;  /* End Of Central Directory record */
    uint64_t zip64_offset; /* ZIP64 EOCD record, when zip64 */
    uint64_t cd_offset;    /* central directory start */
    uint64_t cd_size;
    bool zip64;
    const uint8_t *comment; /* archive comment, points into the buffer */
    size_t comment_len;
    struct td_arena *arena; /* for the name index built on first lookup */
    struct td_zip_index *index;
};

/* Reads the End Of Central Directory record (and the ZIP64 one when its
 * locator is present) and every central directory record. Names are copied
 * into ARENA; DATA must outlive Z. Returns 0, or -1 with ERR set naming the
 * structure and offset. Multi-disk archives are refused as "not parsed". */
int td_zip_open(struct td_zip *z, const uint8_t *data, size_t size, struct td_arena *arena,
                struct td_err *err);

/* The member named exactly NAME (LEN bytes), or NULL. When a name occurs
 * twice, the later record wins, as it would on disk after extraction. */
const struct td_zip_entry *td_zip_find(struct td_zip *z, const char *name, size_t len);

/* Unix mode bits (st_mode) when the member was made on Unix, else 0. */
uint32_t td_zip_unix_mode(const struct td_zip_entry *e);
bool td_zip_is_symlink(const struct td_zip_entry *e);
bool td_zip_is_dir(const struct td_zip_entry *e);
bool td_zip_is_encrypted(const struct td_zip_entry *e);

/* Checks the member's local file header (signature, name equal to the
 * central one, data before the central directory) and returns where its
 * data starts. */
int td_zip_data_offset(const struct td_zip *z, const struct td_zip_entry *e, uint64_t *offset,
                       struct td_err *err);

/* A stored (method 0) member's bytes, in place. The CRC is not checked
 * here (that would read every byte); td_zip_extract and td_zip_stream do. */
int td_zip_stored(const struct td_zip *z, const struct td_zip_entry *e, const uint8_t **data,
                  size_t *len, struct td_err *err);

/* Decompresses a stored or deflated member into OUT, whose size must be
 * exactly e->uncompressed_size. Fails when the data yields more or fewer
 * bytes than declared (stopping at the declared size) or the CRC-32
 * differs. Encrypted members and other methods are refused. */
int td_zip_extract(const struct td_zip *z, const struct td_zip_entry *e, uint8_t *out,
                   size_t out_size, struct td_err *err);

/* Receives the member's bytes in order, at most TD_ZIP_CHUNK at a time.
 * Returning nonzero stops the stream; td_zip_stream then returns that value. */
typedef int (*td_zip_sink)(void *ctx, const uint8_t *chunk, size_t len);

enum { TD_ZIP_CHUNK = 32 * 1024 };

/* Like td_zip_extract, but hands the data to SINK in bounded chunks, so a
 * member of any size can be hashed or scanned without holding it whole.
 * The size and CRC checks happen at the end (after the last chunk). */
int td_zip_stream(const struct td_zip *z, const struct td_zip_entry *e, td_zip_sink sink, void *ctx,
                  struct td_err *err);

/* --- Wheels (PEP 427, packaging.python.org "Binary distribution format") --- */

/* One tag field, split at dots: "cp311.cp312" is two tags (PEP 425
 * "compressed tag sets"). */
struct td_zip_tags {
    const char *text; /* the whole field */
    const char **items;
    size_t count;
};

/* {name}-{version}(-{build})?-{python tag}-{abi tag}-{platform tag}.whl */
struct td_zip_wheel_name {
    const char *name;
    const char *version;
    const char *build; /* NULL when absent */
    struct td_zip_tags python, abi, platform;
};

/* Parses a wheel file name (a directory part, '/' or '\\', is ignored). */
int td_zip_wheel_parse_name(struct td_zip_wheel_name *w, const char *filename, size_t len,
                            struct td_arena *arena, struct td_err *err);

/* The one top-level "*.dist-info" directory (returned without the slash);
 * an error when there is none or more than one. */
int td_zip_wheel_dist_info(const struct td_zip *z, const char **dir, struct td_arena *arena,
                           struct td_err *err);

/* The WHEEL file's headers. */
struct td_zip_wheel_file {
    const char *wheel_version; /* NULL when absent */
    const char *generator;
    const char *build;
    int root_is_purelib; /* 1 true, 0 false, -1 absent */
    const char **tags;
    size_t tag_count;
};

int td_zip_wheel_parse_wheel(struct td_zip_wheel_file *w, const char *text, size_t len,
                             struct td_arena *arena, struct td_err *err);

/* METADATA headers (core metadata, email-header style): only the header
 * block before the first blank line is read; the body is the description. */
struct td_zip_metadata {
    const char *metadata_version;
    const char *name;
    const char *version;
    const char *requires_python;
    const char **requires_dist;
    size_t requires_dist_count;
};

int td_zip_wheel_parse_metadata(struct td_zip_metadata *m, const char *text, size_t len,
                                struct td_arena *arena, struct td_err *err);

#endif
