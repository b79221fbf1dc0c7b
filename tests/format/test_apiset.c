/* The API-set schema reader on Wine's real apisetschema.dll (Debian wine64:
 * the .apiset section of a version-6 schema) checked against
 * data/windows_apisets.tsv, on hand-built schemas (default and alias
 * values, no host), and on every truncation and corruption. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/data.h"
#include "format/apiset.h"

static const char *const wine_dirs[] = {
    "/usr/lib/x86_64-linux-gnu/wine/x86_64-windows/apisetschema.dll",
    "/usr/lib/wine/x86_64-windows/apisetschema.dll",
};

static uint8_t *wine_schema(size_t *size)
{
    for (size_t i = 0; i < sizeof wine_dirs / sizeof wine_dirs[0]; i++) {
        uint8_t *b = td_read_file(wine_dirs[i], size);
        if (b)
            return b;
    }
    return NULL;
}

/* The .apiset section's bytes inside the DLL (as td_apiset_parse_pe finds them). */
static const uint8_t *section(const uint8_t *dll, size_t *len)
{
    uint32_t pe, raw_size, raw_off;
    uint16_t n, opt;
    memcpy(&pe, dll + 0x3c, 4);
    memcpy(&n, dll + pe + 6, 2);
    memcpy(&opt, dll + pe + 20, 2);
    for (uint16_t i = 0; i < n; i++) {
        const uint8_t *s = dll + pe + 24 + opt + 40u * i;
        if (memcmp(s, ".apiset", 8) == 0) {
            memcpy(&raw_size, s + 16, 4);
            memcpy(&raw_off, s + 20, 4);
            *len = raw_size;
            return dll + raw_off;
        }
    }
    return NULL;
}

struct row {
    char contract[128], schema_name[128], host[64], note[256];
};

static size_t read_table(struct row *rows, size_t cap)
{
    size_t len, n = 0;
    const char *text = td_data_table("windows_apisets", &len);
    struct td_tsv t;
    char line[4096];
    const char *cells[8];
    assert_non_null(text);
    td_tsv_open(&t, text, len);
    int k = td_tsv_next(&t, line, sizeof line, cells, 8);
    int c = td_tsv_column(cells, k, "contract"), s = td_tsv_column(cells, k, "schema_name");
    int h = td_tsv_column(cells, k, "host"), no = td_tsv_column(cells, k, "note");
    assert_true(c >= 0 && s >= 0 && h >= 0 && no >= 0);
    while ((k = td_tsv_next(&t, line, sizeof line, cells, 8)) > no && n < cap) {
        snprintf(rows[n].contract, sizeof rows[n].contract, "%s", cells[c]);
        snprintf(rows[n].schema_name, sizeof rows[n].schema_name, "%s", cells[s]);
        snprintf(rows[n].host, sizeof rows[n].host, "%s", cells[h]);
        snprintf(rows[n].note, sizeof rows[n].note, "%s", cells[no]);
        n++;
    }
    return n;
}

static void wine_schema_matches_table(void **state)
{
    size_t size;
    uint8_t *dll = wine_schema(&size);
    if (!dll)
        skip();
    struct td_arena arena = {0};
    struct td_err err = {0};
    struct td_apiset_map m;
    assert_int_equal(td_apiset_parse_pe(dll, size, &arena, &m, &err), 0);
    assert_int_equal(m.version, 6);
    assert_int_equal(m.count, 504); /* data/windows_apisets.tsv's header note */

    static struct row rows[1024];
    size_t n = read_table(rows, 1024);
    assert_int_equal(n, 672);

    /* Every contract of the table whose host is not "-" and that Wine 8
     * ships resolves, through the parsed schema, to the table's host. */
    size_t checked = 0, absent = 0, differ = 0, no_host = 0;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(rows[i].host, "-") == 0)
            continue;
        char dll_name[160];
        snprintf(dll_name, sizeof dll_name, "%s.dll", rows[i].schema_name);
        const struct td_apiset_contract *c = td_apiset_find(&m, dll_name);
        if (strstr(rows[i].note, "absent from Wine 8.0")) {
            assert_null(c);
            absent++;
            continue;
        }
        assert_non_null(c);
        assert_string_equal(c->contract, rows[i].contract);
        /* The note names Wine 8.0's host where it differs from the table's. */
        const char *moved =
            strstr(rows[i].note, "Wine 8.0 schema (Debian 8.0~repack-4) maps it to ");
        if (moved) {
            assert_string_equal(c->host, strrchr(moved, ' ') + 1);
            differ++;
        } else {
            assert_string_equal(c->host, rows[i].host);
        }
        checked++;
    }
    /* And every schema entry is a table row. */
    for (size_t j = 0; j < m.count; j++) {
        size_t i = 0;
        while (i < n && strcmp(rows[i].contract, m.contracts[j].contract) != 0)
            i++;
        if (i == n)
            fail_msg("%s: in Wine's schema, not in the table", m.contracts[j].name);
        if (strcmp(rows[i].host, "-") == 0) {
            assert_string_equal(m.contracts[j].host, "-"); /* no host in Wine either */
            no_host++;
        }
    }
    printf("checked %zu contracts (%zu with Wine 8's own host), %zu absent from Wine 8\n", checked,
           differ, absent);
    assert_int_equal(differ, 1);
    assert_int_equal(checked, 501);
    assert_int_equal(no_host, 3);

    /* The loader's matching: case-insensitive, revision ignored. */
    const struct td_apiset_contract *c = td_apiset_find(&m, "API-MS-Win-Core-Synch-L1-2-0.DLL");
    assert_non_null(c);
    assert_string_equal(c->contract, "api-ms-win-core-synch-l1-2");
    assert_string_equal(c->host, "kernelbase.dll");
    assert_null(td_apiset_find(&m, "api-ms-win-no-such-thing-l1-1-0.dll"));
    assert_null(td_apiset_find(&m, "kernel32.dll"));
    td_arena_free(&arena);
    free(dll);
}

/* Every prefix shorter than the bytes the schema uses fails; every longer
 * one parses to the same 504 contracts. */
static void wine_schema_truncations(void **state)
{
    size_t size, len = 0;
    uint8_t *dll = wine_schema(&size);
    if (!dll)
        skip();
    const uint8_t *sec = section(dll, &len);
    assert_non_null(sec);
    size_t first_ok = 0;
    for (size_t l = 0; l <= len; l += (l < 256 ? 1 : 61)) {
        struct td_arena arena = {0};
        struct td_err err = {0};
        struct td_apiset_map m;
        uint8_t *copy = malloc(l ? l : 1); /* exactly l bytes: ASan sees any overread */
        memcpy(copy, sec, l);
        int rc = td_apiset_parse(copy, l, &arena, &m, &err);
        if (rc == 0) {
            if (!first_ok)
                first_ok = l;
            assert_int_equal(m.count, 504);
        } else {
            assert_int_equal(first_ok, 0); /* no failure after a success */
            assert_true(err.msg[0] != '\0');
        }
        free(copy);
        td_arena_free(&arena);
    }
    assert_true(first_ok > 28 + 504 * 24);
    free(dll);
}

struct blob {
    uint8_t b[1024];
    size_t n;
};

static void put32(struct blob *x, size_t at, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        x->b[at + i] = (uint8_t)(v >> (8 * i));
}

static uint32_t put_name(struct blob *x, const char *s)
{
    uint32_t at = (uint32_t)x->n;
    for (size_t i = 0; s[i]; i++) {
        x->b[x->n++] = (uint8_t)s[i];
        x->b[x->n++] = 0;
    }
    return at;
}

/* Two entries: one whose default (empty-named) value comes after an alias
 * value, one with no value at all. */
static void build(struct blob *x)
{
    memset(x, 0, sizeof *x);
    put32(x, 0, 6);
    put32(x, 12, 2);  /* Count */
    put32(x, 16, 28); /* EntryOffset */
    x->n = 28 + 2 * 24;
    uint32_t values = (uint32_t)x->n;
    x->n += 2 * 20;
    uint32_t n1 = put_name(x, "API-MS-Win-Test-L1-1-3");
    uint32_t n2 = put_name(x, "ext-ms-win-none-l1-1-0");
    uint32_t alias = put_name(x, "special.dll");
    uint32_t aliased = put_name(x, "other.dll");
    uint32_t host = put_name(x, "Host.DLL");
    put32(x, 28 + 4, n1);
    put32(x, 28 + 8, 44);
    put32(x, 28 + 16, values);
    put32(x, 28 + 20, 2);
    put32(x, 52 + 4, n2);
    put32(x, 52 + 8, 44);
    put32(x, 52 + 20, 0);
    put32(x, values + 4, alias); /* the alias value, for special.dll only */
    put32(x, values + 8, 22);
    put32(x, values + 12, aliased);
    put32(x, values + 16, 18);
    put32(x, values + 20 + 12, host); /* the default */
    put32(x, values + 20 + 16, 16);
    put32(x, 4, (uint32_t)x->n); /* Size */
}

static int parse(const struct blob *x, struct td_arena *arena, struct td_apiset_map *m,
                 struct td_err *err)
{
    td_err_clear(err);
    return td_apiset_parse(x->b, x->n, arena, m, err);
}

static void built_schema(void **state)
{
    struct blob x;
    struct td_arena arena = {0};
    struct td_err err = {0};
    struct td_apiset_map m;
    build(&x);
    assert_int_equal(parse(&x, &arena, &m, &err), 0);
    assert_int_equal(m.count, 2);
    assert_string_equal(m.contracts[0].name, "api-ms-win-test-l1-1-3");
    assert_string_equal(m.contracts[0].contract, "api-ms-win-test-l1-1");
    assert_string_equal(m.contracts[0].host, "host.dll");
    assert_string_equal(m.contracts[1].contract, "ext-ms-win-none-l1-1");
    assert_string_equal(m.contracts[1].host, "-");
    assert_ptr_equal(td_apiset_find(&m, "api-ms-win-test-l1-1-0.dll"), &m.contracts[0]);
    td_arena_free(&arena);
}

static void corruptions(void **state)
{
    struct blob x;
    struct td_arena arena = {0};
    struct td_err err = {0};
    struct td_apiset_map m;
    static const struct {
        size_t at;
        uint32_t value;
        const char *msg;
    } cases[] = {
        {0, 4, "version 4"},
        {12, 0x7fffffff, "entries"},     /* Count */
        {16, 0xfffffff0, "entries"},     /* EntryOffset */
        {28 + 4, 0xfffffffe, "entry 0"}, /* NameOffset */
        {28 + 8, 3, "entry 0"},          /* odd NameLength */
        {28 + 8, 0x10000, "entry 0"},    /* NameLength too long */
        {28 + 20, 0x10000000, "values"}, /* ValueCount */
        {28 + 16, 0xffffffff, "values"}, /* ValueOffset */
        {76 + 20 + 12, 0x7ffffff0, "host"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        build(&x);
        put32(&x, cases[i].at, cases[i].value);
        assert_int_equal(parse(&x, &arena, &m, &err), -1);
        if (!strstr(err.msg, cases[i].msg))
            fail_msg("case %zu: \"%s\" lacks \"%s\"", i, err.msg, cases[i].msg);
    }
    /* A non-ASCII name and a name without '-'. */
    build(&x);
    x.b[28 + 48 + 40 + 1] = 0x04;
    assert_int_equal(parse(&x, &arena, &m, &err), -1);
    build(&x);
    put32(&x, 28 + 8, 6); /* "API" */
    assert_int_equal(parse(&x, &arena, &m, &err), -1);
    /* Not a PE file. */
    td_err_clear(&err);
    assert_int_equal(td_apiset_parse_pe(x.b, 64, &arena, &m, &err), -1);
    assert_string_equal(err.msg, "not a PE file");
    td_arena_free(&arena);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(wine_schema_matches_table),
        cmocka_unit_test(wine_schema_truncations),
        cmocka_unit_test(built_schema),
        cmocka_unit_test(corruptions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
