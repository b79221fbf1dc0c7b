/* The hardware peaks `bench` compares its measurements with: FMA units per
 * CPU micro-architecture (data/cpu_fma_units.tsv) and GPU data-sheet peaks
 * (data/gpu_peaks.tsv). Every answer carries its row's source. */
#ifndef TD_KB_BENCH_H
#define TD_KB_BENCH_H

#include <stdbool.h>

struct td_kb_cpu_fma {
    char uarch[48];
    int units; /* 0: depends on the SKU or the core type (no expected value) */
    int bits;  /* native width of one unit */
    char source[300];
};

/* The row for cpuid's VENDOR, display FAMILY and MODEL; false when the
 * table does not know the micro-architecture. */
bool td_kb_cpu_fma(const char *vendor, unsigned family, unsigned model, struct td_kb_cpu_fma *out);

struct td_kb_gpu_peak {
    char name[96];
    int sms;
    int boost_mhz;
    double fp32_tflops; /* non-tensor FP32 FMA peak at the boost clock */
    double bf16_tflops; /* dense BF16 tensor-core peak; 0 unknown or none */
    double mem_gbs;     /* memory bandwidth, GB/s */
    int pcie_gen, pcie_width;
    char source[300];
};

/* The data-sheet row for a GPU NAME as the driver gives it (the longest
 * table name inside it wins: "H100 PCIe" before "H100"); false when
 * unknown. */
bool td_kb_gpu_peak(const char *name, struct td_kb_gpu_peak *out);

/* PCIe bandwidth per direction in GB/s of a GEN x WIDTH link, after line
 * encoding (PCI-SIG: 2.5/5 GT/s 8b/10b, 8 GT/s and up 128b/130b); 0 unknown. */
double td_kb_pcie_gbs(int gen, int width);

#endif
