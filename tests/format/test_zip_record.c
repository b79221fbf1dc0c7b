/* RECORD CSV parsing (quoting, malformed rows with line numbers), wheel
 * file names with compressed tag sets, and WHEEL / METADATA headers. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/record.h"
#include "format/zip.h"

static int parse(struct td_record *r, const char *text, struct td_arena *a, struct td_err *err)
{
    td_err_clear(err);
    return td_record_parse(r, text, strlen(text), a, err);
}

static void record_plain_rows(void **state)
{
    struct td_arena a = {0};
    struct td_err err = {0};
    struct td_record r;
    /* sha256 of "" is 47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU. */
    const char *text = "pkg/__init__.py,sha256=47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU,0\r\n"
                       "\n"
                       "pkg/x.pyc,,\n"
                       "pkg-1.0.dist-info/RECORD,,";
    assert_int_equal(parse(&r, text, &a, &err), 0);
    assert_false(err.set);
    assert_int_equal(r.count, 3);
    assert_int_equal(r.problem_count, 0);
    assert_string_equal(r.rows[0].path, "pkg/__init__.py");
    assert_string_equal(r.rows[0].algorithm, "sha256");
    assert_int_equal(r.rows[0].digest_len, 32);
    static const uint8_t empty_sha[4] = {0xe3, 0xb0, 0xc4, 0x42};
    assert_memory_equal(r.rows[0].digest, empty_sha, 4);
    assert_int_equal(r.rows[0].digest[31], 0x55);
    assert_true(r.rows[0].has_size);
    assert_int_equal(r.rows[0].size, 0);
    assert_int_equal(r.rows[0].line, 1);
    assert_null(r.rows[1].algorithm);
    assert_null(r.rows[1].digest);
    assert_false(r.rows[1].has_size);
    assert_int_equal(r.rows[1].line, 3);
    assert_string_equal(r.rows[2].path, "pkg-1.0.dist-info/RECORD");
    assert_int_equal(r.rows[2].line, 4);
    assert_ptr_equal(td_record_find(&r, "pkg/x.pyc", 9), &r.rows[1]);
    assert_null(td_record_find(&r, "pkg/x.py", 8));
    td_arena_free(&a);
}

static void record_quoting(void **state)
{
    struct td_arena a = {0};
    struct td_err err = {0};
    struct td_record r;
    const char *text = "\"a,b.txt\",,1\n"
                       "\"say \"\"hi\"\".txt\",,22\n"
                       "\"two\nlines.txt\",,333\n"
                       "\"\",,\n"               /* empty path: malformed, line 5 */
                       "plain\"quote.txt,,4\n"; /* a quote inside an unquoted field is data */
    assert_int_equal(parse(&r, text, &a, &err), 1);
    assert_int_equal(r.count, 4);
    assert_string_equal(r.rows[0].path, "a,b.txt");
    assert_int_equal(r.rows[0].size, 1);
    assert_string_equal(r.rows[1].path, "say \"hi\".txt");
    assert_int_equal(r.rows[1].path_len, 12);
    assert_int_equal(r.rows[1].size, 22);
    assert_string_equal(r.rows[2].path, "two\nlines.txt");
    assert_int_equal(r.rows[2].line, 3);
    assert_int_equal(r.rows[3].path_len, 15);
    assert_int_equal(r.rows[3].line, 6);
    assert_int_equal(r.problem_count, 1);
    assert_int_equal(r.problems[0].line, 5);
    assert_string_equal(r.problems[0].message, "line 5: empty path");
    assert_string_equal(err.msg, "RECORD line 5: empty path");
    td_arena_free(&a);
}

static void record_malformed_rows(void **state)
{
    struct td_arena a = {0};
    struct td_err err = {0};
    struct td_record r;
    const char *text = "ok.py,,1\n"           /* 1 */
                       "two,fields\n"         /* 2 */
                       "four,,1,x\n"          /* 3 */
                       "h.py,sha256,1\n"      /* 4: no '=' */
                       "h.py,sha256=AAAA,1\n" /* 5: 3 bytes */
                       "h.py,sha256=47DEQpj8HBSa+/TImW-5JCeuQeRkm5NMpJWZG3hSuFU,1\n" /* 6 */
                       "s.py,,12a\n"                                                 /* 7 */
                       "s.py,,-1\n"                                                  /* 8 */
                       "s.py,,99999999999999999999999\n"                             /* 9 */
                       "\"q\"x,,1\n"                                                 /* 10 */
                       "ok2.py,,2\n"                                                 /* 11 */
                       "\"never closed,,1\n";                                        /* 12 */
    assert_int_equal(parse(&r, text, &a, &err), 1);
    assert_int_equal(r.count, 2);
    assert_string_equal(r.rows[1].path, "ok2.py");
    assert_int_equal(r.rows[1].line, 11);
    static const char *const want[] = {
        "line 2: 2 fields, expected 3 (path,hash,size)",
        "line 3: 4 fields, expected 3 (path,hash,size)",
        "line 4: hash field 'sha256' is not algorithm=digest",
        "line 5: sha256 digest is 3 bytes, expected 32",
        "line 6: sha256 digest is not urlsafe base64",
        "line 7: size '12a' is not a decimal byte count",
        "line 8: size '-1' is not a decimal byte count",
        "line 9: size '99999999999999999999999' is not a decimal byte count",
        "line 10: text after the closing quote of field 1",
        "line 12: quote opened on line 12 is never closed",
    };
    assert_int_equal(r.problem_count, sizeof want / sizeof want[0]);
    for (size_t i = 0; i < r.problem_count; i++)
        assert_string_equal(r.problems[i].message, want[i]);
    assert_string_equal(err.msg, "RECORD line 2: 2 fields, expected 3 (path,hash,size)");
    td_arena_free(&a);
}

static void record_edges_and_cap(void **state)
{
    struct td_arena a = {0};
    struct td_err err = {0};
    struct td_record r;
    assert_int_equal(parse(&r, "", &a, &err), 0);
    assert_int_equal(r.count, 0);
    assert_int_equal(parse(&r, "\n\r\n\n", &a, &err), 0);
    assert_int_equal(r.count, 0);
    /* Padding is tolerated; other hash names keep their own digest size. */
    assert_int_equal(parse(&r,
                           "p,sha512="
                           "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
                           "AAAAAAAAAAAAAAA==,5\n",
                           &a, &err),
                     0);
    assert_int_equal(r.rows[0].digest_len, 64);
    td_arena_free(&a);

    uint8_t out[4];
    assert_int_equal(td_record_b64_decode("-_8", 3, out, sizeof out), 2);
    assert_int_equal(out[0], 0xfb);
    assert_int_equal(out[1], 0xff);
    assert_int_equal(td_record_b64_decode("A", 1, out, sizeof out), -1);
    assert_int_equal(td_record_b64_decode("AAAAAAAA", 8, out, sizeof out), -1); /* 6 > 4 */

    /* 100000 rows do not fit in a 1 MiB arena: an error, not a crash. */
    size_t n = 100000 * 6;
    char *big = malloc(n + 1);
    for (size_t i = 0; i < n; i += 6)
        memcpy(big + i, "a,,1\r\n", 6);
    big[n] = 0;
    struct td_arena small = {.cap = 1 << 20};
    td_err_clear(&err);
    assert_int_equal(td_record_parse(&r, big, n, &small, &err), -1);
    assert_string_equal(err.msg, "RECORD: arena limit reached for 100000 rows");
    assert_true(small.used_total <= small.cap);
    td_arena_free(&small);
    struct td_arena roomy = {0};
    assert_int_equal(td_record_parse(&r, big, n, &roomy, &err), 0);
    assert_int_equal(r.count, 100000);
    assert_int_equal(r.rows[99999].line, 100000);
    td_arena_free(&roomy);
    free(big);
}

static int name(struct td_zip_wheel_name *w, const char *s, struct td_arena *a, struct td_err *err)
{
    td_err_clear(err);
    return td_zip_wheel_parse_name(w, s, strlen(s), a, err);
}

static void wheel_names(void **state)
{
    struct td_arena a = {0};
    struct td_err err = {0};
    struct td_zip_wheel_name w;
    assert_int_equal(name(&w, "/tmp/dl/torch-2.5.1+cu124-cp311-cp311-linux_x86_64.whl", &a, &err),
                     0);
    assert_string_equal(w.name, "torch");
    assert_string_equal(w.version, "2.5.1+cu124");
    assert_null(w.build);
    assert_string_equal(w.python.text, "cp311");
    assert_int_equal(w.python.count, 1);
    assert_string_equal(w.abi.items[0], "cp311");
    assert_string_equal(w.platform.items[0], "linux_x86_64");

    assert_int_equal(name(&w,
                          "C:\\wheels\\numpy-2.0.0-1local-cp311.cp312-abi3-"
                          "manylinux_2_17_x86_64.manylinux2014_x86_64.whl",
                          &a, &err),
                     0);
    assert_string_equal(w.build, "1local");
    assert_int_equal(w.python.count, 2);
    assert_string_equal(w.python.items[1], "cp312");
    assert_int_equal(w.platform.count, 2);
    assert_string_equal(w.platform.items[0], "manylinux_2_17_x86_64");
    assert_string_equal(w.platform.items[1], "manylinux2014_x86_64");

    assert_int_equal(name(&w, "pkg-1.0-py3-none-any.zip", &a, &err), -1);
    assert_string_equal(err.msg,
                        "wheel file name 'pkg-1.0-py3-none-any.zip': does not end in .whl");
    assert_int_equal(name(&w, "pkg-1.0-none-any.whl", &a, &err), -1);
    assert_string_equal(err.msg, "wheel file name 'pkg-1.0-none-any.whl': 4 dash-separated fields, "
                                 "expected 5 or 6");
    assert_int_equal(name(&w, "pkg-1.0-b1-py3-none-any.whl", &a, &err), -1);
    assert_string_equal(err.msg, "wheel file name 'pkg-1.0-b1-py3-none-any.whl': build tag 'b1' "
                                 "does not start with a digit");
    assert_int_equal(name(&w, "a-1-2-3-4-5-6.whl", &a, &err), -1);
    assert_int_equal(name(&w, "pkg--py3-none-any.whl", &a, &err), -1);
    assert_int_equal(name(&w, "pkg-1.0-py3..py2-none-any.whl", &a, &err), -1);
    assert_string_equal(err.msg, "wheel file name: empty tag in python tag set 'py3..py2'");
    assert_int_equal(name(&w, ".whl", &a, &err), -1);
    td_arena_free(&a);
}

static void header_files(void **state)
{
    struct td_arena a = {0};
    struct td_err err = {0};
    struct td_zip_wheel_file w;
    const char *wheel = "Wheel-Version: 1.0\r\nRoot-Is-Purelib: TRUE\r\nBuild: 3\r\n"
                        "Tag: py2-none-any\r\nTag:py3-none-any  \r\n";
    assert_int_equal(td_zip_wheel_parse_wheel(&w, wheel, strlen(wheel), &a, &err), 0);
    assert_int_equal(w.root_is_purelib, 1);
    assert_string_equal(w.build, "3");
    assert_int_equal(w.tag_count, 2);
    assert_string_equal(w.tags[1], "py3-none-any");
    assert_null(w.generator);

    const char *bad = "Wheel-Version: 1.0\nRoot-Is-Purelib: maybe\n";
    assert_int_equal(td_zip_wheel_parse_wheel(&w, bad, strlen(bad), &a, &err), -1);
    assert_string_equal(err.msg, "WHEEL line 2: Root-Is-Purelib is 'maybe', not true or false");
    td_err_clear(&err);
    bad = "Wheel-Version: 1.0\nno colon here\n";
    assert_int_equal(td_zip_wheel_parse_wheel(&w, bad, strlen(bad), &a, &err), -1);
    assert_string_equal(err.msg, "WHEEL line 2: not a 'Key: value' header");

    /* Many Requires-Dist lines grow the array; continuation lines fold. */
    char meta[8192] = "Metadata-Version: 2.1\nName: big\nSummary: one\n\ttwo\n";
    for (int i = 0; i < 100; i++)
        snprintf(meta + strlen(meta), sizeof meta - strlen(meta), "Requires-Dist: dep%d\n", i);
    strcat(meta, "Version: 9\n\nRequires-Dist: in-body\n");
    struct td_zip_metadata m;
    assert_int_equal(td_zip_wheel_parse_metadata(&m, meta, strlen(meta), &a, &err), 0);
    assert_string_equal(m.name, "big");
    assert_string_equal(m.version, "9");
    assert_null(m.requires_python);
    assert_int_equal(m.requires_dist_count, 100);
    assert_string_equal(m.requires_dist[0], "dep0");
    assert_string_equal(m.requires_dist[99], "dep99");
    assert_int_equal(td_zip_wheel_parse_metadata(&m, "", 0, &a, &err), 0);
    assert_null(m.name);
    td_arena_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(record_plain_rows),     cmocka_unit_test(record_quoting),
        cmocka_unit_test(record_malformed_rows), cmocka_unit_test(record_edges_and_cap),
        cmocka_unit_test(wheel_names),           cmocka_unit_test(header_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
