/* The questions the GPU probe's child asks the NVIDIA driver, and the line
 * protocol of its answer (read by td_gpu_parse_answer, gpu_answer.c). One
 * copy for both children: the Linux helper program (gpuhelper/gpu_helper.c,
 * dlopen) and torchdoctor.exe's hidden `__gpu` mode (gpu_windows.c,
 * LoadLibrary). Standalone: it uses only the C library, as the embedded
 * Linux helper must. */
#ifndef TD_PROBE_GPU_ASK_H
#define TD_PROBE_GPU_ASK_H

#include <stdbool.h>
#include <stddef.h>

struct td_gpu_ask {
    /* Loads a library by name or path; NULL with a reason in WHY. */
    void *(*open)(const char *name, char *why, size_t cap);
    /* An exported function of LIB (NULL LIB: none), or NULL. */
    void *(*sym)(void *lib, const char *name);
    /* Writes one whole line (with its '\n') where the parent reads. */
    void (*write)(const char *line, size_t n);
    const char *cuda_lib;         /* "libcuda.so.1", "nvcuda.dll" */
    const char *const *nvml_libs; /* tried in order until one loads; NULL-terminated */
};

/* Asks NVML for the driver version, then the CUDA driver for its version,
 * the devices and their names, compute capability, memory, PCI address and
 * UUID; ends with "done". */
void td_gpu_ask(const struct td_gpu_ask *ask);

/* One whole answer line per write (newlines inside folded to spaces), so
 * the parent sees every answer given before a crash. */
void td_gpu_say(const struct td_gpu_ask *ask, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* For `bench` (gpu_bench_ask.c): measures every device through the driver
 * API (copies, the FMA kernel, ITERATIONS stability launches) and asks NVML
 * of its link, clocks and health; ends with "done". */
void td_gpu_bench(const struct td_gpu_ask *ask, int iterations, bool quick);

/* The FMA kernel's PTX text (JIT-compiled by the driver). */
extern const char td_gpu_fma_ptx[];

#endif
