/* The cost of only moving the bytes symbol binding needs, without binding
 * (bench/deps_floor.py writes the lists and runs this). One mode a run:
 *   opens  LIST: open and close each file of the list
 *   pread  LIST: open, pread each range into one reused buffer, close
 *   map    LIST: open, map each file's table range, read one byte of each
 *                listed cache line, unmap, close
 *   hash   NAMES: the GNU hash of each NUL-terminated name, from memory
 * LIST lines: "PATH OFFSET LENGTH [COUNT LINE-OFFSET...]". Everything is
 * parsed and the buffer touched before the clock starts; prints the
 * process CPU time of the timed part in ms. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

struct range {
    char *path;
    unsigned long off, len, n;
    unsigned long *lines;
};

static double cpu_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static size_t load(const char *list, struct range **out)
{
    FILE *f = fopen(list, "r");
    char path[4096];
    size_t n = 0, cap = 0;
    struct range *v = NULL;
    if (!f)
        return 0;
    struct range r;
    while (fscanf(f, "%4095s %lu %lu", path, &r.off, &r.len) == 3) {
        r.path = strdup(path);
        r.n = 0;
        r.lines = NULL;
        int c;
        while ((c = fgetc(f)) == ' ')
            ;
        if (c != '\n' && c != EOF) {
            ungetc(c, f);
            if (fscanf(f, "%lu", &r.n) != 1)
                break;
            r.lines = malloc((r.n + 1) * sizeof *r.lines);
            for (unsigned long k = 0; k < r.n; k++)
                if (fscanf(f, "%lu", &r.lines[k]) != 1)
                    return 0;
        }
        if (n == cap) {
            cap = cap ? cap * 2 : 256;
            v = realloc(v, cap * sizeof *v);
        }
        v[n++] = r;
    }
    fclose(f);
    *out = v;
    return n;
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    const char *mode = argv[1];
    unsigned long sum = 0;
    double t0, t1;
    if (strcmp(mode, "hash") == 0) {
        FILE *f = fopen(argv[2], "rb");
        if (!f)
            return 2;
        fseek(f, 0, SEEK_END);
        long size = ftell(f);
        rewind(f);
        unsigned char *names = malloc((size_t)size + 1);
        if (fread(names, 1, (size_t)size, f) != (size_t)size)
            return 2;
        names[size] = 0;
        t0 = cpu_ms();
        for (long i = 0; i < size; i++) {
            unsigned h = 5381;
            for (; names[i]; i++)
                h = h * 33 + names[i];
            sum += h;
        }
        t1 = cpu_ms();
        printf("%.3f %lu\n", t1 - t0, sum & 1);
        return 0;
    }
    struct range *v;
    size_t n = load(argv[2], &v);
    if (!n)
        return 2;
    size_t cap = 0;
    for (size_t k = 0; k < n; k++)
        cap = v[k].len > cap ? v[k].len : cap;
    unsigned char *buf = malloc(cap + 1);
    memset(buf, 1, cap + 1); /* faulted in before the clock: pread into warm pages */
    int fd = -1;
    const char *open_path = "";
    t0 = cpu_ms();
    for (size_t k = 0; k < n; k++) {
        if (strcmp(open_path, v[k].path) != 0) {
            if (fd >= 0)
                close(fd);
            fd = open(v[k].path, O_RDONLY | O_CLOEXEC);
            open_path = v[k].path;
        }
        if (fd < 0)
            continue;
        if (strcmp(mode, "pread") == 0) {
            for (unsigned long got = 0; got < v[k].len;) {
                ssize_t r = pread(fd, buf + got, v[k].len - got, (off_t)(v[k].off + got));
                if (r <= 0)
                    break;
                got += (unsigned long)r;
            }
            sum += buf[0];
        } else if (strcmp(mode, "map") == 0) {
            unsigned long lo = v[k].off & ~4095ul, lead = v[k].off - lo;
            const unsigned char *m =
                mmap(NULL, v[k].len + lead, PROT_READ, MAP_PRIVATE, fd, (off_t)lo);
            if (m == MAP_FAILED)
                continue;
            for (unsigned long j = 0; j < v[k].n; j++)
                sum += m[lead + v[k].lines[j]];
            munmap((void *)m, v[k].len + lead);
        }
    }
    if (fd >= 0)
        close(fd);
    t1 = cpu_ms();
    printf("%.3f %lu\n", t1 - t0, sum & 1);
    return 0;
}
