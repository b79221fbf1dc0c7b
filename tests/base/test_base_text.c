/* Pasted text decoded from the encoding it was saved in (base/text.h):
 * byte-order marks, UTF-8 as it is, and the code pages of data/codepages.tsv
 * chosen by the detection order docs/explain.md gives. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "base/utf8.h"

static void decodes(const char *bytes, size_t n, const char *want, const char *encoding)
{
    struct td_decoded t;
    assert_int_equal(td_text_decode(bytes, n, &t), 0);
    assert_string_equal(t.encoding, encoding);
    assert_string_equal(t.utf8, want);
    assert_int_equal(t.len, strlen(want));
    free(t.utf8);
}

static void boms_and_utf8(void **state)
{
    decodes("\xef\xbb\xbf"
            "abc",
            6, "abc", "utf-8");
    decodes("模块", strlen("模块"), "模块", "utf-8");
    /* "a😀" in UTF-16LE and BE: a surrogate pair joined */
    decodes("\xff\xfe"
            "a\0\x3d\xd8\x00\xde",
            8, "a\xf0\x9f\x98\x80", "utf-16le");
    decodes("\xfe\xff"
            "\0a\xd8\x3d\xde\x00",
            8, "a\xf0\x9f\x98\x80", "utf-16be");
    decodes("\xff\xfe"
            "\x3d\xd8"
            "b\0",
            6,
            "\xef\xbf\xbd"
            "b",
            "utf-16le"); /* lone surrogate */
    /* UTF-8's mark before bytes that are not UTF-8 (the fuzzer's find):
     * never passed on as UTF-8, whatever code page reads the rest */
    struct td_decoded t;
    assert_int_equal(td_text_decode("\xef\xbb\xbf\xff\xff\xff\xff", 7, &t), 0);
    assert_string_not_equal(t.encoding, "utf-8");
    assert_true(strcmp(t.encoding, "unknown") == 0 || td_utf8_valid(t.utf8, t.len));
    free(t.utf8);
}

static void code_pages(void **state)
{
    decodes("\xd5\xd2\xb2\xbb\xb5\xbd\xd6\xb8\xb6\xa8\xb5\xc4\xc4\xa3\xbf\xe9\xa1\xa3", 18,
            "找不到指定的模块。", "cp936");
    decodes("\x8e\x77\x92\xe8\x82\xb3\x82\xea\x82\xbd\x83\x76\x83\x8d\x83\x56\x81\x5b\x83\x57"
            "\x83\x83",
            22, "指定されたプロシージャ", "cp932");
    decodes("\xcd\xe5 \xed\xe0\xe9\xe4\xe5\xed \xf3\xea\xe0\xe7\xe0\xed\xed\xfb\xe9", 19,
            "Не найден указанный", "cp1251");
    decodes("Le module sp\xe9"
            "cifi\xe9",
            18, "Le module spécifié", "cp1252");
    decodes("\x80", 1, "€", "cp936"); /* GBK's one single-byte addition */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(boms_and_utf8),
        cmocka_unit_test(code_pages),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
