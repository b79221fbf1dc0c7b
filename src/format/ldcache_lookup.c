/* ld.so.cache lookup as glibc 2.33+ ld.so does it (elf/dl-cache.c
 * search_cache): the soname comparison, the binary search, the choice
 * between glibc-hwcaps and plain entries, and which flags each ABI's ld.so
 * accepts (sysdeps/unix/sysv/linux/<arch>/dl-cache.h). */
#include "format/ldcache.h"

#include <string.h>

/* ELF e_machine values (gABI) and the e_flags bits the ABI choice reads. */
enum {
    EM_SPARC = 2,
    EM_386 = 3,
    EM_MIPS = 8,
    EM_SPARC32PLUS = 18,
    EM_PPC = 20,
    EM_PPC64 = 21,
    EM_S390 = 22,
    EM_ARM = 40,
    EM_SPARCV9 = 43,
    EM_IA_64 = 50,
    EM_X86_64 = 62,
    EM_AARCH64 = 183,
    EM_RISCV = 243,
    EM_LOONGARCH = 258,
    EF_ARM_ABI_FLOAT_HARD = 0x400,
    EF_MIPS_ABI2 = 0x20,
    EF_MIPS_NAN2008 = 0x400,
    EF_RISCV_FLOAT_ABI = 0x6,
    EF_RISCV_FLOAT_ABI_SOFT = 0x0,
    EF_RISCV_FLOAT_ABI_DOUBLE = 0x4,
    EF_LARCH_ABI_MODIFIER = 0x7,
    EF_LARCH_ABI_SOFT_FLOAT = 0x1,
    EF_LARCH_ABI_DOUBLE_FLOAT = 0x3,
    ELFCLASS64 = 2,
};

static bool set_abi(struct td_ldcache_abi *abi, int32_t default_id, int32_t also, const char *name)
{
    abi->default_id = default_id;
    abi->also_accepted = also;
    abi->name = name;
    return true;
}

/* The generic sysdeps/generic/dl-cache.h check accepts FLAG_ELF (1) besides
 * _DL_CACHE_DEFAULT_ID; i386, powerpc, s390, sparc and ia64 keep it. */
static bool mips_abi(bool is64, uint32_t e_flags, struct td_ldcache_abi *abi)
{
    bool nan2008 = e_flags & EF_MIPS_NAN2008;
    if (is64)
        return set_abi(abi, nan2008 ? 0x0e03 : 0x0703, -1, "mips64 n64");
    if (e_flags & EF_MIPS_ABI2)
        return set_abi(abi, nan2008 ? 0x0d03 : 0x0603, -1, "mips64 n32");
    return set_abi(abi, nan2008 ? 0x0c03 : 0x0003, -1, "mips o32");
}

static bool riscv_abi(uint32_t e_flags, struct td_ldcache_abi *abi)
{
    switch (e_flags & EF_RISCV_FLOAT_ABI) {
    case EF_RISCV_FLOAT_ABI_SOFT:
        return set_abi(abi, 0x0f03, -1, "riscv soft-float");
    case EF_RISCV_FLOAT_ABI_DOUBLE:
        return set_abi(abi, 0x1003, -1, "riscv double-float");
    default:
        return false; /* glibc has no ld.so for the single/quad float ABIs */
    }
}

static bool loongarch_abi(uint32_t e_flags, struct td_ldcache_abi *abi)
{
    switch (e_flags & EF_LARCH_ABI_MODIFIER) {
    case EF_LARCH_ABI_SOFT_FLOAT:
        return set_abi(abi, 0x1103, -1, "loongarch soft-float");
    case EF_LARCH_ABI_DOUBLE_FLOAT:
        return set_abi(abi, 0x1203, -1, "loongarch double-float");
    default:
        return false;
    }
}

bool td_ldcache_abi_for_elf(unsigned elf_class, uint16_t machine, uint32_t e_flags,
                            struct td_ldcache_abi *abi)
{
    bool is64 = elf_class == ELFCLASS64;
    switch (machine) {
    case EM_X86_64: /* x86_64/dl-cache.h: exact match only; x32 is ELFCLASS32 */
        return is64 ? set_abi(abi, 0x0303, -1, "x86_64") : set_abi(abi, 0x0803, -1, "x32");
    case EM_386:
        return !is64 && set_abi(abi, 0x0003, 0x0001, "i386");
    case EM_AARCH64: /* aarch64/dl-cache.h: exact match only */
        return is64 && set_abi(abi, 0x0a03, -1, "aarch64");
    case EM_ARM: /* arm/dl-cache.h: the float ABI's flags or plain libc6 */
        if (is64)
            return false;
        return e_flags & EF_ARM_ABI_FLOAT_HARD ? set_abi(abi, 0x0003, 0x0903, "arm hard-float")
                                               : set_abi(abi, 0x0003, 0x0b03, "arm soft-float");
    case EM_PPC64:
        return is64 && set_abi(abi, 0x0503, 0x0001, "ppc64");
    case EM_PPC:
        return !is64 && set_abi(abi, 0x0003, 0x0001, "ppc");
    case EM_S390:
        return is64 ? set_abi(abi, 0x0403, 0x0001, "s390x") : set_abi(abi, 3, 1, "s390");
    case EM_SPARCV9:
        return is64 && set_abi(abi, 0x0103, 0x0001, "sparc64");
    case EM_SPARC:
    case EM_SPARC32PLUS:
        return !is64 && set_abi(abi, 0x0003, 0x0001, "sparc");
    case EM_IA_64:
        return is64 && set_abi(abi, 0x0203, 0x0001, "ia64");
    case EM_MIPS: /* mips/dl-cache.h: exact match only */
        return mips_abi(is64, e_flags, abi);
    case EM_RISCV: /* riscv/dl-cache.h: exact match only */
        return riscv_abi(e_flags, abi);
    case EM_LOONGARCH:
        return is64 && loongarch_abi(e_flags, abi);
    default:
        return false;
    }
}

bool td_ldcache_abi_accepts(const struct td_ldcache_abi *abi, int32_t flags)
{
    return flags == abi->default_id || (abi->also_accepted >= 0 && flags == abi->also_accepted);
}

static bool is_digit(char ch)
{
    return ch >= '0' && ch <= '9';
}

/* Reads a run of digits as glibc does, in a 32-bit int that wraps (the
 * sums are done unsigned here so that wrapping is defined). */
static uint32_t digit_run(const char **p)
{
    uint32_t v = 0;
    while (is_digit(**p))
        v = v * 10 + (uint32_t)(*(*p)++ - '0');
    return v;
}

/* dl-cache.c _dl_cache_libcmp, with char signed as on x86 (ldconfig built
 * for the same machine wrote the order). */
int td_ldcache_libcmp(const char *a, const char *b)
{
    while (*a != '\0') {
        if (is_digit(*a)) {
            if (!is_digit(*b))
                return 1;
            uint32_t va = digit_run(&a), vb = digit_run(&b);
            if (va != vb)
                return (int32_t)(va - vb) < 0 ? -1 : 1;
        } else if (is_digit(*b)) {
            return -1;
        } else if (*a != *b) {
            return (signed char)*a - (signed char)*b;
        } else {
            a++;
            b++;
        }
    }
    return (signed char)*a - (signed char)*b;
}

const char *td_ldcache_verdict_name(enum td_ldcache_verdict v)
{
    switch (v) {
    case TD_LDCACHE_CHOSEN:
        return "chosen";
    case TD_LDCACHE_OUTRANKED:
        return "outranked";
    case TD_LDCACHE_WRONG_FLAGS:
        return "wrong ABI flags";
    case TD_LDCACHE_BAD_PATH:
        return "path outside the string table";
    case TD_LDCACHE_ISA_LEVEL:
        return "ISA level not supported by the CPU";
    case TD_LDCACHE_HWCAPS_UNUSED:
        return "glibc-hwcaps subdirectory not used by this process";
    case TD_LDCACHE_LEGACY_HWCAP:
        return "legacy hwcap not accepted";
    case TD_LDCACHE_OS_VERSION:
        return "needs a newer OS ABI";
    }
    return "unknown";
}

/* The raw fields of one entry, read without resolving strings. */
struct raw_entry {
    int32_t flags;
    uint32_t key, value, osversion;
    uint64_t hwcap;
};

static void read_raw(const struct td_ldcache *c, uint32_t i, struct raw_entry *r)
{
    const struct td_ldcache_table *t = &c->table;
    uint64_t off = t->offset + (uint64_t)i * t->entry_size;
    uint32_t flags = 0;
    memset(r, 0, sizeof *r);
    /* parse checked that the whole table lies inside the buffer */
    td_buf_u32(&c->buf, off, &flags);
    td_buf_u32(&c->buf, off + 4, &r->key);
    td_buf_u32(&c->buf, off + 8, &r->value);
    if (t->entry_size >= 24) {
        td_buf_u32(&c->buf, off + 12, &r->osversion);
        td_buf_u64(&c->buf, off + 16, &r->hwcap);
    }
    r->flags = (int32_t)flags;
}

/* String at index I of the searched table, or NULL where dl-cache.c's
 * _dl_cache_verify_ptr fails (or the string runs off the file). */
static const char *string_at(const struct td_ldcache *c, uint32_t i)
{
    if (i >= c->table.string_size)
        return NULL;
    return td_buf_cstr(&c->buf, c->table.strings + i, TD_LDCACHE_STRING_LIMIT);
}

/* Which glibc-hwcaps section indices this process uses, and their
 * priorities (1 = best). dl-cache.c glibc_hwcaps_priorities_init merges the
 * cache's name array, sorted by strcmp, with the process's names sorted the
 * same way; reproducing the merge keeps its result on unsorted files too.
 * At most one section index per process name gets a priority. */
struct priorities {
    bool ready;
    size_t count;
    uint32_t index[TD_LDCACHE_MAX_HWCAPS];
    uint32_t priority[TD_LDCACHE_MAX_HWCAPS];
};

static void sort_names(const struct td_ldcache_query *q, size_t *order, size_t n)
{
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && strcmp(q->hwcaps[order[j - 1]], q->hwcaps[order[j]]) > 0; j--) {
            size_t tmp = order[j];
            order[j] = order[j - 1];
            order[j - 1] = tmp;
        }
}

static void compute_priorities(const struct td_ldcache *c, const struct td_ldcache_query *q,
                               struct priorities *p)
{
    size_t order[TD_LDCACHE_MAX_HWCAPS];
    size_t n = q->hwcaps_count < TD_LDCACHE_MAX_HWCAPS ? q->hwcaps_count : TD_LDCACHE_MAX_HWCAPS;
    p->ready = true;
    p->count = 0;
    sort_names(q, order, n);
    uint32_t left = 0;
    size_t right = 0;
    while (left < c->hwcaps_count && right < n) {
        const char *name = td_ldcache_hwcaps_name(c, left);
        if (!name) {
            /* glibc gives such an index priority 0 (and, unlike here, never
             * advances past it). */
            left++;
            continue;
        }
        int cmp = strcmp(name, q->hwcaps[order[right]]);
        if (cmp == 0) {
            p->index[p->count] = left;
            p->priority[p->count] = (uint32_t)order[right] + 1;
            p->count++;
            left++;
            right++;
        } else if (cmp < 0) {
            left++;
        } else {
            right++;
        }
    }
}

/* dl-cache.c glibc_hwcaps_priority: 0 means "do not use". */
static uint32_t hwcaps_priority(const struct td_ldcache *c, const struct td_ldcache_query *q,
                                struct priorities *p, uint32_t index)
{
    if (!p->ready)
        compute_priorities(c, q, p);
    for (size_t i = 0; i < p->count; i++)
        if (p->index[i] == index)
            return p->priority[i];
    return 0;
}

/* x86 dl-cache.h dl_cache_hwcap_isa_level_compatible. The shift by the
 * 10-bit level wraps at 32 as the x86 shift instruction does. */
static bool isa_level_ok(const struct td_ldcache_query *q, uint64_t hwcap)
{
    if (!q->check_isa_level)
        return true;
    uint32_t level = (uint32_t)(hwcap >> 32) & TD_LDCACHE_HWCAP_ISA_LEVEL_MASK;
    uint32_t bit = UINT32_C(1) << (level & 31);
    return (q->isa_levels & bit) == bit;
}

/* What one entry is, apart from its rank: usable (returns -1 and sets
 * *named and *priority) or the verdict that rules it out. */
static int judge(const struct td_ldcache *c, const struct td_ldcache_query *q, struct priorities *p,
                 const struct raw_entry *r, bool *named, uint32_t *priority)
{
    *named = false;
    *priority = 0;
    if (!td_ldcache_abi_accepts(&q->abi, r->flags))
        return TD_LDCACHE_WRONG_FLAGS;
    if (!string_at(c, r->value))
        return TD_LDCACHE_BAD_PATH;
    if (c->table.entry_size < 24)
        return -1; /* old format: no hwcap, no OS version */
    *named = td_ldcache_is_hwcaps(r->hwcap);
    if (*named && !isa_level_ok(q, r->hwcap))
        return TD_LDCACHE_ISA_LEVEL;
    if (!*named && (r->hwcap & ~q->hwcap_allowed))
        return TD_LDCACHE_LEGACY_HWCAP;
    if (q->os_version && r->osversion > q->os_version)
        return TD_LDCACHE_OS_VERSION;
    if (*named) {
        *priority = hwcaps_priority(c, q, p, (uint32_t)r->hwcap);
        if (*priority == 0)
            return TD_LDCACHE_HWCAPS_UNUSED;
    }
    return -1;
}

/* True when entry I's name compares equal to NAME; a bad index counts as a
 * mismatch, as in search_cache's walks around the first hit. */
static bool name_matches(const struct td_ldcache *c, uint32_t i, const char *name)
{
    struct raw_entry r;
    read_raw(c, i, &r);
    const char *key = string_at(c, r.key);
    return key && td_ldcache_libcmp(name, key) == 0;
}

/* The choice among the entries [first, end) named alike (search_cache's
 * loop): glibc-hwcaps entries come first in the cache and the best priority
 * wins among them; the first usable plain entry is taken only when no
 * glibc-hwcaps entry was, and one whose flags equal _DL_CACHE_DEFAULT_ID
 * ends the search. */
static void choose(const struct td_ldcache *c, const struct td_ldcache_query *q,
                   struct td_ldcache_result *res)
{
    struct priorities p = {0};
    uint32_t best_priority = 0;
    for (uint32_t i = res->first; i < res->end; i++) {
        struct raw_entry r;
        bool named;
        uint32_t priority;
        read_raw(c, i, &r);
        int verdict = judge(c, q, &p, &r, &named, &priority);
        if (verdict == TD_LDCACHE_WRONG_FLAGS || verdict == TD_LDCACHE_BAD_PATH)
            continue;
        if (c->table.entry_size >= 24 && !named && res->found)
            break; /* glibc-hwcaps entries exhausted: keep the one found */
        if (verdict >= 0)
            continue;
        if (named) {
            if (res->found && priority >= best_priority)
                continue;
            best_priority = priority;
        }
        res->found = true;
        res->chosen = i;
        res->path = string_at(c, r.value);
        if (!named && r.flags == q->abi.default_id)
            break;
    }
}

static void fill_hwcaps_subdir(const struct td_ldcache *c, struct td_ldcache_result *res)
{
    struct raw_entry r;
    if (!res->found || c->table.entry_size < 24)
        return;
    read_raw(c, res->chosen, &r);
    if (td_ldcache_is_hwcaps(r.hwcap))
        res->hwcaps_subdir = td_ldcache_hwcaps_name(c, (uint32_t)r.hwcap);
}

/* The run of entries named alike around the hit MIDDLE, bounded by RIGHT as
 * search_cache's forward loop is. */
static void find_run(const struct td_ldcache *c, const char *name, int64_t middle, int64_t right,
                     struct td_ldcache_result *res)
{
    int64_t first = middle;
    while (first > 0 && name_matches(c, (uint32_t)(first - 1), name))
        first--;
    int64_t end = middle + 1;
    while (end <= right && name_matches(c, (uint32_t)end, name))
        end++;
    res->first = (uint32_t)first;
    res->end = (uint32_t)end;
}

int td_ldcache_lookup(const struct td_ldcache *c, const struct td_ldcache_query *q,
                      struct td_ldcache_result *res, struct td_err *err)
{
    memset(res, 0, sizeof *res);
    int64_t left = 0, right = (int64_t)c->table.count - 1;
    /* The table is sorted in descending _dl_cache_libcmp order. */
    while (left <= right) {
        int64_t middle = (left + right) / 2;
        struct raw_entry r;
        read_raw(c, (uint32_t)middle, &r);
        const char *key = string_at(c, r.key);
        if (!key) {
            struct td_ldcache_entry e;
            td_ldcache_entry(c, (uint32_t)middle, &e, err);
            return -1; /* search_cache gives up: ld.so finds nothing */
        }
        int cmp = td_ldcache_libcmp(q->soname, key);
        if (cmp == 0) {
            find_run(c, q->soname, middle, right, res);
            choose(c, q, res);
            fill_hwcaps_subdir(c, res);
            return 0;
        }
        if (cmp < 0)
            left = middle + 1;
        else
            right = middle - 1;
    }
    return 0;
}

int td_ldcache_candidate(const struct td_ldcache *c, const struct td_ldcache_query *q,
                         const struct td_ldcache_result *res, uint32_t index,
                         struct td_ldcache_entry *e, enum td_ldcache_verdict *verdict,
                         struct td_err *err)
{
    if (index < res->first || index >= res->end) {
        td_err_set(err, "ld.so.cache entry %u is not a candidate for %s (entries %u..%u)", index,
                   q->soname, res->first, res->end);
        return -1;
    }
    struct priorities p = {0};
    struct raw_entry r;
    bool named;
    uint32_t priority;
    read_raw(c, index, &r);
    int v = judge(c, q, &p, &r, &named, &priority);
    if (res->found && index == res->chosen)
        *verdict = TD_LDCACHE_CHOSEN;
    else
        *verdict = v >= 0 ? (enum td_ldcache_verdict)v : TD_LDCACHE_OUTRANKED;
    /* A bad path is a verdict, not a failure: the entry is still listed. */
    struct td_err entry_err = {0};
    if (td_ldcache_entry(c, index, e, &entry_err) == 0 || *verdict == TD_LDCACHE_BAD_PATH)
        return 0;
    td_err_set(err, "%s", entry_err.msg);
    return -1;
}
