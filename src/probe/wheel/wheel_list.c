/* The wheels `torchdoctor wheel` was given: files as they are, and each
 * directory's *.whl files (not its subdirectories), sorted by name. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/compat.h"
#include "probe/wheel/wheel.h"

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool push(struct td_wheel_paths *p, char *path)
{
    if (p->n == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 16;
        char **v = realloc(p->v, cap * sizeof *v);
        if (!v) {
            free(path);
            return false;
        }
        p->v = v;
        p->cap = cap;
    }
    p->v[p->n++] = path;
    return true;
}

int td_wheel_paths(const char *const *operands, size_t n, struct td_wheel_paths *out,
                   struct td_err *err)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (stat(operands[i], &st) != 0 || !S_ISDIR(st.st_mode)) {
            if (!push(out, strdup(operands[i])))
                goto nomem;
            continue;
        }
        DIR *d = opendir(operands[i]);
        if (!d) {
            td_err_set(err, "%s: cannot list the directory", operands[i]);
            return -1;
        }
        size_t first = out->n;
        struct dirent *e;
        while ((e = readdir(d))) {
            size_t len = strlen(e->d_name);
            if (len < 5 || strcmp(e->d_name + len - 4, ".whl") != 0)
                continue;
            size_t size = strlen(operands[i]) + len + 2;
            char *path = malloc(size);
            if (!path || !push(out, path)) {
                closedir(d);
                goto nomem;
            }
            snprintf(path, size, "%s/%s", operands[i], e->d_name);
        }
        closedir(d);
        if (out->n == first) {
            td_err_set(err, "%s: a directory with no .whl files", operands[i]);
            return -1;
        }
        qsort(out->v + first, out->n - first, sizeof *out->v, by_name);
    }
    return 0;
nomem:
    td_err_set(err, "out of memory listing the wheels");
    return -1;
}

void td_wheel_paths_free(struct td_wheel_paths *p)
{
    for (size_t i = 0; i < p->n; i++)
        free(p->v[i]);
    free(p->v);
    memset(p, 0, sizeof *p);
}
