/* GGUF header reader: see gguf.h. */
#include <stdio.h>
#include <string.h>

#include "format/gguf.h"

/* ggml types: name, elements per block, bytes per block (ggml.c's
 * type_traits; the quantised types store blocks of 32 or 256). */
static const struct {
    uint32_t id;
    const char *name;
    unsigned block, size;
} types[] = {
    {0, "F32", 1, 4},       {1, "F16", 1, 2},       {2, "Q4_0", 32, 18},    {3, "Q4_1", 32, 20},
    {6, "Q5_0", 32, 22},    {7, "Q5_1", 32, 24},    {8, "Q8_0", 32, 34},    {9, "Q8_1", 32, 36},
    {10, "Q2_K", 256, 84},  {11, "Q3_K", 256, 110}, {12, "Q4_K", 256, 144}, {13, "Q5_K", 256, 176},
    {14, "Q6_K", 256, 210}, {15, "Q8_K", 256, 292}, {24, "I8", 1, 1},       {25, "I16", 1, 2},
    {26, "I32", 1, 4},      {27, "I64", 1, 8},      {28, "F64", 1, 8},      {30, "BF16", 1, 2},
};

const char *td_gguf_type_name(uint32_t id)
{
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (types[i].id == id)
            return types[i].name;
    return NULL;
}

struct rd {
    const struct td_buf *b;
    uint64_t at;
    struct td_arena *arena;
    struct td_err *err;
};

static bool short_read(struct rd *r, const char *what)
{
    td_err_set(r->err, "gguf: %s at byte %llu runs past the end of the file (%zu bytes)", what,
               (unsigned long long)r->at, r->b->size);
    return false;
}

static bool u32(struct rd *r, uint32_t *v, const char *what)
{
    if (!td_buf_u32(r->b, r->at, v))
        return short_read(r, what);
    r->at += 4;
    return true;
}

static bool u64(struct rd *r, uint64_t *v, const char *what)
{
    if (!td_buf_u64(r->b, r->at, v))
        return short_read(r, what);
    r->at += 8;
    return true;
}

/* A gguf string; OUT may be NULL to skip it. */
static bool str(struct rd *r, const char **out, const char *what)
{
    uint64_t len, start = r->at;
    if (!u64(r, &len, what))
        return false;
    const uint8_t *p = td_buf_at(r->b, r->at, len);
    if (!p) {
        r->at = start;
        td_err_set(r->err, "gguf: %s at byte %llu declares %llu bytes, past the end of the file",
                   what, (unsigned long long)start, (unsigned long long)len);
        return false;
    }
    if (out) {
        *out = td_arena_strndup(r->arena, (const char *)p, (size_t)len);
        if (!*out) {
            td_err_set(r->err, "gguf: %s at byte %llu: out of memory", what,
                       (unsigned long long)start);
            return false;
        }
    }
    r->at += len;
    return true;
}

static unsigned scalar_size(uint32_t type)
{
    static const unsigned size[] = {1, 1, 2, 2, 4, 4, 4, 1, 0, 0, 8, 8, 8};
    return type < sizeof size / sizeof size[0] ? size[type] : 0;
}

static double scalar(const struct td_buf *b, uint64_t at, uint32_t type)
{
    uint8_t v8;
    uint16_t v16;
    uint32_t v32;
    uint64_t v64;
    float f;
    double d;
    switch (type) {
    case TD_GGUF_U8:
    case TD_GGUF_BOOL:
        return td_buf_u8(b, at, &v8), v8;
    case TD_GGUF_I8:
        return td_buf_u8(b, at, &v8), (int8_t)v8;
    case TD_GGUF_U16:
        return td_buf_u16(b, at, &v16), v16;
    case TD_GGUF_I16:
        return td_buf_u16(b, at, &v16), (int16_t)v16;
    case TD_GGUF_U32:
        return td_buf_u32(b, at, &v32), v32;
    case TD_GGUF_I32:
        return td_buf_u32(b, at, &v32), (int32_t)v32;
    case TD_GGUF_F32:
        td_buf_u32(b, at, &v32);
        memcpy(&f, &v32, 4);
        return f;
    case TD_GGUF_U64:
        return td_buf_u64(b, at, &v64), (double)v64;
    case TD_GGUF_I64:
        return td_buf_u64(b, at, &v64), (double)(int64_t)v64;
    default:
        td_buf_u64(b, at, &v64);
        memcpy(&d, &v64, 8);
        return d;
    }
}

static bool value(struct rd *r, struct td_gguf_kv *kv)
{
    uint64_t start = r->at;
    if (kv->type == TD_GGUF_STRING)
        return str(r, &kv->str, "string value");
    if (kv->type == TD_GGUF_ARRAY) {
        if (!u32(r, &kv->elem_type, "array type") || !u64(r, &kv->count, "array count"))
            return false;
        unsigned size = scalar_size(kv->elem_type);
        if (kv->elem_type == TD_GGUF_STRING) {
            for (uint64_t i = 0; i < kv->count; i++)
                if (!str(r, NULL, "array string"))
                    return false;
            return true;
        }
        if (!size) {
            td_err_set(r->err,
                       "gguf: array at byte %llu has element type %u (not a scalar or "
                       "string)",
                       (unsigned long long)start, kv->elem_type);
            return false;
        }
        if (!td_buf_has_array(r->b, r->at, kv->count, size)) {
            td_err_set(r->err,
                       "gguf: array at byte %llu declares %llu elements, past the end "
                       "of the file",
                       (unsigned long long)start, (unsigned long long)kv->count);
            return false;
        }
        r->at += kv->count * size;
        return true;
    }
    unsigned size = scalar_size(kv->type);
    if (!size) {
        td_err_set(r->err, "gguf: metadata '%s' at byte %llu has unknown value type %u", kv->key,
                   (unsigned long long)start, kv->type);
        return false;
    }
    if (!td_buf_has(r->b, r->at, size))
        return short_read(r, "value");
    kv->num = scalar(r->b, r->at, kv->type);
    r->at += size;
    return true;
}

static bool tensor_info(struct rd *r, struct td_gguf_tensor *t)
{
    uint64_t start = r->at;
    if (!str(r, &t->name, "tensor name") || !u32(r, &t->ndim, "n_dims"))
        return false;
    if (t->ndim > TD_GGUF_MAX_DIMS) {
        td_err_set(r->err, "gguf: tensor '%s' at byte %llu has %u dimensions (at most 4)", t->name,
                   (unsigned long long)start, t->ndim);
        return false;
    }
    t->elements = 1;
    for (uint32_t d = 0; d < t->ndim; d++) {
        if (!u64(r, &t->dims[d], "dimension"))
            return false;
        if (!td_mul_u64(t->elements, t->dims[d], &t->elements)) {
            td_err_set(r->err, "gguf: tensor '%s' at byte %llu: element count overflows", t->name,
                       (unsigned long long)start);
            return false;
        }
    }
    if (!u32(r, &t->ggml_type, "ggml type") || !u64(r, &t->offset, "tensor offset"))
        return false;
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (types[i].id == t->ggml_type) {
            uint64_t blocks = t->elements / types[i].block + (t->elements % types[i].block != 0);
            if (!td_mul_u64(blocks, types[i].size, &t->bytes)) {
                td_err_set(r->err, "gguf: tensor '%s' at byte %llu: size overflows", t->name,
                           (unsigned long long)start);
                return false;
            }
        }
    return true;
}

static int header(struct td_gguf *g, struct rd *r)
{
    uint32_t magic;
    if (!u32(r, &magic, "magic"))
        return -1;
    if (magic != 0x46554747u) { /* "GGUF" read little-endian */
        td_err_set(r->err, "gguf: no GGUF magic at byte 0");
        return -1;
    }
    if (!u32(r, &g->version, "version"))
        return -1;
    if (g->version != 2 && g->version != 3) {
        td_err_set(r->err, "gguf: version %u at byte 4 (this tool reads 2 and 3)", g->version);
        return -1;
    }
    if (!u64(r, &g->tensor_count, "tensor count") || !u64(r, &g->kv_count, "metadata count"))
        return -1;
    /* Each key/value takes at least 12 bytes and each tensor info 24: a
     * count the file cannot hold is refused before anything is allocated. */
    if (g->kv_count > r->b->size / 12 || g->tensor_count > r->b->size / 24) {
        td_err_set(
            r->err, "gguf: %s count %llu at byte %u is more than a %zu-byte file holds",
            g->kv_count > r->b->size / 12 ? "metadata" : "tensor",
            (unsigned long long)(g->kv_count > r->b->size / 12 ? g->kv_count : g->tensor_count),
            g->kv_count > r->b->size / 12 ? 16u : 8u, r->b->size);
        return -1;
    }
    return 0;
}

int td_gguf_parse(struct td_gguf *g, const struct td_buf *b, struct td_arena *arena,
                  struct td_err *err)
{
    memset(g, 0, sizeof *g);
    struct rd r = {.b = b, .arena = arena, .err = err};
    if (header(g, &r) != 0)
        return -1;
    g->kvs = td_arena_array(arena, (size_t)g->kv_count + 1, sizeof *g->kvs);
    g->tensors = td_arena_array(arena, (size_t)g->tensor_count + 1, sizeof *g->tensors);
    if (!g->kvs || !g->tensors) {
        td_err_set(err, "gguf: %llu metadata entries and %llu tensors: out of memory",
                   (unsigned long long)g->kv_count, (unsigned long long)g->tensor_count);
        return -1;
    }
    g->alignment = 32;
    for (uint64_t i = 0; i < g->kv_count; i++) {
        struct td_gguf_kv *kv = &g->kvs[i];
        if (!str(&r, &kv->key, "metadata key") || !u32(&r, &kv->type, "value type") ||
            !value(&r, kv))
            return -1;
        if (strcmp(kv->key, "general.architecture") == 0 && kv->str)
            g->architecture = kv->str;
        if (strcmp(kv->key, "general.alignment") == 0 && kv->type == TD_GGUF_U32)
            g->alignment = (uint64_t)kv->num;
    }
    if (g->alignment == 0 || (g->alignment & (g->alignment - 1))) {
        td_err_set(err, "gguf: general.alignment %llu is not a power of two",
                   (unsigned long long)g->alignment);
        return -1;
    }
    for (uint64_t i = 0; i < g->tensor_count; i++) {
        if (!tensor_info(&r, &g->tensors[i]))
            return -1;
        g->elements += g->tensors[i].elements;
    }
    g->data_start = (r.at + g->alignment - 1) & ~(g->alignment - 1);
    for (uint64_t i = 0; i < g->tensor_count; i++) {
        const struct td_gguf_tensor *t = &g->tensors[i];
        uint64_t at, end;
        if (!td_add_u64(g->data_start, t->offset, &at) || !td_add_u64(at, t->bytes, &end) ||
            end > b->size) {
            td_err_set(err,
                       "gguf: tensor '%s' at offset %llu (+%llu bytes) lies past the end "
                       "of the file (%zu bytes)",
                       t->name, (unsigned long long)t->offset, (unsigned long long)t->bytes,
                       b->size);
            return -1;
        }
        g->bytes += t->bytes;
    }
    return 0;
}
