/* NVIDIA fat binaries: a CUDA library holds one or more containers, each a
 * list of entries (a cubin for one sm_XY, PTX for one compute_XY, LTO-IR
 * for one lto_XY), in its .nv_fatbin section and, in NVIDIA's own large
 * libraries, among other data (.ldata, .lrodata, .rodata, .cask_resource,
 * __nv_relfatbin). This reader lists the entries and their architectures
 * from the headers alone, without decompressing any payload. The layout is
 * not documented by NVIDIA; fatbin.c cites where each field comes from. */
#ifndef TD_FORMAT_FATBIN_H
#define TD_FORMAT_FATBIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/err.h"

enum {
    TD_FATBIN_MAGIC = 0xBA55ED50u,
    TD_FATBIN_PTX = 1,
    TD_FATBIN_ELF = 2,
    TD_FATBIN_LTO = 8, /* LTO-IR (nvcc code=lto_80): linked by nvJitLink, never loaded as is */
    TD_FATBIN_HEADER_SIZE = 16, /* magic, version, header size, fat size */
    TD_FATBIN_ENTRY_MIN = 0x30, /* an entry header up to and including its flags */
};

/* How an entry's payload is stored (its flags; the payload is never read). */
enum td_fatbin_compression {
    TD_FATBIN_PLAIN,
    TD_FATBIN_LZ4,  /* fatbinary --compress-mode=speed */
    TD_FATBIN_ZSTD, /* fatbinary's default mode (CUDA 12.8 and later) */
};

struct td_fatbin_entry {
    uint16_t kind; /* TD_FATBIN_PTX, TD_FATBIN_ELF, or another value (kept, not named) */
    uint32_t arch; /* 80 for sm_80 / compute_80 */
    char variant;  /* 'a' arch-specific (sm_90a), 'f' family-specific (sm_100f), or 0 */
    uint16_t version_major, version_minor; /* PTX: the PTX ISA version (9.0); cubin: its
                                              code version (1.8) */
    uint64_t flags;
    bool compressed; /* a compression flag is set (the payload was not read) */
    enum td_fatbin_compression compression;
    uint64_t container;         /* of its container's header, from the start of the buffer */
    uint64_t offset;            /* of the entry header, from the start of the buffer */
    uint64_t payload_offset;    /* entry offset + entry header size */
    uint64_t payload_size;      /* as stored (compressed size when compressed) */
    uint64_t uncompressed_size; /* compressed entries: the size once inflated; else 0 */
};

struct td_fatbin {
    struct td_fatbin_entry *entries; /* arena, in buffer order */
    size_t count;
    size_t containers;
};

/* Walks every container in DATA (a whole .nv_fatbin section; zero padding
 * between containers is skipped). Returns 0 when every byte was accounted
 * for; -1 with ERR naming the offset and structure at the first bad
 * header, in which case the entries read before it are still listed. */
int td_fatbin_parse(struct td_fatbin *fb, const uint8_t *data, size_t size, struct td_arena *arena,
                    struct td_err *err);

/* Calls VISIT for each entry of DATA in buffer order, as td_fatbin_parse
 * reads them, until VISIT returns false; no memory is allocated. Returns
 * as td_fatbin_parse (0 also when VISIT stopped the walk). */
int td_fatbin_walk(const uint8_t *data, size_t size,
                   bool (*visit)(const struct td_fatbin_entry *e, void *ctx), void *ctx,
                   struct td_err *err);

/* Reads N bytes at offset OFF of the section into OUT (the caller's
 * pread); false when it cannot. */
typedef bool (*td_fatbin_read_fn)(void *src, uint64_t off, void *out, size_t n);

/* As td_fatbin_walk over a section of SIZE bytes that READ reads: only
 * the container and entry headers are read (a few dozen bytes each), so
 * the payloads' pages of a mapped file are never touched. The same
 * entries and errors as td_fatbin_walk, plus "unreadable" when READ fails. */
int td_fatbin_walk_read(td_fatbin_read_fn read, void *src, uint64_t size,
                        bool (*visit)(const struct td_fatbin_entry *e, void *ctx), void *ctx,
                        struct td_err *err);

/* What a search of a region found (td_fatbin_scan). */
struct td_fatbin_scan {
    size_t containers; /* added to: one counter over several regions */
    uint64_t scanned;  /* bytes searched for a header, outside containers */
    bool stopped;      /* VISIT returned false */
};

/* Every container of the region DATA of SIZE bytes, their entries to
 * VISIT in order. PRIMARY: the region is a fat binary section, all
 * containers and padding, read as td_fatbin_walk (a bad header is -1 with
 * ERR). Otherwise containers are searched for among other data: each
 * 8-byte-aligned offset holding the magic whose header and entry chain
 * hold is one, the search resumes after its end (its payloads are never
 * read), and anything else is data; always 0. */
int td_fatbin_scan(const uint8_t *data, size_t size, bool primary,
                   bool (*visit)(const struct td_fatbin_entry *e, void *ctx), void *ctx,
                   struct td_fatbin_scan *st, struct td_err *err);

/* Told that the bytes [OFF, OFF + LEN) of a searched region will not be
 * read again (a few hundred KiB at a time; ranges may overlap): a mapped
 * file's pages wholly inside can be dropped. */
typedef void (*td_fatbin_release_fn)(void *rctx, uint64_t off, uint64_t len);

/* As td_fatbin_scan of a region that is not a fat binary section, in a
 * mapping of the file: RELEASE is told of each stretch the search has
 * passed, so the searched pages do not stay in memory (a container's
 * headers may still be read there after; nothing depends on the release
 * taking effect). */
int td_fatbin_scan_mapped(const uint8_t *data, size_t size, td_fatbin_release_fn release,
                          void *rctx, bool (*visit)(const struct td_fatbin_entry *e, void *ctx),
                          void *ctx, struct td_fatbin_scan *st);

/* As td_fatbin_scan over a region that READ reads: headers are read a few
 * dozen bytes at a time, so no payload page is touched, and the bytes
 * outside containers in pieces of up to 64 KiB. */
int td_fatbin_scan_read(td_fatbin_read_fn read, void *src, uint64_t size, bool primary,
                        bool (*visit)(const struct td_fatbin_entry *e, void *ctx), void *ctx,
                        struct td_fatbin_scan *st, struct td_err *err);

/* "sm_80" for a cubin, "compute_90" for PTX, "lto_80" for LTO-IR, "sm_90a"
 * / "compute_100f" for the arch- and family-specific variants, into OUT;
 * NULL for other kinds. */
const char *td_fatbin_arch_name(const struct td_fatbin_entry *e, char *out, size_t cap);

/* The distinct architecture names of FB in first-seen order, as arena
 * strings in an arena array. Returns the count (0 when none or no memory). */
size_t td_fatbin_archs(const struct td_fatbin *fb, struct td_arena *arena, const char ***out);

/* "zstd", "lz4" or "none". */
const char *td_fatbin_compression_name(enum td_fatbin_compression c);

#endif
