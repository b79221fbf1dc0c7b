/* libFuzzer target for the ELF reader over partial buffers, as the loader
 * uses it: the headers and the hash tables' headers are parsed through a
 * sparse buffer, loading each missed range (td_object_read_fd's loop),
 * then detached. Every answer must equal that of the same parse over the
 * whole buffer; a difference traps. (The symbol tables themselves are read
 * by the binder: fuzz_graph_bind.) */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "format/elf.h"

enum { MAX_EXTENTS = 64, TRIES = 256 };

static void same_string(const char *a, const char *b)
{
    if ((a == NULL) != (b == NULL) || (a && strcmp(a, b) != 0))
        __builtin_trap();
}

/* Adds [off, off + len) (page-rounded, merged with what it touches). */
static bool load(struct td_buf_extent *ext, size_t *count, const uint8_t *data, size_t size,
                 uint64_t off, uint64_t len)
{
    uint64_t lo = off & ~(uint64_t)63, hi = off + len;
    hi = (hi + 63) & ~(uint64_t)63;
    if (hi > size)
        hi = size;
    for (size_t i = 0; i < *count;) {
        if (ext[i].off > hi || ext[i].off + ext[i].len < lo) {
            i++;
            continue;
        }
        lo = ext[i].off < lo ? ext[i].off : lo;
        hi = ext[i].off + ext[i].len > hi ? ext[i].off + ext[i].len : hi;
        ext[i] = ext[--*count];
        i = 0;
    }
    if (*count == MAX_EXTENTS)
        return false;
    ext[(*count)++] = (struct td_buf_extent){lo, hi - lo, data + lo};
    return true;
}

/* Headers, then the hash tables' headers: what td_object_read_fd parses
 * when symbols will be bound. */
static int parse(struct td_elf *elf, struct td_buf buf, struct td_arena *arena, struct td_err *err)
{
    int rc = td_elf_parse_buf(elf, buf, false, arena, err);
    return rc == 0 ? td_elf_parse_hash_headers(elf, err) : rc;
}

static void compare_hash_headers(const struct td_elf *whole, const struct td_elf *part)
{
    const struct td_elf_gnu_hash *a = &whole->gnu, *b = &part->gnu;
    if (whole->has_gnu_hash != part->has_gnu_hash || whole->has_sysv_hash != part->has_sysv_hash ||
        a->nbuckets != b->nbuckets || a->symoffset != b->symoffset ||
        a->bloom_size != b->bloom_size || a->chain_off != b->chain_off ||
        a->chain_avail != b->chain_avail || whole->sysv.nchain != part->sysv.nchain ||
        whole->sysv.chain_off != part->sysv.chain_off || whole->strtab_off != part->strtab_off ||
        whole->strtab_size != part->strtab_size)
        __builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct td_arena wa = {.cap = 16 << 20}, pa = {.cap = 16 << 20};
    struct td_err werr = {0}, perr = {0};
    struct td_elf whole, part;
    struct td_buf_extent ext[MAX_EXTENTS];
    size_t count = 0;
    int wrc = parse(&whole, td_buf_make(data, size, false), &wa, &werr), prc = -1;
    bool settled = false;
    if (size >= 16)
        load(ext, &count, data, size, 0, 16);
    for (int attempt = 0; attempt < TRIES && !settled; attempt++) {
        struct td_buf_sparse sp = {ext, count, false, 0, 0};
        td_arena_free(&pa);
        perr = (struct td_err){0};
        prc = parse(&part, td_buf_sparse_make(size, &sp), &pa, &perr);
        settled = !sp.missed;
        if (sp.missed && !load(ext, &count, data, size, sp.miss_off, sp.miss_len))
            break;
    }
    if (settled) {
        if (prc != wrc || perr.set != werr.set)
            __builtin_trap();
        if (prc == 0) {
            same_string(whole.soname, part.soname);
            same_string(whole.runpath, part.runpath);
            same_string(whole.interp, part.interp);
            if (whole.needed_count != part.needed_count)
                __builtin_trap();
            if (td_elf_detach(&part, &pa, &perr) == 0) {
                for (uint32_t i = 0; i < part.needed_count; i++)
                    same_string(whole.needed[i], part.needed[i]);
                compare_hash_headers(&whole, &part);
            }
        }
    }
    td_arena_free(&wa);
    td_arena_free(&pa);
    return 0;
}
