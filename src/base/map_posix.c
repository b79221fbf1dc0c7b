/* Read-only mmap of an input file (PROT_READ only, MAP_PRIVATE): POSIX. */
#include "base/map.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *file_type(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISSOCK(mode))
        return "a socket";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    return "not a regular file";
}

static void refuse(const char *path, mode_t mode, struct td_err *err)
{
    if (S_ISDIR(mode))
        td_err_set(err, "%s: is a directory", path);
    else
        td_err_set(err, "%s: is %s, not a regular file", path, file_type(mode));
}

int td_open_file(const char *path, struct td_err *err)
{
    struct td_err ignore = {0};
    struct stat st;
    err = err ? err : &ignore;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        int e = errno;
        char to[4096];
        ssize_t n;
        if (e == ENXIO && stat(path, &st) == 0 && !S_ISREG(st.st_mode))
            refuse(path, st.st_mode, err); /* a socket cannot be opened at all */
        else if (e == ENOENT && lstat(path, &st) == 0 && S_ISLNK(st.st_mode) &&
                 (n = readlink(path, to, sizeof to - 1)) >= 0)
            td_err_set(err, "%s: a broken symbolic link: it points to %.*s, which does not exist",
                       path, (int)n, to);
        else
            td_err_set(err, "%s: cannot open: %s", path, strerror(e));
        errno = e;
        return -1;
    }
    if (fstat(fd, &st) != 0) {
        td_err_set(err, "%s: cannot stat: %s", path, strerror(errno));
    } else if (!S_ISREG(st.st_mode)) {
        refuse(path, st.st_mode, err);
    } else {
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK); /* regular files never block */
        return fd;
    }
    close(fd);
    errno = EINVAL;
    return -1;
}

int td_map_open(const char *path, struct td_map *m, struct td_err *err)
{
    memset(m, 0, sizeof *m);
    int fd = td_open_file(path, err);
    if (fd < 0)
        return -1;
    struct stat st;
    int rc = -1;
    if (fstat(fd, &st) != 0)
        td_err_set(err, "%s: cannot stat: %s", path, strerror(errno));
    else
        rc = td_map_fd(fd, (uint64_t)st.st_size, path, m, err);
    close(fd);
    return rc;
}

/* A mapped file that another process truncates raises SIGBUS on the pages
 * past its new end, which would kill us. Every file mapping is watched in
 * a slot here; the handler puts a page of zeros where the fault was and
 * marks the slot, so the read goes on and td_map_shrank tells the reader
 * to refuse what it read. A SIGBUS anywhere else gets the action that was
 * there before (the default, or a sanitizer's). Slots are claimed and
 * released with atomics, so any thread may map. */
enum { GUARD_SLOTS = 512 };
static struct guard_slot {
    atomic_uintptr_t lo, hi; /* [lo, hi): hi 0 while the slot is being filled */
    atomic_int shrank;
} guard_slots[GUARD_SLOTS];
static struct sigaction guard_previous;
static atomic_flag guard_lock = ATOMIC_FLAG_INIT;
static size_t guard_page;

static void on_sigbus(int sig, siginfo_t *info, void *uctx)
{
    (void)uctx;
    uintptr_t at = (uintptr_t)info->si_addr;
    for (size_t i = 0; info->si_code == BUS_ADRERR && i < GUARD_SLOTS; i++) {
        struct guard_slot *g = &guard_slots[i];
        uintptr_t lo = atomic_load(&g->lo), hi = atomic_load(&g->hi);
        if (hi == 0 || at < lo || at >= hi)
            continue;
        void *page = (void *)(at & ~(uintptr_t)(guard_page - 1));
        if (mmap(page, guard_page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) ==
            MAP_FAILED)
            break;
        atomic_store(&g->shrank, 1);
        return; /* the read is retried, and reads zeros */
    }
    sigaction(sig, &guard_previous, NULL); /* not ours: the fault recurs under the old action */
}

static bool guard_installed(void)
{
    struct sigaction cur;
    return sigaction(SIGBUS, NULL, &cur) == 0 && (cur.sa_flags & SA_SIGINFO) &&
           cur.sa_sigaction == on_sigbus;
}

/* Checked at every mapping: whoever set a SIGBUS action after us (a test
 * framework does, per test) comes after us, as the previous action. */
static void guard_install(void)
{
    if (guard_installed())
        return;
    while (atomic_flag_test_and_set(&guard_lock))
        ;
    if (!guard_installed()) {
        guard_page = (size_t)sysconf(_SC_PAGESIZE);
        struct sigaction sa = {0};
        sa.sa_sigaction = on_sigbus;
        sa.sa_flags = SA_SIGINFO | SA_NODEFER;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGBUS, &sa, &guard_previous);
    }
    atomic_flag_clear(&guard_lock);
}

static int guard_watch(const void *p, size_t size)
{
    guard_install();
    for (int i = 0; i < GUARD_SLOTS; i++) {
        uintptr_t free_lo = 0;
        if (atomic_compare_exchange_strong(&guard_slots[i].lo, &free_lo, (uintptr_t)p)) {
            atomic_store(&guard_slots[i].shrank, 0);
            atomic_store(&guard_slots[i].hi, (uintptr_t)p + size);
            return i + 1;
        }
    }
    return 0; /* all slots taken: this mapping is not watched */
}

static void guard_release(int guard)
{
    if (guard <= 0)
        return;
    atomic_store(&guard_slots[guard - 1].hi, 0);
    atomic_store(&guard_slots[guard - 1].lo, 0);
}

bool td_map_shrank(const struct td_map *m)
{
    return m->guard > 0 && atomic_load(&guard_slots[m->guard - 1].shrank) != 0;
}

int td_map_fd(int fd, uint64_t size, const char *path, struct td_map *m, struct td_err *err)
{
    memset(m, 0, sizeof *m);
    if (size == 0) {
        static const uint8_t empty[1];
        m->data = empty;
        return 0;
    }
    if ((uint64_t)(size_t)size != size) {
        td_err_set(err, "%s: too large to map", path);
        return -1;
    }
    void *p = mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
        td_err_set(err, "%s: cannot map: %s", path, strerror(errno));
        return -1;
    }
    m->data = p;
    m->size = (size_t)size;
    m->mapped = 1;
    m->guard = guard_watch(p, (size_t)size);
    return 0;
}

void td_map_close(struct td_map *m)
{
    if (m->mapped && m->data)
        munmap((void *)(m->data - m->lead), m->size + m->lead);
    guard_release(m->guard);
    memset(m, 0, sizeof *m);
}

void *td_map_scratch(size_t size)
{
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

void td_map_scratch_free(void *p, size_t size)
{
    if (p)
        munmap(p, size);
}

bool td_file_identity(const char *path, uint64_t *dev, uint64_t *ino)
{
    struct stat st;
    bool ok = stat(path, &st) == 0;
    *dev = ok ? (uint64_t)st.st_dev : 0;
    *ino = ok ? (uint64_t)st.st_ino : 0;
    return ok;
}

void td_map_release(const struct td_map *m, uint64_t off, uint64_t len)
{
    if (!m->mapped || off >= m->size)
        return;
    if (len > m->size - off)
        len = m->size - off;
    /* Only whole pages inside the range: the ends may still be in use. */
    long page = sysconf(_SC_PAGESIZE);
    uintptr_t start = (uintptr_t)(m->data + off), end = start + (uintptr_t)len;
    uintptr_t a = (start + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
    uintptr_t b = end & ~((uintptr_t)page - 1);
    if (page > 0 && b > a)
        madvise((void *)a, b - a, MADV_DONTNEED);
}
