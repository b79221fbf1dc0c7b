/* The GPU helper: a small dynamically linked program that torchdoctor runs
 * in a child process (written to a memfd, started with fexecve), so that a
 * driver that crashes or hangs takes only the child down. It loads the
 * NVIDIA driver the way any CUDA program does (dlopen of libcuda.so.1 by
 * the real ld.so, which honours LD_LIBRARY_PATH), asks it the questions
 * below and prints one answer per line on stdout:
 *
 *   nvml_driver 550.54.14            nvmlSystemGetDriverVersion
 *   nvml_error nvmlInit_v2 9         an NVML call failed (code)
 *   nolib libcuda.so.1 <dlerror>     the driver library cannot be loaded
 *   error cuInit 100 CUDA_ERROR_NO_DEVICE   a driver call failed (code, name or -)
 *   cuda_driver 12040                cuDriverGetVersion
 *   device_count 2                   cuDeviceGetCount
 *   gpu 0 cc=8.9 mem=25757220864 pci=0000:01:00.0 uuid=GPU-... name=NVIDIA ...
 *   done                             everything was asked
 *
 * Values never contain a newline; name= is last and takes the rest of the
 * line. Function signatures and attribute numbers follow the CUDA Driver
 * API reference (cuda.h) and the NVML API reference (nvml.h). The helper
 * leaves with _exit so that no driver destructor can hang it. */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

enum {
    ATTR_PCI_BUS_ID = 33,
    ATTR_PCI_DEVICE_ID = 34,
    ATTR_PCI_DOMAIN_ID = 50,
    ATTR_CC_MAJOR = 75,
    ATTR_CC_MINOR = 76,
};

typedef int (*fn_init)(unsigned);
typedef int (*fn_int_out)(int *);
typedef int (*fn_device_get)(int *, int);
typedef int (*fn_name)(char *, int, int);
typedef int (*fn_total_mem)(size_t *, int);
typedef int (*fn_attribute)(int *, int, int);
typedef int (*fn_uuid)(unsigned char *, int);
typedef int (*fn_error_name)(int, const char **);
typedef int (*fn_void)(void);
typedef int (*fn_driver_version)(char *, unsigned);

/* One whole line per write, so the parent sees every answer given before
 * a crash. */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
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
    for (ssize_t done = 0, w; done < n; done += w)
        if ((w = write(1, line + done, (size_t)(n - done))) <= 0)
            return;
}

static void *sym(void *lib, const char *name)
{
    return lib ? dlsym(lib, name) : NULL;
}

static void nvml(void)
{
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    fn_void init = (fn_void)sym(lib, "nvmlInit_v2");
    fn_driver_version version = (fn_driver_version)sym(lib, "nvmlSystemGetDriverVersion");
    fn_void shutdown = (fn_void)sym(lib, "nvmlShutdown");
    if (!init || !version)
        return;
    int rc = init();
    if (rc != 0) {
        say("nvml_error nvmlInit_v2 %d", rc);
        return;
    }
    char v[96] = "";
    rc = version(v, 80); /* NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE */
    if (rc == 0 && v[0])
        say("nvml_driver %s", v);
    else
        say("nvml_error nvmlSystemGetDriverVersion %d", rc);
    if (shutdown)
        shutdown();
}

static fn_error_name error_name;

static void error(const char *call, int rc)
{
    const char *name = NULL;
    if (!error_name || error_name(rc, &name) != 0 || !name || !name[0] || strchr(name, ' '))
        name = "-";
    say("error %s %d %s", call, rc, name);
}

static void gpu(void *lib, int index)
{
    fn_device_get get = (fn_device_get)sym(lib, "cuDeviceGet");
    fn_name name_of = (fn_name)sym(lib, "cuDeviceGetName");
    fn_total_mem total = (fn_total_mem)sym(lib, "cuDeviceTotalMem_v2");
    fn_attribute attr = (fn_attribute)sym(lib, "cuDeviceGetAttribute");
    fn_uuid uuid_of = (fn_uuid)sym(lib, "cuDeviceGetUuid");
    int dev = 0, rc;
    if (!get || (rc = get(&dev, index)) != 0) {
        error("cuDeviceGet", get ? rc : -1);
        return;
    }
    char line[900] = "", name[256] = "";
    size_t used = (size_t)snprintf(line, sizeof line, "gpu %d", index);
    int major = -1, minor = -1;
    if (attr && attr(&major, ATTR_CC_MAJOR, dev) == 0 && attr(&minor, ATTR_CC_MINOR, dev) == 0)
        used += (size_t)snprintf(line + used, sizeof line - used, " cc=%d.%d", major, minor);
    size_t bytes = 0;
    if (total && total(&bytes, dev) == 0)
        used += (size_t)snprintf(line + used, sizeof line - used, " mem=%zu", bytes);
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
    say("%s", line);
}

static void cuda(void)
{
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *why = dlerror();
        say("nolib libcuda.so.1 %s", why ? why : "not found");
        return;
    }
    error_name = (fn_error_name)sym(lib, "cuGetErrorName");
    fn_init init = (fn_init)sym(lib, "cuInit");
    fn_int_out driver_version = (fn_int_out)sym(lib, "cuDriverGetVersion");
    fn_int_out count = (fn_int_out)sym(lib, "cuDeviceGetCount");
    int v = 0, n = 0, rc;
    /* cuDriverGetVersion works before cuInit and even when it fails. */
    if (driver_version && driver_version(&v) == 0 && v > 0)
        say("cuda_driver %d", v);
    if (!init) {
        say("error cuInit -1 no-symbol");
        return;
    }
    if ((rc = init(0)) != 0) {
        error("cuInit", rc);
        return;
    }
    if (!count || (rc = count(&n)) != 0) {
        error("cuDeviceGetCount", count ? rc : -1);
        return;
    }
    say("device_count %d", n);
    for (int i = 0; i < n && i < 64; i++)
        gpu(lib, i);
}

int main(void)
{
    nvml();
    cuda();
    say("done");
    _exit(0);
}
