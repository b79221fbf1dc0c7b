/* `inspect` for ELF objects: what readelf -d and --dyn-syms would show. */
#include "report/inspect.h"

#include <stdio.h>
#include <string.h>

static const char *elf_type_name(const struct td_elf *e)
{
    switch (e->type) {
    case 1:
        return "relocatable object";
    case TD_ET_EXEC:
        return "executable";
    case TD_ET_DYN: /* a PIE is ET_DYN too */
        return td_elf_is_program(e) ? "position-independent executable" : "shared library";
    case 4:
        return "core file";
    }
    return "unknown type";
}

void td_inspect_path_list(struct td_view *v, const char *key, const char *label, const char *paths)
{
    td_view_list_begin(v, key, label);
    for (const char *p = paths; p;) {
        const char *colon = strchr(p, ':');
        size_t n = colon ? (size_t)(colon - p) : strlen(p);
        char one[4096];
        snprintf(one, sizeof one, "%.*s", (int)n, p);
        td_view_item(v, one);
        p = colon ? colon + 1 : NULL;
    }
    td_view_list_end(v);
}

struct flag_name {
    uint64_t bit;
    const char *name;
};

static const struct flag_name dt_flags[] = {
    {0x1, "ORIGIN"}, {0x2, "SYMBOLIC"}, {0x4, "TEXTREL"}, {0x8, "BIND_NOW"}, {0x10, "STATIC_TLS"},
};

static const struct flag_name dt_flags_1[] = {
    {0x1, "NOW"},       {0x2, "GLOBAL"},      {0x4, "GROUP"},      {0x8, "NODELETE"},
    {0x10, "LOADFLTR"}, {0x20, "INITFIRST"},  {0x40, "NOOPEN"},    {0x80, "ORIGIN"},
    {0x100, "DIRECT"},  {0x400, "INTERPOSE"}, {0x800, "NODEFLIB"}, {0x1000, "NODUMP"},
    {0x8000000, "PIE"},
};

static void flag_items(struct td_view *v, uint64_t value, const struct flag_name *names, size_t n,
                       const char *prefix)
{
    char buf[64];
    for (size_t i = 0; i < n; i++) {
        if (value & names[i].bit) {
            snprintf(buf, sizeof buf, "%s%s", prefix, names[i].name);
            td_view_item(v, buf);
            value &= ~names[i].bit;
        }
    }
    if (value) {
        snprintf(buf, sizeof buf, "%s0x%llx", prefix, (unsigned long long)value);
        td_view_item(v, buf);
    }
}

static void describe_versions(struct td_view *v, const struct td_elf *e)
{
    td_view_list_begin(v, "versions_needed", "needs versions");
    for (uint32_t i = 0; i < e->verneed_count; i++) {
        const struct td_elf_verneed *vn = &e->verneed[i];
        td_view_row_begin(v);
        td_view_str(v, "file", "file", vn->file);
        td_view_list_begin(v, "versions", NULL);
        for (uint32_t j = 0; j < vn->version_count; j++)
            td_view_item(v, vn->versions[j].name);
        td_view_list_end(v);
        td_view_row_end(v);
    }
    td_view_list_end(v);

    td_view_list_begin_inline(v, "versions_defined", "defines");
    for (uint32_t i = 0; i < e->verdef_count; i++)
        if (!(e->verdef[i].flags & TD_VER_FLG_BASE))
            td_view_item(v, e->verdef[i].name);
    td_view_list_end(v);
}

/* A type or binding name with its length, NUL-padded to 8 bytes: JSON
 * rows copy the 8 bytes whole and move on by the length (a copy of a
 * varying length is a call to memcpy). */
struct sym_word {
    char text[8];
    uint8_t len;
};
#define WORD(text) text, sizeof text - 1 /* the fields of a struct sym_word */

static const struct sym_word *sym_type_word(uint8_t t)
{
    static const struct sym_word names[] = {{WORD("NOTYPE")},  {WORD("OBJECT")}, {WORD("FUNC")},
                                            {WORD("SECTION")}, {WORD("FILE")},   {WORD("COMMON")},
                                            {WORD("TLS")}};
    static const struct sym_word ifunc = {WORD("IFUNC")}, other = {WORD("OTHER")};
    if (t < sizeof names / sizeof names[0])
        return &names[t];
    return t == TD_STT_GNU_IFUNC ? &ifunc : &other;
}

static const struct sym_word *sym_bind_word(uint8_t b)
{
    static const struct sym_word local = {WORD("LOCAL")}, global = {WORD("GLOBAL")},
                                 weak = {WORD("WEAK")}, unique = {WORD("UNIQUE")},
                                 other = {WORD("OTHER")};
    switch (b) {
    case TD_STB_LOCAL:
        return &local;
    case TD_STB_GLOBAL:
        return &global;
    case TD_STB_WEAK:
        return &weak;
    case TD_STB_GNU_UNIQUE:
        return &unique;
    }
    return &other;
}
#undef WORD

#define LIT(w, text) td_jw_raw(w, text, sizeof text - 1)

/* One symbol row of the JSON view, written straight into the writer: the
 * same bytes td_view's calls would give (golden and schema tests compare),
 * at a third of the cost for libtorch_cpu's 35,000 rows. The fields after
 * the name are copied in pieces of fixed sizes, from one check of the
 * buffer's room. */
static void json_symbol_row(struct td_jsonw *w, const struct td_elf_sym *s)
{
    /* Padded to 32 bytes: copied whole, the length taken from the text. */
    static const char defined[32] = ", \"defined\": true, \"type\": \"";
    static const char undefined[32] = ", \"defined\": false, \"type\": \"";
    td_jw_item(w);
    LIT(w, "{ \"name\": ");
    td_jw_rawstr_room(w, s->name, s->name_room);
    /* Type and binding names are our own constants: no escaping to do. */
    const struct sym_word *type = sym_type_word(s->type), *bind = sym_bind_word(s->bind);
    char *p = td_jw_room(w, 64);
    memcpy(p, s->defined ? defined : undefined, 32);
    p += s->defined ? sizeof ", \"defined\": true, \"type\": \"" - 1
                    : sizeof ", \"defined\": false, \"type\": \"" - 1;
    memcpy(p, type->text, 8);
    p += type->len;
    memcpy(p, "\", \"bind\": \"", 12);
    p += 12;
    memcpy(p, bind->text, 8);
    p += bind->len;
    *p++ = '"';
    td_jw_wrote(w, p);
    if (s->version) {
        LIT(w, ", \"version\": ");
        td_jw_rawstr(w, s->version);
    }
    if (s->version_hidden)
        LIT(w, ", \"version_hidden\": true");
    if (s->version_file) {
        LIT(w, ", \"library\": ");
        td_jw_rawstr(w, s->version_file);
    }
    LIT(w, " }");
}

/* The text of a JSON symbol row from its name's closing quote to the end
 * of its bind (and the row's end, " }", which a versioned row leaves
 * out): one per kind of row (defined or not, type, bind), made when a
 * kind is first met (libtorch_cpu's 35,000 rows are of 8 kinds). */
struct row_tail {
    char text[64];
    uint8_t len; /* with the row's end; 0: not made yet */
};

enum { TYPE_WORDS = 9, BIND_WORDS = 5 };

static unsigned type_slot(uint8_t t)
{
    return t < 7 ? t : t == TD_STT_GNU_IFUNC ? 7 : 8;
}

static unsigned bind_slot(uint8_t b)
{
    return b == TD_STB_LOCAL        ? 0
           : b == TD_STB_GLOBAL     ? 1
           : b == TD_STB_WEAK       ? 2
           : b == TD_STB_GNU_UNIQUE ? 3
                                    : 4;
}

static const struct row_tail *row_tail(struct row_tail *tails, const struct td_elf_sym *s)
{
    struct row_tail *t =
        &tails[(s->defined * TYPE_WORDS + type_slot(s->type)) * BIND_WORDS + bind_slot(s->bind)];
    if (!t->len) {
        memset(t->text, 0, sizeof t->text); /* copied whole */
        const struct sym_word *type = sym_type_word(s->type), *bind = sym_bind_word(s->bind);
        int n = snprintf(t->text, sizeof t->text,
                         "\", \"defined\": %s, \"type\": \"%.*s\", \"bind\": \"%.*s\" }",
                         s->defined ? "true" : "false", (int)type->len, type->text, (int)bind->len,
                         bind->text);
        t->len = (uint8_t)n; /* at most 58 bytes: "false", "SECTION", "UNIQUE" */
    }
    return t;
}

/* The JSON rows of the symbols WALK has left (json_symbol_row's bytes, at
 * half its instructions: 413 a row with the walk became 200 on
 * libtorch_cpu, callgrind): the separator, indentation and the row's
 * start copied as one fixed piece, the name by td_jw_strbody_at, the rest
 * of an unversioned row as its kind's tail; versioned rows (1.5% there)
 * as before. Called after the list's first row; counts as
 * describe_symbols does, S the walk's last symbol. */
static void json_symbol_rows(struct td_jsonw *w, struct td_elf_dynsym_walk *walk,
                             struct td_elf_sym *s, uint32_t *defined, uint32_t *undefined)
{
    enum { LEAD = 96 };
    char lead[LEAD] = {0};
    size_t lead_len = td_jw_item_lead(w, lead);
    static const char start[] = "{ \"name\": \"";
    struct row_tail tails[2 * TYPE_WORDS * BIND_WORDS];
    for (size_t k = 0; k < sizeof tails / sizeof *tails; k++)
        tails[k].len = 0;
    if (lead_len)
        memcpy(lead + lead_len, start, sizeof start - 1);
    lead_len += sizeof start - 1;
    while (td_elf_dynsym_walk_next(walk, s)) {
        *(s->defined ? defined : undefined) += 1;
        if (lead_len == sizeof start - 1 || s->version || s->version_hidden || s->version_file) {
            json_symbol_row(w, s);
            continue;
        }
        char *out = td_jw_room(w, LEAD);
        memcpy(out, lead, LEAD);
        out = td_jw_strbody_at(w, out + lead_len, s->name, s->name_room);
        td_jw_wrote(w, out);
        const struct row_tail *t = row_tail(tails, s);
        out = td_jw_room(w, sizeof t->text);
        memcpy(out, t->text, sizeof t->text);
        td_jw_wrote(w, out + t->len);
    }
}

static int describe_symbols(struct td_view *v, const struct td_elf *e, uint32_t *defined,
                            uint32_t *undefined, struct td_err *err)
{
    td_view_list_begin(v, "symbol_list", "symbol table");
    int rc = 0;
    *defined = *undefined = 0;
    struct td_elf_dynsym_walk walk;
    struct td_elf_sym s;
    td_elf_dynsym_walk_begin(&walk, e);
    while (td_elf_dynsym_walk_next(&walk, &s)) {
        *(s.defined ? defined : undefined) += 1;
        if (v->kind == TD_VIEW_JSON) {
            json_symbol_row(&v->json, &s);
            json_symbol_rows(&v->json, &walk, &s, defined, undefined);
            break;
        }
        td_view_row_begin(v);
        td_view_str(v, "name", "name", s.name);
        td_view_bool(v, "defined", NULL, s.defined);
        td_view_str(v, "type", NULL, sym_type_word(s.type)->text);
        td_view_str(v, "bind", NULL, sym_bind_word(s.bind)->text);
        if (s.version) /* nm -D's marks: @@ a default definition, @ a reference or hidden one */
            td_view_str(v, "version", s.version_hidden || !s.defined ? "@" : "@@", s.version);
        if (s.version_hidden)
            td_view_bool(v, "version_hidden", NULL, true);
        if (s.version_file)
            td_view_str(v, "library", "from", s.version_file);
        td_view_text_flag(v, "undefined", !s.defined);
        td_view_row_end(v);
    }
    if (walk.next < td_elf_dynsym_count(e)) {
        td_err_set(err, "dynamic symbol %u: unreadable entry or name", walk.next);
        rc = -1;
    }
    td_view_list_end(v);
    return rc;
}

/* Symbols from which the fat binary search gets a thread of its own. */
enum { SYMBOLS_TO_THREAD = 4096 };

int td_inspect_elf(struct td_view *v, const struct td_elf *e, const struct td_inspect_opts *o,
                   struct td_arena *arena, struct td_err *err)
{
    const char *cls = e->is64 ? "ELF64" : "ELF32";
    const char *endian = e->big_endian ? "big" : "little";
    const char *arch = td_elf_arch(e);
    const char *machine = td_elf_machine_name(e->machine);
    const char *type = elf_type_name(e);
    int rc = 0;

    td_view_json_str(v, "format", "elf");
    td_view_json_str(v, "class", cls);
    td_view_json_str(v, "endian", endian);
    td_view_json_str(v, "arch", arch);
    td_view_json_str(v, "machine", machine);
    td_view_json_str(v, "type", type);
    td_view_note(v, "%s %s-endian %s, %s (%s)", cls, endian, type, arch, machine);
    td_view_str(v, "name", "soname", e->soname);

    td_view_list_begin(v, "dependencies", "needed");
    for (uint32_t i = 0; i < e->needed_count; i++) {
        td_view_row_begin(v);
        td_view_str(v, "name", "name", e->needed[i]);
        td_view_json_str(v, "kind", "needed");
        td_view_row_end(v);
    }
    td_view_list_end(v);

    if (e->rpath)
        td_inspect_path_list(v, "rpath", "rpath", e->rpath);
    else
        td_inspect_path_list(v, "rpath", "rpath", NULL);
    td_inspect_path_list(v, "runpath", "runpath", e->runpath);
    td_view_str(v, "interpreter", "interpreter", e->interp);
    td_view_str(v, "build_id", "build-id", e->build_id);

    td_view_list_begin_inline(v, "flags", "flags");
    if (e->dyn.has_flags)
        flag_items(v, e->dyn.flags, dt_flags, sizeof dt_flags / sizeof dt_flags[0], "");
    if (e->dyn.has_flags_1)
        flag_items(v, e->dyn.flags_1, dt_flags_1, sizeof dt_flags_1 / sizeof dt_flags_1[0], "");
    td_view_list_end(v);

    uint32_t defined = 0, undefined = 0;
    struct td_err walk = {0};
    bool counted = false;
    /* JSON keys may come in any order: with --symbols, the listing pass also
     * counts, saving a second walk over 35k names on libtorch_cpu. */
    bool listed = o->symbols && v->kind == TD_VIEW_JSON;
    /* The fat binary search runs beside a symbol pass long enough to hide
     * a thread's start (libtorch_cpu: 35,000 symbols, 9.7 MB searched). */
    bool symbol_pass = listed || e->symcount_source != TD_ELF_SYMCOUNT_NOT_PARSED;
    struct td_fatbin_job *fatbin = td_inspect_elf_fatbin_start(
        e, o, arena, symbol_pass && td_elf_dynsym_count(e) >= SYMBOLS_TO_THREAD);
    if (listed)
        counted = describe_symbols(v, e, &defined, &undefined, &walk) == 0;
    else if (e->symcount_source != TD_ELF_SYMCOUNT_NOT_PARSED)
        counted = td_elf_dynsym_tally(e, &defined, &undefined, &walk) == 0;
    td_view_begin(v, "symbols", NULL);
    if (v->kind == TD_VIEW_JSON) {
        td_view_json_str(v, "source",
                         e->symcount_source == TD_ELF_SYMCOUNT_SECTION    ? "SHT_DYNSYM section"
                         : e->symcount_source == TD_ELF_SYMCOUNT_HASH     ? "DT_HASH"
                         : e->symcount_source == TD_ELF_SYMCOUNT_GNU_HASH ? "DT_GNU_HASH"
                         : e->symcount_source == TD_ELF_SYMCOUNT_NONE     ? "none"
                                                                          : "not parsed");
        if (counted) {
            td_view_uint(v, "defined", NULL, defined);
            td_view_uint(v, "undefined", NULL, undefined);
        } else {
            td_view_json_str(v, "defined", NULL);
            td_view_json_str(v, "undefined", NULL);
        }
    }
    td_view_end(v);
    if (counted)
        td_view_note(v, "%-16s %u defined, %u undefined", "symbols", defined, undefined);
    else
        td_view_note(v, "%-16s not parsed: %s", "symbols",
                     walk.set ? walk.msg : "DT_SYMTAB without a hash table");

    td_view_begin(v, "elf", NULL);
    td_view_uint(v, "e_machine", NULL, e->machine);
    td_view_uint(v, "osabi", NULL, e->osabi);
    td_view_hex(v, "e_flags", NULL, e->flags);
    td_view_hex(v, "entry", NULL, e->entry);
    td_view_bool(v, "nodeflib", NULL, (e->dyn.flags_1 & TD_DF_1_NODEFLIB) != 0);
    describe_versions(v, e);
    td_view_end(v);
    struct td_err fat = {0};
    td_inspect_fatbin_finish(v, fatbin, &fat);

    if (o->symbols && !listed) {
        uint32_t d2, u2;
        rc = describe_symbols(v, e, &d2, &u2, err);
    }
    const struct td_err *first = walk.set ? &walk : &fat;
    if (first->set && rc == 0) {
        td_err_set(err, "%s", first->msg);
        rc = -1;
    }
    return rc;
}
