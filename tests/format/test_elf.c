/* Tests of the ELF reader against real fixtures (tests/fixtures/elf.sh):
 * each fixture's readelf view (NAME.expect) must equal the reader's, and
 * flags, versions and ld.so-style lookups are checked by exact values. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/elf.h"

/* One parsed fixture with its mapping and arena. */
struct fixture {
    struct td_map map;
    struct td_arena arena;
    struct td_elf elf;
};

static void open_fixture(struct fixture *f, const char *name)
{
    char rel[256];
    struct td_err err = {0};
    memset(f, 0, sizeof *f);
    snprintf(rel, sizeof rel, "elf/%s", name);
    td_map_fixture(rel, &f->map);
    if (td_elf_parse(&f->elf, f->map.data, f->map.size, &f->arena, &err) != 0)
        fail_msg("%s: %s", name, err.msg);
}

static void close_fixture(struct fixture *f)
{
    td_arena_free(&f->arena);
    td_map_close(&f->map);
}

/* ---- The reader's view in the .expect format, grouped by key. ---- */

static const char *type_name(uint16_t type)
{
    static const char *names[] = {"NONE", "REL", "EXEC", "DYN", "CORE"};
    return type < 5 ? names[type] : "?";
}

static const char *ver_flags(uint16_t flags)
{
    return flags == TD_VER_FLG_BASE ? "BASE" : flags == TD_VER_FLG_WEAK ? "WEAK" : "none";
}

/* readelf prints "name@@VER" for a default definition, "name@VER" for a
 * hidden one and for a reference, and no version for a version's own
 * absolute symbol. */
static void put_sym(struct td_text *t, uint32_t i, const struct td_elf_sym *s)
{
    td_text_add(t, "sym=%u %s %s", i, s->defined ? "D" : "U", s->name);
    if (s->version && !(s->shndx == TD_SHN_ABS && strcmp(s->name, s->version) == 0))
        td_text_add(t, "%s%s", s->defined && !s->version_hidden ? "@@" : "@", s->version);
    td_text_add(t, "\n");
}

static void dump_key(struct td_text *t, const struct td_elf *elf, const char *key)
{
    if (!strcmp(key, "class"))
        td_text_add(t, "class=%s\n", elf->is64 ? "ELF64" : "ELF32");
    else if (!strcmp(key, "data"))
        td_text_add(t, "data=%s\n", elf->big_endian ? "big" : "little");
    else if (!strcmp(key, "type"))
        td_text_add(t, "type=%s\n", type_name(elf->type));
    else if (!strcmp(key, "machine"))
        td_text_add(t, "machine=%s\n", td_elf_machine_name(elf->machine));
    else if (!strcmp(key, "interp") && elf->interp)
        td_text_add(t, "interp=%s\n", elf->interp);
    else if (!strcmp(key, "build_id") && elf->build_id)
        td_text_add(t, "build_id=%s\n", elf->build_id);
    else if (!strcmp(key, "soname") && elf->soname)
        td_text_add(t, "soname=%s\n", elf->soname);
    else if (!strcmp(key, "needed"))
        for (uint32_t i = 0; i < elf->needed_count; i++)
            td_text_add(t, "needed=%s\n", elf->needed[i]);
    else if (!strcmp(key, "rpath") && elf->rpath)
        td_text_add(t, "rpath=%s\n", elf->rpath);
    else if (!strcmp(key, "runpath") && elf->runpath)
        td_text_add(t, "runpath=%s\n", elf->runpath);
    else if (!strcmp(key, "sym"))
        for (uint32_t i = 1; i < td_elf_dynsym_count(elf); i++) {
            struct td_elf_sym s;
            assert_true(td_elf_dynsym(elf, i, &s));
            put_sym(t, i, &s);
        }
    else if (!strcmp(key, "dynsyms"))
        td_text_add(t, "dynsyms=%u\n", td_elf_dynsym_count(elf));
    else if (!strcmp(key, "undefined")) {
        uint32_t def, undef;
        struct td_err err = {0};
        assert_int_equal(td_elf_dynsym_tally(elf, &def, &undef, &err), 0);
        assert_int_equal(def + undef + 1, td_elf_dynsym_count(elf));
        td_text_add(t, "undefined=%u\n", undef);
    } else if (!strcmp(key, "verdef"))
        for (uint32_t i = 0; i < elf->verdef_count; i++)
            td_text_add(t, "verdef=%u %s %s\n", elf->verdef[i].index,
                        ver_flags(elf->verdef[i].flags), elf->verdef[i].name);
    else if (!strcmp(key, "verneed"))
        for (uint32_t i = 0; i < elf->verneed_count; i++)
            for (uint32_t j = 0; j < elf->verneed[i].version_count; j++) {
                const struct td_elf_vernaux *a = &elf->verneed[i].versions[j];
                td_text_add(t, "verneed=%s %s %s %u\n", elf->verneed[i].file, a->name,
                            ver_flags(a->flags), a->other);
            }
}

static const char *KEYS[] = {"class",    "data",    "type",      "machine", "interp",
                             "build_id", "soname",  "needed",    "rpath",   "runpath",
                             "sym",      "dynsyms", "undefined", "verdef",  "verneed"};

/* The .expect file regrouped by KEYS, keeping each key's lines in order. */
static void expected_text(struct td_text *t, const char *name)
{
    char rel[256], line[4096];
    snprintf(rel, sizeof rel, "elf/%s.expect", name);
    for (size_t k = 0; k < sizeof KEYS / sizeof KEYS[0]; k++) {
        FILE *f = fopen(td_fixture(rel), "r");
        assert_non_null(f);
        size_t klen = strlen(KEYS[k]);
        while (fgets(line, sizeof line, f))
            if (!strncmp(line, KEYS[k], klen) && line[klen] == '=')
                td_text_add(t, "%s", line);
        fclose(f);
    }
}

static void matches_readelf(const char *name)
{
    struct fixture f;
    struct td_text want = {0}, got = {0};
    open_fixture(&f, name);
    expected_text(&want, name);
    for (size_t k = 0; k < sizeof KEYS / sizeof KEYS[0]; k++)
        dump_key(&got, &f.elf, KEYS[k]);
    if (strcmp(want.s, got.s) != 0)
        fail_msg("%s differs from readelf\n--- readelf\n%s--- reader\n%s", name, want.s, got.s);
    free(want.s);
    free(got.s);
    close_fixture(&f);
}

static void readelf_agrees(void **state)
{
    static const char *names[] = {"libdep.so",
                                  "librpath.so",
                                  "librunpath.so",
                                  "libver.so",
                                  "libuser.so",
                                  "libi686.so",
                                  "prog",
                                  "libver-nosections.so",
                                  "libtiny-aarch64.so",
                                  "libtiny-riscv64.so",
                                  "libtiny-ppc64.so"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        matches_readelf(names[i]);
}

/* ---- Header, flags, paths. ---- */

static void rpath_and_flags(void **state)
{
    struct fixture f;
    open_fixture(&f, "librpath.so");
    assert_string_equal(f.elf.rpath, "$ORIGIN/../lib:/opt/rpath");
    assert_null(f.elf.runpath);
    assert_true(f.elf.dyn.has_flags_1);
    assert_int_equal(f.elf.dyn.flags_1 & (TD_DF_1_NODEFLIB | TD_DF_1_NOW),
                     TD_DF_1_NODEFLIB | TD_DF_1_NOW);
    assert_true(f.elf.dyn.has_bind_now); /* GNU ld -z now writes DT_BIND_NOW */
    assert_int_equal(f.elf.needed_count, 3);
    assert_string_equal(f.elf.needed[0], "libdep.so.1");
    assert_string_equal(f.elf.needed[1], "libm.so.6");
    assert_string_equal(f.elf.needed[2], "libc.so.6");
    assert_int_equal(f.elf.symcount_source, TD_ELF_SYMCOUNT_GNU_HASH);
    assert_true(f.elf.sections_valid);
    close_fixture(&f);

    open_fixture(&f, "librunpath.so");
    assert_null(f.elf.rpath);
    assert_string_equal(f.elf.runpath, "$ORIGIN:/opt/runpath");
    assert_false(f.elf.dyn.has_flags_1 && (f.elf.dyn.flags_1 & TD_DF_1_NODEFLIB));
    /* --hash-style=both: the count comes from DT_HASH nchain. */
    assert_true(f.elf.has_gnu_hash && f.elf.has_sysv_hash);
    assert_int_equal(f.elf.symcount_source, TD_ELF_SYMCOUNT_HASH);
    close_fixture(&f);
}

static void program_headers(void **state)
{
    struct fixture f;
    open_fixture(&f, "prog");
    assert_int_equal(f.elf.type, TD_ET_DYN);
    assert_string_equal(f.elf.interp, "/lib64/ld-linux-x86-64.so.2");
    assert_int_equal(strlen(f.elf.build_id), 40); /* sha1 */
    assert_true(f.elf.dyn.flags_1 & TD_DF_1_PIE);
    assert_true(f.elf.has_gnu_stack);
    assert_int_equal(f.elf.gnu_stack_flags, TD_PF_R | TD_PF_W);
    assert_true(f.elf.entry != 0);
    /* The entry point lies in the executable PT_LOAD and translates. */
    uint64_t off;
    assert_true(td_elf_vaddr_to_offset(&f.elf, f.elf.entry, 1, &off, NULL));
    assert_false(td_elf_vaddr_to_offset(&f.elf, UINT64_MAX, 1, &off, NULL));
    assert_false(td_elf_vaddr_to_offset(&f.elf, f.elf.entry, UINT64_MAX, &off, NULL));
    close_fixture(&f);
}

static void machines_and_arch(void **state)
{
    static const struct {
        const char *file, *arch;
        bool is64, big;
    } cases[] = {
        {"libver.so", "x86_64", true, false},
        {"libi686.so", "i386", false, false},
        {"libtiny-aarch64.so", "aarch64", true, false},
        {"libtiny-riscv64.so", "riscv64", true, false},
        {"libtiny-ppc64.so", "ppc64", true, true},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct fixture f;
        open_fixture(&f, cases[i].file);
        assert_string_equal(td_elf_arch(&f.elf), cases[i].arch);
        assert_int_equal(f.elf.is64, cases[i].is64);
        assert_int_equal(f.elf.big_endian, cases[i].big);
        close_fixture(&f);
    }
    assert_string_equal(td_elf_machine_name(62), "Advanced Micro Devices X86-64");
    assert_string_equal(td_elf_machine_name(3), "Intel 80386");
    assert_string_equal(td_elf_machine_name(22), "IBM S/390");
    assert_string_equal(td_elf_machine_name(0x7777), "<unknown>");
}

/* ---- Versions and lookup. ---- */

struct lookup_case {
    const char *name, *version; /* version NULL: unversioned reference */
    bool found;
    const char *found_version;
    bool hidden;
};

/* libver.so: foo@VER_1 (hidden, index 2), foo@@VER_2, bar@@VER_1, baz@VER_2
 * only (hidden, index 3), qux@@VER_3. */
static const struct lookup_case LIBVER_CASES[] = {
    {"foo", NULL, true, "VER_1", true}, /* index 2: glibc's "oldest version" rule */
    {"foo", "VER_1", true, "VER_1", true},
    {"foo", "VER_2", true, "VER_2", false},
    {"foo", "VER_3", false, NULL, false},
    {"bar", NULL, true, "VER_1", false},
    {"bar", "VER_1", true, "VER_1", false},
    {"bar", "VER_2", false, NULL, false},
    {"baz", NULL, false, NULL, false}, /* hidden at index >= 3: never for unversioned */
    {"baz", "VER_2", true, "VER_2", true},
    {"qux", NULL, true, "VER_3", false}, /* the single default at index >= 3 */
    {"qux", "VER_3", true, "VER_3", false},
    {"qux", "VER_1", false, NULL, false},
    {"nope", NULL, false, NULL, false},
    {"__cxa_finalize", NULL, false, NULL, false}, /* undefined here */
};

static void check_lookups(const char *file)
{
    struct fixture f;
    open_fixture(&f, file);
    for (size_t i = 0; i < sizeof LIBVER_CASES / sizeof LIBVER_CASES[0]; i++) {
        const struct lookup_case *c = &LIBVER_CASES[i];
        struct td_elf_sym s;
        bool found = td_elf_lookup(&f.elf, c->name, td_elf_gnu_hash(c->name), c->version, &s);
        if (found != c->found)
            fail_msg("%s: %s@%s: found %d", file, c->name, c->version ? c->version : "-", found);
        if (!found)
            continue;
        assert_string_equal(s.name, c->name);
        assert_true(s.defined);
        assert_string_equal(s.version, c->found_version);
        assert_int_equal(s.version_hidden, c->hidden);
    }
    close_fixture(&f);
}

static void versioned_lookup(void **state)
{
    check_lookups("libver.so");            /* DT_GNU_HASH */
    check_lookups("libver-nosections.so"); /* no section headers at all */
    check_lookups("libi686.so");           /* ELF32, DT_HASH only */
}

/* The real ld.so ran prog (linked against an unversioned libver) against
 * the versioned one: foo must come from foo@VER_1, as td_elf_lookup says. */
static void real_loader_agrees(void **state)
{
    char line[256] = {0};
    FILE *fp = fopen(td_fixture("elf/prog-versioned.out"), "r");
    assert_non_null(fp);
    assert_non_null(fgets(line, sizeof line, fp));
    fclose(fp);
    assert_string_equal(line, "foo=1 bar=3 qux=5\n");
}

/* The walk over every symbol gives, field for field, what td_elf_dynsym
 * gives symbol by symbol: through its tables held whole (x86-64) and
 * through td_elf_dynsym where it cannot (i686, big-endian ppc64). */
static void walk_matches_dynsym(void **state)
{
    static const struct {
        const char *file;
        bool whole;
    } cases[] = {{"libver.so", true},
                 {"libuser.so", true},
                 {"librunpath.so", true},
                 {"libi686.so", false},
                 {"libtiny-ppc64.so", false}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        struct fixture f;
        struct td_elf_dynsym_walk w;
        struct td_elf_sym a, b;
        open_fixture(&f, cases[c].file);
        td_elf_dynsym_walk_begin(&w, &f.elf);
        assert_int_equal(w.syms != NULL, cases[c].whole);
        uint32_t n = 0;
        while (td_elf_dynsym_walk_next(&w, &a)) {
            assert_true(td_elf_dynsym(&f.elf, w.next - 1, &b));
            assert_ptr_equal(a.name, b.name);
            assert_int_equal(a.name_room, b.name_room);
            assert_true(a.name_room > strlen(a.name));
            assert_true(a.value == b.value && a.size == b.size && a.shndx == b.shndx);
            assert_true(a.type == b.type && a.bind == b.bind && a.visibility == b.visibility);
            assert_true(a.defined == b.defined && a.version_index == b.version_index);
            assert_true(a.version_hidden == b.version_hidden);
            assert_ptr_equal(a.version, b.version);
            assert_ptr_equal(a.version_file, b.version_file);
            n++;
        }
        assert_int_equal(n + 1, td_elf_dynsym_count(&f.elf));
        close_fixture(&f);
    }
}

static void sysv_and_gnu_agree(void **state)
{
    struct fixture f;
    open_fixture(&f, "librunpath.so");
    struct td_elf sysv_only = f.elf;
    sysv_only.has_gnu_hash = false;
    assert_int_equal(td_elf_sysv_hash(""), 0);
    assert_int_equal(td_elf_gnu_hash(""), 5381);
    assert_int_equal(td_elf_gnu_hash("printf"), 0x156b2bb8);
    assert_int_equal(td_elf_sysv_hash("printf"), 0x077905a6);
    for (uint32_t i = 1; i < td_elf_dynsym_count(&f.elf); i++) {
        struct td_elf_sym s, a, b;
        assert_true(td_elf_dynsym(&f.elf, i, &s));
        uint32_t h = td_elf_gnu_hash(s.name);
        bool fa = td_elf_lookup(&f.elf, s.name, h, NULL, &a);
        bool fb = td_elf_lookup(&sysv_only, s.name, h, NULL, &b);
        assert_int_equal(fa, fb);
        assert_int_equal(fa, s.defined && s.value != 0);
        if (fa)
            assert_int_equal(a.value, b.value);
    }
    close_fixture(&f);
}

static void undefined_versions_name_library(void **state)
{
    struct fixture f;
    open_fixture(&f, "libuser.so");
    static const struct {
        const char *name, *version;
    } want[] = {{"foo", "VER_2"}, {"bar", "VER_1"}, {"qux", "VER_3"}};
    for (size_t k = 0; k < 3; k++) {
        bool seen = false;
        for (uint32_t i = 1; i < td_elf_dynsym_count(&f.elf); i++) {
            struct td_elf_sym s;
            assert_true(td_elf_dynsym(&f.elf, i, &s));
            if (strcmp(s.name, want[k].name) != 0)
                continue;
            seen = true;
            assert_false(s.defined);
            assert_string_equal(s.version, want[k].version);
            assert_string_equal(s.version_file, "libver.so.1");
        }
        assert_true(seen);
    }
    close_fixture(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(readelf_agrees),      cmocka_unit_test(rpath_and_flags),
        cmocka_unit_test(program_headers),     cmocka_unit_test(machines_and_arch),
        cmocka_unit_test(versioned_lookup),    cmocka_unit_test(real_loader_agrees),
        cmocka_unit_test(sysv_and_gnu_agree),  cmocka_unit_test(undefined_versions_name_library),
        cmocka_unit_test(walk_matches_dynsym),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
