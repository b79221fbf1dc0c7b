/* The streaming JSON writer: escaping, invalid UTF-8, inline rows, and
 * output larger than its buffer. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/jsonw.h"

static struct td_jsonw w;

static char *render(void (*fill)(struct td_jsonw *), bool pretty)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    td_jw_init(&w, f, pretty);
    fill(&w);
    td_jw_finish(&w);
    fclose(f);
    return text;
}

static void escapes(struct td_jsonw *j)
{
    td_jw_begin_object(j);
    td_jw_kstr(j, "a\"k", "x\"y\\z\x01\t\xff\xe2\x82\xac end");
    td_jw_kstr(j, "plain", "hello");
    td_jw_kstr(j, "none", NULL);
    td_jw_khex(j, "big", UINT64_MAX);
    td_jw_kuint(j, "n", 1234567890123ull);
    td_jw_kint(j, "neg", -5);
    td_jw_end_object(j);
}

/* Every byte at every position of a 40-byte string (the plain run is
 * checked 16 and 8 bytes at a time, then byte by byte) is escaped as it
 * is alone, where the byte loop sees it. */
static unsigned char probe_byte;
static size_t probe_at, probe_len;

static void one_string(struct td_jsonw *j)
{
    char s[41];
    memset(s, 'a', probe_len);
    s[probe_at] = (char)probe_byte;
    s[probe_len] = '\0';
    td_jw_string(j, s);
}

static void every_byte_at_every_position(void **state)
{
    (void)state;
    for (unsigned c = 1; c < 256; c++) {
        probe_byte = (unsigned char)c, probe_at = 0, probe_len = 1;
        char *alone = render(one_string, false);
        size_t esc = strlen(alone) - 3; /* less the quotes and the newline */
        for (probe_at = 0; probe_at < 40; probe_at++) {
            probe_len = 40;
            char *out = render(one_string, false);
            char want[128];
            size_t n = 0;
            want[n++] = '"';
            memset(want + n, 'a', probe_at), n += probe_at;
            memcpy(want + n, alone + 1, esc), n += esc;
            memset(want + n, 'a', 39 - probe_at), n += 39 - probe_at;
            memcpy(want + n, "\"\n", 3);
            assert_string_equal(out, want);
            free(out);
        }
        free(alone);
    }
}

/* td_jw_rawstr_room writes what td_jw_rawstr does, whatever byte lies
 * where and however much room follows the NUL: the string lies at the
 * start of a heap block of exactly ROOM bytes (the sanitizer build sees any
 * read past it), the bytes after its NUL are not part of it. */
static char *room_text;
static size_t room_size;

static void room_string(struct td_jsonw *j)
{
    td_jw_rawstr_room(j, room_text, room_size);
}

static void plain_string(struct td_jsonw *j)
{
    td_jw_rawstr(j, room_text);
}

/* LEN bytes of 'a' with PROBE at AT, EXTRA bytes of room after the NUL
 * (the heap block ends there), written by WRITE: the same as td_jw_rawstr. */
static void probe_as_rawstr(void (*write)(struct td_jsonw *), size_t len, unsigned char probe,
                            size_t at, size_t extra)
{
    room_size = len + 1 + extra;
    room_text = malloc(room_size);
    memset(room_text, 'b', room_size);
    memset(room_text, 'a', len);
    if (len)
        room_text[at] = (char)probe;
    room_text[len] = '\0';
    char *want = render(plain_string, false);
    char *got = render(write, false);
    assert_string_equal(got, want);
    free(want), free(got), free(room_text);
}

static void room_string_matches_rawstr(void **state)
{
    (void)state;
    /* Each side of each edge of the bytes copied as they are: 0x1f/0x20,
     * 0x7e/0x7f, and the wrap-around of the SSE2 range test (0x9f/0xa0). */
    static const unsigned char probes[] = {'a',  '"',  '\\', 0x01, 0x1f, 0x20, 0x7e,
                                           0x7f, 0x80, 0x9f, 0xa0, 0xc3, 0xe2, 0xff};
    for (size_t len = 0; len <= 40; len++)
        for (size_t p = 0; p < sizeof probes; p++)
            for (size_t at = 0; at < (len ? len : 1); at++)
                for (size_t extra = 0; extra <= 20; extra += 5)
                    probe_as_rawstr(room_string, len, probes[p], at, extra);
}

/* 300 'x's: names long enough that 2,000 of them fill the writer's buffer
 * many times over. */
static const char *long_names(void)
{
    static char names[301];
    memset(names, 'x', 300);
    names[300] = '\0';
    return names;
}

/* Names written with their room past the writer's buffer: the copy that
 * finds the end 16 bytes at a time hands the buffer over as it fills. */
static void many_rooms(struct td_jsonw *j)
{
    const char *names = long_names();
    td_jw_begin_array(j);
    for (size_t i = 0; i < 2000; i++) {
        td_jw_item(j);
        td_jw_rawstr_room(j, names + i % 40, 301 - i % 40);
    }
    td_jw_end_array(j);
}

static void many_plain(struct td_jsonw *j)
{
    const char *names = long_names();
    td_jw_begin_array(j);
    for (size_t i = 0; i < 2000; i++)
        td_jw_string(j, names + i % 40);
    td_jw_end_array(j);
}

static void room_strings_larger_than_the_buffer(void **state)
{
    (void)state;
    char *want = render(many_plain, false), *got = render(many_rooms, false);
    assert_true(strlen(got) > sizeof w.buf);
    assert_string_equal(got, want);
    free(want), free(got);
}

/* td_jw_strbody_at between quotes writes what td_jw_rawstr does, on
 * both of its paths (blocks of 128 bytes and 32-byte steps where the
 * processor has AVX2 and BMI1, 16-byte steps elsewhere: W.wide set by
 * hand where the processor allows), for strings long enough to take each
 * kind of step and end in each, with each kind of byte at each position
 * and each room after the NUL (the heap block ends there: the sanitizer
 * build sees a read past it). */
static bool strbody_wide;

/* Whether the wide path may run here (what td_jw_init found). */
static bool processor_wide(void)
{
    static struct td_jsonw probe;
    td_jw_init(&probe, stdout, false);
    return probe.wide;
}
static int nest; /* arrays open around the rows of a test */

/* TEXT (SIZE bytes readable) as a quoted string through td_jw_strbody_at. */
static void quoted_body(struct td_jsonw *j, const char *text, size_t size)
{
    char *out = td_jw_room(j, 1);
    *out++ = '"';
    out = td_jw_strbody_at(j, out, text, size);
    td_jw_wrote(j, out);
    td_jw_raw(j, "\"", 1);
}

static void strbody_string(struct td_jsonw *j)
{
    j->wide = strbody_wide;
    quoted_body(j, room_text, room_size);
}

static const unsigned char strbody_probes[] = {'a',  '"',  '\\', 0x01, 0x1f, 0x20, 0x7e,
                                               0x7f, 0x80, 0x9f, 0xa0, 0xe2, 0xff};

static void strbody_matches_rawstr(void **state)
{
    (void)state;
    static const size_t extras[] = {0, 1, 15, 16, 31, 32, 47};
    for (int wide = 0; wide < 2; wide++)
        for (size_t len = 0; len <= 80; len++)
            for (size_t p = 0; p < sizeof strbody_probes; p++)
                for (size_t at = 0; at < (len ? len : 1); at += p ? 1 : 97)
                    for (size_t e = 0; e < sizeof extras / sizeof *extras; e++) {
                        strbody_wide = wide && processor_wide();
                        probe_as_rawstr(strbody_string, len, strbody_probes[p], at, extras[e]);
                    }
}

/* The same past the wide path's blocks of 128 bytes: strings to two
 * blocks and some steps long, each kind of byte first in each of a
 * block's four quarters and at its edges, rooms that end inside, at and
 * past a block. */
static void strbody_blocks_match_rawstr(void **state)
{
    (void)state;
    static const size_t extras[] = {0, 1, 31, 32, 46, 47, 63, 64, 95, 127, 128};
    static const size_t ats[] = {0,   1,   31,  32,  33,  63,  64,  65,  95,  96,  97,
                                 126, 127, 128, 129, 159, 160, 191, 192, 255, 256, 257};
    for (int wide = 0; wide < 2; wide++)
        for (size_t len = 81; len <= 300; len++)
            for (size_t p = 0; p < sizeof strbody_probes; p++)
                for (size_t a = 0; a <= sizeof ats / sizeof *ats; a += p ? 1 : 99) {
                    /* the listed positions inside the string, then its last byte */
                    size_t at = a < sizeof ats / sizeof *ats ? ats[a] : len - 1;
                    for (size_t e = 0; at < len && e < sizeof extras / sizeof *extras; e++) {
                        strbody_wide = wide && processor_wide();
                        probe_as_rawstr(strbody_string, len, strbody_probes[p], at, extras[e]);
                    }
                }
}

/* Bodies written from every position of the buffer: the steps stop at
 * its end and the rest goes through the path that flushes it. */
static void many_bodies(struct td_jsonw *j)
{
    const char *names = long_names();
    j->wide = strbody_wide;
    td_jw_begin_array(j);
    for (size_t i = 0; i < 2000; i++) {
        td_jw_item(j);
        quoted_body(j, names + i % 40, 301 - i % 40);
    }
    td_jw_end_array(j);
}

static void bodies_larger_than_the_buffer(void **state)
{
    (void)state;
    for (int wide = 0; wide < 2; wide++) {
        strbody_wide = wide && processor_wide();
        char *want = render(many_plain, false), *got = render(many_bodies, false);
        assert_true(strlen(got) > sizeof w.buf);
        assert_string_equal(got, want);
        free(want), free(got);
    }
}

/* td_jw_item_lead gives the bytes td_jw_item writes before every element
 * after the first, at every depth to past the indentation's cap, and
 * nothing where td_jw_item would write something else. */
static void item_lead_at_depth(struct td_jsonw *j)
{
    for (int d = 0; d < nest; d++)
        td_jw_begin_array(j);
    td_jw_item(j);
    td_jw_raw(j, "1", 1);
    char lead[80];
    size_t n = td_jw_item_lead(j, lead);
    size_t before = j->used;
    td_jw_item(j);
    assert_int_equal(n, j->used - before);
    assert_memory_equal(lead, j->buf + before, n);
    td_jw_raw(j, "2", 1);
    for (int d = 0; d < nest; d++)
        td_jw_end_array(j);
}

static void item_lead_matches_item(void **state)
{
    (void)state;
    for (nest = 1; nest <= 36; nest++)
        free(render(item_lead_at_depth, true));
    char lead[80];
    td_jw_init(&w, stdout, false); /* compact: a comma alone */
    td_jw_begin_array(&w);
    assert_int_equal(td_jw_item_lead(&w, lead), 0);
    td_jw_init(&w, stdout, true); /* the top level, after a key, inline */
    assert_int_equal(td_jw_item_lead(&w, lead), 0);
    td_jw_begin_object(&w);
    td_jw_key(&w, "k");
    assert_int_equal(td_jw_item_lead(&w, lead), 0);
    td_jw_begin_object_inline(&w);
    assert_int_equal(td_jw_item_lead(&w, lead), 0);
    w.used = 0; /* nothing of this reaches stdout */
}

/* Rows started with td_jw_item (the separator and indentation as one
 * copy) against the same strings written with td_jw_string, pretty, at
 * every depth to past the indentation's cap, with the buffer filling up
 * across them. */

static void items_at_depth(struct td_jsonw *j)
{
    for (int d = 0; d < nest; d++)
        td_jw_begin_array(j);
    for (int i = 0; i < 700; i++) {
        td_jw_item(j);
        td_jw_rawstr(j, "abcdefghijklmnopqrstuvwxyz");
    }
    for (int d = 0; d < nest; d++)
        td_jw_end_array(j);
}

static void strings_at_depth(struct td_jsonw *j)
{
    for (int d = 0; d < nest; d++)
        td_jw_begin_array(j);
    for (int i = 0; i < 700; i++)
        td_jw_string(j, "abcdefghijklmnopqrstuvwxyz");
    for (int d = 0; d < nest; d++)
        td_jw_end_array(j);
}

static void items_match_strings_at_every_depth(void **state)
{
    (void)state;
    for (nest = 1; nest <= 36; nest++) {
        char *want = render(strings_at_depth, true), *got = render(items_at_depth, true);
        assert_true(strlen(got) > sizeof w.buf);
        assert_string_equal(got, want);
        free(want), free(got);
    }
}

static void escaping_and_numbers(void **state)
{
    char *out = render(escapes, false);
    assert_string_equal(out, "{\"a\\\"k\":\"x\\\"y\\\\z\\u0001\\t\\ufffd\xe2\x82\xac end\","
                             "\"plain\":\"hello\",\"none\":null,\"big\":\"0xffffffffffffffff\","
                             "\"n\":1234567890123,\"neg\":-5}\n");
    free(out);
}

static void rows(struct td_jsonw *j)
{
    td_jw_begin_object(j);
    td_jw_key(j, "list");
    td_jw_begin_array(j);
    for (int i = 0; i < 2; i++) {
        td_jw_begin_object_inline(j);
        td_jw_kint(j, "i", i);
        td_jw_key(j, "v");
        td_jw_begin_array(j);
        td_jw_string(j, "a");
        td_jw_end_array(j);
        td_jw_end_object(j);
    }
    td_jw_end_array(j);
    td_jw_kbool(j, "after", true);
    td_jw_end_object(j);
}

static void inline_rows_stay_on_one_line(void **state)
{
    char *out = render(rows, true);
    assert_string_equal(out, "{\n  \"list\": [\n    { \"i\": 0, \"v\": [ \"a\" ] },\n"
                             "    { \"i\": 1, \"v\": [ \"a\" ] }\n  ],\n  \"after\": true\n}\n");
    free(out);
}

static void many(struct td_jsonw *j)
{
    static char name[300];
    memset(name, 'x', sizeof name - 1);
    td_jw_begin_array(j);
    for (int i = 0; i < 2000; i++)
        td_jw_string(j, name);
    td_jw_string(j, "q\"");
    td_jw_end_array(j);
}

static void output_larger_than_the_buffer(void **state)
{
    char *out = render(many, false);
    size_t len = strlen(out);
    assert_int_equal(len, 1 + 2000 * 302 + 5 + 2); /* [, names with commas, "q\"", ]\n */
    assert_memory_equal(out + len - 8, ",\"q\\\"\"]\n", 8);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(escaping_and_numbers),
        cmocka_unit_test(every_byte_at_every_position),
        cmocka_unit_test(inline_rows_stay_on_one_line),
        cmocka_unit_test(items_match_strings_at_every_depth),
        cmocka_unit_test(output_larger_than_the_buffer),
        cmocka_unit_test(room_string_matches_rawstr),
        cmocka_unit_test(room_strings_larger_than_the_buffer),
        cmocka_unit_test(strbody_matches_rawstr),
        cmocka_unit_test(strbody_blocks_match_rawstr),
        cmocka_unit_test(bodies_larger_than_the_buffer),
        cmocka_unit_test(item_lead_matches_item),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
