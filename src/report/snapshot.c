/* snapshot's JSON: check's envelope and sections, then the snapshot
 * section, in the stable order diff and a plain text diff rely on (no
 * timing, no free-memory figures; taken_at is the one timestamp). */
#include "report/snapshot.h"

#include <stdlib.h>
#include <string.h>

#include "base/compat.h"
#include "report/check.h"
#include "report/envelope.h"
#include "report/jsonw.h"

static void json_package(struct td_jsonw *w, const struct td_snap_package *p)
{
    td_jw_begin_object_inline(w);
    td_jw_kstr(w, "name", p->name);
    td_jw_kstr(w, "version", p->version);
    td_jw_kstr(w, "local", p->local);
    td_jw_kstr(w, "installer", p->installer);
    td_jw_kstr(w, "index_url", p->index_url);
    td_jw_kstr(w, "index_url_from", p->index_from);
    td_jw_kstr(w, "location", p->location);
    td_jw_end_object(w);
}

static void json_envs(struct td_jsonw *w, const struct td_snapshot *s)
{
    td_jw_key(w, "environments");
    td_jw_begin_array(w);
    for (size_t i = 0; i < s->n_envs; i++) {
        const struct td_snap_env *e = &s->envs[i];
        td_jw_begin_object(w);
        td_jw_kstr(w, "python", e->python);
        td_jw_kstr(w, "version", e->version);
        td_jw_kstr(w, "kind", e->kind);
        td_jw_key(w, "packages");
        td_jw_begin_array(w);
        for (size_t k = 0; k < e->n_packages; k++)
            json_package(w, &e->packages[k]);
        td_jw_end_array(w);
        td_jw_end_object(w);
    }
    td_jw_end_array(w);
}

static void json_native(struct td_jsonw *w, const struct td_snapshot *s)
{
    td_jw_key(w, "native");
    td_jw_begin_array(w);
    for (size_t i = 0; i < s->n_native; i++) {
        const struct td_snap_native *x = &s->native[i];
        td_jw_begin_object_inline(w);
        td_jw_kstr(w, "torch", x->torch);
        td_jw_kstr(w, "name", x->name);
        td_jw_kstr(w, "path", x->path);
        td_jw_kuint(w, "size", x->size);
        td_jw_kstr(w, "sha256", x->sha256);
        td_jw_kstr(w, "loaded_from", x->found_via);
        td_jw_end_object(w);
    }
    td_jw_end_array(w);
}

static void json_search_paths(struct td_jsonw *w, const struct td_snapshot *s)
{
    td_jw_key(w, "search_paths");
    td_jw_begin_object(w);
    for (size_t i = 0; i < s->n_paths; i++) {
        td_jw_key(w, s->paths[i].name);
        td_jw_begin_array(w);
        for (size_t k = 0; k < s->paths[i].n; k++)
            td_jw_string(w, s->paths[i].dirs[k]);
        td_jw_end_array(w);
    }
    td_jw_end_object(w);
}

void td_snapshot_json(const struct td_check_report *r, const struct td_snapshot *s, bool pretty,
                      FILE *out)
{
    static struct td_jsonw w;
    td_jw_init(&w, out, pretty);
    td_envelope_begin(&w, "snapshot", r->os);
    td_check_json_sections(&w, r, true);
    td_jw_key(&w, "snapshot");
    td_jw_begin_object(&w);
    td_jw_kstr(&w, "taken_at", s->taken_at);
    json_envs(&w, s);
    json_native(&w, s);
    json_search_paths(&w, s);
    td_jw_end_object(&w);
    td_envelope_findings(&w, &r->findings);
    td_envelope_end(&w);
}

static bool word_char(char c)
{
    return c == '_' || c == '-' || (c >= '0' && c <= '9') || ((c | 32) >= 'a' && (c | 32) <= 'z');
}

/* Every FROM in BUF becomes TO; with WORD, only where FROM is not part of a
 * longer name; with PATH_END, only where a path component ends after it. */
static char *replace(char *buf, size_t *len, const char *from, const char *to, bool word,
                     bool path_end)
{
    size_t nf = strlen(from), nt = strlen(to);
    size_t cap = *len + 1 + (nt > nf ? (*len / nf + 1) * (nt - nf) : 0);
    char *out = malloc(cap), *o = out;
    if (!out)
        return buf;
    for (size_t i = 0; i < *len;) {
        bool hit = i + nf <= *len && memcmp(buf + i, from, nf) == 0;
        char after = i + nf < *len ? buf[i + nf] : ' ';
        if (hit && word)
            hit = !(i && word_char(buf[i - 1])) && !word_char(after);
        if (hit && path_end)
            hit = after == '/' || after == '\\' || after == '"' || after == ' ';
        if (hit) {
            memcpy(o, to, nt), o += nt, i += nf;
        } else {
            *o++ = buf[i++];
        }
    }
    *o = '\0';
    *len = (size_t)(o - out);
    free(buf);
    return out;
}

char *td_text_unpersonal(char *buf, size_t *len, const char *home, const char *user,
                         const char *host)
{
    if (home && strlen(home) > 1)
        buf = replace(buf, len, home, "~", false, true);
    if (user && *user && strcmp(user, "root") != 0) {
        char from[160];
        snprintf(from, sizeof from, "/%s", user);
        buf = replace(buf, len, from, "/<user>", true, false);
        snprintf(from, sizeof from, "\\\\%s", user); /* a JSON-escaped backslash */
        buf = replace(buf, len, from, "\\\\<user>", true, false);
    }
    if (host && strlen(host) > 2)
        buf = replace(buf, len, host, "<host>", true, false);
    return buf;
}

char *td_snapshot_text(const struct td_check_report *r, const struct td_snapshot *s, bool pretty,
                       const char *home, const char *user, const char *host, size_t *len)
{
    struct td_memstream ms;
    FILE *mem = td_memstream_open(&ms);
    if (!mem)
        return NULL;
    td_snapshot_json(r, s, pretty, mem);
    char *buf = td_memstream_close(&ms, len);
    return buf ? td_text_unpersonal(buf, len, home, user, host) : NULL;
}
