/* The system and CPU probes: fake roots for everything read from files
 * (os-release, meminfo, container and WSL markers, the system C and C++
 * libraries' version definitions), and the live machine for what only it
 * can say, checked against independent sources (/proc/cpuinfo flags, the
 * real ld.so's x86-64 level, this test's own dynamic glibc, objdump). */
#include <gnu/libc-version.h>
#include <sys/statvfs.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>

#include "fakeroot.h"
#include "probe/probe.h"
#include "probe/probe_util.h"

static void clear_env(void)
{
    unsetenv("KUBERNETES_SERVICE_HOST");
    unsetenv("WSL_DISTRO_NAME");
}

static void test_system_fake_root(void **state)
{
    (void)state;
    clear_env();
    struct fakeroot r;
    fakeroot_init(&r);
    fakeroot_write(&r, "etc/os-release",
                   "NAME=\"Debian GNU/Linux\"\nPRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\n"
                   "ID=debian\nVERSION_ID=\"12\"\n",
                   0);
    fakeroot_write(&r, "proc/meminfo",
                   "MemTotal:       16303428 kB\nMemFree:         1000000 kB\n"
                   "MemAvailable:   12000000 kB\nSwapTotal:       2097148 kB\n",
                   0);
    fakeroot_write(&r, ".dockerenv", "", 0);
    fakeroot_dir(&r, "home/u");
    char fx[1024];
    snprintf(fx, sizeof fx, "%s", td_fixture("probe_machine/lib/libc.so.6"));
    fakeroot_link(&r, "lib/x86_64-linux-gnu/libc.so.6", fx);
    fakeroot_link(&r, "usr/lib/x86_64-linux-gnu/libstdc++.so.6",
                  td_fixture("probe_machine/lib/libstdc++.so.6"));

    struct td_arena arena = {0};
    struct td_probe_ctx ctx = {.root = r.dir, .arena = &arena, .home = "/home/u"};
    struct td_system s;
    assert_int_equal(td_probe_system(&ctx, &s), 0);
    assert_string_equal(s.os, "linux");
    assert_string_equal(s.distro, "Debian GNU/Linux 12 (bookworm)");
    assert_string_equal(s.distro_id, "debian");
    assert_string_equal(s.distro_version, "12");
    assert_int_equal(s.ram_total, UINT64_C(16303428) * 1024);
    assert_int_equal(s.ram_available, UINT64_C(12000000) * 1024);
    assert_int_equal(s.swap_total, UINT64_C(2097148) * 1024);
    /* GLIBC_2.17 is newer than GLIBC_2.9; GLIBC_PRIVATE is no version. */
    assert_string_equal(s.glibc, "2.17");
    assert_string_equal(s.libstdcxx, "3.4.30");
    assert_string_equal(s.container, "docker");
    assert_int_equal(s.wsl, 0);
    struct utsname u;
    assert_int_equal(uname(&u), 0);
    assert_string_equal(s.kernel, u.release);
    assert_string_equal(s.machine, u.machine);
    assert_string_equal(s.hostname, u.nodename);
    char home[1100];
    snprintf(home, sizeof home, "%s/home/u", r.dir);
    struct statvfs st;
    assert_int_equal(statvfs(home, &st), 0);
    /* Free space moves while tests run; the same filesystem's size bounds it. */
    assert_true(s.disk_free > 0);
    assert_true(s.disk_free <= (uint64_t)st.f_blocks * st.f_frsize);
    td_arena_free(&arena);
    fakeroot_free(&r);
}

/* Nothing to read: every field stays empty, nothing fails. */
static void test_system_empty_root(void **state)
{
    (void)state;
    clear_env();
    struct fakeroot r;
    fakeroot_init(&r);
    struct td_arena arena = {0};
    struct td_probe_ctx ctx = {.root = r.dir, .arena = &arena, .home = "/nonexistent"};
    struct td_system s;
    assert_int_equal(td_probe_system(&ctx, &s), 0);
    assert_null(s.distro);
    assert_null(s.distro_id);
    assert_null(s.glibc);
    assert_null(s.libstdcxx);
    assert_null(s.container);
    assert_int_equal(s.ram_total, 0);
    assert_int_equal(s.disk_free, 0);
    assert_int_equal(s.wsl, 0);
    td_arena_free(&arena);
    fakeroot_free(&r);
}

/* os-release(5): /usr/lib/os-release when /etc has none; quotes and escapes. */
static void test_os_release_fallback(void **state)
{
    (void)state;
    struct fakeroot r;
    fakeroot_init(&r);
    fakeroot_write(&r, "usr/lib/os-release",
                   "ID=fedora\nVERSION_ID=39\n"
                   "PRETTY_NAME='Fedora Linux 39 (Container Image)'\r\n",
                   0);
    struct td_arena arena = {0};
    struct td_probe_ctx ctx = {.root = r.dir, .arena = &arena};
    struct td_system s;
    td_probe_system(&ctx, &s);
    assert_string_equal(s.distro, "Fedora Linux 39 (Container Image)");
    assert_string_equal(s.distro_id, "fedora");
    assert_string_equal(s.distro_version, "39");
    td_arena_free(&arena);
    fakeroot_free(&r);

    const char text[] = "NAME=\"A \\\"quoted\\\" \\$name\"\nIDX=no\nID_LIKE=\"rhel fedora\"\n";
    char v[64];
    assert_true(td_parse_os_release(text, sizeof text - 1, "NAME", v, sizeof v));
    assert_string_equal(v, "A \"quoted\" $name");
    assert_false(td_parse_os_release(text, sizeof text - 1, "ID", v, sizeof v));
    assert_true(td_parse_os_release(text, sizeof text - 1, "ID_LIKE", v, sizeof v));
    assert_string_equal(v, "rhel fedora");
    char tiny[4];
    assert_true(td_parse_os_release(text, sizeof text - 1, "ID_LIKE", tiny, sizeof tiny));
    assert_string_equal(tiny, "rhe");
}

struct marker_case {
    const char *file, *content; /* NULL file: nothing written */
    size_t len;                 /* for contents with NUL bytes */
    const char *env, *env_value;
    const char *container; /* expected, NULL = none */
    int wsl;
};

static const char environ_lxc[] = "PATH=/usr/bin\0container=lxc\0TERM=dumb";
static const char mount_docker[] =
    "21 26 0:20 / /sys rw - sysfs sysfs rw\n"
    "500 400 0:52 / / rw,relatime - overlay overlay rw,lowerdir=/var/lib/docker/overlay2/l/A:"
    "/var/lib/docker/overlay2/l/B,upperdir=/var/lib/docker/overlay2/x/diff\n";
/* A host that runs containers: their overlays are mounted, its root is not one. */
static const char mount_host[] =
    "26 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n"
    "600 26 0:52 / /var/lib/docker/overlay2/x/merged rw - overlay overlay "
    "rw,lowerdir=/var/lib/docker/overlay2/l/A\n";

static const struct marker_case marker_cases[] = {
    {NULL, NULL, 0, NULL, NULL, NULL, 0},
    {".dockerenv", "", 0, NULL, NULL, "docker", 0},
    {"run/.containerenv", "engine=\"podman-4.3.1\"\n", 0, NULL, NULL, "podman", 0},
    {"var/run/secrets/kubernetes.io/serviceaccount/token", "x", 0, NULL, NULL, "kubernetes", 0},
    {".dockerenv", "", 0, "KUBERNETES_SERVICE_HOST", "10.96.0.1", "kubernetes", 0},
    {"proc/1/environ", environ_lxc, sizeof environ_lxc, NULL, NULL, "lxc", 0},
    {"proc/1/cgroup", "12:pids:/kubepods/besteffort/pod1/abc\n1:name=systemd:/kubepods/x\n", 0,
     NULL, NULL, "kubernetes", 0},
    {"proc/1/cgroup", "12:pids:/docker/0123abcd\n", 0, NULL, NULL, "docker", 0},
    {"proc/1/cgroup", "0::/init.scope\n", 0, NULL, NULL, NULL, 0},
    {"proc/self/mountinfo", mount_docker, 0, NULL, NULL, "docker", 0},
    {"proc/self/mountinfo", mount_host, 0, NULL, NULL, NULL, 0},
    {"proc/sys/kernel/osrelease", "5.15.153.1-microsoft-standard-WSL2\n", 0, NULL, NULL, NULL, 2},
    {"proc/sys/kernel/osrelease", "5.4.72-microsoft-standard\n", 0, NULL, NULL, NULL, 2},
    {"proc/sys/kernel/osrelease", "4.4.0-19041-Microsoft\n", 0, NULL, NULL, NULL, 1},
    {"proc/version", "Linux version 4.4.0-19041-Microsoft (Microsoft@Microsoft.com) (gcc 5.4.0)\n",
     0, NULL, NULL, NULL, 1},
    {"dev/dxg", "", 0, NULL, NULL, NULL, 2},
    {"usr/lib/wsl/lib/libdxcore.so", "", 0, NULL, NULL, NULL, 2},
    {NULL, NULL, 0, "WSL_DISTRO_NAME", "Ubuntu", NULL, 1},
    {"proc/sys/kernel/osrelease", "6.1.0-18-amd64\n", 0, NULL, NULL, NULL, 0},
};

static void test_container_and_wsl_markers(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof marker_cases / sizeof marker_cases[0]; i++) {
        const struct marker_case *c = &marker_cases[i];
        clear_env();
        struct fakeroot r;
        fakeroot_init(&r);
        if (c->file)
            fakeroot_write(&r, c->file, c->content, c->len);
        if (c->env)
            setenv(c->env, c->env_value, 1);
        struct td_arena arena = {0};
        struct td_probe_ctx ctx = {.root = r.dir, .arena = &arena};
        struct td_system s;
        td_probe_system(&ctx, &s);
        print_message("case %zu: %s\n", i, c->file ? c->file : c->env ? c->env : "(none)");
        if (c->container)
            assert_string_equal(s.container, c->container);
        else
            assert_null(s.container);
        assert_int_equal(s.wsl, c->wsl);
        td_arena_free(&arena);
        fakeroot_free(&r);
    }
    clear_env();
}

/* The live machine: glibc as this (dynamic) test's own C library reports
 * it; libstdc++ as objdump reads the library ldconfig lists; memory as
 * sysinfo(2) counts it. */
static void test_system_live(void **state)
{
    (void)state;
    struct td_arena arena = {0};
    struct td_probe_ctx ctx = {.arena = &arena};
    struct td_system s;
    assert_int_equal(td_probe_system(&ctx, &s), 0);
    assert_non_null(s.glibc);
    assert_string_equal(s.glibc, gnu_get_libc_version());
    FILE *p =
        popen("f=$(/sbin/ldconfig -p | awk '/libstdc\\+\\+\\.so\\.6 .*x86-64/ {print $NF; exit}');"
              " objdump -p \"$f\" | grep -o 'GLIBCXX_3\\.4[0-9.]*' | sort -V | tail -1",
              "r");
    char want[64] = "";
    assert_non_null(p);
    if (!fgets(want, sizeof want, p))
        want[0] = '\0';
    pclose(p);
    want[strcspn(want, "\n")] = '\0';
    assert_true(strncmp(want, "GLIBCXX_", 8) == 0);
    assert_non_null(s.libstdcxx);
    assert_string_equal(s.libstdcxx, want + 8);
    struct sysinfo si;
    assert_int_equal(sysinfo(&si), 0);
    assert_int_equal(s.ram_total, (uint64_t)si.totalram * si.mem_unit);
    assert_true(s.ram_available > 0 && s.ram_available <= s.ram_total);
    assert_int_equal(s.swap_total, (uint64_t)si.totalswap * si.mem_unit);
    assert_non_null(s.distro_id);
    td_arena_free(&arena);
}

/* ------------------------------------------------------------- CPU */

/* The value of "KEY<tabs>: value" of the first /proc/cpuinfo entry. */
static char *cpuinfo_value(const char *key, char *out, size_t cap)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[8192];
    out[0] = '\0';
    while (f && fgets(line, sizeof line, f)) {
        size_t n = strlen(key);
        if (strncmp(line, key, n) == 0 && (line[n] == '\t' || line[n] == ' ' || line[n] == ':')) {
            char *colon = strchr(line, ':');
            snprintf(out, cap, "%s", colon + 1 + (colon[1] == ' '));
            out[strcspn(out, "\n")] = '\0';
            break;
        }
    }
    if (f)
        fclose(f);
    return out;
}

static bool has_flag(const char *flags, const char *flag)
{
    size_t n = strlen(flag);
    for (const char *p = flags; (p = strstr(p, flag)); p += n)
        if ((p == flags || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return true;
    return false;
}

static void test_cpu_matches_proc_cpuinfo(void **state)
{
    (void)state;
#if defined(__x86_64__)
    struct td_arena arena = {0};
    struct td_probe_ctx ctx = {.arena = &arena};
    struct td_cpu cpu;
    assert_int_equal(td_probe_cpu(&ctx, &cpu), 0);
    static char flags[8192], v[256];
    cpuinfo_value("flags", flags, sizeof flags);
    assert_true(flags[0] != '\0');
    size_t checked = 0;
    for (int f = 0; f < TD_CPU_FEATURE_COUNT; f++) {
        if (f == TD_CPU_NEON || f == TD_CPU_SVE) {
            assert_false(cpu.features & (UINT64_C(1) << f));
            continue;
        }
        const char *name = td_cpu_feature_name((enum td_cpu_feature)f);
        const char *kernel = strcmp(name, "sse3") == 0 ? "pni" : name; /* the kernel's name */
        bool want = has_flag(flags, kernel);
        print_message("%-12s probe %d cpuinfo %d\n", name, !!(cpu.features & (UINT64_C(1) << f)),
                      want);
        assert_int_equal(!!(cpu.features & (UINT64_C(1) << f)), want);
        checked++;
    }
    assert_int_equal(checked, TD_CPU_FEATURE_COUNT - 2);
    assert_string_equal(cpu.vendor, cpuinfo_value("vendor_id", v, sizeof v));
    /* The brand string is cpuid's own; under a hypervisor the kernel's
     * "model name" can differ from it (here: "AMD EPYC" against cpuid's
     * "Oxide Virtual Turin-like Processor"), so only its presence is checked. */
    assert_non_null(cpu.model);
    assert_true(cpu.model[0] != ' ' && cpu.model[strlen(cpu.model) - 1] != ' ');
    unsigned processors = 0;
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[8192];
    while (f && fgets(line, sizeof line, f))
        processors += strncmp(line, "processor", 9) == 0;
    if (f)
        fclose(f);
    assert_int_equal(cpu.logical_cpus, processors);
    td_arena_free(&arena);
#else
    skip();
#endif
}

/* The level glibc's own ld.so computes: `ld.so --help` lists
 * "x86-64-v3 (supported, searched)" for each level the CPU has. */
static void test_cpu_level_matches_ld_so(void **state)
{
    (void)state;
#if defined(__x86_64__)
    FILE *p = popen("/lib64/ld-linux-x86-64.so.2 --help", "r");
    assert_non_null(p);
    char line[512];
    int want = 1;
    while (fgets(line, sizeof line, p)) {
        int level;
        if (sscanf(line, " x86-64-v%d", &level) == 1 && strstr(line, "(supported") && level > want)
            want = level;
    }
    pclose(p);
    struct td_arena arena = {0};
    struct td_probe_ctx ctx = {.arena = &arena};
    struct td_cpu cpu;
    td_probe_cpu(&ctx, &cpu);
    print_message("ld.so: x86-64-v%d, probe: %d\n", want, cpu.x86_level);
    assert_int_equal(cpu.x86_level, want);
    td_arena_free(&arena);
#else
    skip();
#endif
}

static void test_cpu_feature_names(void **state)
{
    (void)state;
    assert_string_equal(td_cpu_feature_name(TD_CPU_SSE4_2), "sse4_2");
    assert_string_equal(td_cpu_feature_name(TD_CPU_AVX512_VNNI), "avx512_vnni");
    assert_string_equal(td_cpu_feature_name(TD_CPU_AMX_TILE), "amx_tile");
    assert_string_equal(td_cpu_feature_name(TD_CPU_SVE), "sve");
    assert_string_equal(td_cpu_feature_name(TD_CPU_FEATURE_COUNT), "unknown");
    for (int f = 0; f < TD_CPU_FEATURE_COUNT; f++)
        assert_non_null(td_cpu_feature_name((enum td_cpu_feature)f));
}

/* arm64's /proc/cpuinfo, as the non-x86 path reads it. */
static void test_cpuinfo_parse(void **state)
{
    (void)state;
    const char text[] = "processor\t: 0\nBogoMIPS\t: 50.00\n"
                        "Features\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics sve\n"
                        "CPU implementer\t: 0x41\n";
    char v[256];
    assert_true(td_parse_cpuinfo_field(text, sizeof text - 1, "Features", v, sizeof v));
    assert_true(td_has_word(v, "asimd"));
    assert_true(td_has_word(v, "sve"));
    assert_false(td_has_word(v, "sve2"));
    assert_false(td_has_word(v, "as"));
    assert_true(td_parse_cpuinfo_field(text, sizeof text - 1, "CPU implementer", v, sizeof v));
    assert_string_equal(v, "0x41");
    assert_false(td_parse_cpuinfo_field(text, sizeof text - 1, "CPU", v, sizeof v));
}

static void test_meminfo_parse(void **state)
{
    (void)state;
    const char text[] = "MemTotal: 100 kB\nHugePages_Total:       0\nBad: x kB\n"
                        "Huge:   99999999999999999999 kB\n";
    uint64_t v = 7;
    assert_true(td_parse_meminfo(text, sizeof text - 1, "MemTotal", &v));
    assert_int_equal(v, 102400);
    assert_true(td_parse_meminfo(text, sizeof text - 1, "HugePages_Total", &v));
    assert_int_equal(v, 0);
    assert_false(td_parse_meminfo(text, sizeof text - 1, "Bad", &v));
    assert_false(td_parse_meminfo(text, sizeof text - 1, "Huge", &v));
    assert_false(td_parse_meminfo(text, sizeof text - 1, "Mem", &v));
}

static void test_probe_path(void **state)
{
    (void)state;
    char out[64];
    struct td_probe_ctx none = {0}, slash = {.root = "/"}, dir = {.root = "/tmp/r/"};
    assert_string_equal(td_probe_path(&none, "/etc/os-release", out, sizeof out),
                        "/etc/os-release");
    assert_string_equal(td_probe_path(&slash, "/etc/os-release", out, sizeof out),
                        "/etc/os-release");
    assert_string_equal(td_probe_path(&dir, "/etc/os-release", out, sizeof out),
                        "/tmp/r/etc/os-release");
    assert_null(td_probe_path(&dir, "/etc/os-release", out, 10));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_system_fake_root),
        cmocka_unit_test(test_system_empty_root),
        cmocka_unit_test(test_os_release_fallback),
        cmocka_unit_test(test_container_and_wsl_markers),
        cmocka_unit_test(test_system_live),
        cmocka_unit_test(test_cpu_matches_proc_cpuinfo),
        cmocka_unit_test(test_cpu_level_matches_ld_so),
        cmocka_unit_test(test_cpu_feature_names),
        cmocka_unit_test(test_cpuinfo_parse),
        cmocka_unit_test(test_meminfo_parse),
        cmocka_unit_test(test_probe_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
