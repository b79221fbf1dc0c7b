/* The bounded reads of format/buf.h: byte order, windows, and sparse
 * buffers read in turn from several extents (the extent last hit is tried
 * first, so reads that alternate, and buffers that follow one another,
 * must still see the right bytes and note the right miss). */
#include "testutil.h"

#include <string.h>

#include "format/buf.h"

static const uint8_t bytes[] = {1, 2, 3, 4, 5, 6, 7, 8, 'a', 'b', 0, 'c', 'd'};

static void test_byte_order(void **state)
{
    struct td_buf le = td_buf_make(bytes, sizeof bytes, false);
    struct td_buf be = td_buf_make(bytes, sizeof bytes, true);
    uint64_t v64;
    uint32_t v32;
    uint16_t v16;
    assert_true(td_buf_u64(&le, 0, &v64));
    assert_int_equal(v64, UINT64_C(0x0807060504030201));
    assert_true(td_buf_u64(&be, 0, &v64));
    assert_int_equal(v64, UINT64_C(0x0102030405060708));
    assert_true(td_buf_u64(&be, 5, &v64));
    assert_int_equal(v64, UINT64_C(0x0607086162006364));
    assert_false(td_buf_u64(&le, 6, &v64)); /* one byte past the end */
    assert_int_equal(v64, 0);
    assert_true(td_buf_word(&le, 4, 4, &v64));
    assert_int_equal(v64, 0x08070605);
    assert_true(td_buf_u32(&be, 1, &v32));
    assert_int_equal(v32, 0x02030405);
    assert_true(td_buf_u16(&le, 2, &v16));
    assert_int_equal(v16, 0x0403);
}

/* Extents [0, 8), [100, 108) and [200, 204) of a file of 300 bytes. */
static const uint8_t ext_a[8] = {0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17};
static const uint8_t ext_b[8] = {0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27};
static const uint8_t ext_c[4] = {'x', 'y', 'z', 0};

static void test_sparse_alternating(void **state)
{
    const struct td_buf_extent ext[] = {{0, 8, ext_a}, {100, 8, ext_b}, {200, 4, ext_c}};
    struct td_buf_sparse sp = {ext, 3, false, 0, 0};
    struct td_buf b = td_buf_sparse_make(300, &sp);
    uint32_t v;
    for (int round = 0; round < 3; round++) {
        assert_true(td_buf_u32(&b, 4, &v));
        assert_int_equal(v, 0x17161514);
        assert_true(td_buf_u32(&b, 104, &v));
        assert_int_equal(v, 0x27262524);
        assert_true(td_buf_u32(&b, 100, &v));
        assert_int_equal(v, 0x23222120);
        assert_string_equal(td_buf_cstr(&b, 201, 0), "yz");
        assert_true(td_buf_u32(&b, 0, &v));
        assert_int_equal(v, 0x13121110);
    }
    assert_false(sp.missed);
    /* Across the end of the extent last hit: a miss of exactly that read. */
    assert_false(td_buf_u32(&b, 106, &v));
    assert_true(sp.missed);
    assert_int_equal(sp.miss_off, 106);
    assert_int_equal(sp.miss_len, 4);
    /* Later misses keep the first. */
    assert_false(td_buf_u32(&b, 50, &v));
    assert_int_equal(sp.miss_off, 106);
}

static void test_sparse_after_another_buffer(void **state)
{
    const struct td_buf_extent three[] = {{0, 8, ext_a}, {100, 8, ext_b}, {200, 4, ext_c}};
    struct td_buf_sparse sp3 = {three, 3, false, 0, 0};
    struct td_buf b3 = td_buf_sparse_make(300, &sp3);
    uint32_t v;
    assert_true(td_buf_u32(&b3, 200, &v)); /* the third extent is the last hit */
    /* A buffer with fewer extents, then one whose extent of that index
     * holds other offsets. */
    const struct td_buf_extent one[] = {{100, 8, ext_b}};
    struct td_buf_sparse sp1 = {one, 1, false, 0, 0};
    struct td_buf b1 = td_buf_sparse_make(300, &sp1);
    assert_true(td_buf_u32(&b1, 100, &v));
    assert_int_equal(v, 0x23222120);
    assert_false(td_buf_u32(&b1, 0, &v));
    assert_int_equal(sp1.miss_off, 0);
    const struct td_buf_extent swapped[] = {{200, 4, ext_c}, {0, 8, ext_a}};
    struct td_buf_sparse sp2 = {swapped, 2, false, 0, 0};
    struct td_buf b2 = td_buf_sparse_make(300, &sp2);
    assert_true(td_buf_u32(&b2, 0, &v));
    assert_int_equal(v, 0x13121110);
    assert_null(td_buf_cstr(&b2, 4, 0)); /* no NUL before the extent ends */
    assert_true(sp2.missed);
    assert_int_equal(sp2.miss_off, 8);
    assert_int_equal(sp2.miss_len, 1);
}

/* Bytes an extent holds past the end of the file are not read, and such a
 * read is no miss (there is nothing to load). */
static void test_sparse_past_file_end(void **state)
{
    const struct td_buf_extent ext[] = {{100, 8, ext_b}};
    struct td_buf_sparse sp = {ext, 1, false, 0, 0};
    struct td_buf b = td_buf_sparse_make(106, &sp);
    uint16_t v16;
    uint32_t v;
    assert_true(td_buf_u16(&b, 104, &v16));
    assert_int_equal(v16, 0x2524);
    assert_false(td_buf_u32(&b, 104, &v));
    assert_false(sp.missed);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_byte_order),
        cmocka_unit_test(test_sparse_alternating),
        cmocka_unit_test(test_sparse_after_another_buffer),
        cmocka_unit_test(test_sparse_past_file_end),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
