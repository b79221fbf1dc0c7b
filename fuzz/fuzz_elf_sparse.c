/* libFuzzer target for the ELF reader over partial buffers, as the loader
 * uses it: the input is parsed through a sparse buffer, loading each
 * missed range (td_object_read_fd's loop), then detached, and its symbol
 * tables attached alone as a window (td_elf_symbol_range). Every answer
 * must equal that of the whole-buffer parse; a difference traps. */
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

static void compare_symbols(const struct td_elf *whole, const struct td_elf *part)
{
    static const char *names[] = {"foo", "bar", "printf", "malloc", ""};
    if (whole->dynsym_count != part->dynsym_count)
        __builtin_trap();
    for (uint32_t i = 0; i < whole->dynsym_count && i < 4096; i++) {
        struct td_elf_sym a, b;
        bool ra = td_elf_dynsym(whole, i, &a), rb = td_elf_dynsym(part, i, &b);
        if (ra != rb || (ra && (strcmp(a.name, b.name) != 0 || a.value != b.value)))
            __builtin_trap();
        if (ra) {
            same_string(a.version, b.version);
            ra = td_elf_lookup(whole, a.name, td_elf_gnu_hash(a.name), a.version, &a);
            rb = td_elf_lookup(part, b.name, td_elf_gnu_hash(b.name), b.version, &b);
            if (ra != rb || (ra && a.value != b.value))
                __builtin_trap();
        }
    }
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        struct td_elf_sym a, b;
        uint32_t h = td_elf_gnu_hash(names[i]);
        if (td_elf_lookup(whole, names[i], h, NULL, &a) !=
            td_elf_lookup(part, names[i], h, NULL, &b))
            __builtin_trap();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct td_arena wa = {.cap = 16 << 20}, pa = {.cap = 16 << 20};
    struct td_err werr = {0}, perr = {0};
    struct td_elf whole, part;
    struct td_buf_extent ext[MAX_EXTENTS];
    size_t count = 0;
    int wrc = td_elf_parse(&whole, data, size, &wa, &werr), prc = -1;
    bool settled = false;
    if (size >= 16)
        load(ext, &count, data, size, 0, 16);
    for (int attempt = 0; attempt < TRIES && !settled; attempt++) {
        struct td_buf_sparse sp = {ext, count, false, 0, 0};
        td_arena_free(&pa);
        perr = (struct td_err){0};
        prc = td_elf_parse_buf(&part, td_buf_sparse_make(size, &sp), true, &pa, &perr);
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
                uint64_t lo, hi;
                if (td_elf_symbol_range(&part, &lo, &hi)) {
                    uint8_t *copy = malloc((size_t)(hi - lo)); /* the window alone */
                    if (copy) {
                        memcpy(copy, data + lo, (size_t)(hi - lo));
                        td_elf_attach(&part, copy, lo, hi, size);
                        compare_symbols(&whole, &part);
                        free(copy);
                    }
                }
            }
        }
    }
    td_arena_free(&wa);
    td_arena_free(&pa);
    return 0;
}
