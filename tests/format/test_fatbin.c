/* The fat binary reader over hand-built containers: entry kinds and
 * architectures, several containers with padding, compressed flags, and
 * every way a header can lie (truncation, sizes past the end, overflow). */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "format/fatbin.h"

struct blob {
    uint8_t b[1024];
    size_t n;
};

static void put(struct blob *x, size_t at, uint64_t v, unsigned width)
{
    for (unsigned i = 0; i < width; i++)
        x->b[at + i] = (uint8_t)(v >> (8 * i));
}

/* Starts a container; returns its offset (the fat size is set by end_container). */
static size_t begin_container(struct blob *x)
{
    size_t at = x->n;
    put(x, at, TD_FATBIN_MAGIC, 4);
    put(x, at + 4, 1, 2);
    put(x, at + 6, 16, 2);
    x->n += 16;
    return at;
}

static void end_container(struct blob *x, size_t at)
{
    put(x, at + 8, x->n - at - 16, 8);
}

static void add_entry(struct blob *x, uint16_t kind, uint32_t arch, uint32_t hsize,
                      uint32_t payload, uint64_t flags)
{
    size_t at = x->n;
    memset(x->b + at, 0, hsize + payload);
    put(x, at, kind, 2);
    put(x, at + 2, 0x0101, 2);
    put(x, at + 4, hsize, 4);
    put(x, at + 8, payload, 8);
    put(x, at + 0x1c, arch, 4);
    put(x, at + 0x28, flags, 8);
    memset(x->b + at + hsize, 0xAB, payload);
    x->n += hsize + payload;
}

static void two_containers(struct blob *x)
{
    memset(x, 0, sizeof *x);
    size_t c = begin_container(x);
    add_entry(x, TD_FATBIN_ELF, 80, 64, 24, 0x11);
    add_entry(x, TD_FATBIN_ELF, 90, 112, 8, 0x2011);
    add_entry(x, TD_FATBIN_PTX, 90, 80, 16, 0x8011);
    end_container(x, c);
    x->n += 8; /* zero padding before the next container */
    c = begin_container(x);
    add_entry(x, TD_FATBIN_ELF, 80, 64, 0, 0);
    add_entry(x, 0x40, 75, 64, 0, 0);
    end_container(x, c);
}

static void fatbin_entries_and_archs(void **state)
{
    struct blob x;
    two_containers(&x);
    struct td_arena a = {0};
    struct td_err err = {0};
    struct td_fatbin fb;
    assert_int_equal(td_fatbin_parse(&fb, x.b, x.n, &a, &err), 0);
    assert_false(err.set);
    assert_int_equal(fb.containers, 2);
    assert_int_equal(fb.count, 5);
    assert_int_equal(fb.entries[0].kind, TD_FATBIN_ELF);
    assert_int_equal(fb.entries[0].arch, 80);
    assert_int_equal(fb.entries[0].offset, 16);
    assert_int_equal(fb.entries[0].payload_offset, 80);
    assert_int_equal(fb.entries[0].payload_size, 24);
    assert_false(fb.entries[0].compressed);
    assert_true(fb.entries[1].compressed);
    assert_int_equal(fb.entries[1].offset, 16 + 64 + 24);
    assert_true(fb.entries[2].compressed);
    assert_int_equal(fb.entries[2].flags, 0x8011);
    assert_int_equal(fb.entries[4].kind, 0x40);
    char name[32];
    assert_string_equal(td_fatbin_arch_name(&fb.entries[2], name, sizeof name), "compute_90");
    assert_null(td_fatbin_arch_name(&fb.entries[4], name, sizeof name));
    const char **archs;
    size_t n = td_fatbin_archs(&fb, &a, &archs);
    assert_int_equal(n, 3);
    assert_string_equal(archs[0], "sm_80");
    assert_string_equal(archs[1], "sm_90");
    assert_string_equal(archs[2], "compute_90");
    td_arena_free(&a);
}

static void fatbin_empty_and_padding_only(void **state)
{
    struct td_arena a = {0};
    struct td_err err = {0};
    struct td_fatbin fb;
    uint8_t zeros[64] = {0};
    assert_int_equal(td_fatbin_parse(&fb, zeros, sizeof zeros, &a, &err), 0);
    assert_int_equal(fb.count, 0);
    assert_int_equal(fb.containers, 0);
    assert_int_equal(td_fatbin_parse(&fb, zeros, 0, &a, &err), 0);
    td_arena_free(&a);
}

/* Every truncation of a valid section fails with a message, never reads
 * past the end, and keeps the entries that were complete. */
static void fatbin_truncations(void **state)
{
    struct blob x;
    two_containers(&x);
    for (size_t n = 1; n < x.n; n++) {
        struct td_arena a = {0};
        struct td_err err = {0};
        struct td_fatbin fb;
        int rc = td_fatbin_parse(&fb, x.b, n, &a, &err);
        /* The first container ends at 16+64+24+112+8+80+16 = 320, then 8 zero bytes:
         * any cut inside the padding leaves a whole first container. */
        if (n >= 320 && n <= 328) {
            assert_int_equal(rc, 0);
            assert_int_equal(fb.count, 3);
        } else {
            assert_int_equal(rc, -1);
            assert_true(err.set);
            assert_true(fb.count <= 5);
        }
        td_arena_free(&a);
    }
}

static void fatbin_lying_sizes(void **state)
{
    struct blob x;
    struct td_arena a = {0};
    struct td_err err = {0};
    struct td_fatbin fb;

    two_containers(&x);
    put(&x, 8, UINT64_MAX - 4, 8); /* fat size overflowing the offset */
    assert_int_equal(td_fatbin_parse(&fb, x.b, x.n, &a, &err), -1);
    assert_non_null(strstr(err.msg, "fat size"));

    two_containers(&x);
    put(&x, 16 + 8, UINT64_MAX, 8); /* payload size overflowing */
    td_err_clear(&err);
    assert_int_equal(td_fatbin_parse(&fb, x.b, x.n, &a, &err), -1);
    assert_non_null(strstr(err.msg, "offset 0x10"));
    assert_int_equal(fb.count, 0);

    two_containers(&x);
    put(&x, 16 + 64 + 24 + 4, 8, 4); /* second entry: header size below the minimum */
    td_err_clear(&err);
    assert_int_equal(td_fatbin_parse(&fb, x.b, x.n, &a, &err), -1);
    assert_non_null(strstr(err.msg, "header size 8"));
    assert_int_equal(fb.count, 1);
    assert_int_equal(fb.entries[0].arch, 80);

    two_containers(&x);
    put(&x, 0, 0x466243B1, 4); /* the wrapper's magic, not a container's */
    td_err_clear(&err);
    assert_int_equal(td_fatbin_parse(&fb, x.b, x.n, &a, &err), -1);
    assert_non_null(strstr(err.msg, "magic 0x466243b1"));

    two_containers(&x);
    put(&x, 6, 4, 2); /* container header size below 16 */
    td_err_clear(&err);
    assert_int_equal(td_fatbin_parse(&fb, x.b, x.n, &a, &err), -1);
    td_arena_free(&a);
}

/* The fields read besides kind and arch, with the flag values CUDA 13.0's
 * fatbinary writes (tests/cmd/fatbin_cases.py checks them on its output). */
static void fatbin_variants_versions_compression(void **state)
{
    struct blob x;
    memset(&x, 0, sizeof x);
    size_t c = begin_container(&x);
    add_entry(&x, TD_FATBIN_ELF, 90, 64, 8, 0x108011);    /* sm_90a, zstd */
    add_entry(&x, TD_FATBIN_ELF, 120, 112, 8, 0x1200011); /* sm_120f, plain */
    add_entry(&x, TD_FATBIN_PTX, 80, 80, 8, 0x2011);      /* compute_80, lz4 */
    end_container(&x, c);
    put(&x, 16 + 0x18, 8, 2); /* cubin code version 1.8 */
    put(&x, 16 + 0x1a, 1, 2);
    put(&x, 16 + 0x38, 3696, 8);
    size_t ptx = 16 + 64 + 8 + 112 + 8;
    put(&x, ptx + 0x1a, 9, 2); /* PTX ISA 9.0 */
    put(&x, ptx + 0x38, 393, 8);
    struct td_arena a = {0};
    struct td_err err = {0};
    struct td_fatbin fb;
    assert_int_equal(td_fatbin_parse(&fb, x.b, x.n, &a, &err), 0);
    assert_int_equal(fb.count, 3);
    char name[32];
    assert_string_equal(td_fatbin_arch_name(&fb.entries[0], name, sizeof name), "sm_90a");
    assert_string_equal(td_fatbin_arch_name(&fb.entries[1], name, sizeof name), "sm_120f");
    assert_string_equal(td_fatbin_arch_name(&fb.entries[2], name, sizeof name), "compute_80");
    assert_int_equal(fb.entries[0].compression, TD_FATBIN_ZSTD);
    assert_int_equal(fb.entries[0].uncompressed_size, 3696);
    assert_int_equal(fb.entries[0].version_major, 1);
    assert_int_equal(fb.entries[0].version_minor, 8);
    assert_false(fb.entries[1].compressed);
    assert_int_equal(fb.entries[1].uncompressed_size, 0);
    assert_int_equal(fb.entries[2].compression, TD_FATBIN_LZ4);
    assert_int_equal(fb.entries[2].version_major, 9);
    assert_int_equal(fb.entries[2].uncompressed_size, 393);
    assert_string_equal(td_fatbin_compression_name(fb.entries[2].compression), "lz4");
    td_arena_free(&a);
}

static bool stop_at_second(const struct td_fatbin_entry *e, void *ctx)
{
    size_t *seen = ctx;
    (void)e;
    return ++*seen < 2;
}

/* The walker stops when told, without an error, and reports bad headers
 * as the parser does. */
static void fatbin_walk_stops(void **state)
{
    struct blob x;
    two_containers(&x);
    struct td_err err = {0};
    size_t seen = 0;
    assert_int_equal(td_fatbin_walk(x.b, x.n, stop_at_second, &seen, &err), 0);
    assert_int_equal(seen, 2);
    assert_false(err.set);
    put(&x, 0, 0x12345678, 4);
    seen = 0;
    assert_int_equal(td_fatbin_walk(x.b, x.n, stop_at_second, &seen, &err), -1);
    assert_int_equal(seen, 0);
    assert_non_null(strstr(err.msg, "magic"));
}

/* Entries as a walk visits them. */
struct seen {
    struct td_fatbin_entry e[16];
    size_t n;
};

static bool keep(const struct td_fatbin_entry *e, void *ctx)
{
    struct seen *s = ctx;
    if (s->n < 16)
        s->e[s->n++] = *e;
    return true;
}

/* The caller's pread, over a blob: counts the bytes it hands out. */
struct reader {
    const uint8_t *b;
    size_t copied;
    bool fail;
};

static bool read_blob(void *src, uint64_t off, void *out, size_t n)
{
    struct reader *r = src;
    memcpy(out, r->b + off, n);
    r->copied += n;
    return !r->fail;
}

/* Walking by reads gives what walking the buffer gives: the same entries,
 * return and message, for every cut of a valid section and each lie. */
static void same_walk(const uint8_t *b, size_t n)
{
    struct seen mem = {0}, rd = {0};
    struct td_err e1 = {0}, e2 = {0};
    struct reader r = {b, 0, false};
    int rc1 = td_fatbin_walk(b, n, keep, &mem, &e1);
    int rc2 = td_fatbin_walk_read(read_blob, &r, n, keep, &rd, &e2);
    assert_int_equal(rc1, rc2);
    assert_int_equal(mem.n, rd.n);
    assert_memory_equal(mem.e, rd.e, mem.n * sizeof mem.e[0]);
    assert_int_equal(e1.set, e2.set);
    assert_string_equal(e1.msg, e2.msg);
    assert_true(r.copied <= n + 16);
}

static void fatbin_walk_read_same(void **state)
{
    struct blob x;
    two_containers(&x);
    for (size_t n = 0; n <= x.n; n++)
        same_walk(x.b, n);
    static const struct {
        size_t at;
        uint64_t v;
        unsigned width;
    } lies[] = {{8, UINT64_MAX - 4, 8},
                {16 + 8, UINT64_MAX, 8},
                {16 + 64 + 24 + 4, 8, 4},
                {0, 0x466243B1, 4},
                {6, 4, 2},
                {16 + 0x28, 0x8000, 8}};
    for (size_t i = 0; i < sizeof lies / sizeof lies[0]; i++) {
        two_containers(&x);
        put(&x, lies[i].at, lies[i].v, lies[i].width);
        same_walk(x.b, x.n);
    }
    /* A read that fails is a bad header, with the entries before it. */
    two_containers(&x);
    struct reader r = {x.b, 0, true};
    struct seen rd = {0};
    struct td_err err = {0};
    assert_int_equal(td_fatbin_walk_read(read_blob, &r, x.n, keep, &rd, &err), -1);
    assert_non_null(strstr(err.msg, "unreadable"));
    assert_int_equal(rd.n, 0);
}

/* A search over data with containers among it: found at 8-byte-aligned
 * offsets only, data that merely holds the magic (a bad version, entries
 * that do not chain to the end, an odd offset) passed over, and the same
 * from the buffer and by reads, for every length of the region (lengths
 * of 8k+4 ... 8k+7 once made the read search stand still). */
/* The releases of a search through a mapping: a range each, in order. */
struct releases {
    uint64_t off[64], len[64];
    size_t n;
};

static void note_release(void *rctx, uint64_t off, uint64_t len)
{
    struct releases *r = rctx;
    if (r->n < 64)
        r->off[r->n] = off, r->len[r->n] = len;
    r->n++;
}

/* The releases of a search of N bytes cover them all, in order, each
 * reaching back over the last by 64 KiB or more (so that a page across the
 * last one's end, up to 64 KiB, lies wholly inside one of them). */
static void released_all(const struct releases *r, size_t n)
{
    assert_true(r->n >= 1 && r->n <= 64);
    assert_int_equal(r->off[0], 0);
    for (size_t i = 1; i < r->n; i++) {
        uint64_t last_end = r->off[i - 1] + r->len[i - 1];
        assert_true(r->off[i] + 64 * 1024 <= last_end);
        assert_true(r->off[i] + r->len[i] > last_end);
    }
    assert_int_equal(r->off[r->n - 1] + r->len[r->n - 1], n);
}

static size_t searched(const uint8_t *b, size_t n, struct seen *mem, size_t *containers)
{
    struct td_fatbin_scan a = {0}, r = {0}, m = {0};
    struct td_err e1 = {0}, e2 = {0};
    struct seen rd = {0}, mp = {0};
    struct reader rr = {b, 0, false};
    struct releases rel = {0};
    memset(mem, 0, sizeof *mem);
    assert_int_equal(td_fatbin_scan(b, n, false, keep, mem, &a, &e1), 0);
    assert_int_equal(td_fatbin_scan_read(read_blob, &rr, n, false, keep, &rd, &r, &e2), 0);
    assert_int_equal(td_fatbin_scan_mapped(b, n, note_release, &rel, keep, &mp, &m), 0);
    assert_false(e1.set || e2.set);
    assert_int_equal(a.containers, r.containers);
    assert_int_equal(a.containers, m.containers);
    assert_int_equal(mem->n, rd.n);
    assert_int_equal(mem->n, mp.n);
    assert_memory_equal(mem->e, rd.e, mem->n * sizeof mem->e[0]);
    assert_memory_equal(mem->e, mp.e, mem->n * sizeof mem->e[0]);
    if (n)
        released_all(&rel, n);
    *containers = a.containers;
    return mem->n;
}

/* A region of several release steps (a mapped file's data section): the
 * search through the mapping finds what the others find, containers
 * across a step's end included, and gives back every byte behind it. */
static void fatbin_search_mapped_steps(void **state)
{
    (void)state;
    size_t n = 3 * 1024 * 1024 + 100;
    uint8_t *big = calloc(1, n);
    struct blob x;
    assert_non_null(big);
    memset(&x, 0, sizeof x);
    size_t c = begin_container(&x);
    add_entry(&x, TD_FATBIN_ELF, 86, 64, 16, 0);
    end_container(&x, c);
    /* one inside a step, one across the first step's end, one at the end */
    size_t at[] = {8 * 1000, 256 * 1024 - 40, n - x.n};
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++)
        memcpy(big + (at[i] & ~(size_t)7), x.b, x.n);
    struct seen mem;
    size_t containers;
    assert_int_equal(searched(big, n, &mem, &containers), 3);
    assert_int_equal(containers, 3);
    assert_int_equal(mem.e[1].container, (256 * 1024 - 40) & ~(size_t)7);
    free(big);
}

/* searched() of every length of X (prefixes end mid-container and
 * mid-magic), then of the whole, whose count it returns. */
static size_t searched_all(const struct blob *x, struct seen *mem, size_t *containers)
{
    for (size_t n = 0; n < x->n; n++)
        searched(x->b, n, mem, containers);
    return searched(x->b, x->n, mem, containers);
}

/* The search looks for the magic's last byte (0xBA) first: data made of
 * that byte (every position a candidate: checked position by position),
 * 0xBA at offsets that cannot end a magic, and the magic less its last
 * byte, all before containers that must still be found. */
static void fatbin_search_byte_runs(void **state)
{
    (void)state;
    struct blob x;
    memset(&x, 0, sizeof x);
    memset(x.b, 0xBA, 520);           /* dense: 65 words of candidates */
    put(&x, 200, 0x0055ED50, 4);      /* the magic but its last byte */
    put(&x, 296, TD_FATBIN_MAGIC, 4); /* the magic in data: version 0xBABA */
    x.b[525] = 0xBA, x.b[530] = 0xBA; /* sparse, at offsets no magic ends at */
    x.n = 592;
    size_t c = begin_container(&x);
    add_entry(&x, TD_FATBIN_ELF, 86, 64, 16, 0);
    end_container(&x, c);
    memset(x.b + x.n, 0xBA, 100);
    x.n += 104;
    c = begin_container(&x);
    add_entry(&x, TD_FATBIN_PTX, 90, 64, 8, 0);
    end_container(&x, c);
    struct seen mem;
    size_t containers;
    assert_int_equal(searched_all(&x, &mem, &containers), 2);
    assert_int_equal(containers, 2);
    assert_int_equal(mem.e[0].container, 592);
    assert_int_equal(mem.e[1].arch, 90);
}

static void fatbin_search_among_data(void **state)
{
    struct blob x;
    memset(&x, 0, sizeof x);
    memset(x.b, 0x5A, 40);           /* data */
    put(&x, 8, TD_FATBIN_MAGIC, 4);  /* the magic in data: version 0x5A5A */
    put(&x, 20, TD_FATBIN_MAGIC, 4); /* at an odd offset */
    x.n = 40;
    size_t c = begin_container(&x);
    add_entry(&x, TD_FATBIN_ELF, 86, 64, 16, 0);
    add_entry(&x, TD_FATBIN_LTO, 80, 64, 8, 0);
    end_container(&x, c);
    size_t broken = x.n; /* a header whose entry runs past its fat size */
    c = begin_container(&x);
    add_entry(&x, TD_FATBIN_PTX, 90, 64, 8, 0);
    end_container(&x, c);
    put(&x, broken + 8, 40, 8);
    memset(x.b + x.n, 0x5A, 13); /* more data, then one more container */
    x.n += 16;
    c = begin_container(&x);
    add_entry(&x, TD_FATBIN_PTX, 120, 80, 8, 0);
    end_container(&x, c);
    struct seen mem;
    size_t containers;
    assert_int_equal(searched_all(&x, &mem, &containers), 3);
    assert_int_equal(containers, 2);
    assert_int_equal(mem.e[0].arch, 86);
    assert_int_equal(mem.e[0].container, 40);
    assert_int_equal(mem.e[1].kind, TD_FATBIN_LTO);
    assert_int_equal(mem.e[2].arch, 120);
    char name[32];
    assert_string_equal(td_fatbin_arch_name(&mem.e[1], name, sizeof name), "lto_80");
    /* A primary region is read as a fat binary section: the data is an error. */
    struct td_fatbin_scan st = {0};
    struct td_err err = {0};
    assert_int_equal(td_fatbin_scan(x.b, x.n, true, keep, &mem, &st, &err), -1);
    assert_true(err.set);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fatbin_entries_and_archs),
        cmocka_unit_test(fatbin_empty_and_padding_only),
        cmocka_unit_test(fatbin_truncations),
        cmocka_unit_test(fatbin_lying_sizes),
        cmocka_unit_test(fatbin_variants_versions_compression),
        cmocka_unit_test(fatbin_walk_stops),
        cmocka_unit_test(fatbin_walk_read_same),
        cmocka_unit_test(fatbin_search_among_data),
        cmocka_unit_test(fatbin_search_byte_runs),
        cmocka_unit_test(fatbin_search_mapped_steps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
