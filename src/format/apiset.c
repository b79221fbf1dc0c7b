/* The API-set schema reader (apiset.h has the layout and its sources). */
#include <ctype.h>
#include <string.h>

#include "format/apiset.h"
#include "format/buf.h"

#define NAMESPACE_SIZE 28
#define ENTRY_SIZE 24
#define VALUE_SIZE 20
#define NAME_MAX_BYTES 512 /* longer than any contract or DLL name */

/* The UTF-16LE name [off, off + len) as lower-case ASCII in the arena; the
 * empty string for len 0; NULL when outside the bytes or not ASCII. */
static char *utf16_name(const struct td_buf *b, uint32_t off, uint32_t len, struct td_arena *arena)
{
    if (len % 2 || len > NAME_MAX_BYTES)
        return NULL;
    const uint8_t *p = td_buf_at(b, off, len);
    if (!p)
        return NULL;
    char s[NAME_MAX_BYTES / 2 + 1];
    size_t n = len / 2;
    for (size_t i = 0; i < n; i++) {
        if (p[2 * i + 1] != 0 || p[2 * i] == 0 || p[2 * i] >= 0x80)
            return NULL;
        s[i] = (char)tolower(p[2 * i]);
    }
    s[n] = '\0';
    return td_arena_strndup(arena, s, n);
}

/* NAME lower-cased (already), ".dll" dropped, cut at its last '-'. */
static char *contract_key(const char *name, struct td_arena *arena)
{
    size_t n = strlen(name);
    if (n > 4 && strcmp(name + n - 4, ".dll") == 0)
        n -= 4;
    const char *dash = NULL;
    for (size_t i = 0; i < n; i++)
        if (name[i] == '-')
            dash = name + i;
    return dash ? td_arena_strndup(arena, name, (size_t)(dash - name)) : NULL;
}

/* get_apiset_target without a requester: the value with an empty name (the
 * default), else the first; "-" when the entry has no value or an empty one. */
static const char *default_host(const struct td_buf *b, uint32_t values, uint32_t count,
                                struct td_arena *arena, struct td_err *err)
{
    if (count == 0)
        return "-";
    if (!td_buf_has_array(b, values, count, VALUE_SIZE)) {
        td_err_set(err, "API-set values at 0x%x outside the schema", (unsigned)values);
        return NULL;
    }
    uint32_t pick = 0;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t name_len;
        td_buf_u32(b, (uint64_t)values + (uint64_t)i * VALUE_SIZE + 8, &name_len);
        if (name_len == 0) {
            pick = i;
            break;
        }
    }
    uint64_t v = (uint64_t)values + (uint64_t)pick * VALUE_SIZE;
    uint32_t off, len;
    td_buf_u32(b, v + 12, &off);
    td_buf_u32(b, v + 16, &len);
    if (len == 0)
        return "-";
    char *host = utf16_name(b, off, len, arena);
    if (!host)
        td_err_set(err, "API-set host name at 0x%x: outside the schema or not ASCII",
                   (unsigned)off);
    return host;
}

int td_apiset_parse(const uint8_t *data, size_t size, struct td_arena *arena,
                    struct td_apiset_map *out, struct td_err *err)
{
    struct td_buf b = td_buf_make(data, size, false);
    uint32_t h[7];
    memset(out, 0, sizeof *out);
    for (int i = 0; i < 7; i++) {
        if (!td_buf_u32(&b, (uint64_t)i * 4, &h[i])) {
            td_err_set(err, "API-set schema: %zu bytes, shorter than its header", size);
            return -1;
        }
    }
    out->version = h[0];
    if (h[0] != TD_APISET_VERSION) {
        td_err_set(err, "API-set schema version %u: only version 6 is read", (unsigned)h[0]);
        return -1;
    }
    uint32_t count = h[3], entries = h[4];
    if (!td_buf_has_array(&b, entries, count, ENTRY_SIZE)) {
        td_err_set(err, "API-set schema: %u entries at 0x%x outside its %zu bytes", (unsigned)count,
                   (unsigned)entries, size);
        return -1;
    }
    out->contracts = td_arena_array(arena, count ? count : 1, sizeof *out->contracts);
    if (!out->contracts) {
        td_err_set(err, "out of memory");
        return -1;
    }
    for (uint32_t i = 0; i < count; i++) {
        uint64_t e = (uint64_t)entries + (uint64_t)i * ENTRY_SIZE;
        uint32_t name_off, name_len, values, n_values;
        td_buf_u32(&b, e + 4, &name_off);
        td_buf_u32(&b, e + 8, &name_len);
        td_buf_u32(&b, e + 16, &values);
        td_buf_u32(&b, e + 20, &n_values);
        struct td_apiset_contract *c = &out->contracts[i];
        c->name = utf16_name(&b, name_off, name_len, arena);
        c->contract = c->name ? contract_key(c->name, arena) : NULL;
        if (!c->contract) {
            td_err_set(err,
                       "API-set entry %u: name at 0x%x outside the schema, not ASCII or "
                       "without a '-'",
                       (unsigned)i, (unsigned)name_off);
            return -1;
        }
        c->host = default_host(&b, values, n_values, arena, err);
        if (!c->host) {
            td_err_prefix(err, "API-set entry %s", c->name);
            return -1;
        }
        out->count = i + 1;
    }
    return 0;
}

int td_apiset_parse_pe(const uint8_t *data, size_t size, struct td_arena *arena,
                       struct td_apiset_map *out, struct td_err *err)
{
    /* PE/COFF: e_lfanew at 0x3c; "PE\0\0", then the file header (sections
     * at +6, optional-header size at +20), the optional header, the
     * section table (40 bytes each: name[8], raw size at +16, raw offset at +20). */
    struct td_buf b = td_buf_make(data, size, false);
    uint32_t pe, sig;
    uint16_t n_sections, opt_size;
    memset(out, 0, sizeof *out);
    if (!td_buf_u32(&b, 0x3c, &pe) || !td_buf_u32(&b, pe, &sig) || sig != 0x00004550 ||
        !td_buf_u16(&b, (uint64_t)pe + 6, &n_sections) ||
        !td_buf_u16(&b, (uint64_t)pe + 20, &opt_size)) {
        td_err_set(err, "not a PE file");
        return -1;
    }
    uint64_t table = (uint64_t)pe + 24 + opt_size;
    for (uint16_t i = 0; i < n_sections; i++) {
        const uint8_t *s = td_buf_at(&b, table + (uint64_t)i * 40, 40);
        if (!s)
            break;
        if (memcmp(s, ".apiset\0", 8) != 0)
            continue;
        uint32_t raw_size, raw_off;
        td_buf_u32(&b, table + (uint64_t)i * 40 + 16, &raw_size);
        td_buf_u32(&b, table + (uint64_t)i * 40 + 20, &raw_off);
        const uint8_t *bytes = td_buf_at(&b, raw_off, raw_size);
        if (!bytes) {
            td_err_set(err, ".apiset section at 0x%x outside the file", (unsigned)raw_off);
            return -1;
        }
        return td_apiset_parse(bytes, raw_size, arena, out, err);
    }
    td_err_set(err, "no .apiset section");
    return -1;
}

const struct td_apiset_contract *td_apiset_find(const struct td_apiset_map *map, const char *name)
{
    char key[256];
    size_t n = strlen(name);
    if (!map || n >= sizeof key)
        return NULL;
    for (size_t i = 0; i <= n; i++)
        key[i] = (char)tolower((unsigned char)name[i]);
    if (n > 4 && strcmp(key + n - 4, ".dll") == 0)
        key[n - 4] = '\0';
    char *dash = strrchr(key, '-');
    if (!dash)
        return NULL;
    *dash = '\0';
    for (size_t i = 0; i < map->count; i++)
        if (strcmp(map->contracts[i].contract, key) == 0)
            return &map->contracts[i];
    return NULL;
}
