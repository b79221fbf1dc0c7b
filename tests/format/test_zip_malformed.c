/* Hostile zips: truncations at every byte and structure boundary, byte
 * flips, impossible counts and offsets, overflowing ZIP64 values, a
 * deflate stream longer than declared, and a small arena cap. The reader
 * must fail with an error naming the structure and offset, never crash. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/record.h"
#include "format/zip.h"

#define WHEEL "zip/demo_pkg-1.2.3-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"

static uint8_t *load(const char *rel, size_t *size)
{
    return td_read_file(td_fixture(rel), size);
}

static void put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
    put16(p, (uint16_t)v);
    put16(p + 2, (uint16_t)(v >> 16));
}

static void put64(uint8_t *p, uint64_t v)
{
    put32(p, (uint32_t)v);
    put32(p + 4, (uint32_t)(v >> 32));
}

static int sink_capped(void *ctx, const uint8_t *chunk, size_t len)
{
    (void)chunk;
    uint64_t *n = ctx;
    *n += len;
    return *n > (64u << 20) ? 1 : 0; /* a caller's own cap */
}

/* Opens a copy of DATA exactly SIZE bytes long (so ASan sees any overread)
 * and reads everything reachable. Returns td_zip_open's result. */
static int exercise(const uint8_t *data, size_t size, struct td_err *err)
{
    uint8_t *copy = malloc(size ? size : 1);
    memcpy(copy, data, size);
    struct td_arena a = {.cap = 8 << 20};
    struct td_zip z;
    td_err_clear(err);
    int rc = td_zip_open(&z, copy, size, &a, err);
    for (size_t i = 0; rc == 0 && i < z.count; i++) {
        struct td_err e2 = {0};
        uint64_t n = 0;
        td_zip_stream(&z, &z.entries[i], sink_capped, &n, &e2);
        if (z.entries[i].uncompressed_size <= (1 << 20)) {
            uint8_t *out = malloc((size_t)z.entries[i].uncompressed_size + 1);
            td_zip_extract(&z, &z.entries[i], out, (size_t)z.entries[i].uncompressed_size, &e2);
            free(out);
        }
        td_zip_find(&z, z.entries[i].name, z.entries[i].name_len);
    }
    if (rc == 0) {
        const char *dir;
        struct td_err e3 = {0};
        td_zip_wheel_dist_info(&z, &dir, &a, &e3);
    }
    td_arena_free(&a);
    free(copy);
    return rc;
}

static void assert_contains(const char *msg, const char *part)
{
    if (!strstr(msg, part))
        fail_msg("'%s' does not contain '%s'", msg, part);
}

static void every_truncation(void **state)
{
    static const char *const small[] = {"zip/comment.zip", "zip/handmade64.zip",
                                        "zip/forcezip64.zip", "zip/symlink.zip"};
    struct td_err err;
    for (size_t f = 0; f < sizeof small / sizeof small[0]; f++) {
        size_t size;
        uint8_t *data = load(small[f], &size);
        for (size_t cut = 0; cut < size; cut++) {
            /* A prefix loses the EOCD or its comment; a suffix shifts every offset. */
            int rc = exercise(data, cut, &err);
            if (rc != 0)
                assert_true(err.set && strlen(err.msg) > 10);
            exercise(data + cut, size - cut, &err);
        }
        assert_int_equal(exercise(data, size, &err), 0);
        free(data);
    }
    struct td_err e = {0};
    assert_int_equal(exercise((const uint8_t *)"PK\5\6", 4, &e), -1);
    assert_string_equal(e.msg, "zip: file of 4 bytes is shorter than an End Of Central Directory "
                               "record (22 bytes)");
}

static void wheel_structure_boundaries(void **state)
{
    size_t size;
    uint8_t *data = load(WHEEL, &size);
    struct td_arena a = {0};
    struct td_zip z;
    struct td_err err = {0};
    assert_int_equal(td_zip_open(&z, data, size, &a, &err), 0);
    /* Cut at and around every central directory record and the EOCD. */
    for (size_t i = 0; i < z.count; i++) {
        uint64_t at[] = {z.entries[i].cd_offset, z.entries[i].local_header_offset};
        for (int k = 0; k < 2; k++)
            for (int d = -2; d <= 50; d++) {
                uint64_t cut = at[k] + (uint64_t)(int64_t)d;
                if (cut < size) {
                    exercise(data, (size_t)cut, &err);
                    assert_true(err.set);
                }
            }
    }
    for (uint64_t cut = z.eocd_offset; cut < size; cut++) {
        assert_int_equal(exercise(data, (size_t)cut, &err), -1);
        assert_contains(err.msg, "no End Of Central Directory record");
    }
    td_arena_free(&a);
    free(data);
}

static void byte_flips(void **state)
{
    static const char *const files[] = {"zip/comment.zip", "zip/handmade64.zip", "zip/dd.zip",
                                        "zip/pysymlink.zip"};
    struct td_err err;
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        size_t size;
        uint8_t *data = load(files[f], &size);
        for (size_t i = 0; i < size; i++) {
            static const uint8_t values[] = {0x00, 0xff, 0x7f, 0x80};
            uint8_t keep = data[i];
            for (int v = 0; v < 4; v++) {
                data[i] = values[v];
                exercise(data, size, &err);
            }
            data[i] = keep ^ 0x01;
            exercise(data, size, &err);
            data[i] = keep;
        }
        free(data);
    }
    /* The wheel's central directory and EOCD, byte by byte. */
    size_t size;
    uint8_t *data = load(WHEEL, &size);
    struct td_arena a = {0};
    struct td_zip z;
    assert_int_equal(td_zip_open(&z, data, size, &a, &err), 0);
    for (uint64_t i = z.cd_offset; i < size; i++) {
        uint8_t keep = data[i];
        data[i] = 0xff;
        exercise(data, size, &err);
        data[i] = keep;
    }
    td_arena_free(&a);
    free(data);
}

/* The open result and message for a patched copy. */
static int open_patched(uint8_t *data, size_t size, struct td_zip *z, struct td_arena *a,
                        struct td_err *err)
{
    td_err_clear(err);
    td_arena_free(a);
    return td_zip_open(z, data, size, a, err);
}

static void bad_eocd_fields(void **state)
{
    size_t size;
    uint8_t *data = load("zip/comment.zip", &size);
    struct td_arena a = {0};
    struct td_zip z;
    struct td_err err = {0};
    assert_int_equal(open_patched(data, size, &z, &a, &err), 0);
    uint64_t eocd = z.eocd_offset;
    uint8_t *p = data + eocd;
    char want[256];

    put16(p + 8, 0xFFFE);
    put16(p + 10, 0xFFFE);
    assert_int_equal(open_patched(data, size, &z, &a, &err), -1);
    snprintf(want, sizeof want,
             "EOCD record at offset 0x%llx: 65534 entries cannot fit in a central directory of "
             "150 bytes (each takes at least 46)",
             (unsigned long long)eocd);
    assert_string_equal(err.msg, want);
    put16(p + 8, 2);
    put16(p + 10, 2);

    put32(p + 16, 0x7fffffff);
    assert_int_equal(open_patched(data, size, &z, &a, &err), -1);
    snprintf(want, sizeof want,
             "EOCD record at offset 0x%llx: central directory at 0x7fffffff of 150 bytes runs past "
             "0x%llx, where it must end",
             (unsigned long long)eocd, (unsigned long long)eocd);
    assert_string_equal(err.msg, want);
    put32(p + 16, 0x8f);

    put16(p + 4, 1);
    assert_int_equal(open_patched(data, size, &z, &a, &err), -1);
    assert_contains(err.msg, "multi-disk archive (disk 1, directory on disk 0) not parsed");
    put16(p + 4, 0);

    /* One entry fewer than recorded: the second record is read as data past the CD. */
    put32(p + 12, 150 - 10);
    assert_int_equal(open_patched(data, size, &z, &a, &err), -1);
    assert_contains(err.msg, "entry 1 of 2: central directory entry at offset 0xda: name, extra "
                             "and comment");
    put32(p + 12, 150);

    /* Name length of the last record runs past the central directory. */
    put16(data + 0xda + 28, 0xFFFF);
    assert_int_equal(open_patched(data, size, &z, &a, &err), -1);
    assert_contains(err.msg, "entry 1 of 2: central directory entry at offset 0xda: name, extra "
                             "and comment (65535 + 24 + 0 bytes) run past the end of the central "
                             "directory at 0x125");
    put16(data + 0xda + 28, 5);

    put32(data + 0xda, 0x12345678);
    assert_int_equal(open_patched(data, size, &z, &a, &err), -1);
    assert_string_equal(err.msg, "entry 1 of 2: central directory entry at offset 0xda: bad "
                                 "signature (expected PK\\1\\2)");
    put32(data + 0xda, 0x02014b50);

    assert_int_equal(open_patched(data, size, &z, &a, &err), 0);
    td_arena_free(&a);
    free(data);
}

static void bad_local_headers(void **state)
{
    size_t size;
    uint8_t *data = load("zip/comment.zip", &size);
    struct td_arena a = {0};
    struct td_zip z;
    struct td_err err = {0};
    uint8_t out[64];
    assert_int_equal(open_patched(data, size, &z, &a, &err), 0);
    assert_int_equal(z.cd_offset, 0x8f);
    uint64_t second = z.entries[1].cd_offset; /* b.txt, local header at 69 */
    assert_int_equal(second, 0xda);

    static const uint32_t offsets[] = {0x8f, 0x90, 0xfffffff0, 0x8e};
    for (int i = 0; i < 4; i++) {
        put32(data + second + 42, offsets[i]);
        assert_int_equal(open_patched(data, size, &z, &a, &err), 0);
        assert_int_equal(td_zip_extract(&z, &z.entries[1], out, 24, &err), -1);
        char want[200];
        snprintf(want, sizeof want,
                 "member 'b.txt' (central directory entry at offset 0xda): local header offset "
                 "0x%x is not before the central directory at 0x8f",
                 offsets[i]);
        assert_string_equal(err.msg, want);
    }
    /* Pointing at the first member's header: the names differ. */
    put32(data + second + 42, 0);
    assert_int_equal(open_patched(data, size, &z, &a, &err), 0);
    assert_int_equal(td_zip_extract(&z, &z.entries[1], out, 24, &err), -1);
    assert_contains(err.msg, "local header at 0x0 names a different file");
    /* Pointing into the first member's data: no signature. */
    put32(data + second + 42, 40);
    assert_int_equal(open_patched(data, size, &z, &a, &err), 0);
    assert_int_equal(td_zip_extract(&z, &z.entries[1], out, 24, &err), -1);
    assert_contains(err.msg, "no local file header signature (PK\\3\\4) at offset 0x28");
    put32(data + second + 42, 69);

    /* A local extra length that runs the data into the central directory. */
    put16(data + 69 + 28, 0x4000);
    assert_int_equal(open_patched(data, size, &z, &a, &err), 0);
    assert_int_equal(td_zip_extract(&z, &z.entries[1], out, 24, &err), -1);
    assert_contains(err.msg, "local header at 0x45: name, extra and 11 bytes of data run into the "
                             "central directory at 0x8f");
    td_arena_free(&a);
    free(data);
}

struct counted {
    uint64_t bytes;
};

static int count_sink(void *ctx, const uint8_t *chunk, size_t len)
{
    (void)chunk;
    ((struct counted *)ctx)->bytes += len;
    return 0;
}

static void inflate_size_and_crc(void **state)
{
    size_t size;
    uint8_t *data = load(WHEEL, &size);
    struct td_arena a = {0};
    struct td_zip z;
    struct td_err err = {0};
    assert_int_equal(open_patched(data, size, &z, &a, &err), 0);
    const struct td_zip_entry *e = td_zip_find(&z, "demo_pkg/big.txt", 16);
    assert_non_null(e);
    uint64_t cd = e->cd_offset;
    char want[256];

    /* Zip-bomb style: 840000 bytes declared as 1000. Inflation stops at 1000. */
    put32(data + cd + 24, 1000);
    assert_int_equal(open_patched(data, size, &z, &a, &err), 0);
    e = td_zip_find(&z, "demo_pkg/big.txt", 16);
    uint8_t *out = malloc(1000);
    assert_int_equal(td_zip_extract(&z, e, out, 1000, &err), -1);
    snprintf(want, sizeof want,
             "member 'demo_pkg/big.txt' (central directory entry at offset 0x%llx): deflate stream "
             "inflates past the declared size of 1000 bytes; stopped there",
             (unsigned long long)cd);
    assert_string_equal(err.msg, want);
    assert_memory_equal(out, "line 000000 of", 14);
    free(out);
    struct counted c = {0};
    td_err_clear(&err);
    assert_int_equal(td_zip_stream(&z, e, count_sink, &c, &err), -1);
    assert_int_equal(c.bytes, 1000);

    /* Declared larger than the stream yields. */
    put32(data + cd + 24, 840001);
    assert_int_equal(open_patched(data, size, &z, &a, &err), 0);
    e = td_zip_find(&z, "demo_pkg/big.txt", 16);
    c.bytes = 0;
    assert_int_equal(td_zip_stream(&z, e, count_sink, &c, &err), -1);
    assert_contains(err.msg, "data yields 840000 bytes, 840001 declared");
    put32(data + cd + 24, 840000);

    /* Wrong CRC. */
    put32(data + cd + 16, 0x4bfcafbc);
    assert_int_equal(open_patched(data, size, &z, &a, &err), 0);
    e = td_zip_find(&z, "demo_pkg/big.txt", 16);
    assert_int_equal(td_zip_stream(&z, e, count_sink, &c, &err), -1);
    assert_contains(err.msg, "CRC-32 is 0x4bfcafbb, 0x4bfcafbc declared");
    put32(data + cd + 16, 0x4bfcafbb);

    /* Compressed size cut short: the stream ends early. */
    put32(data + cd + 20, 1000);
    assert_int_equal(open_patched(data, size, &z, &a, &err), 0);
    e = td_zip_find(&z, "demo_pkg/big.txt", 16);
    assert_int_equal(td_zip_stream(&z, e, count_sink, &c, &err), -1);
    assert_contains(err.msg, "deflate stream is cut off after 1000 compressed bytes");
    put32(data + cd + 20, 51171);

    /* Garbage deflate data. */
    uint64_t off;
    assert_int_equal(open_patched(data, size, &z, &a, &err), 0);
    e = td_zip_find(&z, "demo_pkg/big.txt", 16);
    assert_int_equal(td_zip_data_offset(&z, e, &off, &err), 0);
    memset(data + off, 0xff, 16);
    assert_int_equal(td_zip_stream(&z, e, count_sink, &c, &err), -1);
    assert_contains(err.msg, "invalid deflate data (zlib: invalid block type)");

    /* An unknown method is "not parsed". */
    put16(data + cd + 10, 14);
    assert_int_equal(open_patched(data, size, &z, &a, &err), 0);
    e = td_zip_find(&z, "demo_pkg/big.txt", 16);
    assert_int_equal(td_zip_stream(&z, e, count_sink, &c, &err), -1);
    assert_contains(err.msg, "compression method 14 not parsed (only stored and deflate)");
    td_arena_free(&a);
    free(data);
}

static void zip64_overflows(void **state)
{
    size_t size;
    uint8_t *data = load("zip/handmade64.zip", &size);
    struct td_arena a = {0};
    struct td_zip z;
    struct td_err err = {0};
    assert_int_equal(open_patched(data, size, &z, &a, &err), 0);
    uint64_t rec = z.zip64_offset, cd = z.cd_offset;
    /* Layout from the fixture: CD record, name (11), extra 0xCAFE (8), ZIP64 extra. */
    uint64_t extra = cd + 46 + 11 + 8 + 4;
    char want[256];

    put64(data + rec + 48, UINT64_MAX);
    assert_int_equal(open_patched(data, size, &z, &a, &err), -1);
    snprintf(want, sizeof want,
             "ZIP64 EOCD record at offset 0x%llx: central directory at 0xffffffffffffffff of 93 "
             "bytes runs past 0x%llx, where it must end",
             (unsigned long long)rec, (unsigned long long)rec);
    assert_string_equal(err.msg, want);
    put64(data + rec + 48, cd);

    put64(data + rec + 32, UINT64_MAX);
    put64(data + rec + 24, UINT64_MAX);
    assert_int_equal(open_patched(data, size, &z, &a, &err), -1);
    assert_contains(err.msg, "18446744073709551615 entries cannot fit");
    put64(data + rec + 32, 1);
    put64(data + rec + 24, 1);

    put64(data + rec + 4, UINT64_MAX - 5);
    assert_int_equal(open_patched(data, size, &z, &a, &err), -1);
    assert_contains(err.msg, "record size 18446744073709551610 does not fit before its locator");
    put64(data + rec + 4, 44);

    put64(data + z.eocd_offset - 20 + 8, UINT64_MAX);
    assert_int_equal(open_patched(data, size, &z, &a, &err), -1);
    assert_contains(err.msg, "points at 0xffffffffffffffff, where there is no ZIP64 End Of Central "
                             "Directory record");
    put64(data + z.eocd_offset - 20 + 8, rec);

    /* Sizes and offset in the ZIP64 extra field, in APPNOTE 4.5.3 order. */
    put64(data + extra + 16, UINT64_MAX); /* local header offset */
    assert_int_equal(open_patched(data, size, &z, &a, &err), 0);
    assert_int_equal(z.entries[0].local_header_offset, UINT64_MAX);
    uint64_t off;
    assert_int_equal(td_zip_data_offset(&z, &z.entries[0], &off, &err), -1);
    assert_contains(err.msg, "local header offset 0xffffffffffffffff is not before");
    put64(data + extra + 16, 0);

    put64(data + extra + 8, UINT64_MAX); /* compressed size */
    assert_int_equal(open_patched(data, size, &z, &a, &err), 0);
    assert_int_equal(td_zip_data_offset(&z, &z.entries[0], &off, &err), -1);
    assert_contains(err.msg, "name, extra and 18446744073709551615 bytes of data run into");
    put64(data + extra + 8, 28);

    put64(data + extra, UINT64_MAX); /* uncompressed size */
    assert_int_equal(open_patched(data, size, &z, &a, &err), 0);
    struct counted c = {0};
    assert_int_equal(td_zip_stream(&z, &z.entries[0], count_sink, &c, &err), -1);
    assert_contains(err.msg, "data yields 69 bytes, 18446744073709551615 declared");
    put64(data + extra, 69);

    /* A ZIP64 extra too short for the saturated fields it must supply. */
    put16(data + extra - 2, 8);
    put16(data + extra + 8, 0xCAFE); /* keep the remaining bytes a well-formed field */
    put16(data + extra + 10, 12);
    assert_int_equal(open_patched(data, size, &z, &a, &err), -1);
    assert_contains(err.msg, "ZIP64 extra field at 0x");
    assert_contains(err.msg, "of 8 bytes lacks the compressed size");

    /* No ZIP64 extra at all for saturated fields. */
    put16(data + extra - 4, 0xBEEF);
    assert_int_equal(open_patched(data, size, &z, &a, &err), -1);
    assert_contains(err.msg, "a size or offset is 0xffffffff but no ZIP64 extra field supplies it");
    td_arena_free(&a);
    free(data);
}

static void arena_cap_holds(void **state)
{
    struct td_map m;
    td_map_fixture("zip/many.zip", &m);
    struct td_arena a = {.cap = 1 << 20};
    struct td_zip z;
    struct td_err err = {0};
    assert_int_equal(td_zip_open(&z, m.data, m.size, &a, &err), -1);
    assert_contains(err.msg, "arena limit reached");
    assert_true(a.used_total <= a.cap);
    td_arena_free(&a);

    /* Room for the entries but not for the name index: lookups still work. */
    struct td_arena roomy = {0};
    assert_int_equal(td_zip_open(&z, m.data, m.size, &roomy, &err), 0);
    size_t used = roomy.used_total;
    td_arena_free(&roomy);
    struct td_arena tight = {.cap = used + 1024};
    assert_int_equal(td_zip_open(&z, m.data, m.size, &tight, &err), 0);
    const struct td_zip_entry *e = td_zip_find(&z, "d/54321", 7);
    assert_non_null(e);
    assert_string_equal(e->name, "d/54321");
    assert_null(td_zip_find(&z, "d/70000", 7));
    assert_true(tight.used_total <= tight.cap);
    td_arena_free(&tight);
    td_map_close(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_truncation),  cmocka_unit_test(wheel_structure_boundaries),
        cmocka_unit_test(byte_flips),        cmocka_unit_test(bad_eocd_fields),
        cmocka_unit_test(bad_local_headers), cmocka_unit_test(inflate_size_and_crc),
        cmocka_unit_test(zip64_overflows),   cmocka_unit_test(arena_cap_holds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
