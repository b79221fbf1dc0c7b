/* Zip reader against real archives from tests/fixtures/zip.sh: every member
 * as Python's zipfile and Info-ZIP's unzip list it, member data, ZIP64,
 * comments, symlinks, data descriptors, encryption, and whole wheels. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/record.h"
#include "format/zip.h"

#define WHEEL "demo_pkg-1.2.3-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"
#define NATIVE "native_ext-0.1-cp311-cp311-linux_x86_64.whl"

static const char *const archives[] = {
    "comment.zip",
    "dd.zip",
    "decoy.zip",
    WHEEL,
    NATIVE,
    "empty.zip",
    "encrypted.zip",
    "forcezip64.zip",
    "handmade64.zip",
    "many.zip",
    "pysymlink.zip",
    "symlink.zip",
    "zip64_members.zip",
};

/* An opened fixture; free with close_fixture. */
struct opened {
    struct td_map map;
    struct td_arena arena;
    struct td_zip zip;
};

static void open_fixture(struct opened *o, const char *name)
{
    char rel[512];
    struct td_err err = {0};
    memset(o, 0, sizeof *o);
    snprintf(rel, sizeof rel, "zip/%s", name);
    td_map_fixture(rel, &o->map);
    if (td_zip_open(&o->zip, o->map.data, o->map.size, &o->arena, &err) != 0)
        fail_msg("%s: %s", name, err.msg);
}

static void close_fixture(struct opened *o)
{
    td_arena_free(&o->arena);
    td_map_close(&o->map);
}

/* Reads a member whole into malloc'd memory (NUL-terminated for text). */
static uint8_t *read_member(struct opened *o, const char *name, size_t *size)
{
    struct td_err err = {0};
    const struct td_zip_entry *e = td_zip_find(&o->zip, name, strlen(name));
    if (!e)
        fail_msg("no member %s", name);
    uint8_t *buf = malloc((size_t)e->uncompressed_size + 1);
    assert_non_null(buf);
    if (td_zip_extract(&o->zip, e, buf, (size_t)e->uncompressed_size, &err) != 0)
        fail_msg("%s", err.msg);
    buf[e->uncompressed_size] = 0;
    *size = (size_t)e->uncompressed_size;
    return buf;
}

/* Splits the next line of a tab-separated expectation file into fields. */
static int next_row(FILE *f, char *line, size_t cap, char **fields, int max)
{
    if (!fgets(line, (int)cap, f))
        return -1;
    line[strcspn(line, "\n")] = 0;
    int n = 0;
    for (char *p = line; n < max; n++) {
        fields[n] = p;
        char *tab = strchr(p, '\t');
        if (!tab) {
            n++;
            break;
        }
        *tab = 0;
        p = tab + 1;
    }
    return n;
}

static FILE *open_expectation(const char *archive, const char *suffix)
{
    char rel[512];
    snprintf(rel, sizeof rel, "zip/%s.%s", archive, suffix);
    FILE *f = fopen(td_fixture(rel), "r");
    if (!f)
        fail_msg("missing expectation %s", rel);
    return f;
}

/* Python's zipfile: name, method, size, csize, crc, offset, attrs, flags, host. */
static void check_python(struct opened *o, const char *archive)
{
    FILE *f = open_expectation(archive, "expect");
    char line[4096], *c[9] = {0};
    size_t i = 0;
    for (int got; (got = next_row(f, line, sizeof line, c, 9)) >= 0;) {
        assert_int_equal(got, 9); /* a short row is a broken expectation */
        assert_true(i < o->zip.count);
        const struct td_zip_entry *e = &o->zip.entries[i++];
        assert_string_equal(e->name, c[0]);
        assert_int_equal(e->method, strtoul(c[1], NULL, 10));
        assert_int_equal(e->uncompressed_size, strtoull(c[2], NULL, 10));
        assert_int_equal(e->compressed_size, strtoull(c[3], NULL, 10));
        assert_int_equal(e->crc32, strtoul(c[4], NULL, 16));
        assert_int_equal(e->local_header_offset, strtoull(c[5], NULL, 10));
        assert_int_equal(e->external_attr, strtoul(c[6], NULL, 10));
        assert_int_equal(e->flags, strtoul(c[7], NULL, 10));
        assert_int_equal(e->version_made_by >> 8, strtoul(c[8], NULL, 10));
    }
    fclose(f);
    assert_int_equal(i, o->zip.count);
}

/* Info-ZIP's unzip -lv: name, size, method, csize, crc. */
static void check_unzip(struct opened *o, const char *archive)
{
    FILE *f = open_expectation(archive, "unzip");
    char line[4096], *c[5];
    size_t i = 0;
    while (next_row(f, line, sizeof line, c, 5) == 5) {
        assert_true(i < o->zip.count);
        const struct td_zip_entry *e = &o->zip.entries[i++];
        assert_string_equal(e->name, c[0]);
        assert_int_equal(e->uncompressed_size, strtoull(c[1], NULL, 10));
        assert_int_equal(e->method, strcmp(c[2], "Stored") == 0 ? 0 : 8);
        /* unzip leaves out the 12-byte PKWARE encryption header (APPNOTE 6.1.3). */
        uint64_t header = td_zip_is_encrypted(e) ? 12 : 0;
        assert_int_equal(e->compressed_size - header, strtoull(c[3], NULL, 10));
        assert_int_equal(e->crc32, strtoul(c[4], NULL, 16));
    }
    fclose(f);
    assert_int_equal(i, o->zip.count);
}

static int count_bytes(void *ctx, const uint8_t *chunk, size_t len)
{
    (void)chunk;
    assert_true(len > 0 && len <= TD_ZIP_CHUNK);
    *(uint64_t *)ctx += len;
    return 0;
}

/* Every member decompresses to its declared size with a matching CRC. */
static void check_all_members(struct opened *o)
{
    for (size_t i = 0; i < o->zip.count; i++) {
        const struct td_zip_entry *e = &o->zip.entries[i];
        struct td_err err = {0};
        uint64_t n = 0;
        if (td_zip_is_encrypted(e))
            continue;
        if (td_zip_stream(&o->zip, e, count_bytes, &n, &err) != 0)
            fail_msg("%s: %s", e->name, err.msg);
        assert_int_equal(n, e->uncompressed_size);
    }
}

static void every_archive_matches_python_and_unzip(void **state)
{
    for (size_t i = 0; i < sizeof archives / sizeof archives[0]; i++) {
        struct opened o;
        open_fixture(&o, archives[i]);
        check_python(&o, archives[i]);
        if (strcmp(archives[i], "decoy.zip") != 0)
            check_unzip(&o, archives[i]);
        check_all_members(&o);
        close_fixture(&o);
    }
}

struct chunk_stats {
    uint64_t total;
    size_t chunks;
    size_t lines;
};

static int count_lines(void *ctx, const uint8_t *chunk, size_t len)
{
    struct chunk_stats *s = ctx;
    s->total += len;
    s->chunks++;
    for (size_t i = 0; i < len; i++)
        s->lines += chunk[i] == '\n';
    return 0;
}

static int stop_early(void *ctx, const uint8_t *chunk, size_t len)
{
    (void)chunk;
    (void)len;
    return ++*(int *)ctx == 3 ? 7 : 0;
}

static void wheel_members_and_data(void **state)
{
    struct opened o;
    struct td_err err = {0};
    open_fixture(&o, WHEEL);
    assert_int_equal(o.zip.count, 8);
    assert_false(o.zip.zip64);
    assert_int_equal(o.zip.comment_len, 0);

    const struct td_zip_entry *e = td_zip_find(&o.zip, "demo_pkg/data.bin", 17);
    assert_non_null(e);
    assert_int_equal(e->method, TD_ZIP_STORED);
    const uint8_t *data;
    size_t len;
    assert_int_equal(td_zip_stored(&o.zip, e, &data, &len, &err), 0);
    assert_int_equal(len, 1000);
    for (size_t i = 0; i < len; i++)
        assert_int_equal(data[i], (i * 7 + 3) & 0xFF);
    assert_ptr_equal(data, o.map.data + e->local_header_offset + 30 + 17);

    /* 840000 bytes of text stream out in bounded chunks. */
    e = td_zip_find(&o.zip, "demo_pkg/big.txt", 16);
    assert_non_null(e);
    assert_int_equal(e->method, TD_ZIP_DEFLATED);
    struct chunk_stats s = {0};
    assert_int_equal(td_zip_stream(&o.zip, e, count_lines, &s, &err), 0);
    assert_int_equal(s.total, 840000);
    assert_int_equal(s.lines, 20000);
    assert_true(s.chunks >= 840000 / TD_ZIP_CHUNK);
    assert_int_equal(td_zip_stored(&o.zip, e, &data, &len, &err), -1);
    assert_non_null(strstr(err.msg, "not stored plainly (method 8)"));

    /* A sink that stops: its value comes back and no error is set. */
    int calls = 0;
    td_err_clear(&err);
    assert_int_equal(td_zip_stream(&o.zip, e, stop_early, &calls, &err), 7);
    assert_int_equal(calls, 3);
    assert_false(err.set);

    /* The wrong buffer size is refused. */
    uint8_t small[10];
    assert_int_equal(td_zip_extract(&o.zip, e, small, sizeof small, &err), -1);
    assert_non_null(strstr(err.msg, "buffer of 10 bytes given for 840000"));

    size_t n;
    uint8_t *text = read_member(&o, "demo_pkg/empty.txt", &n);
    assert_int_equal(n, 0);
    free(text);
    assert_null(td_zip_find(&o.zip, "demo_pkg/absent", 15));
    assert_null(td_zip_find(&o.zip, "demo_pkg/data.bi", 16));
    close_fixture(&o);
}

static void hex_to_bytes(const char *hex, uint8_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        sscanf(hex + 2 * i, "%2x", &v);
        out[i] = (uint8_t)v;
    }
}

/* RECORD rows against the archive and against hashlib's digests. */
static void check_record(struct opened *o, const char *archive, const char *dist_info)
{
    struct td_err err = {0};
    char path[256];
    snprintf(path, sizeof path, "%s/RECORD", dist_info);
    size_t n;
    char *text = (char *)read_member(o, path, &n);
    struct td_record r;
    assert_int_equal(td_record_parse(&r, text, n, &o->arena, &err), 0);
    assert_int_equal(r.count, o->zip.count);
    FILE *f = open_expectation(archive, "sha256");
    char line[4096], *c[2];
    size_t rows = 0;
    while (next_row(f, line, sizeof line, c, 2) == 2) {
        const struct td_record_row *row = td_record_find(&r, c[0], strlen(c[0]));
        const struct td_zip_entry *e = td_zip_find(&o->zip, c[0], strlen(c[0]));
        assert_non_null(row);
        assert_non_null(e);
        rows++;
        if (strcmp(c[0], path) == 0) { /* RECORD lists itself without hash or size */
            assert_null(row->algorithm);
            assert_false(row->has_size);
            continue;
        }
        assert_string_equal(row->algorithm, "sha256");
        assert_int_equal(row->digest_len, 32);
        uint8_t want[32];
        hex_to_bytes(c[1], want, 32);
        assert_memory_equal(row->digest, want, 32);
        assert_true(row->has_size);
        assert_int_equal(row->size, e->uncompressed_size);
    }
    fclose(f);
    assert_int_equal(rows, r.count);
    free(text);
}

static void wheel_metadata(void **state)
{
    struct opened o;
    struct td_err err = {0};
    open_fixture(&o, WHEEL);
    const char *dir;
    assert_int_equal(td_zip_wheel_dist_info(&o.zip, &dir, &o.arena, &err), 0);
    assert_string_equal(dir, "demo_pkg-1.2.3.dist-info");

    size_t n;
    char *text = (char *)read_member(&o, "demo_pkg-1.2.3.dist-info/WHEEL", &n);
    struct td_zip_wheel_file w;
    assert_int_equal(td_zip_wheel_parse_wheel(&w, text, n, &o.arena, &err), 0);
    assert_string_equal(w.wheel_version, "1.0");
    assert_string_equal(w.generator, "torchdoctor-fixture 1.0");
    assert_int_equal(w.root_is_purelib, 0);
    assert_int_equal(w.tag_count, 2);
    assert_string_equal(w.tags[0], "cp311-cp311-manylinux_2_17_x86_64");
    assert_string_equal(w.tags[1], "cp311-cp311-manylinux2014_x86_64");
    assert_null(w.build);
    free(text);

    text = (char *)read_member(&o, "demo_pkg-1.2.3.dist-info/METADATA", &n);
    struct td_zip_metadata m;
    assert_int_equal(td_zip_wheel_parse_metadata(&m, text, n, &o.arena, &err), 0);
    assert_string_equal(m.metadata_version, "2.1");
    assert_string_equal(m.name, "demo-pkg"); /* not the body's "Name:" line */
    assert_string_equal(m.version, "1.2.3");
    assert_string_equal(m.requires_python, ">=3.9");
    assert_int_equal(m.requires_dist_count, 2);
    assert_string_equal(m.requires_dist[0], "numpy>=1.24");
    assert_string_equal(m.requires_dist[1], "typing-extensions; python_version < \"3.11\"");
    free(text);

    check_record(&o, WHEEL, dir);
    close_fixture(&o);
}

static void native_wheel_holds_the_elf(void **state)
{
    struct opened o;
    struct td_err err = {0};
    open_fixture(&o, NATIVE);
    assert_int_equal(o.zip.count, 5);
    const char *dir;
    assert_int_equal(td_zip_wheel_dist_info(&o.zip, &dir, &o.arena, &err), 0);
    assert_string_equal(dir, "native_ext-0.1.dist-info");
    size_t n;
    uint8_t *so = read_member(&o, "native_ext/_core.cpython-311-x86_64-linux-gnu.so", &n);
    size_t want_size;
    uint8_t *want = td_read_file(td_fixture("zip/native_core.so"), &want_size);
    assert_int_equal(n, want_size);
    assert_memory_equal(so, want, n);
    assert_memory_equal(so,
                        "\x7f"
                        "ELF",
                        4);
    free(want);
    free(so);
    check_record(&o, NATIVE, dir);
    close_fixture(&o);
}

static void zip64_archives(void **state)
{
    struct opened o;
    size_t n;
    open_fixture(&o, "many.zip");
    assert_true(o.zip.zip64);
    assert_int_equal(o.zip.count, 70000);
    assert_string_equal(o.zip.entries[69999].name, "d/69999");
    uint8_t *text = read_member(&o, "d/12345", &n);
    assert_string_equal((char *)text, "12345");
    free(text);
    close_fixture(&o);

    open_fixture(&o, "handmade64.zip");
    assert_true(o.zip.zip64);
    assert_int_equal(o.zip.count, 1);
    assert_true(o.zip.entries[0].zip64);
    assert_int_equal(o.zip.entries[0].local_header_offset, 0);
    assert_int_equal(o.zip.entries[0].uncompressed_size, 69);
    text = read_member(&o, "h/zip64.txt", &n);
    assert_string_equal((char *)text, "handmade zip64 payload\nhandmade zip64 payload\n"
                                      "handmade zip64 payload\n");
    free(text);
    close_fixture(&o);

    open_fixture(&o, "forcezip64.zip");
    assert_true(o.zip.zip64);
    assert_true(o.zip.entries[0].zip64);
    text = read_member(&o, "b.txt", &n);
    assert_string_equal((char *)text, "bravo bravo bravo bravo\n");
    free(text);
    close_fixture(&o);

    open_fixture(&o, "zip64_members.zip");
    assert_false(o.zip.zip64);
    text = read_member(&o, "m1.txt", &n);
    assert_int_equal(n, 750);
    assert_memory_equal(text, "zip64 member 1\nzip64 member 1\n", 30);
    free(text);
    close_fixture(&o);
}

static void comments_and_empty(void **state)
{
    struct opened o;
    struct td_err err = {0};
    open_fixture(&o, "comment.zip");
    assert_int_equal(o.zip.comment_len, 13);
    assert_memory_equal(o.zip.comment, "a zip comment", 13);
    close_fixture(&o);

    /* Python's zipfile takes the decoy signature inside the comment; the
     * comment that ends exactly at the end of the file is the real one. */
    open_fixture(&o, "decoy.zip");
    assert_int_equal(o.zip.count, 1);
    assert_int_equal(o.zip.comment_len, 32);
    assert_memory_equal(o.zip.comment, "decoy PK\x05\x06", 10);
    close_fixture(&o);

    open_fixture(&o, "empty.zip");
    assert_int_equal(o.map.size, 22);
    assert_int_equal(o.zip.count, 0);
    assert_null(td_zip_find(&o.zip, "x", 1));
    const char *dir;
    assert_int_equal(td_zip_wheel_dist_info(&o.zip, &dir, &o.arena, &err), -1);
    assert_string_equal(err.msg, "wheel: no .dist-info directory among 0 members");
    close_fixture(&o);
}

static void symlinks_descriptors_encryption(void **state)
{
    struct opened o;
    struct td_err err = {0};
    size_t n;
    const char *const links[][3] = {{"symlink.zip", "link.txt", "a.txt"},
                                    {"pysymlink.zip", "lib/libtarget.so", "libtarget.so.1"}};
    for (int i = 0; i < 2; i++) {
        open_fixture(&o, links[i][0]);
        const struct td_zip_entry *link = td_zip_find(&o.zip, links[i][1], strlen(links[i][1]));
        assert_non_null(link);
        assert_true(td_zip_is_symlink(link));
        assert_int_equal(td_zip_unix_mode(link) & 0777, 0777);
        assert_false(td_zip_is_symlink(&o.zip.entries[0]));
        assert_false(td_zip_is_dir(&o.zip.entries[0]));
        uint8_t *target = read_member(&o, links[i][1], &n);
        assert_string_equal((char *)target, links[i][2]);
        free(target);
        close_fixture(&o);
    }

    open_fixture(&o, "dd.zip");
    assert_true(o.zip.entries[0].flags & TD_ZIP_FLAG_DATA_DESCRIPTOR);
    uint8_t *text = read_member(&o, "-", &n);
    assert_string_equal((char *)text, "streamed from a pipe, so sizes follow the data\n");
    free(text);
    close_fixture(&o);

    open_fixture(&o, "encrypted.zip");
    const struct td_zip_entry *e = &o.zip.entries[0];
    assert_true(td_zip_is_encrypted(e));
    uint8_t buf[6];
    assert_int_equal(td_zip_extract(&o.zip, e, buf, sizeof buf, &err), -1);
    char want[128];
    snprintf(want, sizeof want,
             "member 'a.txt' (central directory entry at offset 0x%llx): encrypted; cannot be read",
             (unsigned long long)o.zip.cd_offset);
    assert_string_equal(err.msg, want);
    close_fixture(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_archive_matches_python_and_unzip),
        cmocka_unit_test(wheel_members_and_data),
        cmocka_unit_test(wheel_metadata),
        cmocka_unit_test(native_wheel_holds_the_elf),
        cmocka_unit_test(zip64_archives),
        cmocka_unit_test(comments_and_empty),
        cmocka_unit_test(symlinks_descriptors_encryption),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
