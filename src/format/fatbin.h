/* NVIDIA fat binaries: the .nv_fatbin section of a CUDA library holds one or
 * more containers, each a list of entries (a cubin for one sm_XY, or PTX for
 * one compute_XY). This reader lists the entries and their architectures
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
    TD_FATBIN_HEADER_SIZE = 16, /* magic, version, header size, fat size */
    TD_FATBIN_ENTRY_MIN = 0x30, /* an entry header up to and including its flags */
};

struct td_fatbin_entry {
    uint16_t kind; /* TD_FATBIN_PTX, TD_FATBIN_ELF, or another value (kept, not named) */
    uint32_t arch; /* 80 for sm_80 / compute_80 */
    uint64_t flags;
    bool compressed;         /* a compression flag is set (the payload was not read) */
    uint64_t offset;         /* of the entry header, from the start of the buffer */
    uint64_t payload_offset; /* entry offset + entry header size */
    uint64_t payload_size;
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

/* "sm_80" for a cubin, "compute_90" for PTX, into OUT; NULL for other kinds. */
const char *td_fatbin_arch_name(const struct td_fatbin_entry *e, char *out, size_t cap);

/* The distinct architecture names of FB in first-seen order, as arena
 * strings in an arena array. Returns the count (0 when none or no memory). */
size_t td_fatbin_archs(const struct td_fatbin *fb, struct td_arena *arena, const char ***out);

#endif
