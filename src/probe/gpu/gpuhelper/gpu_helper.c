/* The GPU helper: a small dynamically linked program that torchdoctor runs
 * in a child process (written to a memfd, started with fexecve), so that a
 * driver that crashes or hangs takes only the child down. It loads the
 * NVIDIA driver the way any CUDA program does (dlopen of libcuda.so.1 by
 * the real ld.so, which honours LD_LIBRARY_PATH), asks it what
 * probe/gpu/gpu_ask.c asks and prints the answers on stdout in that file's
 * line protocol (or, for bench, gpu_bench_ask.c's measurements). It leaves with _exit so that no
 * driver destructor can hang it. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../gpu_ask.h"

static void *open_lib(const char *name, char *why, size_t cap)
{
    void *lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    const char *e = lib ? NULL : dlerror();
    snprintf(why, cap, "%s", e ? e : "");
    return lib;
}

static void *sym(void *lib, const char *name)
{
    return dlsym(lib, name);
}

static void write_line(const char *line, size_t n)
{
    for (ssize_t done = 0, w; (size_t)done < n; done += w)
        if ((w = write(1, line + done, n - (size_t)done)) <= 0)
            return;
}

/* No argument: the probe's questions (check). "bench ITERATIONS QUICK":
 * bench's measurements. */
int main(int argc, char **argv)
{
    static const char *const nvml[] = {"libnvidia-ml.so.1", NULL};
    const struct td_gpu_ask ask = {.open = open_lib,
                                   .sym = sym,
                                   .write = write_line,
                                   .cuda_lib = "libcuda.so.1",
                                   .nvml_libs = nvml};
    if (argc >= 4 && strcmp(argv[1], "bench") == 0)
        td_gpu_bench(&ask, atoi(argv[2]), strcmp(argv[3], "1") == 0);
    else
        td_gpu_ask(&ask);
    _exit(0);
}
