/* safetensors headers (huggingface/safetensors, docs "Format"): an 8-byte
 * little-endian header length N, N bytes of JSON mapping each tensor name
 * to {dtype, shape, data_offsets: [begin, end]} (offsets relative to the
 * byte after the header) and an optional "__metadata__" string map, then
 * the tensor bytes. Only the header is read: a caller may hand a buffer
 * holding just the first 8 + N bytes of a file of FILE_SIZE bytes. */
#ifndef TD_FORMAT_SAFETENSORS_H
#define TD_FORMAT_SAFETENSORS_H

#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/err.h"

enum { TD_ST_MAX_DIMS = 8 };
/* The format's own limit on the header (safetensors rejects larger). */
#define TD_ST_MAX_HEADER ((uint64_t)100 << 20)

struct td_st_tensor {
    const char *name;
    const char *dtype; /* "BF16", "F32", ... as written */
    unsigned bits;     /* per element, from the dtype */
    uint32_t ndim;
    uint64_t shape[TD_ST_MAX_DIMS];
    uint64_t begin, end; /* data_offsets */
    uint64_t elements;
};

struct td_safetensors {
    uint64_t header_len;
    uint64_t data_start; /* 8 + header_len */
    struct td_st_tensor *tensors;
    size_t count;
    uint64_t elements;   /* sum over tensors: the parameter count */
    uint64_t data_bytes; /* sum of end - begin */
    size_t metadata;     /* __metadata__ entries */
};

/* Parses the header in DATA[0, AVAIL) of a file of FILE_SIZE bytes. 0, or
 * -1 with ERR naming the byte offset of what is wrong: a length past the
 * file or over TD_ST_MAX_HEADER, invalid JSON, an unknown dtype, offsets
 * out of the data, overlapping, or disagreeing with dtype x shape. */
int td_safetensors_parse(struct td_safetensors *out, const uint8_t *data, size_t avail,
                         uint64_t file_size, struct td_arena *arena, struct td_err *err);

/* Bits per element of a safetensors dtype name; 0 when unknown. */
unsigned td_safetensors_dtype_bits(const char *dtype);

#endif
