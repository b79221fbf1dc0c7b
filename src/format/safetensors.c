/* safetensors header reader: see safetensors.h. */
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "format/buf.h"
#include "format/safetensors.h"

/* The dtypes of the format's Dtype enum (safetensors/src/tensor.rs). */
static const struct {
    const char *name;
    unsigned bits;
} dtypes[] = {{"BOOL", 8},        {"U8", 8},         {"I8", 8},      {"F8_E5M2", 8}, {"F8_E4M3", 8},
              {"F8_E8M0", 8},     {"F4", 4},         {"F6_E2M3", 6}, {"F6_E3M2", 6}, {"I16", 16},
              {"U16", 16},        {"F16", 16},       {"BF16", 16},   {"I32", 32},    {"U32", 32},
              {"F32", 32},        {"F64", 64},       {"I64", 64},    {"U64", 64},    {"C64", 64},
              {"F8_E4M3FNUZ", 8}, {"F8_E5M2FNUZ", 8}};

unsigned td_safetensors_dtype_bits(const char *dtype)
{
    for (size_t i = 0; i < sizeof dtypes / sizeof dtypes[0]; i++)
        if (strcmp(dtypes[i].name, dtype) == 0)
            return dtypes[i].bits;
    return 0;
}

struct ctx {
    struct td_json j;
    struct td_arena *arena;
    struct td_err *err;
    uint64_t base; /* file offset of the JSON text */
};

static int fail_at(struct ctx *c, const char *what)
{
    uint64_t at = c->base + (uint64_t)(c->j.p - c->j.start);
    if (c->j.error) {
        at = c->base + c->j.error_at;
        td_err_set(c->err, "safetensors header: invalid JSON at byte %llu: %s",
                   (unsigned long long)at, c->j.error);
    } else {
        td_err_set(c->err, "safetensors header: %s at byte %llu", what, (unsigned long long)at);
    }
    return -1;
}

static int read_shape(struct ctx *c, struct td_st_tensor *t)
{
    bool first = true;
    if (!td_json_enter(&c->j, TD_JSON_ARRAY))
        return fail_at(c, "shape is not an array");
    t->elements = 1;
    while (td_json_next(&c->j, &first)) {
        uint64_t d;
        if (t->ndim == TD_ST_MAX_DIMS)
            return fail_at(c, "shape has more than 8 dimensions");
        if (!td_json_uint(&c->j, &d))
            return fail_at(c, "shape holds something other than a non-negative integer");
        if (!td_mul_u64(t->elements, d, &t->elements))
            return fail_at(c, "shape's element count overflows 64 bits");
        t->shape[t->ndim++] = d;
    }
    return c->j.error ? fail_at(c, "") : 0;
}

static int read_offsets(struct ctx *c, struct td_st_tensor *t)
{
    bool first = true;
    uint64_t v[2];
    int n = 0;
    if (!td_json_enter(&c->j, TD_JSON_ARRAY))
        return fail_at(c, "data_offsets is not an array");
    while (td_json_next(&c->j, &first)) {
        if (n == 2 || !td_json_uint(&c->j, &v[n++]))
            return fail_at(c, "data_offsets is not two non-negative integers");
    }
    if (c->j.error || n != 2)
        return fail_at(c, "data_offsets is not two non-negative integers");
    t->begin = v[0], t->end = v[1];
    return 0;
}

static int read_tensor(struct ctx *c, struct td_st_tensor *t)
{
    bool first = true, have_shape = false, have_offsets = false;
    uint64_t at = c->base + (uint64_t)(c->j.p - c->j.start);
    if (!td_json_enter(&c->j, TD_JSON_OBJECT))
        return fail_at(c, "tensor entry is not an object");
    while (td_json_next(&c->j, &first)) {
        struct td_json_str key, s;
        if (!td_json_key(&c->j, &key))
            return fail_at(c, "");
        if (td_json_is(&key, "dtype")) {
            if (!td_json_string(&c->j, &s))
                return fail_at(c, "dtype is not a string");
            t->dtype = td_json_strdup(c->arena, &s);
            if (!t->dtype)
                return fail_at(c, "dtype is not valid text");
        } else if (td_json_is(&key, "shape")) {
            if (read_shape(c, t) != 0)
                return -1;
            have_shape = true;
        } else if (td_json_is(&key, "data_offsets")) {
            if (read_offsets(c, t) != 0)
                return -1;
            have_offsets = true;
        } else if (!td_json_skip(&c->j)) {
            return fail_at(c, "");
        }
    }
    if (c->j.error)
        return fail_at(c, "");
    if (!t->dtype || !have_shape || !have_offsets) {
        td_err_set(c->err, "safetensors header: tensor '%s' at byte %llu lacks %s", t->name,
                   (unsigned long long)at,
                   !t->dtype     ? "dtype"
                   : !have_shape ? "shape"
                                 : "data_offsets");
        return -1;
    }
    t->bits = td_safetensors_dtype_bits(t->dtype);
    if (!t->bits) {
        td_err_set(c->err, "safetensors header: tensor '%s' at byte %llu has unknown dtype '%s'",
                   t->name, (unsigned long long)at, t->dtype);
        return -1;
    }
    return 0;
}

static int cmp_begin(const void *a, const void *b)
{
    const struct td_st_tensor *x = *(const struct td_st_tensor *const *)a;
    const struct td_st_tensor *y = *(const struct td_st_tensor *const *)b;
    return x->begin < y->begin ? -1 : x->begin > y->begin;
}

/* Offsets: inside the data, of dtype x shape bytes, and disjoint. */
static int check_offsets(struct td_safetensors *s, uint64_t file_size, struct td_arena *arena,
                         struct td_err *err)
{
    uint64_t data_len = file_size - s->data_start;
    for (size_t i = 0; i < s->count; i++) {
        const struct td_st_tensor *t = &s->tensors[i];
        uint64_t bits, need;
        if (!td_mul_u64(t->elements, t->bits, &bits)) {
            td_err_set(err, "safetensors header: tensor '%s' declares a size that overflows",
                       t->name);
            return -1;
        }
        need = bits / 8 + (bits % 8 != 0);
        if (t->end < t->begin || t->end > data_len) {
            td_err_set(err,
                       "safetensors header: tensor '%s' data_offsets [%llu, %llu] lie outside "
                       "the %llu data bytes (file offset %llu on)",
                       t->name, (unsigned long long)t->begin, (unsigned long long)t->end,
                       (unsigned long long)data_len, (unsigned long long)s->data_start);
            return -1;
        }
        if (t->end - t->begin != need) {
            td_err_set(err,
                       "safetensors header: tensor '%s' data_offsets [%llu, %llu] hold %llu "
                       "bytes, but %s x %llu elements need %llu",
                       t->name, (unsigned long long)t->begin, (unsigned long long)t->end,
                       (unsigned long long)(t->end - t->begin), t->dtype,
                       (unsigned long long)t->elements, (unsigned long long)need);
            return -1;
        }
        s->elements += t->elements;
        s->data_bytes += need;
    }
    const struct td_st_tensor **order = td_arena_array(arena, s->count + 1, sizeof *order);
    if (!order) {
        td_err_set(err, "safetensors header: %zu tensors: out of memory", s->count);
        return -1;
    }
    for (size_t i = 0; i < s->count; i++)
        order[i] = &s->tensors[i];
    qsort(order, s->count, sizeof *order, cmp_begin);
    for (size_t i = 1; i < s->count; i++)
        if (order[i]->begin < order[i - 1]->end) {
            td_err_set(err,
                       "safetensors header: tensors '%s' [%llu, %llu] and '%s' [%llu, %llu] "
                       "overlap",
                       order[i - 1]->name, (unsigned long long)order[i - 1]->begin,
                       (unsigned long long)order[i - 1]->end, order[i]->name,
                       (unsigned long long)order[i]->begin, (unsigned long long)order[i]->end);
            return -1;
        }
    return 0;
}

/* Counts the top-level members, so that the tensor array is sized once;
 * the JSON is validated on the way (C->j holds the error). */
static bool count_members(struct ctx *c, size_t *n)
{
    bool first = true;
    *n = 0;
    if (!td_json_enter(&c->j, TD_JSON_OBJECT))
        return false;
    while (td_json_next(&c->j, &first)) {
        struct td_json_str k;
        if (!td_json_key(&c->j, &k) || !td_json_skip(&c->j))
            return false;
        (*n)++;
    }
    return !c->j.error;
}

int td_safetensors_parse(struct td_safetensors *out, const uint8_t *data, size_t avail,
                         uint64_t file_size, struct td_arena *arena, struct td_err *err)
{
    memset(out, 0, sizeof *out);
    struct td_buf b = td_buf_make(data, avail, false);
    if (file_size < 8 || !td_buf_u64(&b, 0, &out->header_len)) {
        td_err_set(err,
                   "safetensors: %llu bytes, too short for the 8-byte header length at "
                   "byte 0",
                   (unsigned long long)file_size);
        return -1;
    }
    if (out->header_len > file_size - 8 || out->header_len > TD_ST_MAX_HEADER) {
        td_err_set(err, "safetensors: header length %llu at byte 0 is %s (file of %llu bytes)",
                   (unsigned long long)out->header_len,
                   out->header_len > TD_ST_MAX_HEADER ? "over the format's 100 MiB limit"
                                                      : "past the end of the file",
                   (unsigned long long)file_size);
        return -1;
    }
    out->data_start = 8 + out->header_len;
    const char *text = (const char *)td_buf_at(&b, 8, out->header_len);
    if (!text) {
        td_err_set(err, "safetensors: header bytes [8, %llu) not available",
                   (unsigned long long)out->data_start);
        return -1;
    }
    size_t len = (size_t)out->header_len, cap;
    struct ctx c = {.arena = arena, .err = err, .base = 8};
    td_json_init(&c.j, text, len);
    if (!count_members(&c, &cap))
        return fail_at(&c, "the header is not a JSON object");
    out->tensors = td_arena_array(arena, cap + 1, sizeof *out->tensors);
    if (!out->tensors) {
        td_err_set(err, "safetensors header: %zu entries: out of memory", cap);
        return -1;
    }
    td_json_init(&c.j, text, len);
    bool first = true;
    if (!td_json_enter(&c.j, TD_JSON_OBJECT))
        return fail_at(&c, "the header is not a JSON object");
    while (td_json_next(&c.j, &first)) {
        struct td_json_str key;
        if (!td_json_key(&c.j, &key))
            return fail_at(&c, "");
        if (td_json_is(&key, "__metadata__")) {
            bool mfirst = true;
            if (!td_json_enter(&c.j, TD_JSON_OBJECT))
                return fail_at(&c, "__metadata__ is not an object");
            while (td_json_next(&c.j, &mfirst)) {
                struct td_json_str k, v;
                if (!td_json_key(&c.j, &k) || !td_json_string(&c.j, &v))
                    return fail_at(&c, "__metadata__ holds a value that is not a string");
                out->metadata++;
            }
            if (c.j.error)
                return fail_at(&c, "");
            continue;
        }
        if (out->count == cap)
            return fail_at(&c, "more entries than counted");
        struct td_st_tensor *t = &out->tensors[out->count++];
        t->name = td_json_strdup(arena, &key);
        if (!t->name)
            return fail_at(&c, "tensor name is not valid text");
        if (read_tensor(&c, t) != 0)
            return -1;
    }
    if (c.j.error)
        return fail_at(&c, "");
    td_json_peek(&c.j); /* skips the trailing spaces the format pads with */
    if (c.j.p != c.j.end)
        return fail_at(&c, "text after the header object");
    return check_offsets(out, file_size, arena, err);
}
