/* libFuzzer target for Slurm hostlist expressions (base/hostlist.h): any
 * bytes expanded under a small limit, and the names folded back; folding
 * then expanding must give as many distinct names. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/hostlist.h"

struct names {
    char *items[64];
    char store[64][TD_HOSTLIST_NAME_MAX];
    size_t n;
};

static bool keep(void *ctx, const char *name)
{
    struct names *x = ctx;
    if (strlen(name) >= TD_HOSTLIST_NAME_MAX)
        abort();
    if (x->n == 64)
        return false;
    strcpy(x->store[x->n], name);
    x->items[x->n] = x->store[x->n];
    x->n++;
    return true;
}

static bool count(void *ctx, const char *name)
{
    (void)name;
    ++*(size_t *)ctx;
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *expr = malloc(size + 1);
    if (!expr)
        return 0;
    memcpy(expr, data, size);
    expr[size] = '\0';
    static struct names x;
    x.n = 0;
    const char *err = td_hostlist_expand(expr, 1000, keep, &x);
    if (!err && x.n > 0 && x.n < 64) {
        struct td_arena a = {0};
        const char *folded = td_hostlist_fold((const char *const *)x.items, x.n, &a);
        size_t again = 0;
        if (folded && !strchr(folded, ' ') &&
            td_hostlist_expand(folded, 1000, count, &again) == NULL && again > x.n)
            abort();
        td_arena_free(&a);
    }
    free(expr);
    return 0;
}
