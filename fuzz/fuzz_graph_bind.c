/* libFuzzer target for ELF symbol binding (graph/bind_elf.c), which reads
 * a library's symbol, version, string and hash tables with pread, trusting
 * nothing but the limits its headers give. The input is written as
 * libf.so into a folder that is the whole target system (--root, and
 * its "/" searched first: nothing of this machine's is loaded); the root is a small
 * ELF made here that needs libf.so and nothing else, so the input is read
 * the way every library of a closure is (td_object_read_fd, hash headers
 * only, counted by the binder) and bound as a referrer and a provider. */
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "graph/graph.h"

static char dir[256], lib[320], root[320];

static void put(uint8_t *b, size_t at, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        b[at + i] = (uint8_t)(v >> (8 * i));
}

/* ELF64 x86-64 shared object, one PT_LOAD over the file, PT_DYNAMIC with
 * DT_NEEDED libf.so, DT_STRTAB, DT_STRSZ, DT_SYMTAB (one null symbol). */
static void write_root(void)
{
    uint8_t b[512] = {0x7f, 'E', 'L', 'F', 2, 1, 1};
    enum { PH = 64, DYN = 200, STR = 320, SYM = 352, END = 400 };
    put(b, 16, 3, 2);  /* ET_DYN */
    put(b, 18, 62, 2); /* EM_X86_64 */
    put(b, 20, 1, 4);
    put(b, 32, PH, 8); /* e_phoff */
    put(b, 52, 64, 2); /* e_ehsize */
    put(b, 54, 56, 2); /* e_phentsize */
    put(b, 56, 2, 2);  /* e_phnum */
    put(b, PH, 1, 4);  /* PT_LOAD */
    put(b, PH + 4, 4, 4);
    put(b, PH + 32, END, 8);
    put(b, PH + 40, END, 8);
    put(b, PH + 48, 4096, 8);
    put(b, PH + 56, 2, 4); /* PT_DYNAMIC */
    put(b, PH + 56 + 8, DYN, 8);
    put(b, PH + 56 + 16, DYN, 8);
    put(b, PH + 56 + 24, DYN, 8);
    put(b, PH + 56 + 32, 96, 8);
    put(b, PH + 56 + 40, 96, 8);
    const uint64_t dyn[][2] = {{1, 1}, {5, STR}, {10, 9}, {6, SYM}, {11, 24}, {0, 0}};
    for (size_t i = 0; i < 6; i++) {
        put(b, DYN + 16 * i, dyn[i][0], 8);
        put(b, DYN + 16 * i + 8, dyn[i][1], 8);
    }
    memcpy(b + STR, "\0libf.so", 9);
    FILE *f = fopen(root, "wb");
    if (!f || fwrite(b, 1, END, f) != END)
        abort();
    fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* A folder per input, removed before returning: libFuzzer may end the
     * process without running exit handlers, and a folder made once was
     * left behind by every run of the suite (as fuzz_probe_wheel's was) */
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/td-fuzz-bind-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        abort();
    snprintf(lib, sizeof lib, "%s/libf.so", dir);
    snprintf(root, sizeof root, "%s/root.so", dir);
    write_root();
    int fd = open(lib, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0 || write(fd, data, size) != (ssize_t)size)
        abort();
    close(fd);
    const char *dirs[] = {"/"};
    struct td_loader_config cfg = {.platform = TD_PLATFORM_LINUX,
                                   .profile = TD_PROFILE_DLOPEN,
                                   .search_dirs = dirs,
                                   .n_search_dirs = 1,
                                   .root = dir,
                                   .x86_level = 3}; /* not /proc/cpuinfo each run */
    struct td_graph_options opts = {.bind_symbols = true};
    const char *roots[] = {root};
    struct td_graph g;
    struct td_err err = {0};
    if (td_graph_build(&g, &cfg, &opts, roots, 1, &err) == 0)
        (void)g.symbols_checked;
    td_graph_free(&g);
    unlink(lib);
    unlink(root);
    rmdir(dir);
    return 0;
}
