/* GGUF headers (ggml's docs/gguf.md): magic "GGUF", version (2 or 3),
 * tensor count and metadata count (uint64), the metadata key/values
 * (gguf strings are a uint64 length and bytes; values are typed, arrays
 * hold a type and a count), then each tensor's name, dimensions, ggml type
 * and offset into the aligned data section. Only the header is read. */
#ifndef TD_FORMAT_GGUF_H
#define TD_FORMAT_GGUF_H

#include <stdint.h>

#include "base/arena.h"
#include "base/err.h"
#include "format/buf.h"

enum { TD_GGUF_MAX_DIMS = 4 };

enum td_gguf_type {
    TD_GGUF_U8,
    TD_GGUF_I8,
    TD_GGUF_U16,
    TD_GGUF_I16,
    TD_GGUF_U32,
    TD_GGUF_I32,
    TD_GGUF_F32,
    TD_GGUF_BOOL,
    TD_GGUF_STRING,
    TD_GGUF_ARRAY,
    TD_GGUF_U64,
    TD_GGUF_I64,
    TD_GGUF_F64,
};

struct td_gguf_kv {
    const char *key;
    uint32_t type;      /* enum td_gguf_type */
    uint32_t elem_type; /* for an array */
    uint64_t count;     /* for an array */
    const char *str;    /* a string value, or NULL */
    double num;         /* a number or bool */
};

struct td_gguf_tensor {
    const char *name;
    uint32_t ndim;
    uint64_t dims[TD_GGUF_MAX_DIMS];
    uint32_t ggml_type;
    uint64_t offset; /* from the data section's start */
    uint64_t elements;
    uint64_t bytes; /* from the type's block size; 0 for a type not known here */
};

struct td_gguf {
    uint32_t version;
    uint64_t tensor_count, kv_count;
    struct td_gguf_kv *kvs;
    struct td_gguf_tensor *tensors;
    uint64_t alignment, data_start;
    uint64_t elements, bytes;
    const char *architecture; /* general.architecture, or NULL */
};

/* Parses the header of B (a file of b->size bytes). 0, or -1 with ERR
 * naming the byte offset of what is wrong. */
int td_gguf_parse(struct td_gguf *out, const struct td_buf *b, struct td_arena *arena,
                  struct td_err *err);

/* The ggml type's name ("Q4_K"), or NULL when not known here. */
const char *td_gguf_type_name(uint32_t ggml_type);

#endif
