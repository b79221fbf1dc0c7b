/* td_pyfs_read: a file's bytes up to a limit, whatever its size says. The
 * buffer starts at the size fstat reports (not at the limit: a 64 MiB
 * buffer for every small file was a mapping per read); a file that reports
 * no size (a pipe, /proc) or is longer than it said is read on, in a
 * growing buffer, to its end or the limit. */
#include "testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "probe/python/pyfs.h"

static char dir[] = "/tmp/td_pyfs_XXXXXX";

static char *pattern(size_t n)
{
    char *p = malloc(n + 1);
    for (size_t i = 0; i < n; i++)
        p[i] = (char)('a' + (i * 7 + i / 13) % 26);
    p[n] = '\0';
    return p;
}

static void write_file(const char *path, const char *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    fclose(f);
}

static void read_and_compare(const char *path, size_t max, const char *want, size_t want_len)
{
    struct td_probe_ctx ctx = {0};
    size_t len = 12345;
    char *got = td_pyfs_read(&ctx, path, max, &len);
    assert_non_null(got);
    assert_int_equal(len, want_len);
    assert_memory_equal(got, want, want_len);
    assert_int_equal(got[len], '\0');
    free(got);
}

static void regular_files(void **state)
{
    (void)state;
    char path[256];
    snprintf(path, sizeof path, "%s/f", dir);
    size_t sizes[] = {0, 1, 4095, 4096, 4097, 100000};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        char *data = pattern(sizes[i]);
        write_file(path, data, sizes[i]);
        read_and_compare(path, 64 << 20, data, sizes[i]);
        read_and_compare(path, 4096, data, sizes[i] < 4096 ? sizes[i] : 4096); /* the limit */
        free(data);
    }
}

/* A FIFO where a file is expected (a RECORD, a .pth) is refused at once,
 * never waited on for a writer (issue 31); files with no size that can be
 * read, /proc's, are read below. */
static void fifo_refused(void **state)
{
    (void)state;
    char path[256];
    snprintf(path, sizeof path, "%s/fifo", dir);
    assert_int_equal(mkfifo(path, 0600), 0);
    struct td_probe_ctx ctx = {0};
    size_t len = 7;
    assert_null(td_pyfs_read(&ctx, path, 64 << 20, &len));
    /* No reader was left behind: a writer that does not wait finds none. */
    int fd = open(path, O_WRONLY | O_NONBLOCK);
    assert_true(fd < 0 && errno == ENXIO);
    unlink(path);
}

/* /proc reports a size of 0 for files that hold more than a page. */
static void proc_files(void **state)
{
    (void)state;
    struct td_probe_ctx ctx = {0};
    size_t len = 0;
    char *got = td_pyfs_read(&ctx, "/proc/self/smaps", 64 << 20, &len);
    assert_non_null(got);
    assert_true(len > 4096);
    assert_int_equal(strlen(got), len);
    assert_non_null(strstr(got, "test_probe_pyfs")); /* this program's own mapping */
    free(got);
}

static void missing_files(void **state)
{
    (void)state;
    struct td_probe_ctx ctx = {0};
    size_t len = 7;
    char path[256];
    snprintf(path, sizeof path, "%s/none", dir);
    assert_null(td_pyfs_read(&ctx, path, 1024, &len));
    assert_int_equal(len, 0);
}

int main(void)
{
    if (!mkdtemp(dir))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(regular_files),
        cmocka_unit_test(fifo_refused),
        cmocka_unit_test(proc_files),
        cmocka_unit_test(missing_files),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char f[256];
    snprintf(f, sizeof f, "%s/f", dir);
    unlink(f);
    rmdir(dir);
    return rc;
}
