/* Streaming JSON writer; see jsonw.h for why it is not a tree. */
#include "report/jsonw.h"

#include <inttypes.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define TD_JW_AVX2 1
#if defined(__GLIBC__) && defined(__has_include)
#if __has_include(<sys/platform/x86.h>)
#include <sys/platform/x86.h>
#define TD_JW_GLIBC_CPU 1
#endif
#endif
#endif

void td_jw_init(struct td_jsonw *w, FILE *out, bool pretty)
{
    w->out = out;
    w->pretty = pretty;
    w->depth = 0;
    w->after_key = false;
    w->inline_from = 0;
    w->used = 0;
    memset(w->first, 0, sizeof w->first);
    w->first[0] = true;
#if defined(TD_JW_GLIBC_CPU)
    /* What glibc found at start-up: no cpuid of our own (each one exits
     * to the hypervisor in a VM; libgcc's __builtin_cpu_supports would
     * add a dozen at every start). */
    w->wide = CPU_FEATURE_ACTIVE(AVX2) && CPU_FEATURE_ACTIVE(BMI1);
#elif defined(TD_JW_AVX2)
    w->wide = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi");
#else
    w->wide = false;
#endif
}

void td_jw_flush(struct td_jsonw *w)
{
    if (w->used)
        fwrite(w->buf, 1, w->used, w->out);
    w->used = 0;
}

static void put(struct td_jsonw *w, const char *s, size_t n)
{
    if (n > sizeof w->buf - w->used) {
        td_jw_flush(w);
        if (n > sizeof w->buf) {
            fwrite(s, 1, n, w->out);
            return;
        }
    }
    memcpy(w->buf + w->used, s, n);
    w->used += n;
}

void td_jw_raw_slow(struct td_jsonw *w, const char *text, size_t len)
{
    put(w, text, len);
}

static void putch(struct td_jsonw *w, char c)
{
    if (w->used == sizeof w->buf)
        td_jw_flush(w);
    w->buf[w->used++] = c;
}

static void puts_(struct td_jsonw *w, const char *s)
{
    put(w, s, strlen(s));
}

static void indent(struct td_jsonw *w)
{
    if (!w->pretty)
        return;
    if (w->inline_from && w->depth >= w->inline_from) {
        putch(w, ' ');
        return;
    }
    static const char spaces[] =
        "\n                                                                ";
    size_t n = 1 + 2 * (size_t)w->depth;
    put(w, spaces, n < sizeof spaces - 1 ? n : sizeof spaces - 1);
}

/* Separator and indentation before any value or key. */
static void before_item(struct td_jsonw *w)
{
    if (w->after_key) {
        w->after_key = false;
        return;
    }
    if (!w->first[w->depth])
        putch(w, ',');
    w->first[w->depth] = false;
    if (w->depth > 0)
        indent(w);
}

static void open_scope(struct td_jsonw *w, char c)
{
    before_item(w);
    putch(w, c);
    if (w->depth < TD_JSONW_MAX_DEPTH - 1)
        w->depth++;
    w->first[w->depth] = true;
}

static void close_scope(struct td_jsonw *w, char c)
{
    bool empty = w->first[w->depth];
    bool in_line = w->inline_from && w->depth >= w->inline_from;
    if (w->depth > 0)
        w->depth--;
    if (!empty && in_line)
        putch(w, ' ');
    else if (!empty)
        indent(w);
    putch(w, c);
    if (w->inline_from && w->depth < w->inline_from)
        w->inline_from = 0;
}

void td_jw_begin_object(struct td_jsonw *w)
{
    open_scope(w, '{');
}

void td_jw_begin_object_inline(struct td_jsonw *w)
{
    open_scope(w, '{');
    if (!w->inline_from)
        w->inline_from = w->depth;
}
void td_jw_end_object(struct td_jsonw *w)
{
    close_scope(w, '}');
}
void td_jw_begin_array(struct td_jsonw *w)
{
    open_scope(w, '[');
}
void td_jw_end_array(struct td_jsonw *w)
{
    close_scope(w, ']');
}

/* Length of the valid UTF-8 sequence at S, or 0 when it is not valid
 * (overlong forms, surrogates and values past U+10FFFF are invalid). */
static size_t utf8_sequence_length(const char *s, size_t avail)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t len;
    uint32_t cp;
    if (p[0] >= 0xc2 && p[0] <= 0xdf) {
        len = 2;
        cp = p[0] & 0x1f;
    } else if (p[0] >= 0xe0 && p[0] <= 0xef) {
        len = 3;
        cp = p[0] & 0x0f;
    } else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
        len = 4;
        cp = p[0] & 0x07;
    } else {
        return 0;
    }
    if (len > avail)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (p[i] & 0x3f);
    }
    if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
        (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
        return 0;
    return len;
}

/* S escaped for a JSON string, without the quotes around it. */
static void escape_body(struct td_jsonw *out, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    size_t run = 0; /* start of the current run of bytes needing no escape */
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
            continue;
        if (c >= 0x80) {
            size_t len = utf8_sequence_length(s + i, n - i);
            if (len) {
                i += len - 1;
                continue;
            }
        }
        put(out, s + run, i - run);
        run = i + 1;
        switch (c) {
        case '"':
            puts_(out, "\\\"");
            break;
        case '\\':
            puts_(out, "\\\\");
            break;
        case '\n':
            puts_(out, "\\n");
            break;
        case '\t':
            puts_(out, "\\t");
            break;
        case '\r':
            puts_(out, "\\r");
            break;
        default: {
            if (c >= 0x80) { /* not UTF-8: binaries may hold any bytes; JSON may not */
                puts_(out, "\\ufffd");
                break;
            }
            char esc[7] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15], 0};
            puts_(out, esc);
        }
        }
    }
    put(out, s + run, n - run);
}

static void write_escaped(struct td_jsonw *out, const char *s, size_t n)
{
    putch(out, '"');
    escape_body(out, s, n);
    putch(out, '"');
}

static void write_cstring(struct td_jsonw *w, const char *s);

void td_jw_key(struct td_jsonw *w, const char *key)
{
    before_item(w);
    write_cstring(w, key); /* keys may come from input (version resource names) */
    puts_(w, w->pretty ? ": " : ":");
    w->after_key = true;
}

void td_jw_stringn(struct td_jsonw *w, const char *s, size_t n)
{
    before_item(w);
    write_escaped(w, s, n);
}

/* Bytes that can be copied as they are: printable ASCII but the quote and
 * the backslash. One table lookup per byte keeps the common case a copy. */
static const unsigned char plain_byte[256] = {
#define R16(v) v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v
    R16(0),
    R16(0),
    /* 0x20-0x2f: '"' (0x22) needs escaping */
    1,
    1,
    0,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    R16(1),
    R16(1),
    /* 0x50-0x5f: '\\' (0x5c) needs escaping */
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    0,
    1,
    1,
    1,
    R16(1),
    /* 0x70-0x7f: DEL is written escaped */
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    0,
#undef R16
};

/* True when one of the 8 bytes of X needs escaping: below 0x20, at or
 * above 0x7f, '"' or '\\' (the zero-byte test of "Bit Twiddling Hacks",
 * applied per condition; a false alarm only sends the word to the exact
 * byte loop). */
static bool word_needs_care(uint64_t x)
{
    const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    uint64_t q = x ^ (ones * '"'), b = x ^ (ones * '\\');
    uint64_t low = (x - ones * 0x20) & ~x;
    uint64_t high = (x + ones) | x;
    uint64_t quote = (q - ones) & ~q, bslash = (b - ones) & ~b;
    return ((low | high | quote | bslash) & highs) != 0;
}

/* Length of the leading run of S (N bytes) that needs no escaping, copied
 * to COPY as it is checked when COPY is not NULL (room for N bytes). */
typedef unsigned char td_bytes16 __attribute__((vector_size(16)));

/* The 16 bytes at S as two words, each byte 0xff where that byte needs
 * escaping (a NUL among them), else 0 (GCC and clang vector types: SSE2 or
 * NEON compares where there are some, word code elsewhere). */
static void care_bytes(const char *s, uint64_t half[2])
{
    td_bytes16 x;
    memcpy(&x, s, sizeof x);
    td_bytes16 care = (td_bytes16)((x < 0x20) | (x >= 0x7f) | (x == '"') | (x == '\\'));
    memcpy(half, &care, 2 * sizeof *half);
}

/* True when one of the 16 bytes at S needs escaping: twice the bytes of
 * word_needs_care per step, in fewer instructions. */
static bool block_needs_care(const char *s)
{
    uint64_t half[2];
    care_bytes(s, half);
    return (half[0] | half[1]) != 0;
}

static size_t plain_prefix(const char *s, size_t n, char *copy)
{
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        if (block_needs_care(s + i))
            break;
        if (copy)
            memcpy(copy + i, s + i, 16);
    }
    for (; i + 8 <= n; i += 8) {
        uint64_t x;
        memcpy(&x, s + i, 8);
        if (word_needs_care(x))
            break;
        if (copy)
            memcpy(copy + i, &x, 8);
    }
    for (; i < n && plain_byte[(unsigned char)s[i]]; i++)
        if (copy)
            copy[i] = s[i];
    return i;
}

/* The N bytes of S escaped, without quotes: the plain run is copied in
 * one piece as it is checked, the escaper takes over from the first byte
 * that needs care. */
static void write_body(struct td_jsonw *w, const char *s, size_t n)
{
    if (n > sizeof w->buf - w->used && n <= sizeof w->buf)
        td_jw_flush(w);
    size_t i;
    if (n <= sizeof w->buf - w->used) {
        i = plain_prefix(s, n, w->buf + w->used);
        w->used += i;
    } else {
        i = plain_prefix(s, n, NULL);
        put(w, s, i);
    }
    if (i < n)
        escape_body(w, s + i, n - i);
}

/* Writes S's N bytes quoted and escaped. */
static void write_stringn(struct td_jsonw *w, const char *s, size_t n)
{
    putch(w, '"');
    write_body(w, s, n);
    putch(w, '"');
}

/* The index of the first of the 16 bytes at S that needs escaping (a NUL
 * among them), or 16. With SSE2 (every x86-64): printable ASCII is one
 * signed compare after an add (0x20-0x7e move to -128..-34), and the
 * bytes' mask one pmovmskb: a step of td_jw_rawstr_room is 25
 * instructions instead of 35 (names copied this way were 37% of inspect
 * --symbols' instructions on libtorch_cpu, callgrind). */
static unsigned first_care(const char *s)
{
#if defined(__SSE2__)
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)s);
    __m128i printable = _mm_cmpgt_epi8(_mm_set1_epi8(-33), _mm_add_epi8(x, _mm_set1_epi8(0x60)));
    __m128i special =
        _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('"')), _mm_cmpeq_epi8(x, _mm_set1_epi8('\\')));
    unsigned plain = (unsigned)_mm_movemask_epi8(_mm_andnot_si128(special, printable));
    return (unsigned)__builtin_ctz(~plain); /* bit 16 of ~plain is set: 16 when all are plain */
#else
    uint64_t half[2];
    care_bytes(s, half);
    if (half[0])
        return (unsigned)__builtin_ctzll(half[0]) / 8;
    return half[1] ? 8 + (unsigned)__builtin_ctzll(half[1]) / 8 : 16;
#endif
}

static void write_cstring(struct td_jsonw *w, const char *s)
{
    write_stringn(w, s, strlen(s));
}

/* ",", a newline and 80 spaces: copied 80 bytes at once, of which an
 * element of a pretty list keeps the first 2 + 2 * depth (indent's cap of
 * 64 spaces kept). */
static const char item_lead[] =
    ",\n                                                                "
    "                ";

void td_jw_item(struct td_jsonw *w)
{
    /* The common case, an element after the first of a pretty list, as
     * one copy of a fixed size (before_item writes the same bytes, a
     * putch and a variable-length copy: a third of a symbol row's time). */
    enum { LEAD = 80 };
    if (w->pretty && !w->after_key && !w->first[w->depth] && w->depth > 0 &&
        !(w->inline_from && w->depth >= w->inline_from) && sizeof w->buf - w->used >= LEAD) {
        size_t n = 1 + 2 * (size_t)w->depth;
        n = 1 + (n < 65 ? n : 65);
        memcpy(w->buf + w->used, item_lead, LEAD);
        w->used += n;
        return;
    }
    before_item(w);
}

size_t td_jw_item_lead(const struct td_jsonw *w, char *out)
{
    if (!w->pretty || w->after_key || w->depth <= 0 ||
        (w->inline_from && w->depth >= w->inline_from))
        return 0;
    size_t n = 1 + 2 * (size_t)w->depth;
    n = 1 + (n < 65 ? n : 65);
    memcpy(out, item_lead, 80);
    return n;
}

#ifdef TD_JW_AVX2
/* The 32 bytes at S copied to OUT, and a mask of those that need no
 * escaping (bit I for byte I): first_care's test in three-operand AVX2
 * forms. */
__attribute__((target("avx2"), always_inline)) static inline uint32_t plain_mask_avx2(char *out,
                                                                                      const char *s)
{
    const __m256i shift = _mm256_set1_epi8(0x60), limit = _mm256_set1_epi8(-33);
    const __m256i quote = _mm256_set1_epi8('"'), bslash = _mm256_set1_epi8('\\');
    __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)s);
    __m256i printable = _mm256_cmpgt_epi8(limit, _mm256_add_epi8(x, shift));
    __m256i special = _mm256_or_si256(_mm256_cmpeq_epi8(x, quote), _mm256_cmpeq_epi8(x, bslash));
    _mm256_storeu_si256((__m256i *)(void *)out, x);
    return (uint32_t)_mm256_movemask_epi8(_mm256_andnot_si256(special, printable));
}

/* The plain run of the 128 bytes at S, all copied to OUT: its length,
 * 128 when every byte is plain. Four steps with no branch between them
 * (BMI1's tzcnt gives 64 for an empty word): a loop of 32-byte steps
 * mispredicted its exit once a name (34,309 of inspect --symbols' 41,552
 * mispredicted branches on libtorch_cpu, callgrind --branch-sim), and 90%
 * of those names are shorter than 128 bytes. */
__attribute__((target("avx2,bmi"))) static size_t plain_block_avx2(char *out, const char *s)
{
    uint64_t lo = plain_mask_avx2(out, s) | (uint64_t)plain_mask_avx2(out + 32, s + 32) << 32;
    uint64_t hi = plain_mask_avx2(out + 64, s + 64) | (uint64_t)plain_mask_avx2(out + 96, s + 96)
                                                          << 32;
    unsigned first = (unsigned)_tzcnt_u64(~lo), second = (unsigned)_tzcnt_u64(~hi);
    return first + (second & -(first >> 6)); /* first is 64 only when LO is all plain */
}

/* first_care 32 bytes at a time, on processors with AVX2 (tested once,
 * at run time: the program is built for every x86-64): copies the plain
 * run of S to OUT for at most STEPS steps of 32 bytes and returns its
 * length, below 32 * STEPS where a byte to escape (or the NUL) ended it.
 * Blocks of 4 steps first (plain_block_avx2): libtorch_cpu's names (77
 * bytes on average) take one. */
__attribute__((target("avx2,bmi"))) static size_t plain_run_avx2(char *out, const char *s,
                                                                 size_t steps)
{
    size_t i = 0;
    for (; steps >= 4; steps -= 4) {
        size_t k = plain_block_avx2(out + i, s + i);
        i += k;
        if (k < 128)
            return i;
    }
    for (; steps; steps--) {
        uint32_t plain = plain_mask_avx2(out + i, s + i);
        unsigned k = (unsigned)__builtin_ctzll(~(uint64_t)plain); /* 32 when all are plain */
        i += k;
        if (k < 32)
            break;
    }
    return i;
}
#endif

char *td_jw_strbody_at(struct td_jsonw *w, char *out, const char *s, size_t room)
{
    size_t i = 0, steps, space;
#ifdef TD_JW_AVX2
    if (w->wide) {
        space = (size_t)(w->buf + sizeof w->buf - out) / 32;
        steps = room / 32 < space ? room / 32 : space;
        i = plain_run_avx2(out, s, steps);
        out += i;
        if (i < 32 * steps) {
            if (!s[i])
                return out;
            steps = 0; /* a byte to escape */
        } else {       /* the last 16-31 bytes of room or space, by the steps below */
            space = (size_t)(w->buf + sizeof w->buf - out) / 16;
            steps = (room - i) / 16 < space ? (room - i) / 16 : space;
        }
    } else
#endif
    {
        /* As many 16-byte steps as both the string's room and the buffer's
         * have: one count, not two comparisons a step. */
        space = (size_t)(w->buf + sizeof w->buf - out) / 16;
        steps = room / 16 < space ? room / 16 : space;
    }
    for (; steps; steps--) {
        unsigned k = first_care(s + i);
        memcpy(out, s + i, 16);
        out += k, i += k;
        if (k < 16) {
            if (!s[i])
                return out;
            break;
        }
    }
    /* A byte to escape, the string's last 16 bytes of room, or the
     * buffer's: the usual path, which flushes where it must. */
    w->used = (size_t)(out - w->buf);
    if (s[i])
        write_body(w, s + i, strlen(s + i));
    return w->buf + w->used;
}

void td_jw_rawstr(struct td_jsonw *w, const char *s)
{
    write_cstring(w, s);
}

void td_jw_rawstr_room(struct td_jsonw *w, const char *s, size_t room)
{
    size_t i = 0;
    putch(w, '"');
    /* 16 bytes a step, copied whole, while they hold neither the NUL nor a
     * byte to escape: the string is read once, not once for its length and
     * again to copy it. The position is kept in a local: a store into the
     * buffer could be one into w->used for all the compiler knows. */
    char *out = w->buf + w->used;
    while (room - i >= 16) {
        if ((size_t)(w->buf + sizeof w->buf - out) < 16) {
            w->used = (size_t)(out - w->buf);
            td_jw_flush(w);
            out = w->buf;
        }
        unsigned k = first_care(s + i);
        memcpy(out, s + i, 16);
        out += k, i += k;
        if (k < 16)
            break;
    }
    w->used = (size_t)(out - w->buf);
    if (s[i]) /* a byte to escape, or the string's last 16 bytes of room */
        write_body(w, s + i, strlen(s + i));
    putch(w, '"');
}

void td_jw_string(struct td_jsonw *w, const char *s)
{
    if (!s) {
        td_jw_null(w);
        return;
    }
    before_item(w);
    write_cstring(w, s);
}

void td_jw_int(struct td_jsonw *w, int64_t v)
{
    before_item(w);
    char num[24];
    put(w, num, (size_t)snprintf(num, sizeof num, "%" PRId64, v));
}

void td_jw_fixed(struct td_jsonw *w, double v, int decimals)
{
    before_item(w);
    char num[48];
    int n = snprintf(num, sizeof num, "%.*f", decimals, v == v ? v : 0.0);
    put(w, num, n > 0 && (size_t)n < sizeof num ? (size_t)n : 0);
}

void td_jw_uint(struct td_jsonw *w, uint64_t v)
{
    before_item(w);
    char digits[24];
    size_t i = sizeof digits;
    do {
        digits[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    put(w, digits + i, sizeof digits - i);
}

void td_jw_bool(struct td_jsonw *w, bool v)
{
    before_item(w);
    puts_(w, v ? "true" : "false");
}

void td_jw_null(struct td_jsonw *w)
{
    before_item(w);
    puts_(w, "null");
}

void td_jw_hex(struct td_jsonw *w, uint64_t v)
{
    before_item(w);
    char num[24];
    put(w, num, (size_t)snprintf(num, sizeof num, "\"0x%" PRIx64 "\"", v));
}

void td_jw_kstr(struct td_jsonw *w, const char *key, const char *s)
{
    td_jw_key(w, key);
    td_jw_string(w, s);
}

void td_jw_kint(struct td_jsonw *w, const char *key, int64_t v)
{
    td_jw_key(w, key);
    td_jw_int(w, v);
}

void td_jw_kuint(struct td_jsonw *w, const char *key, uint64_t v)
{
    td_jw_key(w, key);
    td_jw_uint(w, v);
}

void td_jw_kbool(struct td_jsonw *w, const char *key, bool v)
{
    td_jw_key(w, key);
    td_jw_bool(w, v);
}

void td_jw_khex(struct td_jsonw *w, const char *key, uint64_t v)
{
    td_jw_key(w, key);
    td_jw_hex(w, v);
}

void td_jw_finish(struct td_jsonw *w)
{
    putch(w, '\n');
    td_jw_flush(w);
}
