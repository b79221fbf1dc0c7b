/* Unit tests for src/base: the capped arena and error values. */
#include "testutil.h"

#include <string.h>

#include "base/arena.h"
#include "base/err.h"

static void arena_refuses_past_cap(void **state)
{
    struct td_arena a = {.cap = 1 << 20};
    assert_non_null(td_arena_alloc(&a, 1000));
    assert_null(td_arena_alloc(&a, 2 << 20));
    assert_null(td_arena_array(&a, SIZE_MAX / 2, 4));
    int n = 0;
    while (td_arena_alloc(&a, 4096))
        n++;
    assert_true(n > 100 && n < 256);
    assert_true(a.used_total <= a.cap);
    td_arena_free(&a);
}

static void err_keeps_first_and_prefixes(void **state)
{
    struct td_err e = {0};
    td_err_set(&e, "dynamic section at 0x%x: truncated", 0x40);
    td_err_set(&e, "second");
    td_err_prefix(&e, "%s: ", "libx.so");
    assert_string_equal(e.msg, "libx.so: dynamic section at 0x40: truncated");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(arena_refuses_past_cap),
        cmocka_unit_test(err_keeps_first_and_prefixes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
