/* bench's verdicts: a figure under its threshold share of a known expected
 * value (80%, 50% for the disk and for torch against our own kernel) is a
 * performance_below_expected warning that names the likely cause and what
 * to check. A figure with no expected value gets no verdict, so a machine
 * whose peak cannot be known (a VM) gets no false warning. */
#include <stdio.h>
#include <string.h>

#include "bench/bench.h"

bool td_bench_below(const struct td_bench_figure *f)
{
    return f->measured && f->expected > 0 && f->threshold > 0 &&
           f->value < f->threshold * f->expected;
}

void td_bench_verdict(struct td_findings *f, const struct td_bench_figure *fig, const char *what,
                      const char *library, const char *cause, const char *fix)
{
    if (!td_bench_below(fig))
        return;
    td_findings_add(f, TD_SEV_WARNING, TD_KIND_PERFORMANCE_BELOW_EXPECTED, library, NULL, NULL, fix,
                    "%s: %.3g %s is %.0f%% of the expected %.3g %s (%s); %s", what, fig->value,
                    fig->unit, 100 * fig->value / fig->expected, fig->expected, fig->unit,
                    fig->source, cause);
}

static void cpu_verdicts(struct td_bench *b)
{
    static const char cause[] = "likely the cores run below their maximum clock (a power-saving "
                                "governor, power or thermal limits) or other programs share them";
    static const char fix[] = "cat /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor (want "
                              "performance); see what else runs with top";
    td_bench_verdict(&b->findings, &b->cpu.gemm_1core, "FP32 GEMM on one core", NULL, cause, fix);
    td_bench_verdict(&b->findings, &b->cpu.gemm_all, "FP32 GEMM on every core", NULL, cause, fix);
    static const char mcause[] = "likely memory channels left empty, a slower memory speed set "
                                 "in the firmware, or other programs using the bandwidth";
    static const char mfix[] = "sudo dmidecode -t memory (speed and populated slots)";
    td_bench_verdict(&b->findings, &b->memory.read, "memory read", NULL, mcause, mfix);
    td_bench_verdict(&b->findings, &b->memory.copy, "memory copy", NULL, mcause, mfix);
    td_bench_verdict(&b->findings, &b->memory.triad, "memory triad", NULL, mcause, mfix);
    td_bench_verdict(&b->findings, &b->disk.read, "sequential read of the disk holding torch",
                     b->disk.path, "the disk is slow or busy; loading models from it will be too",
                     "iostat -x 1 (is another process using it?); keep models on a local NVMe "
                     "disk");
}

/* The replacement for a slow BLAS, by how torch was installed. */
static const char *blas_fix(const struct td_bench_import *imp)
{
    const char *installer = imp->installer ? imp->installer : "";
    if (strcmp(installer, "debian") == 0)
        return "sudo apt install libopenblas0-pthread (or libblis4-pthread): it becomes the "
               "libblas.so.3 alternative; check with update-alternatives --display "
               "libblas.so.3-x86_64-linux-gnu";
    if (strcmp(installer, "conda") == 0)
        return "conda install \"libblas=*=*mkl\" (or \"libblas=*=*openblas\") in this "
               "environment";
    return "pip install --force-reinstall torch (PyPI's x86-64 wheels link MKL and OpenBLAS "
           "into libtorch_cpu themselves)";
}

static void torch_verdicts(struct td_bench *b)
{
    const struct td_bench_import *imp = &b->import;
    char cause[600];
    if (imp->blas_kind && strcmp(imp->blas_kind, "netlib reference") == 0)
        snprintf(cause, sizeof cause,
                 "torch's BLAS is the netlib reference implementation (%s), an unoptimised "
                 "one-core loop nest",
                 imp->blas);
    else if (imp->blas)
        snprintf(cause, sizeof cause,
                 "torch's BLAS (%s, %s) is slow here: check its thread count (OMP_NUM_THREADS, "
                 "MKL_NUM_THREADS) and torch.__config__.show()",
                 imp->blas, imp->blas_kind ? imp->blas_kind : "unknown kind");
    else
        snprintf(cause, sizeof cause,
                 "torch's BLAS (linked into torch%s%s) is slow here: check OMP_NUM_THREADS and "
                 "torch.__config__.show()",
                 imp->blas_info ? ", BLAS_INFO=" : "", imp->blas_info ? imp->blas_info : "");
    char what[64];
    snprintf(what, sizeof what, "torch FP32 matmul %dx%d on the CPU", imp->matmul_size,
             imp->matmul_size);
    td_bench_verdict(&b->findings, &imp->matmul_fp32, what, imp->blas, cause, blas_fix(imp));
    td_bench_verdict(&b->findings, &imp->cuda_fp32, "torch FP32 matmul on the GPU",
                     imp->cuda_device,
                     "torch gets less of the GPU than the driver API does: another process on "
                     "the GPU, a CUDA_VISIBLE_DEVICES mask picking another device, or a torch "
                     "built for an older architecture running through PTX JIT",
                     "nvidia-smi --query-compute-apps=pid,name --format=csv; python -c 'import "
                     "torch; print(torch.cuda.get_arch_list(), torch.cuda.get_device_name())'");
}

/* A driver that crashes, hangs or fails a call under a plain copy or
 * kernel will fail torch the same way: an error, not a slow figure. */
static void gpu_failures(struct td_bench *b)
{
    static const char fix[] = "dmesg | grep -i xid (driver error reports); nvidia-smi -q; update "
                              "or reinstall the NVIDIA driver; reseat the card and check its power";
    if (b->gpu.failed && b->gpu.n_gpus == 0)
        td_findings_add(&b->findings, TD_SEV_ERROR, TD_KIND_GPU_ERROR, NULL, NULL, NULL, fix,
                        "the GPU measurements did not finish: %s", b->gpu.status);
    for (size_t i = 0; i < b->gpu.n_gpus; i++) {
        const struct td_bench_gpu *g = &b->gpu.gpus[i];
        if (g->error)
            td_findings_add(&b->findings, TD_SEV_ERROR, TD_KIND_GPU_ERROR, g->name, NULL, NULL, fix,
                            "GPU %d: %s", g->index, g->error);
        else if (g->stability_errors > 0)
            td_findings_add(&b->findings, TD_SEV_ERROR, TD_KIND_GPU_ERROR, g->name, NULL, NULL, fix,
                            "GPU %d: %d of %d kernel launches of the stability loop failed",
                            g->index, g->stability_errors, g->stability_iterations);
        if (g->xid_errors > 0)
            td_findings_add(&b->findings, TD_SEV_WARNING, TD_KIND_GPU_ERROR, g->name, NULL, NULL,
                            fix, "GPU %d: the kernel log holds %lld XID error report%s for it",
                            g->index, g->xid_errors, g->xid_errors == 1 ? "" : "s");
    }
}

static void gpu_verdicts(struct td_bench *b)
{
    gpu_failures(b);
    for (size_t i = 0; i < b->gpu.n_gpus; i++) {
        const struct td_bench_gpu *g = &b->gpu.gpus[i];
        char link[200] = "", clocks[200];
        if (g->pcie_gen > 0 && g->pcie_max_gen > 0 &&
            (g->pcie_gen < g->pcie_max_gen || g->pcie_width < g->pcie_max_width))
            snprintf(link, sizeof link,
                     "the PCIe link runs at Gen%d x%d under load, the GPU supports Gen%d x%d "
                     "(a slot wired x8, a riser, a BIOS setting)",
                     g->pcie_gen, g->pcie_width, g->pcie_max_gen, g->pcie_max_width);
        else
            snprintf(link, sizeof link,
                     "the PCIe link or the host's memory is slower than the board's rating");
        if (g->throttle_known && g->throttle_reasons & ~UINT64_C(1))
            snprintf(clocks, sizeof clocks,
                     "the driver reports clock throttling (reasons 0x%llx: power cap, thermal or "
                     "applications clocks)",
                     (unsigned long long)g->throttle_reasons);
        else
            snprintf(clocks, sizeof clocks,
                     "the GPU runs below its boost clock (power limit, temperature, another "
                     "process on it)");
        static const char link_fix[] = "nvidia-smi -q -d PCI (current vs max link); lspci -vv "
                                       "(LnkSta); reseat the card in a x16 slot";
        static const char clk_fix[] = "nvidia-smi -q -d PERFORMANCE,POWER,TEMPERATURE; "
                                      "nvidia-smi --query-compute-apps=pid,name --format=csv";
        td_bench_verdict(&b->findings, &g->h2d_pinned, "host to device copy (pinned)", g->name,
                         link, link_fix);
        td_bench_verdict(&b->findings, &g->d2h_pinned, "device to host copy (pinned)", g->name,
                         link, link_fix);
        td_bench_verdict(&b->findings, &g->d2d, "device to device copy", g->name, clocks, clk_fix);
        td_bench_verdict(&b->findings, &g->fp32_fma, "FP32 FMA throughput", g->name, clocks,
                         clk_fix);
    }
}

void td_bench_verdicts(struct td_bench *b)
{
    cpu_verdicts(b);
    torch_verdicts(b);
    gpu_verdicts(b);
}
