/* What the GPU probe's child asks the NVIDIA driver (gpu_ask.h), printed
 * one answer per line:
 *
 *   nvml_driver 550.54.14            nvmlSystemGetDriverVersion
 *   nvml_error nvmlInit_v2 9         an NVML call failed (code)
 *   nolib libcuda.so.1 <reason>      the driver library cannot be loaded
 *   error cuInit 100 CUDA_ERROR_NO_DEVICE   a driver call failed (code, name or -)
 *   cuda_driver 12040                cuDriverGetVersion
 *   device_count 2                   cuDeviceGetCount
 *   gpu 0 cc=8.9 mem=25757220864 pci=0000:01:00.0 uuid=GPU-... name=NVIDIA ...
 *   topo 0 1 level=10 nvlink=1       NVML's link between GPUs 0 and 1 (NVML's order)
 *   done                             everything was asked
 *
 * Values never contain a newline; name= is last and takes the rest of the
 * line. Function signatures and attribute numbers follow the CUDA Driver
 * API reference (cuda.h: CUDAAPI is __stdcall on Windows) and the NVML API
 * reference (nvml.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "gpu_ask.h"

#if defined(_WIN32)
#define CUDAAPI __stdcall
#else
#define CUDAAPI
#endif

enum {
    ATTR_PCI_BUS_ID = 33,
    ATTR_PCI_DEVICE_ID = 34,
    ATTR_PCI_DOMAIN_ID = 50,
    ATTR_CC_MAJOR = 75,
    ATTR_CC_MINOR = 76,
};

typedef int(CUDAAPI *fn_init)(unsigned);
typedef int(CUDAAPI *fn_int_out)(int *);
typedef int(CUDAAPI *fn_device_get)(int *, int);
typedef int(CUDAAPI *fn_name)(char *, int, int);
typedef int(CUDAAPI *fn_total_mem)(size_t *, int);
typedef int(CUDAAPI *fn_attribute)(int *, int, int);
typedef int(CUDAAPI *fn_uuid)(unsigned char *, int);
typedef int(CUDAAPI *fn_error_name)(int, const char **);
typedef int (*fn_void)(void);
typedef int (*fn_driver_version)(char *, unsigned);
typedef int (*fn_count)(unsigned *);
typedef int (*fn_handle)(unsigned, void **);
typedef int (*fn_ancestor)(void *, void *, int *);
typedef int (*fn_p2p)(void *, void *, int, int *);

enum {
    TOPO_MAX_GPUS = 16,
    P2P_CAPS_INDEX_NVLINK = 2, /* nvmlGpuP2PCapsIndex_t NVML_P2P_CAPS_INDEX_NVLINK */
    P2P_STATUS_OK = 0,         /* nvmlGpuP2PStatus_t NVML_P2P_STATUS_OK */
};

void td_gpu_say(const struct td_gpu_ask *ask, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n > sizeof line - 2)
        n = (int)sizeof line - 2;
    for (int i = 0; i < n; i++)
        if (line[i] == '\n' || line[i] == '\r')
            line[i] = ' ';
    line[n++] = '\n';
    ask->write(line, (size_t)n);
}

static void *sym(const struct td_gpu_ask *ask, void *lib, const char *name)
{
    return lib ? ask->sym(lib, name) : NULL;
}

/* Each pair of GPUs: the closest PCIe ancestor they share
 * (nvmlDeviceGetTopologyCommonAncestor: nvmlGpuTopologyLevel_t, 0 the same
 * board, 10 one switch, 20 several, 30 a host bridge, 40 a NUMA node, 50
 * across NUMA nodes) and whether NVLink joins them (nvmlDeviceGetP2PStatus
 * with NVML_P2P_CAPS_INDEX_NVLINK). Quiet when NVML lacks the calls. */
static void topology(const struct td_gpu_ask *ask, void *lib)
{
    fn_count count = (fn_count)sym(ask, lib, "nvmlDeviceGetCount_v2");
    fn_handle handle = (fn_handle)sym(ask, lib, "nvmlDeviceGetHandleByIndex_v2");
    fn_ancestor ancestor = (fn_ancestor)sym(ask, lib, "nvmlDeviceGetTopologyCommonAncestor");
    fn_p2p p2p = (fn_p2p)sym(ask, lib, "nvmlDeviceGetP2PStatus");
    unsigned n = 0;
    void *dev[TOPO_MAX_GPUS];
    if (!count || !handle || !ancestor || count(&n) != 0 || n < 2)
        return;
    if (n > TOPO_MAX_GPUS)
        n = TOPO_MAX_GPUS;
    for (unsigned i = 0; i < n; i++)
        if (handle(i, &dev[i]) != 0)
            return;
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = i + 1; j < n; j++) {
            int level = -1, status = -1;
            if (ancestor(dev[i], dev[j], &level) != 0)
                continue;
            int nvlink = p2p && p2p(dev[i], dev[j], P2P_CAPS_INDEX_NVLINK, &status) == 0
                             ? status == P2P_STATUS_OK
                             : -1;
            td_gpu_say(ask, "topo %u %u level=%d nvlink=%d", i, j, level, nvlink);
        }
}

static void nvml(const struct td_gpu_ask *ask)
{
    void *lib = NULL;
    char why[256];
    for (const char *const *n = ask->nvml_libs; !lib && n && *n; n++)
        lib = ask->open(*n, why, sizeof why);
    fn_void init = (fn_void)sym(ask, lib, "nvmlInit_v2");
    fn_driver_version version = (fn_driver_version)sym(ask, lib, "nvmlSystemGetDriverVersion");
    fn_void shutdown = (fn_void)sym(ask, lib, "nvmlShutdown");
    if (!init || !version)
        return;
    int rc = init();
    if (rc != 0) {
        td_gpu_say(ask, "nvml_error nvmlInit_v2 %d", rc);
        return;
    }
    char v[96] = "";
    rc = version(v, 80); /* NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE */
    if (rc == 0 && v[0])
        td_gpu_say(ask, "nvml_driver %s", v);
    else
        td_gpu_say(ask, "nvml_error nvmlSystemGetDriverVersion %d", rc);
    topology(ask, lib);
    if (shutdown)
        shutdown();
}

static void error(const struct td_gpu_ask *ask, fn_error_name error_name, const char *call, int rc)
{
    const char *name = NULL;
    if (!error_name || error_name(rc, &name) != 0 || !name || !name[0] || strchr(name, ' '))
        name = "-";
    td_gpu_say(ask, "error %s %d %s", call, rc, name);
}

static void gpu(const struct td_gpu_ask *ask, void *lib, fn_error_name error_name, int index)
{
    fn_device_get get = (fn_device_get)sym(ask, lib, "cuDeviceGet");
    fn_name name_of = (fn_name)sym(ask, lib, "cuDeviceGetName");
    fn_total_mem total = (fn_total_mem)sym(ask, lib, "cuDeviceTotalMem_v2");
    fn_attribute attr = (fn_attribute)sym(ask, lib, "cuDeviceGetAttribute");
    fn_uuid uuid_of = (fn_uuid)sym(ask, lib, "cuDeviceGetUuid");
    int dev = 0, rc;
    if (!get || (rc = get(&dev, index)) != 0) {
        error(ask, error_name, "cuDeviceGet", get ? rc : -1);
        return;
    }
    char line[900] = "", name[256] = "";
    size_t used = (size_t)snprintf(line, sizeof line, "gpu %d", index);
    int major = -1, minor = -1;
    if (attr && attr(&major, ATTR_CC_MAJOR, dev) == 0 && attr(&minor, ATTR_CC_MINOR, dev) == 0)
        used += (size_t)snprintf(line + used, sizeof line - used, " cc=%d.%d", major, minor);
    size_t bytes = 0;
    if (total && total(&bytes, dev) == 0)
        used += (size_t)snprintf(line + used, sizeof line - used, " mem=%llu",
                                 (unsigned long long)bytes);
    int bus, device, domain;
    if (attr && attr(&bus, ATTR_PCI_BUS_ID, dev) == 0 &&
        attr(&device, ATTR_PCI_DEVICE_ID, dev) == 0 && attr(&domain, ATTR_PCI_DOMAIN_ID, dev) == 0)
        used += (size_t)snprintf(line + used, sizeof line - used, " pci=%04x:%02x:%02x.0",
                                 (unsigned)domain, (unsigned)bus, (unsigned)device);
    unsigned char u[16];
    if (uuid_of && uuid_of(u, dev) == 0)
        used += (size_t)snprintf(line + used, sizeof line - used,
                                 " uuid=GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
                                 "%02x%02x%02x%02x%02x%02x",
                                 u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10],
                                 u[11], u[12], u[13], u[14], u[15]);
    if (name_of && name_of(name, (int)sizeof name - 1, dev) == 0)
        snprintf(line + used, sizeof line - used, " name=%s", name);
    td_gpu_say(ask, "%s", line);
}

static void cuda(const struct td_gpu_ask *ask)
{
    char why[512];
    void *lib = ask->open(ask->cuda_lib, why, sizeof why);
    if (!lib) {
        td_gpu_say(ask, "nolib %s %s", ask->cuda_lib, why[0] ? why : "not found");
        return;
    }
    fn_error_name error_name = (fn_error_name)sym(ask, lib, "cuGetErrorName");
    fn_init init = (fn_init)sym(ask, lib, "cuInit");
    fn_int_out driver_version = (fn_int_out)sym(ask, lib, "cuDriverGetVersion");
    fn_int_out count = (fn_int_out)sym(ask, lib, "cuDeviceGetCount");
    int v = 0, n = 0, rc;
    /* cuDriverGetVersion works before cuInit and even when it fails. */
    if (driver_version && driver_version(&v) == 0 && v > 0)
        td_gpu_say(ask, "cuda_driver %d", v);
    if (!init) {
        td_gpu_say(ask, "error cuInit -1 no-symbol");
        return;
    }
    if ((rc = init(0)) != 0) {
        error(ask, error_name, "cuInit", rc);
        return;
    }
    if (!count || (rc = count(&n)) != 0) {
        error(ask, error_name, "cuDeviceGetCount", count ? rc : -1);
        return;
    }
    td_gpu_say(ask, "device_count %d", n);
    for (int i = 0; i < n && i < 64; i++)
        gpu(ask, lib, error_name, i);
}

void td_gpu_ask(const struct td_gpu_ask *ask)
{
    nvml(ask);
    cuda(ask);
    td_gpu_say(ask, "done");
}
