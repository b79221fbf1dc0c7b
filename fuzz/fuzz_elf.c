/* libFuzzer target for the ELF reader: parse, walk every dynamic symbol
 * with its version, read the version tables and do a few lookups. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "format/elf.h"

static void touch(const char *s)
{
    /* Reading the whole string makes the sanitizer check its bounds. */
    if (s)
        (void)strlen(s);
}

static void lookups(const struct td_elf *elf)
{
    static const char *names[] = {"foo", "bar", "qux", "printf", "malloc", ""};
    static const char *versions[] = {NULL, "VER_1", "VER_2", "GLIBC_2.2.5"};
    struct td_elf_sym s;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        for (size_t v = 0; v < sizeof versions / sizeof versions[0]; v++)
            if (td_elf_lookup(elf, names[i], td_elf_gnu_hash(names[i]), versions[v], &s))
                touch(s.name);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct td_arena arena = {.cap = 16 << 20};
    struct td_err err = {0};
    struct td_elf elf;
    if (td_elf_parse(&elf, data, size, &arena, &err) == 0) {
        uint32_t def, undef;
        struct td_elf_sym s;
        (void)td_elf_arch(&elf);
        (void)td_elf_machine_name(elf.machine);
        touch(elf.interp);
        touch(elf.build_id);
        touch(elf.soname);
        touch(elf.rpath);
        touch(elf.runpath);
        for (uint32_t i = 0; i < elf.needed_count; i++)
            touch(elf.needed[i]);
        for (uint32_t i = 0; i < elf.verneed_count; i++)
            for (uint32_t j = 0; j < elf.verneed[i].version_count; j++)
                touch(elf.verneed[i].versions[j].name);
        for (uint32_t i = 0; i < elf.verdef_count; i++)
            touch(elf.verdef[i].name);
        td_elf_dynsym_tally(&elf, &def, &undef, &err);
        for (uint32_t i = 0; i < td_elf_dynsym_count(&elf); i++)
            if (td_elf_dynsym(&elf, i, &s)) {
                touch(s.name);
                touch(s.version);
                touch(s.version_file);
            }
        lookups(&elf);
    } else if (!err.set) {
        __builtin_trap(); /* a failure must always say why */
    }
    td_arena_free(&arena);
    return 0;
}
