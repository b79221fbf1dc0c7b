/* ELF reader, part 2: the dynamic section reached through PT_DYNAMIC, its
 * strings (NEEDED, SONAME, RPATH, RUNPATH), the symbol version tables and
 * the headers of DT_HASH / DT_GNU_HASH, from which the symbol count comes. */
#include "format/elf.h"

#include <string.h>

enum {
    DT_NULL = 0,
    DT_NEEDED = 1,
    DT_HASH = 4,
    DT_STRTAB = 5,
    DT_SYMTAB = 6,
    DT_STRSZ = 10,
    DT_SYMENT = 11,
    DT_SONAME = 14,
    DT_BIND_NOW = 24,
    DT_RPATH = 15,
    DT_RUNPATH = 29,
    DT_FLAGS = 30,
    DT_GNU_HASH = 0x6ffffef5,
    DT_VERSYM = 0x6ffffff0,
    DT_FLAGS_1 = 0x6ffffffb,
    DT_VERDEF = 0x6ffffffc,
    DT_VERDEFNUM = 0x6ffffffd,
    DT_VERNEED = 0x6ffffffe,
    DT_VERNEEDNUM = 0x6fffffff,
    EM_S390 = 22,
    EM_ALPHA = 0x9026,
    VERNEED_SIZE = 16,
    VERNAUX_SIZE = 16,
    VERDEF_SIZE = 20,
    VERDAUX_SIZE = 8,
    VERSION_SLOTS_MAX = 0x8000,
};

/* String-valued tags, kept as string-table indexes until DT_STRTAB is known. */
struct dyn_strings {
    uint64_t soname, rpath, runpath;
    bool has_soname, has_rpath, has_runpath;
};

static unsigned word_size(const struct td_elf *elf)
{
    return elf->is64 ? 8 : 4;
}

static unsigned long long ull(uint64_t v)
{
    return (unsigned long long)v;
}

const char *td_elf_dynstr_table(const struct td_elf *elf)
{
    const uint8_t *t = td_buf_at(&elf->buf, elf->strtab_off, elf->strtab_size);
    return t && elf->strtab_size && t[elf->strtab_size - 1] == 0 ? (const char *)t : NULL;
}

/* td_elf_dynstr, and *ROOM when ROOM is not NULL. */
static const char *dynstr(const struct td_elf *elf, uint64_t index, size_t *room)
{
    if (index >= elf->strtab_size)
        return NULL;
    const char *t = td_elf_dynstr_table(elf);
    if (t) {
        if (room)
            *room = (size_t)(elf->strtab_size - index);
        return t + index;
    }
    const char *s =
        td_buf_cstr(&elf->buf, elf->strtab_off + index, (size_t)(elf->strtab_size - index));
    if (s && room)
        *room = strlen(s) + 1;
    return s;
}

const char *td_elf_dynstr(const struct td_elf *elf, uint64_t index)
{
    return dynstr(elf, index, NULL);
}

const char *td_elf_dynstr_room(const struct td_elf *elf, uint64_t index, size_t *room)
{
    *room = 0;
    return dynstr(elf, index, room);
}

static const struct td_elf_phdr *find_dynamic(const struct td_elf *elf)
{
    for (uint32_t i = 0; i < elf->phnum; i++)
        if (elf->phdrs[i].type == TD_PT_DYNAMIC)
            return &elf->phdrs[i];
    return NULL;
}

/* Records one entry. For single-valued tags the last entry wins, as in
 * glibc's elf/get-dynamic-info.h (info[tag] = dyn for each entry). */
static void record_tag(struct td_elf *elf, struct dyn_strings *s, uint64_t tag, uint64_t val)
{
    struct td_elf_dynamic *d = &elf->dyn;
    switch (tag) {
    case DT_NEEDED:
        elf->needed_count++;
        break;
    case DT_HASH:
        d->hash = val;
        break;
    case DT_STRTAB:
        d->strtab = val;
        break;
    case DT_SYMTAB:
        d->symtab = val;
        break;
    case DT_STRSZ:
        d->strsz = val, d->has_strsz = true;
        break;
    case DT_SYMENT:
        d->syment = val;
        break;
    case DT_SONAME:
        s->soname = val, s->has_soname = true;
        break;
    case DT_RPATH:
        s->rpath = val, s->has_rpath = true;
        break;
    case DT_RUNPATH:
        s->runpath = val, s->has_runpath = true;
        break;
    case DT_BIND_NOW:
        d->has_bind_now = true;
        break;
    case DT_FLAGS:
        d->flags = val, d->has_flags = true;
        break;
    case DT_GNU_HASH:
        d->gnu_hash = val;
        break;
    case DT_VERSYM:
        d->versym = val;
        break;
    case DT_FLAGS_1:
        d->flags_1 = val, d->has_flags_1 = true;
        break;
    case DT_VERDEF:
        d->verdef = val;
        break;
    case DT_VERDEFNUM:
        d->verdefnum = val;
        break;
    case DT_VERNEED:
        d->verneed = val;
        break;
    case DT_VERNEEDNUM:
        d->verneednum = val;
        break;
    default:
        break;
    }
}

/* Calls record_tag for each entry up to DT_NULL; returns the entry count. */
static uint64_t scan_entries(struct td_elf *elf, struct dyn_strings *s)
{
    unsigned w = word_size(elf);
    uint64_t n = elf->dyn.size / (2 * w), i;
    for (i = 0; i < n; i++) {
        uint64_t tag = 0, val = 0, at = elf->dyn.offset + i * 2 * w;
        td_buf_word(&elf->buf, at, w, &tag);
        td_buf_word(&elf->buf, at + w, w, &val);
        if (tag == DT_NULL)
            break;
        record_tag(elf, s, tag, val);
    }
    return i;
}

static int resolve_strtab(struct td_elf *elf, struct td_err *err)
{
    uint64_t len = elf->dyn.has_strsz ? elf->dyn.strsz : 1, avail = 0;
    if (!td_elf_vaddr_to_offset(elf, elf->dyn.strtab, len, &elf->strtab_off, &avail)) {
        td_err_set(err,
                   "dynamic section at offset 0x%llx: DT_STRTAB 0x%llx (DT_STRSZ 0x%llx) lies "
                   "outside every PT_LOAD segment",
                   ull(elf->dyn.offset), ull(elf->dyn.strtab), ull(len));
        return -1;
    }
    /* Without DT_STRSZ the table can extend at most to its segment's end. */
    elf->strtab_size = elf->dyn.has_strsz ? elf->dyn.strsz : avail;
    return 0;
}

static int dyn_string(const struct td_elf *elf, const char *tag, uint64_t index, const char **out,
                      struct td_err *err)
{
    *out = td_elf_dynstr(elf, index);
    if (*out)
        return 0;
    td_err_set(err,
               "dynamic section at offset 0x%llx: %s string at index 0x%llx is outside DT_STRSZ "
               "0x%llx or unterminated",
               ull(elf->dyn.offset), tag, ull(index), ull(elf->strtab_size));
    return -1;
}

static int collect_needed(struct td_elf *elf, uint64_t entries, struct td_arena *arena,
                          struct td_err *err)
{
    unsigned w = word_size(elf);
    uint32_t k = 0;
    elf->needed = td_arena_array(arena, elf->needed_count, sizeof *elf->needed);
    if (!elf->needed) {
        td_err_set(err, "dynamic section at offset 0x%llx: arena cap reached for %u DT_NEEDED",
                   ull(elf->dyn.offset), elf->needed_count);
        return -1;
    }
    for (uint64_t i = 0; i < entries && k < elf->needed_count; i++) {
        uint64_t tag = 0, val = 0, at = elf->dyn.offset + i * 2 * w;
        td_buf_word(&elf->buf, at, w, &tag);
        td_buf_word(&elf->buf, at + w, w, &val);
        if (tag == DT_NEEDED && dyn_string(elf, "DT_NEEDED", val, &elf->needed[k++], err))
            return -1;
    }
    return 0;
}

static int resolve_strings(struct td_elf *elf, const struct dyn_strings *s, uint64_t entries,
                           struct td_arena *arena, struct td_err *err)
{
    bool any = elf->needed_count || s->has_soname || s->has_rpath || s->has_runpath ||
               elf->dyn.verneed || elf->dyn.verdef || elf->dyn.symtab;
    if (!any)
        return 0;
    if (!elf->dyn.strtab) {
        td_err_set(err, "dynamic section at offset 0x%llx: string-valued entries but no DT_STRTAB",
                   ull(elf->dyn.offset));
        return -1;
    }
    if (resolve_strtab(elf, err))
        return -1;
    if (elf->needed_count && collect_needed(elf, entries, arena, err))
        return -1;
    if (s->has_soname && dyn_string(elf, "DT_SONAME", s->soname, &elf->soname, err))
        return -1;
    if (s->has_rpath && dyn_string(elf, "DT_RPATH", s->rpath, &elf->rpath, err))
        return -1;
    if (s->has_runpath && dyn_string(elf, "DT_RUNPATH", s->runpath, &elf->runpath, err))
        return -1;
    return 0;
}

int td_elf_parse_dynamic(struct td_elf *elf, struct td_arena *arena, struct td_err *err)
{
    const struct td_elf_phdr *p = find_dynamic(elf);
    struct dyn_strings s = {0};
    if (!p)
        return 0;
    if (!td_buf_has(&elf->buf, p->offset, p->filesz)) {
        td_err_set(err,
                   "PT_DYNAMIC at offset 0x%llx: %llu bytes run past the end of the file (size "
                   "0x%zx)",
                   ull(p->offset), ull(p->filesz), elf->buf.size);
        return -1;
    }
    elf->has_dynamic = true;
    elf->dyn.offset = p->offset;
    elf->dyn.size = p->filesz;
    uint64_t entries = scan_entries(elf, &s);
    return resolve_strings(elf, &s, entries, arena, err);
}

/* ---- Symbol versions (gABI/LSB "Symbol Versioning"). ---- */

/* Work left for the version walks: a valid table cannot hold more entries
 * than the file has 8-byte units, so overlapping or looping links stop. */
struct walk_budget {
    uint64_t left;
};

static bool spend(struct walk_budget *b)
{
    if (b->left == 0)
        return false;
    b->left--;
    return true;
}

static int budget_error(struct td_err *err, const char *what, uint64_t at)
{
    td_err_set(err, "%s at offset 0x%llx: more entries than the file can hold (links overlap)",
               what, ull(at));
    return -1;
}

/* Follows a vn_next / vna_next / vd_next link: 0 ends the list early. */
static int next_link(const char *what, uint64_t at, uint32_t link, uint64_t i, uint64_t count,
                     uint64_t *out, struct td_err *err)
{
    if (i + 1 >= count)
        return 0;
    if (link == 0) {
        td_err_set(err, "%s at offset 0x%llx: list ends after %llu of %llu entries", what, ull(at),
                   ull(i + 1), ull(count));
        return -1;
    }
    *out = at + link;
    return 0;
}

static int read_vernaux(struct td_elf *elf, uint64_t at, struct td_elf_verneed *vn, uint16_t cnt,
                        struct walk_budget *budget, struct td_arena *arena, struct td_err *err)
{
    if (cnt > budget->left)
        return budget_error(err, "verneed aux", at);
    vn->versions = td_arena_array(arena, cnt, sizeof *vn->versions);
    if (cnt && !vn->versions) {
        td_err_set(err, "verneed aux at offset 0x%llx: arena cap reached", ull(at));
        return -1;
    }
    for (uint16_t j = 0; j < cnt; j++) {
        struct td_elf_vernaux *a = &vn->versions[j];
        if (!spend(budget))
            return budget_error(err, "verneed aux", at);
        if (!td_buf_has(&elf->buf, at, VERNAUX_SIZE)) {
            td_err_set(err, "verneed aux at offset 0x%llx: runs past the end of the file", ull(at));
            return -1;
        }
        a->hash = td_elf_u32(elf, at);
        a->flags = td_elf_u16(elf, at + 4);
        a->other = td_elf_u16(elf, at + 6);
        if (dyn_string(elf, "vna_name", td_elf_u32(elf, at + 8), &a->name, err) ||
            next_link("verneed aux", at, td_elf_u32(elf, at + 12), j, cnt, &at, err))
            return -1;
        vn->version_count++;
    }
    return 0;
}

static int read_verneed(struct td_elf *elf, struct walk_budget *budget, struct td_arena *arena,
                        struct td_err *err)
{
    uint64_t at, n = elf->dyn.verneednum;
    if (n > elf->buf.size / VERNEED_SIZE ||
        !td_elf_vaddr_to_offset(elf, elf->dyn.verneed, VERNEED_SIZE, &at, NULL)) {
        td_err_set(err,
                   "dynamic section at offset 0x%llx: DT_VERNEED 0x%llx with DT_VERNEEDNUM %llu "
                   "lies outside every PT_LOAD segment",
                   ull(elf->dyn.offset), ull(elf->dyn.verneed), ull(n));
        return -1;
    }
    elf->verneed = td_arena_array(arena, (size_t)n, sizeof *elf->verneed);
    if (n && !elf->verneed) {
        td_err_set(err, "verneed at offset 0x%llx: arena cap reached", ull(at));
        return -1;
    }
    for (uint64_t i = 0; i < n; i++) {
        struct td_elf_verneed *vn = &elf->verneed[i];
        if (!spend(budget))
            return budget_error(err, "verneed", at);
        if (!td_buf_has(&elf->buf, at, VERNEED_SIZE)) {
            td_err_set(err, "verneed at offset 0x%llx: runs past the end of the file", ull(at));
            return -1;
        }
        uint16_t version = td_elf_u16(elf, at), cnt = td_elf_u16(elf, at + 2);
        uint64_t aux_at;
        if (version != 1) {
            td_err_set(err, "verneed at offset 0x%llx: vn_version %u is not 1", ull(at), version);
            return -1;
        }
        if (dyn_string(elf, "vn_file", td_elf_u32(elf, at + 4), &vn->file, err) ||
            !td_add_u64(at, td_elf_u32(elf, at + 8), &aux_at) ||
            read_vernaux(elf, aux_at, vn, cnt, budget, arena, err) ||
            next_link("verneed", at, td_elf_u32(elf, at + 12), i, n, &at, err))
            return -1;
        elf->verneed_count++;
    }
    return 0;
}

static int read_verdef(struct td_elf *elf, struct walk_budget *budget, struct td_arena *arena,
                       struct td_err *err)
{
    uint64_t at, n = elf->dyn.verdefnum;
    if (n > elf->buf.size / VERDEF_SIZE ||
        !td_elf_vaddr_to_offset(elf, elf->dyn.verdef, VERDEF_SIZE, &at, NULL)) {
        td_err_set(err,
                   "dynamic section at offset 0x%llx: DT_VERDEF 0x%llx with DT_VERDEFNUM %llu "
                   "lies outside every PT_LOAD segment",
                   ull(elf->dyn.offset), ull(elf->dyn.verdef), ull(n));
        return -1;
    }
    elf->verdef = td_arena_array(arena, (size_t)n, sizeof *elf->verdef);
    if (n && !elf->verdef) {
        td_err_set(err, "verdef at offset 0x%llx: arena cap reached", ull(at));
        return -1;
    }
    for (uint64_t i = 0; i < n; i++) {
        struct td_elf_verdef *vd = &elf->verdef[i];
        uint64_t aux_at;
        if (!spend(budget))
            return budget_error(err, "verdef", at);
        if (!td_buf_has(&elf->buf, at, VERDEF_SIZE)) {
            td_err_set(err, "verdef at offset 0x%llx: runs past the end of the file", ull(at));
            return -1;
        }
        if (td_elf_u16(elf, at) != 1) {
            td_err_set(err, "verdef at offset 0x%llx: vd_version %u is not 1", ull(at),
                       td_elf_u16(elf, at));
            return -1;
        }
        vd->flags = td_elf_u16(elf, at + 2);
        vd->index = td_elf_u16(elf, at + 4);
        vd->hash = td_elf_u32(elf, at + 8);
        /* The first Elf_Verdaux names the version; later ones name its parents. */
        if (!td_add_u64(at, td_elf_u32(elf, at + 12), &aux_at) ||
            !td_buf_has(&elf->buf, aux_at, VERDAUX_SIZE)) {
            td_err_set(err, "verdef at offset 0x%llx: vd_aux runs past the end of the file",
                       ull(at));
            return -1;
        }
        if (dyn_string(elf, "vda_name", td_elf_u32(elf, aux_at), &vd->name, err) ||
            next_link("verdef", at, td_elf_u32(elf, at + 16), i, n, &at, err))
            return -1;
        elf->verdef_count++;
    }
    return 0;
}

/* Builds the versym index -> version table, like l_versions in glibc's
 * elf/dl-version.c: verdef entries by vd_ndx, verneed entries by vna_other. */
/* Points each versym slot at its version's name (and needed file). */
static void fill_versions(struct td_elf *elf)
{
    for (uint32_t i = 0; i < elf->verdef_count; i++) {
        struct td_elf_version *v = &elf->versions[elf->verdef[i].index & 0x7fff];
        v->name = elf->verdef[i].name;
        v->defined = true;
    }
    for (uint32_t i = 0; i < elf->verneed_count; i++)
        for (uint32_t j = 0; j < elf->verneed[i].version_count; j++) {
            struct td_elf_version *v = &elf->versions[elf->verneed[i].versions[j].other & 0x7fff];
            v->name = elf->verneed[i].versions[j].name;
            v->file = elf->verneed[i].file;
            v->defined = false;
        }
}

static int index_versions(struct td_elf *elf, struct td_arena *arena, struct td_err *err)
{
    uint32_t slots = 2;
    for (uint32_t i = 0; i < elf->verdef_count; i++)
        if ((uint32_t)(elf->verdef[i].index & 0x7fff) + 1 > slots)
            slots = (elf->verdef[i].index & 0x7fff) + 1u;
    for (uint32_t i = 0; i < elf->verneed_count; i++)
        for (uint32_t j = 0; j < elf->verneed[i].version_count; j++)
            if ((uint32_t)(elf->verneed[i].versions[j].other & 0x7fff) + 1 > slots)
                slots = (elf->verneed[i].versions[j].other & 0x7fff) + 1u;
    elf->versions = td_arena_array(arena, slots, sizeof *elf->versions);
    if (!elf->versions) {
        td_err_set(err, "dynamic section at offset 0x%llx: arena cap reached for %u version slots",
                   ull(elf->dyn.offset), slots);
        return -1;
    }
    elf->version_slots = slots;
    fill_versions(elf);
    return 0;
}

int td_elf_parse_versions(struct td_elf *elf, struct td_arena *arena, struct td_err *err)
{
    struct walk_budget budget = {elf->buf.size / VERDAUX_SIZE};
    if (!elf->has_dynamic)
        return 0;
    if (elf->dyn.verneed && read_verneed(elf, &budget, arena, err))
        return -1;
    if (elf->dyn.verdef && read_verdef(elf, &budget, arena, err))
        return -1;
    if (elf->dyn.versym || elf->verneed_count || elf->verdef_count)
        return index_versions(elf, arena, err);
    return 0;
}

/* ---- Hash tables and the symbol count. ---- */

static int parse_gnu_hash(struct td_elf *elf, struct td_err *err)
{
    struct td_elf_gnu_hash *g = &elf->gnu;
    uint64_t at, avail, need, bloom_bytes;
    if (!td_elf_vaddr_to_offset(elf, elf->dyn.gnu_hash, 16, &at, &avail)) {
        td_err_set(err,
                   "dynamic section at offset 0x%llx: DT_GNU_HASH 0x%llx lies outside every "
                   "PT_LOAD segment",
                   ull(elf->dyn.offset), ull(elf->dyn.gnu_hash));
        return -1;
    }
    g->nbuckets = td_elf_u32(elf, at);
    g->symoffset = td_elf_u32(elf, at + 4);
    g->bloom_size = td_elf_u32(elf, at + 8);
    g->bloom_shift = td_elf_u32(elf, at + 12);
    if (g->nbuckets == 0 || g->bloom_size == 0 || g->bloom_shift >= 32) {
        td_err_set(err,
                   "GNU hash table at offset 0x%llx: nbuckets %u, bloom size %u, shift %u "
                   "(need nonzero sizes and a shift below 32)",
                   ull(at), g->nbuckets, g->bloom_size, g->bloom_shift);
        return -1;
    }
    bloom_bytes = (uint64_t)g->bloom_size * word_size(elf);
    need = 16 + bloom_bytes + (uint64_t)g->nbuckets * 4;
    if (need > avail) {
        td_err_set(err,
                   "GNU hash table at offset 0x%llx: %u bloom words and %u buckets run past its "
                   "segment",
                   ull(at), g->bloom_size, g->nbuckets);
        return -1;
    }
    g->bloom_off = at + 16;
    g->buckets_off = g->bloom_off + bloom_bytes;
    g->chain_off = g->buckets_off + (uint64_t)g->nbuckets * 4;
    g->chain_avail = avail - need;
    elf->has_gnu_hash = true;
    return 0;
}

/* The GNU hash table has no symbol count: the last symbol is the end of the
 * chain that starts at the highest bucket (the chain word with bit 0 set). */
static int count_from_gnu_hash(struct td_elf *elf, struct td_err *err)
{
    const struct td_elf_gnu_hash *g = &elf->gnu;
    uint32_t top = 0;
    /* All buckets at once (parse_gnu_hash found them inside the file): one
     * bounds check, and for a sparse buffer one miss, not one a bucket. */
    const uint8_t *at = td_buf_at(&elf->buf, g->buckets_off, 4ull * g->nbuckets);
    if (!at) {
        td_err_set(err, "GNU hash table at offset 0x%llx: buckets not readable",
                   ull(g->buckets_off));
        return -1;
    }
    /* The highest bucket, the words assembled from their bytes in a loop
     * the compiler turns into vector maxima (libtorch_cpu's 14,000
     * buckets: 850,000 instructions read one bounds-checked word at a time). */
    if (elf->big_endian) {
        for (uint32_t b = 0; b < g->nbuckets; b++) {
            const uint8_t *p = at + 4 * (size_t)b;
            uint32_t v = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
            top = v > top ? v : top;
        }
    } else {
        for (uint32_t b = 0; b < g->nbuckets; b++) {
            const uint8_t *p = at + 4 * (size_t)b;
            uint32_t v = (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
            top = v > top ? v : top;
        }
    }
    if (top == 0) {
        elf->dynsym_count = g->symoffset;
        return 0;
    }
    if (top < g->symoffset) {
        td_err_set(err,
                   "GNU hash table at offset 0x%llx: a bucket names symbol %u below symoffset %u",
                   ull(g->bloom_off - 16), top, g->symoffset);
        return -1;
    }
    for (uint64_t i = top - g->symoffset; (i + 1) * 4 <= g->chain_avail; i++) {
        uint32_t word;
        if (!td_buf_u32(&elf->buf, g->chain_off + 4 * i, &word))
            break; /* not held (a sparse buffer's miss) */
        if (word & 1) {
            if (g->symoffset + i + 1 > UINT32_MAX)
                break;
            elf->dynsym_count = (uint32_t)(g->symoffset + i + 1);
            return 0;
        }
    }
    td_err_set(err, "GNU hash chain at offset 0x%llx: the chain from symbol %u never ends",
               ull(g->chain_off), top);
    return -1;
}

static int parse_sysv_hash(struct td_elf *elf, struct td_err *err)
{
    struct td_elf_sysv_hash *h = &elf->sysv;
    uint64_t at, avail, words;
    /* glibc's Elf_Symndx is 64 bits on 64-bit s390 and on Alpha. */
    h->width = (elf->is64 && elf->machine == EM_S390) || elf->machine == EM_ALPHA ? 8 : 4;
    if (!td_elf_vaddr_to_offset(elf, elf->dyn.hash, 2ull * h->width, &at, &avail)) {
        td_err_set(err,
                   "dynamic section at offset 0x%llx: DT_HASH 0x%llx lies outside every PT_LOAD "
                   "segment",
                   ull(elf->dyn.offset), ull(elf->dyn.hash));
        return -1;
    }
    td_buf_word(&elf->buf, at, h->width, &h->nbucket);
    td_buf_word(&elf->buf, at + h->width, h->width, &h->nchain);
    if (h->nbucket == 0 || !td_add_u64(h->nbucket, h->nchain, &words) ||
        words > avail / h->width - 2 || h->nchain > UINT32_MAX) {
        td_err_set(
            err, "hash table at offset 0x%llx: nbucket %llu and nchain %llu do not fit its segment",
            ull(at), ull(h->nbucket), ull(h->nchain));
        return -1;
    }
    h->buckets_off = at + 2ull * h->width;
    h->chain_off = h->buckets_off + h->nbucket * h->width;
    elf->has_sysv_hash = true;
    return 0;
}

static int resolve_symtab(struct td_elf *elf, struct td_err *err)
{
    uint64_t std = elf->is64 ? 24 : 16, bytes;
    if (!elf->dyn.syment)
        elf->dyn.syment = std;
    if (elf->dyn.syment < std || elf->dyn.syment > 4096) {
        td_err_set(err, "dynamic section at offset 0x%llx: DT_SYMENT %llu is not a symbol size",
                   ull(elf->dyn.offset), ull(elf->dyn.syment));
        return -1;
    }
    bytes = elf->dynsym_count * elf->dyn.syment;
    if (!td_elf_vaddr_to_offset(elf, elf->dyn.symtab, bytes, &elf->symtab_off, NULL)) {
        td_err_set(err,
                   "dynamic section at offset 0x%llx: DT_SYMTAB 0x%llx with %u symbols lies "
                   "outside every PT_LOAD segment",
                   ull(elf->dyn.offset), ull(elf->dyn.symtab), elf->dynsym_count);
        return -1;
    }
    if (elf->dyn.versym) {
        if (!td_elf_vaddr_to_offset(elf, elf->dyn.versym, 2ull * elf->dynsym_count,
                                    &elf->versym_off, NULL)) {
            td_err_set(err,
                       "dynamic section at offset 0x%llx: DT_VERSYM 0x%llx with %u entries lies "
                       "outside every PT_LOAD segment",
                       ull(elf->dyn.offset), ull(elf->dyn.versym), elf->dynsym_count);
            return -1;
        }
        elf->has_versym = true;
    }
    return 0;
}

/* A GNU hash table cannot count the undefined symbols that follow the last
 * hashed one; a linker that hashes nothing (an object whose dynamic symbols
 * are all undefined) still writes symoffset 1. When a SHT_DYNSYM section
 * header describes DT_SYMTAB and is backed by a PT_LOAD segment, its size
 * is the count (as readelf takes it); section headers stay optional. */
static void count_from_sections(struct td_elf *elf)
{
    enum { SHT_DYNSYM = 11 };
    uint64_t std = elf->is64 ? 24 : 16;
    uint64_t syment = elf->dyn.syment ? elf->dyn.syment : std;
    for (uint32_t i = 0; elf->sections_valid && i < elf->section_count; i++) {
        uint64_t at = elf->section_offset + (uint64_t)i * elf->section_entsize;
        uint64_t addr, size, entsize, off;
        if (td_elf_u32(elf, at + 4) != SHT_DYNSYM ||
            !td_buf_word(&elf->buf, at + (elf->is64 ? 16 : 12), elf->is64 ? 8 : 4, &addr) ||
            !td_buf_word(&elf->buf, at + (elf->is64 ? 32 : 20), elf->is64 ? 8 : 4, &size) ||
            !td_buf_word(&elf->buf, at + (elf->is64 ? 56 : 36), elf->is64 ? 8 : 4, &entsize))
            continue;
        if (addr != elf->dyn.symtab || entsize != syment || size / entsize > UINT32_MAX ||
            size / entsize <= elf->dynsym_count ||
            !td_elf_vaddr_to_offset(elf, addr, size / entsize * entsize, &off, NULL))
            continue;
        elf->dynsym_count = (uint32_t)(size / entsize);
        elf->symcount_source = TD_ELF_SYMCOUNT_SECTION;
        return;
    }
}

int td_elf_parse_hash_headers(struct td_elf *elf, struct td_err *err)
{
    if (!elf->has_dynamic)
        return 0;
    if (elf->dyn.gnu_hash && parse_gnu_hash(elf, err))
        return -1;
    if (elf->dyn.hash && parse_sysv_hash(elf, err))
        return -1;
    return 0;
}

int td_elf_set_symbol_count(struct td_elf *elf, uint32_t count, enum td_elf_symcount_source source,
                            struct td_err *err)
{
    elf->dynsym_count = count;
    elf->symcount_source = source;
    return resolve_symtab(elf, err);
}

int td_elf_parse_hash_tables(struct td_elf *elf, struct td_err *err)
{
    if (td_elf_parse_hash_headers(elf, err))
        return -1;
    if (!elf->has_dynamic || !elf->dyn.symtab)
        return 0;
    if (elf->has_sysv_hash) {
        elf->dynsym_count = (uint32_t)elf->sysv.nchain;
        elf->symcount_source = TD_ELF_SYMCOUNT_HASH;
    } else if (elf->has_gnu_hash) {
        if (count_from_gnu_hash(elf, err))
            return -1;
        elf->symcount_source = TD_ELF_SYMCOUNT_GNU_HASH;
    } else {
        elf->symcount_source = TD_ELF_SYMCOUNT_NOT_PARSED;
    }
    count_from_sections(elf);
    return resolve_symtab(elf, err);
}

/* ---- Detaching from the buffer. ---- */

static bool copy_string(const char **s, struct td_arena *arena)
{
    return !*s || (*s = td_arena_strdup(arena, *s)) != NULL;
}

int td_elf_detach(struct td_elf *elf, struct td_arena *arena, struct td_err *err)
{
    bool ok = copy_string(&elf->interp, arena) && copy_string(&elf->soname, arena) &&
              copy_string(&elf->rpath, arena) && copy_string(&elf->runpath, arena);
    for (uint32_t i = 0; ok && i < elf->needed_count; i++)
        ok = copy_string(&elf->needed[i], arena);
    for (uint32_t i = 0; ok && i < elf->verneed_count; i++) {
        ok = copy_string(&elf->verneed[i].file, arena);
        for (uint32_t k = 0; ok && k < elf->verneed[i].version_count; k++)
            ok = copy_string(&elf->verneed[i].versions[k].name, arena);
    }
    for (uint32_t i = 0; ok && i < elf->verdef_count; i++)
        ok = copy_string(&elf->verdef[i].name, arena);
    if (!ok) {
        td_err_set(err, "arena cap reached copying the dynamic section's strings");
        return -1;
    }
    if (elf->versions)
        fill_versions(elf); /* at the names just copied */
    /* No bytes held; the file's size stays, for td_elf_symbol_range. */
    elf->buf = td_buf_window(NULL, 0, 0, elf->buf.size, elf->big_endian);
    return 0;
}
