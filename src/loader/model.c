/* Model checkpoints on disk: see model.h. */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "base/compat.h"
#include "base/json.h"
#include "base/map.h"
#include "format/gguf.h"
#include "format/safetensors.h"
#include "loader/model.h"

enum { MAX_SHARDS = 256 };

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* DIR/NAME into OUT; false when it does not fit. */
static bool join(char *out, size_t cap, const char *dir, const char *name)
{
    size_t a = strlen(dir), b = strlen(name);
    if (a + 1 + b >= cap)
        return false;
    memcpy(out, dir, a);
    out[a] = '/';
    memcpy(out + a + 1, name, b + 1);
    return true;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s && s[1] ? s + 1 : path;
}

static void add_dtype(struct td_model_component *c, const char *name, unsigned bits,
                      uint64_t params, uint64_t bytes)
{
    unsigned i = 0;
    while (i < c->ndtypes && strcmp(c->dtypes[i].name, name) != 0)
        i++;
    if (i == TD_MODEL_MAX_DTYPES)
        i--; /* more dtypes than rows: the last row gathers the rest */
    else if (i == c->ndtypes) {
        snprintf(c->dtypes[i].name, sizeof c->dtypes[i].name, "%s", name);
        c->dtypes[i].bits = bits;
        c->ndtypes++;
    }
    c->dtypes[i].params += params;
    c->dtypes[i].bytes += bytes;
}

static int read_weights(const char *path, struct td_model_component *c, struct td_arena *arena,
                        struct td_err *err)
{
    struct td_map map;
    if (td_map_open(path, &map, err) != 0)
        return -1;
    int rc = -1;
    if (ends_with(path, ".gguf")) {
        struct td_buf b = td_buf_make(map.data, map.size, false);
        struct td_gguf g;
        if (td_gguf_parse(&g, &b, arena, err) == 0) {
            snprintf(c->format, sizeof c->format, "gguf");
            if (!c->class[0] && g.architecture)
                snprintf(c->class, sizeof c->class, "%s", g.architecture);
            for (uint64_t i = 0; i < g.tensor_count; i++) {
                const struct td_gguf_tensor *t = &g.tensors[i];
                const char *name = td_gguf_type_name(t->ggml_type);
                char other[16];
                snprintf(other, sizeof other, "type %u", t->ggml_type);
                add_dtype(c, name ? name : other, 0, t->elements, t->bytes);
            }
            c->tensors += (unsigned)g.tensor_count;
            c->params += g.elements;
            rc = 0;
        }
    } else {
        struct td_safetensors s;
        if (td_safetensors_parse(&s, map.data, map.size, map.size, arena, err) == 0) {
            snprintf(c->format, sizeof c->format, "safetensors");
            for (size_t i = 0; i < s.count; i++) {
                const struct td_st_tensor *t = &s.tensors[i];
                add_dtype(c, t->dtype, t->bits, t->elements, t->end - t->begin);
            }
            c->tensors += (unsigned)s.count;
            c->params += s.elements;
            rc = 0;
        }
    }
    if (rc == 0 && td_map_shrank(&map)) {
        td_err_set(err, "changed while it was read (it shrank)");
        rc = -1;
    }
    if (rc == 0) {
        c->files++;
        c->bytes_on_disk += map.size;
    } else {
        td_err_prefix(err, "%s: ", path);
    }
    td_map_close(&map);
    return rc;
}

/* A small JSON file (an index, a config) whole, NUL-terminated, in ARENA. */
static const char *slurp(const char *path, size_t *len, struct td_arena *arena, struct td_err *err)
{
    struct td_map map;
    if (td_map_open(path, &map, err) != 0)
        return NULL;
    char *text = td_arena_strndup(arena, (const char *)map.data, map.size);
    *len = map.size;
    td_map_close(&map);
    if (!text)
        td_err_set(err, "%s: %zu bytes: too large to read", path, *len);
    return text;
}

static int json_error(struct td_json *j, const char *path, const char *what, struct td_err *err)
{
    if (j->error)
        td_err_set(err, "%s: invalid JSON at byte %zu: %s", path, j->error_at, j->error);
    else
        td_err_set(err, "%s: %s at byte %zu", path, what, (size_t)(j->p - j->start));
    return -1;
}

/* A sharded checkpoint: the index's weight_map names each shard. */
static int read_index(const char *index, struct td_model_component *c, struct td_arena *arena,
                      struct td_err *err)
{
    size_t len;
    const char *text = slurp(index, &len, arena, err);
    if (!text)
        return -1;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", index);
    char *slash = strrchr(dir, '/');
    if (slash)
        slash[0] = '\0';
    else
        dir[0] = '\0';
    const char *shards[MAX_SHARDS];
    size_t n = 0;
    struct td_json j;
    bool first = true, found = false;
    td_json_init(&j, text, len);
    if (!td_json_enter(&j, TD_JSON_OBJECT))
        return json_error(&j, index, "not a JSON object", err);
    while (td_json_next(&j, &first)) {
        struct td_json_str key, file;
        if (!td_json_key(&j, &key))
            return json_error(&j, index, "bad key", err);
        if (!td_json_is(&key, "weight_map")) {
            if (!td_json_skip(&j))
                return json_error(&j, index, "bad value", err);
            continue;
        }
        bool wfirst = true;
        found = true;
        if (!td_json_enter(&j, TD_JSON_OBJECT))
            return json_error(&j, index, "weight_map is not an object", err);
        while (td_json_next(&j, &wfirst)) {
            if (!td_json_key(&j, &key) || !td_json_string(&j, &file))
                return json_error(&j, index, "weight_map value is not a file name", err);
            const char *name = td_json_strdup(arena, &file);
            if (!name || !*name || strchr(name, '/') || strchr(name, '\\') ||
                strcmp(name, "..") == 0)
                return json_error(&j, index, "weight_map names a file outside its folder", err);
            size_t k = 0;
            while (k < n && strcmp(shards[k], name) != 0)
                k++;
            if (k == n) {
                if (n == MAX_SHARDS)
                    return json_error(&j, index, "more than 256 shards", err);
                shards[n++] = name;
            }
        }
        if (j.error)
            return json_error(&j, index, "", err);
    }
    if (j.error)
        return json_error(&j, index, "", err);
    if (!found) {
        td_err_set(err, "%s: no weight_map", index);
        return -1;
    }
    for (size_t k = 0; k < n; k++) {
        char path[4400];
        if (!join(path, sizeof path, *dir ? dir : ".", shards[k])) {
            td_err_set(err, "%s: shard path too long", index);
            return -1;
        }
        if (read_weights(path, c, arena, err) != 0)
            return -1;
    }
    return 0;
}

/* config.json's "_class_name" (diffusers) or "architectures"[0]
 * (transformers); nothing when absent or unreadable (it only names). */
static void read_class(const char *dir, struct td_model_component *c, struct td_arena *arena)
{
    char path[4200];
    struct td_err err = {0};
    size_t len;
    snprintf(path, sizeof path, "%s/config.json", dir);
    const char *text = is_file(path) ? slurp(path, &len, arena, &err) : NULL;
    if (!text)
        return;
    struct td_json j;
    bool first = true;
    td_json_init(&j, text, len);
    if (!td_json_enter(&j, TD_JSON_OBJECT))
        return;
    while (td_json_next(&j, &first)) {
        struct td_json_str key, s;
        if (!td_json_key(&j, &key))
            return;
        if (td_json_is(&key, "_class_name") && td_json_string(&j, &s)) {
            const char *v = td_json_strdup(arena, &s);
            snprintf(c->class, sizeof c->class, "%s", v ? v : "");
        } else if (td_json_is(&key, "architectures") && td_json_peek(&j) == TD_JSON_ARRAY) {
            bool afirst = true;
            td_json_enter(&j, TD_JSON_ARRAY);
            while (td_json_next(&j, &afirst))
                if (td_json_string(&j, &s) && !c->class[0]) {
                    const char *v = td_json_strdup(arena, &s);
                    snprintf(c->class, sizeof c->class, "%s", v ? v : "");
                }
        } else if (!td_json_skip(&j)) {
            return;
        }
    }
}

/* The variant files of diffusers ("diffusion_pytorch_model.fp16.safetensors")
 * repeat the main weights: read only when there is no main file. */
static bool is_variant(const char *name)
{
    return strstr(name, ".fp16.") || strstr(name, ".bf16.") || strstr(name, ".fp32.") ||
           strstr(name, ".non_ema.") || strstr(name, ".ema_only.");
}

/* A folder's weights: its index, else its .safetensors (variants only when
 * nothing else), else its .gguf files. 0 with no files when it has none. */
static int read_folder(const char *dir, struct td_model_component *c, struct td_arena *arena,
                       struct td_err *err)
{
    static const char *const kinds[] = {".safetensors.index.json", ".safetensors", ".gguf"};
    read_class(dir, c, arena);
    for (size_t k = 0; k < 3 && c->files == 0; k++)
        for (int variants = 0; variants < 2 && c->files == 0; variants++) {
            DIR *d = opendir(dir);
            const struct dirent *e;
            char names[64][256];
            size_t n = 0;
            while (d && (e = readdir(d)) != NULL && n < 64)
                if (ends_with(e->d_name, kinds[k]) && is_variant(e->d_name) == (variants == 1))
                    snprintf(names[n++], sizeof names[0], "%s", e->d_name);
            if (d)
                closedir(d);
            for (size_t i = 1; i < n; i++) /* a stable order: sorted by name */
                for (size_t m = i; m > 0 && strcmp(names[m - 1], names[m]) > 0; m--) {
                    char t[256];
                    memcpy(t, names[m], sizeof t);
                    memcpy(names[m], names[m - 1], sizeof t);
                    memcpy(names[m - 1], t, sizeof t);
                }
            for (size_t i = 0; i < n; i++) {
                char path[4400];
                if (!join(path, sizeof path, dir, names[i])) {
                    td_err_set(err, "%s/%s: path too long", dir, names[i]);
                    return -1;
                }
                if ((k == 0 ? read_index(path, c, arena, err)
                            : read_weights(path, c, arena, err)) != 0)
                    return -1;
                if (k == 0)
                    break; /* one index per folder */
            }
        }
    return 0;
}

/* model_index.json: each key whose value is an array ([library, class])
 * names a component folder. */
static int read_diffusers(const char *dir, struct td_model *m, struct td_arena *arena,
                          struct td_err *err)
{
    char path[4200];
    size_t len;
    snprintf(path, sizeof path, "%s/model_index.json", dir);
    const char *text = slurp(path, &len, arena, err);
    if (!text)
        return -1;
    struct td_json j;
    bool first = true;
    td_json_init(&j, text, len);
    if (!td_json_enter(&j, TD_JSON_OBJECT))
        return json_error(&j, path, "not a JSON object", err);
    while (td_json_next(&j, &first)) {
        struct td_json_str key;
        if (!td_json_key(&j, &key))
            return json_error(&j, path, "bad key", err);
        bool component = td_json_peek(&j) == TD_JSON_ARRAY && key.s[0] != '_';
        if (!td_json_skip(&j))
            return json_error(&j, path, "bad value", err);
        const char *name = component ? td_json_strdup(arena, &key) : NULL;
        char sub[4400];
        if (!name || strchr(name, '/') || strchr(name, '\\') || strcmp(name, "..") == 0 ||
            !join(sub, sizeof sub, dir, name))
            continue;
        if (!is_dir(sub) || m->ncomps == TD_MODEL_MAX_COMPONENTS)
            continue;
        struct td_model_component *c = &m->comps[m->ncomps];
        memset(c, 0, sizeof *c);
        snprintf(c->name, sizeof c->name, "%s", name);
        if (read_folder(sub, c, arena, err) != 0)
            return -1;
        m->ncomps += c->files > 0; /* a scheduler or tokenizer holds no weights */
    }
    return j.error ? json_error(&j, path, "", err) : 0;
}

bool td_model_is_model(const char *path)
{
    char sub[4200];
    if (ends_with(path, ".safetensors") || ends_with(path, ".gguf") ||
        ends_with(path, ".safetensors.index.json"))
        return true;
    if (!is_dir(path))
        return false;
    snprintf(sub, sizeof sub, "%s/model_index.json", path);
    if (is_file(sub))
        return true;
    snprintf(sub, sizeof sub, "%s/config.json", path);
    return is_file(sub);
}

int td_model_read(const char *path, struct td_model *m, struct td_arena *arena, struct td_err *err)
{
    char sub[4200];
    memset(m, 0, sizeof *m);
    m->path = path;
    int rc;
    snprintf(sub, sizeof sub, "%s/model_index.json", path);
    if (is_dir(path) && is_file(sub)) {
        m->kind = "diffusers";
        rc = read_diffusers(path, m, arena, err);
    } else {
        struct td_model_component *c = &m->comps[0];
        snprintf(c->name, sizeof c->name, "%s", base_name(path));
        if (is_dir(path)) {
            m->kind = "folder";
            rc = read_folder(path, c, arena, err);
        } else if (ends_with(path, ".index.json")) {
            m->kind = "safetensors-sharded";
            rc = read_index(path, c, arena, err);
        } else {
            m->kind = ends_with(path, ".gguf") ? "gguf" : "safetensors";
            rc = read_weights(path, c, arena, err);
        }
        m->ncomps = c->files > 0;
    }
    if (rc == 0 && m->ncomps == 0) {
        td_err_set(err, "%s: no weights found (.safetensors, a *.safetensors.index.json or .gguf)",
                   path);
        rc = -1;
    }
    for (unsigned i = 0; rc == 0 && i < m->ncomps; i++) {
        m->params += m->comps[i].params;
        m->bytes_on_disk += m->comps[i].bytes_on_disk;
    }
    return rc;
}
