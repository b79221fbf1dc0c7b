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
#include "kb/explain/errors_internal.h"

enum { MAX_SIGNS = 128 };

/* A sign's platform, in the order decide() breaks ties in: Windows first,
 * then macOS over Linux; UNIX is Linux and macOS both. */
enum slot { WINDOWS, LINUX, MACOS, UNIX, N_SLOTS, NO_SLOT = -1 };
static const char *const slot_names[N_SLOTS] = {"windows", "linux", "macos", "unix"};

struct sign_row {
    int slot; /* the platform column's slot; NO_SLOT for a word that is none */
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

/* Platform P's slot; NO_SLOT for a word that is none. */
static int slot_of(const char *p)
{
    for (int i = 0; i < N_SLOTS; i++)
        if (p && strcmp(p, slot_names[i]) == 0)
            return i;
    return NO_SLOT;
}

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
        r->slot = slot_of(td_table_cell(&t, 0));
        r->weight = atoi(td_table_cell(&t, 1));
        r->pattern = td_arena_strdup(&g_signs.arena, td_table_cell(&t, 2));
        r->sign = td_arena_strdup(&g_signs.arena, td_table_cell(&t, 3));
        if (r->pattern)
            td_ere_needles(r->pattern, &r->needles);
    }
    g_signs.dropped = g_signs.n == MAX_SIGNS && td_table_next(&t);
}

/* The heaviest sign so far per platform slot. */
struct tally {
    int weight[N_SLOTS];
    const char *sign[N_SLOTS];
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
 * one). NO_SLOT when T holds no sign. */
static int decide(const struct tally *t)
{
    int w = t->weight[WINDOWS], l = t->weight[LINUX], m = t->weight[MACOS], u = t->weight[UNIX];
    if (!w && !l && !m && !u)
        return NO_SLOT;
    if (w >= l && w >= m && w >= u)
        return WINDOWS;
    if (m && m >= l)
        return MACOS;
    return l ? LINUX : UNIX;
}

void td_explain_platform_read(const char *text, const struct td_explain_fields *f,
                              struct td_platform_reading *out)
{
    load_signs();
    struct tally t = {{0}, {NULL}};
    if (f && (f->win32 || f->ntstatus))
        count(&t, WINDOWS, CODE_WEIGHT, "a Windows error code");
    for (size_t i = 0; i < g_signs.n; i++) {
        struct sign_row *r = &g_signs.rows[i];
        /* a sign no heavier than its platform holds already changes nothing */
        if (r->slot == NO_SLOT || r->weight <= t.weight[r->slot] ||
            !td_ere_needles_in(&r->needles, text, false))
            continue;
        const regex_t *re = td_lazy_re(&r->re, r->pattern, REG_EXTENDED | REG_NEWLINE);
        if (re && td_ere_needles_exec(re, &r->needles, text, 0, NULL) == 0)
            count(&t, r->slot, r->weight, r->sign);
    }
    int best = decide(&t);
    *out = (struct td_platform_reading){0};
    if (best != NO_SLOT) {
        /* Unix alone names Linux's files, as a text with a .so does */
        out->platform = slot_names[best == UNIX ? LINUX : best];
        out->sign = t.sign[best];
        out->weight = t.weight[best];
    }
}

int td_explain_platform_column(const char *platform)
{
    if (platform && strcmp(platform, "windows") == 0)
        return 0;
    return platform && strcmp(platform, "macos") == 0 ? 2 : 1;
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
        if (!td_lazy_re(&r->re, r->pattern, REG_EXTENDED | REG_NEWLINE) || r->slot == NO_SLOT ||
            r->weight <= 0)
            out[n++] = r->pattern;
    }
    if (g_signs.dropped && n < cap)
        out[n++] = "(rows past MAX_SIGNS were not loaded)";
    return n;
}
