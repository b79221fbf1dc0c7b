/* Which platform a pasted text was copied on, from every sign it carries
 * (data/platform_signs.tsv, docs/explain.md "Which platform a text is
 * from"): a loader's or a system tool's own wording, a file or path shape
 * only one platform has, a platform named in words. Each sign has a weight;
 * the platform of the heaviest sign the text holds decides, whatever lighter
 * signs of another say. A sign of "unix" is one of Linux and macOS both:
 * it rules out Windows and leaves the two to a heavier sign of either. */
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/compat.h"
#include "base/data.h"
#include "kb/errors_internal.h"

enum { MAX_SIGNS = 128 };

struct sign_row {
    const char *platform; /* windows, linux, macos, unix */
    int weight;
    const char *pattern, *sign;
    struct td_lazy_re re;
    struct td_ere_needles needles;
};

static struct {
    bool loaded;
    struct td_arena arena;
    struct sign_row rows[MAX_SIGNS];
    size_t n;
    bool dropped; /* rows past MAX_SIGNS were not loaded */
} g_signs;

static void load_signs(void)
{
    static const char *const cols[] = {"platform", "weight", "pattern", "sign", NULL};
    if (g_signs.loaded)
        return;
    g_signs.loaded = true;
    struct td_table t;
    if (!td_table_open(&t, "platform_signs", cols))
        return;
    while (g_signs.n < MAX_SIGNS && td_table_next(&t)) {
        struct sign_row *r = &g_signs.rows[g_signs.n++];
        r->platform = td_arena_strdup(&g_signs.arena, td_table_cell(&t, 0));
        r->weight = atoi(td_table_cell(&t, 1));
        r->pattern = td_arena_strdup(&g_signs.arena, td_table_cell(&t, 2));
        r->sign = td_arena_strdup(&g_signs.arena, td_table_cell(&t, 3));
        if (r->pattern)
            td_ere_needles(r->pattern, &r->needles);
    }
    g_signs.dropped = g_signs.n == MAX_SIGNS && td_table_next(&t);
}

/* Platform P's slot: windows 0, linux 1, macos 2, unix 3; -1 for a word
 * that is none. */
static int slot_of(const char *p)
{
    static const char *const names[] = {"windows", "linux", "macos", "unix"};
    for (int i = 0; i < 4; i++)
        if (strcmp(p, names[i]) == 0)
            return i;
    return -1;
}

/* The heaviest sign so far per platform: windows, linux, macos, unix. */
struct tally {
    int weight[4];
    const char *sign[4];
};

static void count(struct tally *t, int slot, int weight, const char *sign)
{
    if (weight > t->weight[slot]) {
        t->weight[slot] = weight;
        t->sign[slot] = sign;
    }
}

/* A Windows error code the fields hold (a Win32 error, an NTSTATUS): only
 * Windows has them. Its weight is the heaviest of the table's, that of
 * Windows' own loader wording. */
enum { CODE_WEIGHT = 90 };

/* The slot T's signs decide: Windows when its heaviest sign is at least as
 * heavy as every other; else Unix, and of Linux and macOS the one with the
 * heavier sign of its own (macOS between equals, Linux when neither has
 * one). -1 when T holds no sign. */
static int decide(const struct tally *t)
{
    int w = t->weight[0], l = t->weight[1], m = t->weight[2], u = t->weight[3];
    if (!w && !l && !m && !u)
        return -1;
    if (w >= l && w >= m && w >= u)
        return 0;
    if (m && m >= l)
        return 2;
    return l ? 1 : 3;
}

void td_explain_platform_read(const char *text, const struct td_explain_fields *f,
                              struct td_platform_reading *out)
{
    load_signs();
    struct tally t = {{0}, {NULL}};
    if (f && (f->win32 || f->ntstatus))
        count(&t, 0, CODE_WEIGHT, "a Windows error code");
    for (size_t i = 0; i < g_signs.n; i++) {
        struct sign_row *r = &g_signs.rows[i];
        int slot = slot_of(r->platform);
        /* a sign no heavier than its platform holds already changes nothing */
        if (slot < 0 || r->weight <= t.weight[slot] || !td_ere_needles_in(&r->needles, text, false))
            continue;
        const regex_t *re = td_lazy_re(&r->re, r->pattern, REG_EXTENDED | REG_NEWLINE);
        if (re && td_ere_needles_exec(re, &r->needles, text, 0, NULL) == 0)
            count(&t, slot, r->weight, r->sign);
    }
    static const char *const names[] = {"windows", "linux", "macos", "linux"};
    int best = decide(&t);
    *out = (struct td_platform_reading){0};
    if (best >= 0) {
        out->platform = names[best];
        out->sign = t.sign[best];
        out->weight = t.weight[best];
    }
}

size_t td_explain_platform_eres(const char **out, size_t cap)
{
    load_signs();
    size_t n = 0;
    for (size_t i = 0; i < g_signs.n && n < cap; i++)
        out[n++] = g_signs.rows[i].pattern;
    return n;
}

size_t td_explain_platform_bad_signs(const char **out, size_t cap)
{
    load_signs();
    size_t n = 0;
    for (size_t i = 0; i < g_signs.n && n < cap; i++) {
        struct sign_row *r = &g_signs.rows[i];
        if (!td_lazy_re(&r->re, r->pattern, REG_EXTENDED | REG_NEWLINE) ||
            slot_of(r->platform) < 0 || r->weight <= 0)
            out[n++] = r->pattern;
    }
    if (g_signs.dropped && n < cap)
        out[n++] = "(rows past MAX_SIGNS were not loaded)";
    return n;
}
