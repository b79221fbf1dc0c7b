/* POSIX extended regular expressions without a C library's <regex.h>
 * (base/ere.h): parsed into a tree, compiled to a small program of byte,
 * set, split and save instructions, run by a backtracking search that
 * marks every (instruction, position) it visits, as RE2's "bit-state"
 * matcher does, so no pattern can take exponential time. */
#include "base/ere.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_NODES = 4096, MAX_INST = 16384, MAX_SETS = 1024, MAX_REPEAT = 255, MAX_DEPTH = 200 };
/* Visited bits allowed for one search (instructions x text positions). */
#define MAX_VISITED_BITS ((uint64_t)1 << 28)

struct set {
    uint8_t bits[32];
};

enum node_kind { N_EMPTY, N_BYTE, N_SET, N_BOL, N_EOL, N_GROUP, N_CAT, N_ALT, N_REPEAT };

struct node {
    enum node_kind kind;
    int a, b;     /* CAT, ALT: children; GROUP: child, group number; REPEAT: child */
    int min, max; /* REPEAT; max -1 = unbounded */
    int value;    /* BYTE: the byte; SET: its index */
};

enum op { OP_BYTE, OP_SET, OP_BOL, OP_EOL, OP_SAVE, OP_SPLIT, OP_JMP, OP_LOOP, OP_MATCH };

struct inst {
    enum op op;
    int x, y; /* BYTE: byte; SET: set; SAVE: slot; SPLIT: preferred, other; JMP: target;
                 LOOP: the loop's SPLIT, its exit, its registers */
    int r;
};

struct td_ere {
    int flags;
    size_t nsub;
    struct inst *prog;
    size_t n_inst;
    struct set *sets;
    size_t n_sets;
    size_t n_loops; /* each unbounded loop has two registers after the group slots */
};

struct parser {
    const char *p;
    int flags, depth;
    bool bad;
    struct node *nodes;
    size_t n_nodes;
    struct td_ere *re;
};

static int node(struct parser *ps, enum node_kind kind, int a, int b)
{
    if (ps->n_nodes >= MAX_NODES) {
        ps->bad = true;
        return 0;
    }
    ps->nodes[ps->n_nodes] = (struct node){.kind = kind, .a = a, .b = b};
    return (int)ps->n_nodes++;
}

static struct set *new_set(struct parser *ps, int *index)
{
    if (ps->re->n_sets >= MAX_SETS) {
        ps->bad = true;
        return NULL;
    }
    *index = (int)ps->re->n_sets;
    struct set *s = &ps->re->sets[ps->re->n_sets++];
    memset(s, 0, sizeof *s);
    return s;
}

static void set_add(struct set *s, unsigned char c, int flags)
{
    s->bits[c >> 3] |= (uint8_t)(1u << (c & 7));
    if ((flags & TD_ERE_ICASE) && isalpha(c)) {
        unsigned char o = (unsigned char)(islower(c) ? toupper(c) : tolower(c));
        s->bits[o >> 3] |= (uint8_t)(1u << (o & 7));
    }
}

static bool set_has(const struct set *s, unsigned char c)
{
    return s->bits[c >> 3] & (1u << (c & 7));
}

static int parse_alt(struct parser *ps);

/* "[:alpha:]" at P inside a bracket: adds the class and returns its length. */
static size_t bracket_class(struct parser *ps, const char *p, struct set *s)
{
    static const struct {
        const char *name;
        int (*is)(int);
    } classes[] = {{"alpha", isalpha}, {"digit", isdigit}, {"alnum", isalnum},
                   {"upper", isupper}, {"lower", islower}, {"space", isspace},
                   {"blank", isblank}, {"punct", ispunct}, {"print", isprint},
                   {"graph", isgraph}, {"cntrl", iscntrl}, {"xdigit", isxdigit}};
    const char *end = strstr(p + 2, ":]");
    for (size_t k = 0; end && k < sizeof classes / sizeof classes[0]; k++) {
        if ((size_t)(end - p - 2) == strlen(classes[k].name) &&
            strncmp(p + 2, classes[k].name, strlen(classes[k].name)) == 0) {
            for (int c = 1; c < 256; c++)
                if (classes[k].is(c))
                    set_add(s, (unsigned char)c, ps->flags);
            return (size_t)(end - p) + 2;
        }
    }
    ps->bad = true; /* an unknown class, or [. .] / [= =], which are not supported */
    return 1;
}

/* A bracket expression; ps->p is just past '['. A backslash is literal in
 * one, and ']' first (after any '^') is a member. */
static int parse_bracket(struct parser *ps)
{
    int index = 0;
    struct set *s = new_set(ps, &index);
    if (!s)
        return 0;
    bool negate = *ps->p == '^';
    ps->p += negate;
    for (bool first = true; !ps->bad; first = false) {
        const char *p = ps->p;
        if (!*p) {
            ps->bad = true;
            break;
        }
        if (*p == ']' && !first) {
            ps->p++;
            break;
        }
        if (p[0] == '[' && (p[1] == ':' || p[1] == '.' || p[1] == '=')) {
            ps->p += bracket_class(ps, p, s);
            continue;
        }
        unsigned char lo = (unsigned char)p[0], hi = lo;
        ps->p++;
        if (p[1] == '-' && p[2] && p[2] != ']') {
            hi = (unsigned char)p[2];
            ps->p += 2;
            if (hi < lo)
                ps->bad = true;
        }
        for (unsigned c = lo; c <= hi; c++)
            set_add(s, (unsigned char)c, ps->flags);
    }
    if (negate) {
        for (size_t k = 0; k < sizeof s->bits; k++)
            s->bits[k] = (uint8_t)~s->bits[k];
        if (ps->flags & TD_ERE_NEWLINE)
            s->bits['\n' >> 3] &= (uint8_t) ~(1u << ('\n' & 7));
    }
    s->bits[0] &= (uint8_t)~1u; /* the text ends at NUL */
    int n = node(ps, N_SET, 0, 0);
    ps->nodes[n].value = index;
    return n;
}

static int parse_atom(struct parser *ps)
{
    unsigned char c = (unsigned char)*ps->p++;
    int n;
    switch (c) {
    case '(': {
        if (++ps->depth > MAX_DEPTH) {
            ps->bad = true;
            return 0;
        }
        int group = (int)++ps->re->nsub;
        int inner = parse_alt(ps);
        ps->depth--;
        if (*ps->p != ')') {
            ps->bad = true;
            return 0;
        }
        ps->p++;
        return node(ps, N_GROUP, inner, group);
    }
    case '.': {
        int index = 0;
        struct set *s = new_set(ps, &index);
        if (!s)
            return 0;
        for (int k = 1; k < 256; k++)
            if (k != '\n' || !(ps->flags & TD_ERE_NEWLINE))
                set_add(s, (unsigned char)k, 0);
        n = node(ps, N_SET, 0, 0);
        ps->nodes[n].value = index;
        return n;
    }
    case '[':
        return parse_bracket(ps);
    case '^':
        return node(ps, N_BOL, 0, 0);
    case '$':
        return node(ps, N_EOL, 0, 0);
    case '\\':
        c = (unsigned char)*ps->p;
        if (!c) { /* a trailing '\\': stay on the NUL, which every caller stops at */
            ps->bad = true;
            return 0;
        }
        ps->p++;
        break;
    case '*':
    case '+':
    case '?':
    case '{':
    case ')':
        ps->bad = true; /* nothing to repeat; an unmatched ')' */
        return 0;
    default:
        break;
    }
    if ((ps->flags & TD_ERE_ICASE) && isalpha(c)) {
        int index = 0;
        struct set *s = new_set(ps, &index);
        if (!s)
            return 0;
        set_add(s, c, ps->flags);
        n = node(ps, N_SET, 0, 0);
        ps->nodes[n].value = index;
        return n;
    }
    n = node(ps, N_BYTE, 0, 0);
    ps->nodes[n].value = c;
    return n;
}

/* "{n}", "{n,}", "{n,m}" at ps->p (past '{'). */
static bool parse_bound(struct parser *ps, int *min, int *max)
{
    char *end;
    if (!isdigit((unsigned char)*ps->p))
        return false;
    long lo = strtol(ps->p, &end, 10), hi = lo;
    if (*end == ',') {
        end++;
        hi = -1;
        if (isdigit((unsigned char)*end))
            hi = strtol(end, &end, 10);
    }
    if (*end != '}' || lo > MAX_REPEAT || hi > MAX_REPEAT || (hi >= 0 && hi < lo))
        return false;
    ps->p = end + 1;
    *min = (int)lo, *max = (int)hi;
    return true;
}

static int parse_piece(struct parser *ps)
{
    int n = parse_atom(ps);
    while (!ps->bad && *ps->p && strchr("*+?{", *ps->p)) {
        int min = 0, max = -1;
        char q = *ps->p++;
        if (q == '+')
            min = 1;
        else if (q == '?')
            max = 1;
        else if (q == '{' && !parse_bound(ps, &min, &max))
            ps->bad = true;
        int r = node(ps, N_REPEAT, n, 0);
        ps->nodes[r].min = min, ps->nodes[r].max = max;
        n = r;
    }
    return n;
}

static int parse_cat(struct parser *ps)
{
    int n = node(ps, N_EMPTY, 0, 0);
    while (!ps->bad && *ps->p && *ps->p != '|' && *ps->p != ')') {
        int piece = parse_piece(ps);
        n = ps->nodes[n].kind == N_EMPTY ? piece : node(ps, N_CAT, n, piece);
    }
    return n;
}

static int parse_alt(struct parser *ps)
{
    int n = parse_cat(ps);
    while (!ps->bad && *ps->p == '|') {
        ps->p++;
        n = node(ps, N_ALT, n, parse_cat(ps));
    }
    return n;
}

static int emit(struct td_ere *re, enum op op, int x, int y)
{
    if (re->n_inst >= MAX_INST)
        return -1;
    re->prog[re->n_inst] = (struct inst){op, x, y, 0};
    return (int)re->n_inst++;
}

static bool gen(struct td_ere *re, const struct node *nodes, int i)
{
    const struct node *n = &nodes[i];
    int at;
    switch (n->kind) {
    case N_EMPTY:
        return true;
    case N_BYTE:
        return emit(re, OP_BYTE, n->value, 0) >= 0;
    case N_SET:
        return emit(re, OP_SET, n->value, 0) >= 0;
    case N_BOL:
        return emit(re, OP_BOL, 0, 0) >= 0;
    case N_EOL:
        return emit(re, OP_EOL, 0, 0) >= 0;
    case N_GROUP:
        return emit(re, OP_SAVE, 2 * n->b, 0) >= 0 && gen(re, nodes, n->a) &&
               emit(re, OP_SAVE, 2 * n->b + 1, 0) >= 0;
    case N_CAT:
        return gen(re, nodes, n->a) && gen(re, nodes, n->b);
    case N_ALT: {
        int split = emit(re, OP_SPLIT, 0, 0), jmp;
        if (split < 0 || !gen(re, nodes, n->a) || (jmp = emit(re, OP_JMP, 0, 0)) < 0)
            return false;
        re->prog[split].x = split + 1;
        re->prog[split].y = (int)re->n_inst;
        if (!gen(re, nodes, n->b))
            return false;
        re->prog[jmp].x = (int)re->n_inst;
        return true;
    }
    case N_REPEAT:
        for (int k = 0; k < n->min; k++)
            if (!gen(re, nodes, n->a))
                return false;
        if (n->max < 0) {
            /* [save entry]; L: split body, out; body: save start; child; loop L, out.
             * POSIX allows an iteration that matches nothing only as the
             * first of a loop whose minimum is 0 ((a*)* on "b": group 1 is
             * 0-0; (a*)+ on "aa": 0-2). Registers: entry, iteration start. */
            int r = (int)(2 * (re->nsub + 1) + 2 * re->n_loops++), loop;
            if ((n->min == 0 && emit(re, OP_SAVE, r, 0) < 0) ||
                (at = emit(re, OP_SPLIT, 0, 0)) < 0 || emit(re, OP_SAVE, r + 1, 0) < 0 ||
                !gen(re, nodes, n->a) || (loop = emit(re, OP_LOOP, at, 0)) < 0)
                return false;
            re->prog[loop].r = r;
            re->prog[at].x = at + 1;
            re->prog[at].y = re->prog[loop].y = (int)re->n_inst;
            return true;
        }
        int splits[MAX_REPEAT], n_splits = 0;
        for (int k = n->min; k < n->max; k++) { /* each further copy optional */
            if ((at = emit(re, OP_SPLIT, 0, 0)) < 0)
                return false;
            re->prog[at].x = at + 1;
            splits[n_splits++] = at;
            if (!gen(re, nodes, n->a))
                return false;
        }
        for (int k = 0; k < n_splits; k++)
            re->prog[splits[k]].y = (int)re->n_inst;
        return true;
    }
    return false;
}

void td_ere_free(struct td_ere *re)
{
    if (!re)
        return;
    free(re->prog);
    free(re->sets);
    free(re);
}

struct td_ere *td_ere_compile(const char *pattern, int flags, size_t *nsub)
{
    struct td_ere *re = calloc(1, sizeof *re);
    struct parser ps = {.p = pattern, .flags = flags, .re = re};
    if (!re || !(re->prog = malloc(MAX_INST * sizeof *re->prog)) ||
        !(re->sets = malloc(MAX_SETS * sizeof *re->sets)) ||
        !(ps.nodes = malloc(MAX_NODES * sizeof *ps.nodes)))
        goto fail;
    re->flags = flags;
    int root = parse_alt(&ps);
    if (ps.bad || *ps.p) /* an unmatched ')' stops the parse early */
        goto fail;
    if (emit(re, OP_SAVE, 0, 0) < 0 || !gen(re, ps.nodes, root) || emit(re, OP_SAVE, 1, 0) < 0 ||
        emit(re, OP_MATCH, 0, 0) < 0)
        goto fail;
    free(ps.nodes);
    *nsub = re->nsub;
    return re;
fail:
    free(ps.nodes);
    td_ere_free(re);
    return NULL;
}

/* A pending branch of the search, or a group position to put back. */
struct job {
    int pc;   /* -1: restore slot */
    long pos; /* restore: the old value */
    int slot;
};

struct search {
    const struct td_ere *re;
    const unsigned char *text;
    long len;
    uint8_t *visited;
    struct job *jobs;
    size_t n_jobs, cap_jobs;
    long *cap, *best, best_end;
    size_t slots;
    bool notbol; /* TD_ERE_NOTBOL: position 0 is not a line's start */
    bool noteol; /* TD_ERE_NOTEOL: the text's end is not a line's end */
};

static bool push(struct search *s, int pc, long pos, int slot)
{
    if (s->n_jobs == s->cap_jobs) {
        size_t cap = s->cap_jobs ? 2 * s->cap_jobs : 64;
        struct job *j = realloc(s->jobs, cap * sizeof *j);
        if (!j)
            return false;
        s->jobs = j, s->cap_jobs = cap;
    }
    s->jobs[s->n_jobs++] = (struct job){pc, pos, slot};
    return true;
}

/* Follows one thread from PC at POS until it dies or matches; branches not
 * taken are pushed. false on out of memory. */
static bool run_thread(struct search *s, int pc, long pos)
{
    const struct td_ere *re = s->re;
    bool lines = re->flags & TD_ERE_NEWLINE;
    for (;;) {
        uint64_t bit = (uint64_t)pc * (uint64_t)(s->len + 1) + (uint64_t)pos;
        if (s->visited[bit >> 3] & (1u << (bit & 7)))
            return true;
        s->visited[bit >> 3] |= (uint8_t)(1u << (bit & 7));
        const struct inst *in = &re->prog[pc];
        switch (in->op) {
        case OP_BYTE:
            if (pos >= s->len || s->text[pos] != in->x)
                return true;
            pc++, pos++;
            break;
        case OP_SET:
            if (pos >= s->len || !set_has(&re->sets[in->x], s->text[pos]))
                return true;
            pc++, pos++;
            break;
        case OP_BOL:
            if (pos == 0 ? s->notbol : !(lines && s->text[pos - 1] == '\n'))
                return true;
            pc++;
            break;
        case OP_EOL:
            if (pos == s->len ? s->noteol : !(lines && s->text[pos] == '\n'))
                return true;
            pc++;
            break;
        case OP_SAVE:
            if ((size_t)in->x < s->slots) {
                if (!push(s, -1, s->cap[in->x], in->x))
                    return false;
                s->cap[in->x] = pos;
            }
            pc++;
            break;
        case OP_SPLIT:
            if (!push(s, in->y, pos, 0))
                return false;
            pc = in->x;
            break;
        case OP_JMP:
            pc = in->x;
            break;
        case OP_LOOP:
            if (pos != s->cap[in->r + 1])
                pc = in->x; /* another iteration, or the exit the split offers */
            else if (pos == s->cap[in->r])
                pc = in->y; /* the first iteration matched nothing: leave with its groups */
            else
                return true; /* an empty iteration after others: not a path */
            break;
        case OP_MATCH:
            if (pos > s->best_end) {
                s->best_end = pos;
                memcpy(s->best, s->cap, s->slots * sizeof *s->cap);
            }
            return true;
        }
    }
}

bool td_ere_exec(const struct td_ere *re, const char *text, size_t n, struct td_ere_span *m)
{
    return td_ere_exec_flags(re, text, n, m, 0);
}

bool td_ere_exec_flags(const struct td_ere *re, const char *text, size_t n, struct td_ere_span *m,
                       int eflags)
{
    size_t len = strlen(text);
    uint64_t bits = (uint64_t)re->n_inst * ((uint64_t)len + 1);
    if (bits > MAX_VISITED_BITS)
        return false;
    struct search s = {.re = re,
                       .text = (const unsigned char *)text,
                       .len = (long)len,
                       .notbol = eflags & TD_ERE_NOTBOL,
                       .noteol = eflags & TD_ERE_NOTEOL};
    s.slots = 2 * (re->nsub + 1 + re->n_loops);
    s.visited = calloc((size_t)(bits / 8 + 1), 1);
    s.cap = malloc(s.slots * sizeof *s.cap);
    s.best = malloc(s.slots * sizeof *s.best);
    bool found = false, ok = s.visited && s.cap && s.best;
    for (long start = 0; ok && !found && start <= s.len; start++) {
        for (size_t k = 0; k < s.slots; k++)
            s.cap[k] = -1;
        s.best_end = -1;
        s.n_jobs = 0;
        ok = push(&s, 0, start, 0);
        while (ok && s.n_jobs && s.best_end < s.len) {
            struct job j = s.jobs[--s.n_jobs];
            if (j.pc < 0)
                s.cap[j.slot] = j.pos;
            else
                ok = run_thread(&s, j.pc, j.pos);
        }
        found = ok && s.best_end >= 0;
    }
    for (size_t k = 0; found && k < n; k++) {
        bool set = k <= re->nsub && s.best[2 * k] >= 0 && s.best[2 * k + 1] >= 0;
        m[k].so = set ? s.best[2 * k] : -1;
        m[k].eo = set ? s.best[2 * k + 1] : -1;
    }
    free(s.visited);
    free(s.cap);
    free(s.best);
    free(s.jobs);
    return found;
}
