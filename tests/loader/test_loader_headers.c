/* Tests of td_object_read_fd: an object whose headers are read with pread,
 * a piece at a time, must answer the loader's questions exactly as the same
 * file opened whole (td_object_open) does, and with SYMBOLS give the hash
 * tables' headers the binder starts from (graph/bind_elf.c reads the rest);
 * also when its pieces do not fit the scratch memory and it falls back to
 * mapping the file. */
#include "testutil.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loader/loader.h"

static const char *const FILES[] = {
    "elf/libdep.so",
    "elf/libi686.so",
    "elf/librpath.so",
    "elf/librunpath.so",
    "elf/libtiny-ppc64.so",
    "elf/libuser.so",
    "elf/libver.so",
    "elf/libver-nosections.so",
    "elf/prog",
    "/lib/x86_64-linux-gnu/libc.so.6",
    "/lib/x86_64-linux-gnu/libstdc++.so.6",
};

static void render(struct td_text *t, const struct td_object *o)
{
    const struct td_elf *e = &o->u.elf;
    td_text_add(t, "path=%s host=%s name=%s identity=%s arch=%s kind=%d dev=%llu ino=%llu\n",
                o->path, o->host_path, o->name, o->identity ? o->identity : "-", o->arch,
                (int)o->kind, (unsigned long long)o->dev, (unsigned long long)o->ino);
    td_text_add(t, "type=%u interp=%s flags_1=%llx\n", e->type, e->interp ? e->interp : "-",
                (unsigned long long)e->dyn.flags_1);
    for (uint32_t i = 0; i < e->needed_count; i++)
        td_text_add(t, "needed=%s\n", e->needed[i]);
    td_text_add(t, "rpath=%s runpath=%s\n", e->rpath ? e->rpath : "-",
                e->runpath ? e->runpath : "-");
    for (uint32_t i = 0; i < e->verneed_count; i++)
        for (uint32_t k = 0; k < e->verneed[i].version_count; k++)
            td_text_add(t, "verneed=%s %s\n", e->verneed[i].file, e->verneed[i].versions[k].name);
    for (uint32_t i = 0; i < e->verdef_count; i++)
        td_text_add(t, "verdef=%s\n", e->verdef[i].name);
}

/* The hash tables' headers, where the binder starts reading symbols. */
static void render_hash_headers(struct td_text *t, const struct td_object *o)
{
    const struct td_elf *e = &o->u.elf;
    const struct td_elf_gnu_hash *g = &e->gnu;
    const struct td_elf_sysv_hash *h = &e->sysv;
    td_text_add(t, "gnu=%d nbuckets=%u symoffset=%u bloom=%u/%u at %llx %llx %llx avail %llx\n",
                e->has_gnu_hash, g->nbuckets, g->symoffset, g->bloom_size, g->bloom_shift,
                (unsigned long long)g->bloom_off, (unsigned long long)g->buckets_off,
                (unsigned long long)g->chain_off, (unsigned long long)g->chain_avail);
    td_text_add(t, "sysv=%d nbucket=%llu nchain=%llu width=%u at %llx %llx\n", e->has_sysv_hash,
                (unsigned long long)h->nbucket, (unsigned long long)h->nchain, h->width,
                (unsigned long long)h->buckets_off, (unsigned long long)h->chain_off);
    td_text_add(t, "strtab=%llx+%llx syment=%llu\n", (unsigned long long)e->strtab_off,
                (unsigned long long)e->strtab_size, (unsigned long long)e->dyn.syment);
}

/* Reads PATH with td_object_read_fd, the first LEAD bytes handed in. */
static struct td_object *read_fd(const char *path, size_t lead, bool symbols,
                                 struct td_header_scratch *scratch)
{
    uint8_t head[4096];
    struct stat st;
    struct td_err err = {0};
    int fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    assert_int_equal(fstat(fd, &st), 0);
    ssize_t n = pread(fd, head, lead < sizeof head ? lead : sizeof head, 0);
    assert_true(n >= 0);
    struct td_object *o =
        td_object_read_fd(fd, (uint64_t)st.st_size, (uint64_t)st.st_dev, (uint64_t)st.st_ino, head,
                          (size_t)n, symbols, scratch, path, "/target/x.so", &err);
    close(fd);
    if (!o)
        fail_msg("%s: %s", path, err.msg);
    return o;
}

static void agrees_with(struct td_header_scratch *scratch)
{
    static const size_t LEADS[] = {0, 64, 4096};
    for (size_t f = 0; f < sizeof FILES / sizeof FILES[0]; f++) {
        const char *path = FILES[f][0] == '/' ? FILES[f] : td_fixture(FILES[f]);
        char copy[4096];
        snprintf(copy, sizeof copy, "%s", path);
        if (access(copy, R_OK) != 0)
            continue;
        struct td_err err = {0};
        struct td_object *whole = td_object_open(copy, "/target/x.so", NULL, &err);
        if (!whole)
            fail_msg("%s: %s", copy, err.msg);
        struct td_text want = {0};
        render(&want, whole);
        struct td_text want_syms = {0};
        render_hash_headers(&want_syms, whole);
        for (size_t l = 0; l < sizeof LEADS / sizeof LEADS[0]; l++) {
            struct td_object *o = read_fd(copy, LEADS[l], false, scratch);
            struct td_text got = {0};
            render(&got, o);
            if (strcmp(want.s, got.s) != 0)
                fail_msg("%s (lead %zu)\n--- whole\n%s--- read\n%s", copy, LEADS[l], want.s, got.s);
            /* Nothing of the file is kept: no mapping, no symbols. */
            assert_null(o->map.data);
            assert_int_equal(td_elf_dynsym_count(&o->u.elf), 0);
            free(got.s);
            td_object_free(o);

            o = read_fd(copy, LEADS[l], true, scratch);
            struct td_text got_syms = {0};
            got = (struct td_text){0};
            render(&got, o);
            render_hash_headers(&got_syms, o);
            if (strcmp(want.s, got.s) != 0 || strcmp(want_syms.s, got_syms.s) != 0)
                fail_msg("%s (lead %zu, symbols) differs\n--- whole\n%s--- read\n%s", copy,
                         LEADS[l], want_syms.s, got_syms.s);
            /* In pieces nothing is mapped and the symbols are not counted
             * (the binder counts them); mapped, the file was parsed whole. */
            if (o->map.data)
                assert_int_equal(o->u.elf.dynsym_count, whole->u.elf.dynsym_count);
            else
                assert_int_equal(o->u.elf.symcount_source, TD_ELF_SYMCOUNT_NOT_PARSED);
            free(got.s);
            free(got_syms.s);
            td_object_free(o);
        }
        free(want_syms.s);
        free(want.s);
        td_object_free(whole);
    }
}

static void pieces_agree_with_whole_file(void **state)
{
    (void)state;
    struct td_header_scratch scratch = {0};
    agrees_with(&scratch);
    assert_non_null(scratch.mem); /* the pread path was taken */
    td_header_scratch_free(&scratch);
}

/* Scratch memory of one page: every file needing more is mapped instead. */
static void full_scratch_falls_back_to_mapping(void **state)
{
    (void)state;
    struct td_header_scratch scratch = {0};
    scratch.mem = malloc(4096);
    scratch.cap = 4096;
    agrees_with(&scratch);
    td_header_scratch_free(&scratch);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pieces_agree_with_whole_file),
        cmocka_unit_test(full_scratch_falls_back_to_mapping),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
