/* PE resources (PE spec §6.9): a bounded walk of the three-level resource
 * tree, the VS_VERSIONINFO block of RT_VERSION (fixed file info and the
 * StringFileInfo tables, UTF-16 turned into UTF-8), and the RT_MANIFEST text
 * with a tolerant scanner for its dependent assemblies. */
#include "format/pe.h"

#include <string.h>

enum {
    RESOURCE_DIR_SIZE = 16,
    RESOURCE_ENTRY_SIZE = 8,
    RESOURCE_DATA_SIZE = 16,
    RESOURCE_LEVELS = 3, /* type, name, language */
    SUBDIRECTORY_FLAG = 0x80000000u,
    FIXED_FILE_INFO_SIZE = 52,
    FIXED_FILE_INFO_MAGIC = 0xfeef04bd,
    VERSION_DEPTH = 4 /* VS_VERSIONINFO > StringFileInfo > StringTable > String */
};

/* Where the resource section lies: offsets inside the tree are relative to it. */
struct tree {
    const struct td_pe *pe;
    uint64_t base, avail; /* file offset of the root directory; file-backed bytes from there */
};

/* How an entry is chosen at each level of the tree. */
enum pick { PICK_ID, PICK_FIRST, PICK_LANGUAGE };

/* Rank of a language entry: US English, then neutral, then anything (the
 * version strings a user reads are best in English; Wine DLLs carry 36). */
static int language_rank(uint32_t id)
{
    return id == 0x409 ? 0 : id == 0 ? 1 : 2;
}

/* Picks, in the directory at REL, the entry with ID WANT (PICK_ID), the
 * first entry, or the best language; *found is false when there is none. */
static int pick_entry(const struct tree *t, uint64_t rel, enum pick how, uint32_t want,
                      uint32_t *id, uint32_t *target, bool *found, struct td_err *err)
{
    uint16_t named, ids;
    int best = 3;
    *found = false;
    if (rel + RESOURCE_DIR_SIZE > t->avail) {
        td_err_set(err, "resource directory at offset 0x%llx: lies outside the resource section",
                   (unsigned long long)(t->base + rel));
        return -1;
    }
    td_buf_u16(&t->pe->buf, t->base + rel + 12, &named);
    td_buf_u16(&t->pe->buf, t->base + rel + 14, &ids);
    uint64_t count = (uint64_t)named + ids, first = rel + RESOURCE_DIR_SIZE;
    if (first + count * RESOURCE_ENTRY_SIZE > t->avail) {
        td_err_set(err,
                   "resource directory at offset 0x%llx: %llu entries run past the resource "
                   "section",
                   (unsigned long long)(t->base + rel), (unsigned long long)count);
        return -1;
    }
    for (uint64_t i = how == PICK_ID ? named : 0; i < count && best > 0; i++) {
        uint64_t at = t->base + first + i * RESOURCE_ENTRY_SIZE;
        uint32_t name;
        td_buf_u32(&t->pe->buf, at, &name);
        if (how == PICK_ID && name != want)
            continue;
        int rank = how == PICK_LANGUAGE ? language_rank(name) : 0;
        if (rank >= best)
            continue;
        best = rank;
        td_buf_u32(&t->pe->buf, at + 4, target);
        *id = (name & SUBDIRECTORY_FLAG) ? UINT32_MAX : name;
        *found = true;
    }
    return 0;
}

static int read_data_entry(const struct tree *t, uint64_t rel, struct td_pe_resource *out,
                           struct td_err *err)
{
    if (rel + RESOURCE_DATA_SIZE > t->avail) {
        td_err_set(err, "resource data entry at offset 0x%llx: lies outside the resource section",
                   (unsigned long long)(t->base + rel));
        return -1;
    }
    td_buf_u32(&t->pe->buf, t->base + rel, &out->rva);
    td_buf_u32(&t->pe->buf, t->base + rel + 4, &out->size);
    td_buf_u32(&t->pe->buf, t->base + rel + 8, &out->codepage);
    if (!td_pe_rva_to_offset(t->pe, out->rva, out->size, &out->offset, NULL)) {
        td_err_set(err,
                   "resource data entry at offset 0x%llx: data RVA 0x%x size %u is not "
                   "backed by the file",
                   (unsigned long long)(t->base + rel), out->rva, out->size);
        return -1;
    }
    return 0;
}

int td_pe_resource_find(const struct td_pe *pe, uint32_t type, struct td_pe_resource *out,
                        struct td_err *err)
{
    struct tree t = {pe, 0, 0};
    uint64_t path[RESOURCE_LEVELS] = {0};
    uint32_t *ids[RESOURCE_LEVELS] = {&out->type, &out->name, &out->lang};
    memset(out, 0, sizeof *out);
    if (!td_pe_has_dir(pe, TD_PE_DIR_RESOURCE))
        return 0;
    uint32_t rva = pe->dirs[TD_PE_DIR_RESOURCE].rva;
    if (!td_pe_rva_to_offset(pe, rva, RESOURCE_DIR_SIZE, &t.base, &t.avail)) {
        td_err_set(err, "resource directory: RVA 0x%x is not backed by the file", rva);
        return -1;
    }
    uint64_t rel = 0;
    for (unsigned level = 0; level < RESOURCE_LEVELS; level++) {
        uint32_t target = 0; /* set when found */
        bool found;
        path[level] = rel;
        enum pick how = level == 0 ? PICK_ID : level == 1 ? PICK_FIRST : PICK_LANGUAGE;
        if (pick_entry(&t, rel, how, type, ids[level], &target, &found, err) != 0)
            return -1;
        if (!found)
            return 0;
        bool subdir = (target & SUBDIRECTORY_FLAG) != 0;
        rel = target & ~SUBDIRECTORY_FLAG;
        if (subdir != (level < RESOURCE_LEVELS - 1)) {
            td_err_set(err, "resource directory at offset 0x%llx: level %u entry is %s",
                       (unsigned long long)(t.base + path[level]), level + 1,
                       subdir ? "a further subdirectory (a loop or more than three levels)"
                              : "a data entry where a subdirectory belongs");
            return -1;
        }
        for (unsigned up = 0; subdir && up <= level; up++) {
            if (path[up] == rel) {
                td_err_set(err,
                           "resource directory at offset 0x%llx: entry points back to the "
                           "directory at offset 0x%llx (a loop)",
                           (unsigned long long)(t.base + path[level]),
                           (unsigned long long)(t.base + rel));
                return -1;
            }
        }
    }
    return read_data_entry(&t, rel, out, err) == 0 ? 1 : -1;
}

/* ---- UTF-16 text ---- */

static size_t put_utf8(char *out, uint32_t cp)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xc0 | cp >> 6);
        out[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xe0 | cp >> 12);
        out[1] = (char)(0x80 | (cp >> 6 & 0x3f));
        out[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    out[0] = (char)(0xf0 | cp >> 18);
    out[1] = (char)(0x80 | (cp >> 12 & 0x3f));
    out[2] = (char)(0x80 | (cp >> 6 & 0x3f));
    out[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

/* Converts UTF-16LE at OFF, up to NUL or END, into a NUL-terminated arena
 * string; unpaired surrogates become U+FFFD. */
static char *utf16_to_utf8(const struct td_pe *pe, uint64_t off, uint64_t end)
{
    uint64_t units = end > off ? (end - off) / 2 : 0;
    char *out = td_arena_array(pe->arena, (size_t)units * 3 + 1, 1);
    size_t n = 0;
    if (!out)
        return NULL;
    for (uint64_t i = 0; i < units; i++) {
        uint16_t u, low;
        td_buf_u16(&pe->buf, off + i * 2, &u);
        if (u == 0)
            break;
        uint32_t cp = u;
        if (u >= 0xd800 && u < 0xdc00 && i + 1 < units &&
            td_buf_u16(&pe->buf, off + (i + 1) * 2, &low) && low >= 0xdc00 && low < 0xe000) {
            cp = 0x10000 + ((uint32_t)(u - 0xd800) << 10) + (low - 0xdc00);
            i++;
        } else if (u >= 0xd800 && u < 0xe000) {
            cp = 0xfffd;
        }
        n += put_utf8(out + n, cp);
    }
    out[n] = '\0';
    return out;
}

/* ---- VS_VERSIONINFO ---- */

/* One version block: wLength, wValueLength, wType, szKey, padding, Value,
 * padding, Children (the layout shared by every block of the resource). */
struct vblock {
    uint64_t start, end, key, value, children;
    uint16_t value_length, type;
};

static uint64_t align4(uint64_t base, uint64_t at)
{
    return base + ((at - base + 3) & ~(uint64_t)3);
}

static bool read_block(const struct td_pe *pe, uint64_t base, uint64_t at, uint64_t limit,
                       struct vblock *b)
{
    uint16_t length, unit;
    if (!td_buf_u16(&pe->buf, at, &length) || length < 6 || at + length > limit)
        return false;
    b->start = at;
    b->end = at + length;
    td_buf_u16(&pe->buf, at + 2, &b->value_length);
    td_buf_u16(&pe->buf, at + 4, &b->type);
    b->key = at + 6;
    uint64_t p = b->key;
    while (p + 2 <= b->end && td_buf_u16(&pe->buf, p, &unit) && unit != 0)
        p += 2;
    b->value = align4(base, p + 2);
    if (b->value > b->end)
        b->value = b->end;
    uint64_t value_bytes = b->type == 1 ? (uint64_t)b->value_length * 2 : b->value_length;
    b->children = align4(base, b->value + value_bytes);
    if (b->children > b->end)
        b->children = b->end;
    return true;
}

/* Compares a block's UTF-16 key with an ASCII word. */
static bool key_is(const struct td_pe *pe, const struct vblock *b, const char *word)
{
    size_t i = 0;
    for (;; i++) {
        uint16_t unit;
        if (b->key + i * 2 + 2 > b->end || !td_buf_u16(&pe->buf, b->key + i * 2, &unit))
            return false;
        if (unit != (unsigned char)word[i])
            return false;
        if (unit == 0)
            return true;
    }
}

static void read_fixed_info(const struct td_pe *pe, const struct vblock *b, struct td_pe_version *v)
{
    uint32_t magic, w[13];
    if (b->value_length < FIXED_FILE_INFO_SIZE || b->value + FIXED_FILE_INFO_SIZE > b->end ||
        !td_buf_u32(&pe->buf, b->value, &magic) || magic != FIXED_FILE_INFO_MAGIC)
        return;
    for (int i = 0; i < 13; i++)
        td_buf_u32(&pe->buf, b->value + (uint64_t)i * 4, &w[i]);
    /* VS_FIXEDFILEINFO: dwFileVersionMS/LS, dwProductVersionMS/LS, then
     * dwFileFlagsMask, dwFileFlags, dwFileOS, dwFileType, dwFileSubtype. */
    uint16_t parts[8] = {(uint16_t)(w[2] >> 16), (uint16_t)w[2],         (uint16_t)(w[3] >> 16),
                         (uint16_t)w[3],         (uint16_t)(w[4] >> 16), (uint16_t)w[4],
                         (uint16_t)(w[5] >> 16), (uint16_t)w[5]};
    memcpy(v->file_version, parts, sizeof v->file_version);
    memcpy(v->product_version, parts + 4, sizeof v->product_version);
    v->flags_mask = w[6];
    v->flags = w[7];
    v->os = w[8];
    v->type = w[9];
    v->subtype = w[10];
}

static uint32_t parse_hex_key(const struct td_pe *pe, const struct vblock *b)
{
    uint32_t value = 0;
    for (int i = 0; i < 8; i++) {
        uint16_t u;
        if (!td_buf_u16(&pe->buf, b->key + (uint64_t)i * 2, &u))
            return 0;
        int digit = u >= '0' && u <= '9'   ? u - '0'
                    : u >= 'a' && u <= 'f' ? u - 'a' + 10
                    : u >= 'A' && u <= 'F' ? u - 'A' + 10
                                           : -1;
        if (digit < 0)
            return 0;
        value = value << 4 | (uint32_t)digit;
    }
    return value;
}

/* Walks the String blocks of one StringTable; counts them when v->strings
 * is NULL, stores them otherwise. */
static int read_strings(const struct td_pe *pe, uint64_t base, const struct vblock *table,
                        struct td_pe_version *v, struct td_err *err)
{
    struct vblock s;
    for (uint64_t at = table->children; at + 6 <= table->end; at = align4(base, s.end)) {
        if (!read_block(pe, base, at, table->end, &s)) {
            td_err_set(err,
                       "version resource at offset 0x%llx: String block at offset 0x%llx "
                       "overruns its StringTable",
                       (unsigned long long)base, (unsigned long long)at);
            return -1;
        }
        if (v->strings) {
            struct td_pe_kv *kv = &v->strings[v->nstrings];
            kv->key = utf16_to_utf8(pe, s.key, s.end);
            kv->value = utf16_to_utf8(pe, s.value, s.end);
            if (!kv->key || !kv->value) {
                td_err_set(err, "version resource at offset 0x%llx: arena cap reached",
                           (unsigned long long)base);
                return -1;
            }
        }
        v->nstrings++;
    }
    return 0;
}

static int read_string_file_info(const struct td_pe *pe, uint64_t base, const struct vblock *info,
                                 struct td_pe_version *v, struct td_err *err)
{
    struct vblock table;
    for (uint64_t at = info->children; at + 6 <= info->end; at = align4(base, table.end)) {
        if (!read_block(pe, base, at, info->end, &table)) {
            td_err_set(err,
                       "version resource at offset 0x%llx: StringTable at offset 0x%llx "
                       "overruns StringFileInfo",
                       (unsigned long long)base, (unsigned long long)at);
            return -1;
        }
        if (!v->translation)
            v->translation = parse_hex_key(pe, &table);
        if (read_strings(pe, base, &table, v, err) != 0)
            return -1;
    }
    return 0;
}

/* One pass over VS_VERSIONINFO's children (counting or storing strings). */
static int walk_version(const struct td_pe *pe, uint64_t base, const struct vblock *root,
                        struct td_pe_version *v, struct td_err *err)
{
    struct vblock child;
    for (uint64_t at = root->children; at + 6 <= root->end; at = align4(base, child.end)) {
        if (!read_block(pe, base, at, root->end, &child)) {
            td_err_set(err,
                       "version resource at offset 0x%llx: block at offset 0x%llx overruns "
                       "VS_VERSIONINFO",
                       (unsigned long long)base, (unsigned long long)at);
            return -1;
        }
        if (key_is(pe, &child, "StringFileInfo") &&
            read_string_file_info(pe, base, &child, v, err) != 0)
            return -1;
    }
    return 0;
}

int td_pe_version(const struct td_pe *pe, struct td_pe_version *v, struct td_err *err)
{
    struct td_pe_resource res;
    struct vblock root;
    memset(v, 0, sizeof *v);
    int found = td_pe_resource_find(pe, TD_PE_RT_VERSION, &res, err);
    if (found <= 0)
        return found;
    uint64_t base = res.offset, end = res.offset + res.size;
    if (!read_block(pe, base, base, end, &root) || !key_is(pe, &root, "VS_VERSION_INFO")) {
        td_err_set(err, "version resource at offset 0x%llx: not a VS_VERSIONINFO block",
                   (unsigned long long)base);
        return -1;
    }
    read_fixed_info(pe, &root, v);
    if (walk_version(pe, base, &root, v, err) != 0)
        return -1;
    size_t count = v->nstrings;
    v->strings = td_arena_array(pe->arena, count ? count : 1, sizeof *v->strings);
    if (!v->strings) {
        td_err_set(err, "version resource at offset 0x%llx: arena cap reached",
                   (unsigned long long)base);
        return -1;
    }
    v->nstrings = 0;
    v->translation = 0;
    if (walk_version(pe, base, &root, v, err) != 0)
        return -1;
    v->present = true;
    return 0;
}

const char *td_pe_version_string(const struct td_pe_version *v, const char *key)
{
    for (size_t i = 0; i < v->nstrings; i++)
        if (strcmp(v->strings[i].key, key) == 0)
            return v->strings[i].value;
    return NULL;
}

/* ---- RT_MANIFEST ---- */

int td_pe_manifest(const struct td_pe *pe, struct td_pe_manifest *m, struct td_err *err)
{
    struct td_pe_resource res;
    memset(m, 0, sizeof *m);
    int found = td_pe_resource_find(pe, TD_PE_RT_MANIFEST, &res, err);
    if (found <= 0)
        return found;
    const uint8_t *p = pe->buf.data + res.offset;
    const char *text;
    size_t length;
    if (res.size >= 2 && p[0] == 0xff && p[1] == 0xfe) {
        /* A UTF-16LE manifest (rare, but the loader accepts it). */
        text = utf16_to_utf8(pe, res.offset + 2, res.offset + res.size);
        length = text ? strlen(text) : 0;
    } else {
        size_t skip = res.size >= 3 && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf ? 3 : 0;
        length = res.size - skip;
        text = td_arena_strndup(pe->arena, (const char *)p + skip, length);
    }
    if (!text) {
        td_err_set(err, "manifest resource at offset 0x%llx: %u bytes exceed the arena cap",
                   (unsigned long long)res.offset, res.size);
        return -1;
    }
    if (td_pe_manifest_scan(text, length, pe->arena, m, err) != 0) {
        td_err_prefix(err, "manifest resource at offset 0x%llx: ", (unsigned long long)res.offset);
        return -1;
    }
    m->text = text;
    m->length = length;
    return 0;
}
