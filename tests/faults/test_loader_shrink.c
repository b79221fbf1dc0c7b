/* A mapped file that shrinks while it is read (another program truncates
 * or replaces it): reads past its new end raise a real SIGBUS, which must
 * not kill the process; the reader says the file changed instead of
 * reporting the zeros it read. Deterministic: the test truncates the file
 * itself, between mapping and parsing. A SIGBUS of a mapping that is not
 * ours still kills, as before. */
#include "testutil.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "loader/loader.h"

static char dir[256];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "%s/td-shrink-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* DIR/NAME holding SIZE bytes of BYTE, or a copy of FROM when FROM is set. */
static const char *make_file(const char *name, size_t size, int byte, const char *from)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    size_t n = 0;
    uint8_t *data = from ? td_read_file(from, &n) : NULL;
    for (size_t i = 0; !from && i < size; i++)
        fputc(byte, f);
    if (from)
        assert_int_equal(fwrite(data, 1, n, f), n);
    free(data);
    assert_int_equal(fclose(f), 0);
    return path;
}

static void reads_past_the_new_end_are_zeros_and_said(void **state)
{
    (void)state;
    const char *path = make_file("three-pages", 3 * 4096, 0xAB, NULL);
    struct td_map m, other;
    struct td_err err = {0};
    assert_int_equal(td_map_open(path, &m, &err), 0);
    assert_int_equal(td_map_open(path, &other, &err), 0);
    assert_int_equal(other.data[2 * 4096], 0xAB); /* read before the file shrinks */
    assert_false(td_map_shrank(&m));
    assert_int_equal(truncate(path, 4096), 0);
    assert_int_equal(m.data[0], 0xAB);
    volatile uint8_t past = m.data[2 * 4096 + 7]; /* SIGBUS: the page is gone */
    assert_int_equal(past, 0);
    assert_true(td_map_shrank(&m));
    assert_false(td_map_shrank(&other)); /* never read past the end */
    td_map_close(&m);
    td_map_close(&other);
}

static void a_library_that_shrinks_is_refused(void **state)
{
    (void)state;
    const char *lib = td_fixture(
        "torch_layouts/pip/usr/local/lib/python3.11/dist-packages/torch/lib/libtorch_cuda.so");
    const char *path = make_file("libshrinks.so", 0, 0, lib);
    struct td_map m;
    struct td_err err = {0};
    assert_int_equal(td_map_open(path, &m, &err), 0);
    assert_int_equal(truncate(path, 0), 0); /* replaced by an empty file while read */
    struct td_object *o = td_object_from_map(&m, 0, 0, path, NULL, false, &err);
    assert_null(o);
    assert_non_null(strstr(err.msg, "libshrinks.so: changed while it was read (it shrank)"));
}

static void a_sigbus_elsewhere_still_kills(void **state)
{
    (void)state;
    const char *path = make_file("not-ours", 2 * 4096, 1, NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct td_map m;
        struct td_err err = {0};
        signal(SIGBUS, SIG_DFL);              /* not cmocka's: the default, as in the program */
        if (td_map_open(path, &m, &err) != 0) /* the handler is in place */
            _exit(4);
        int fd = open(path, O_RDONLY);
        volatile const uint8_t *p = mmap(NULL, 2 * 4096, PROT_READ, MAP_PRIVATE, fd, 0);
        if (fd < 0 || p == MAP_FAILED || truncate(path, 0) != 0)
            _exit(3);
        _exit(p[4096]); /* not a td_map: must die by SIGBUS */
    }
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFSIGNALED(st));
    assert_int_equal(WTERMSIG(st), SIGBUS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reads_past_the_new_end_are_zeros_and_said),
        cmocka_unit_test(a_library_that_shrinks_is_refused),
        cmocka_unit_test(a_sigbus_elsewhere_still_kills),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
