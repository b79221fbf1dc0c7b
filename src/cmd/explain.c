/* torchdoctor explain [TEXT | -]: what a pasted error message means (the
 * catalogue row it matches, with its cause, kind, fix and source) and, when
 * the file it names is on this machine (or under --root), what it does not
 * say: the dependency or symbol really missing, from the same dependency
 * graph `deps` builds. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/compat.h"
#include "base/text.h"
#include "cmd/args.h"
#include "cmd/cmd.h"
#include "format/detect.h"
#include "graph/explain_local.h"
#include "graph/target.h"
#include "probe/system/apiset.h"
#include "probe/install/provider.h"
#include "kb/errors.h"
#include "report/envelope.h"
#include "report/explain.h"

extern char **environ;

enum {
    INPUT_CAP = 16 << 20, /* a traceback, not a log file */
};

struct explain_args {
    struct td_operands texts;
    const char *format, *color, *root, *platform;
    bool each;
};

/* What the analysis of the named file found, for the report. */
struct local {
    char target[4096]; /* the file analysed, as the message names it */
    char host[4096];   /* where it is on this machine */
    const char *role;  /* "loaded", "requirer", "found by its need" */
    struct td_graph g;
    struct td_arena plan;
    bool built;
    struct td_local_notes notes; /* what the message never says */
};

/* snprintf whose truncation is expected (paths are cut at the buffer size). */
static int fmt(char *out, size_t cap, const char *format, ...) TD_PRINTF(3, 4);
static int fmt(char *out, size_t cap, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    int n = vsnprintf(out, cap, format, ap);
    va_end(ap);
    return n;
}

static const char *const explain_formats[] = {"text", "json", "jsonl", "markdown", "html", NULL};

#define AT(field, ctype) TD_AT(struct explain_args, field, ctype)
static const struct td_option explain_options[] = {
    {.name = "--root",
     .type = TD_ARG_DIR,
     .absolute = true,
     .value = "DIR",
     .must_exist = true,
     .help = "look for the files the message names under DIR, the target's filesystem root "
             "(C:\\ is DIR for a Windows path)",
     .at = AT(root, const char *)},
    {.name = "--each",
     .type = TD_ARG_FLAG,
     .help = "every operand is a file of text holding a message of its own (a saved log "
             "each): each is explained as if it were given alone, the answers in the order "
             "given (text: each after a line ==> FILE <==; jsonl: one line each)",
     .at = AT(each, bool)},
    {.name = "--platform",
     .type = TD_ARG_CHOICE,
     .value = "P",
     .choices = td_platform_choices,
     .def = "auto",
     .help = "the platform the text was copied on, over what its signs say; auto reads it from "
             "the text (a path, a file name, a loader's words), and a text with none as this "
             "machine's",
     .at = AT(platform, const char *)},
    TD_OPT_FORMAT(struct explain_args, format, explain_formats,
                  "the answer's form: text, json (docs/schema.md), jsonl (the same JSON on one "
                  "line), markdown or html"),
    TD_OPT_COLOR(struct explain_args, color),
    {0},
};
#undef AT

static const struct td_example explain_examples[] = {
    {"torchdoctor explain \"OSError: [WinError 126] The specified module could not be found. "
     "Error loading fbgemm.dll\"",
     "what the message means, its cause and the fix"},
    {"torchdoctor explain --root /mnt/c --format json - < traceback.txt",
     "a whole traceback from a Windows drive mounted at /mnt/c, as JSON"},
    {"torchdoctor explain --each --format jsonl logs/*.log",
     "every saved log on its own, one JSON answer per line in the order given"},
    {0},
};

const struct td_args_spec td_explain_args = {
    .command = "explain",
    .operands = "[TEXT... | FILE | -]",
    .max_operands = -1,
    .description =
        "Explains an error message or a whole traceback (from the arguments, a file of text named "
        "alone such as a saved log, or from standard input with - or when nothing is given and "
        "input is not a terminal; of a text over 256 KiB, its first 64 KiB, its last 192 KiB and "
        "the lines between that name a failure are read, and the answer says so): what failed, who "
        "needs it and the role of the file, then the likely causes, most likely first, each "
        "with its fix and the one command that tells it apart (the cause a public thread "
        "established for a catalogued message ranks first unless the text or this machine "
        "shows a torch version it does not hold for). When the file the message names is on "
        "this machine (or under --root), its dependency graph names what the message does not: "
        "the dependency that is really missing, who needs it, or which library should define a "
        "missing symbol. The platform the text was copied on names the files (torch_cuda.dll or "
        "libtorch_cuda.so): the heaviest sign the text carries decides (a loader's or a tool's "
        "own words, a path or file only one platform has, the platform named in words); a text "
        "with none is read as this machine's, and the answer says which it was (--platform "
        "says it instead).\n\n"
        "With --each every operand is a file of text explained on its own, as if it were "
        "given alone: many saved logs in one run. Every file is read before any answer is "
        "written; one that cannot be read, holds no message or is a binary stops the run "
        "with status 2 and no answer.\n\n"
        "A message that starts with a dash goes after --.",
    .options = explain_options,
    .examples = explain_examples,
    .exit_status = "0 no load error or known message, or only warnings, 1 an error (with --each: "
                   "in any of the files), 2 bad usage or unreadable input.",
};

static char *read_stream(FILE *in, size_t *len)
{
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n - 1, in);
        n += got;
        if (got == 0 || n >= INPUT_CAP)
            break;
        if (n + 1 == cap) {
            char *bigger = realloc(buf, cap * 2);
            if (!bigger) {
                free(buf);
                return NULL;
            }
            buf = bigger;
            cap *= 2;
        }
    }
    if (buf)
        buf[n] = '\0';
    *len = n;
    return buf;
}

/* PATH opened for reading, rewound to its start, when it is a regular
 * file, else NULL; *KIND what its first bytes are (td_detect). */
static FILE *open_regular(const char *path, enum td_file_kind *kind)
{
    struct stat st;
    FILE *in = stat(path, &st) == 0 && S_ISREG(st.st_mode) ? fopen(path, "rb") : NULL;
    if (!in)
        return NULL;
    uint8_t head[64];
    size_t n = fread(head, 1, sizeof head, in);
    *kind = td_detect(head, n);
    rewind(in);
    return in;
}

/* Whether a file of KIND is text: no format td_detect knows. */
static bool is_text(enum td_file_kind kind)
{
    return kind == TD_FILE_UNKNOWN || kind == TD_FILE_EMPTY;
}

/* A lone argument naming a file of text (a saved log: `explain error.log`)
 * is the message's file, not the message. A binary (a library a message
 * names) stays text: its path is what the user pasted. */
static FILE *message_file(const struct td_operands *t)
{
    enum td_file_kind k;
    FILE *in = t->n == 1 ? open_regular(t->v[0], &k) : NULL;
    if (in && !is_text(k)) {
        fclose(in);
        return NULL;
    }
    return in;
}

/* The message: the arguments joined by blanks, a file of text named
 * alone, or standard input. */
static char *read_input(const struct explain_args *a, size_t *len)
{
    const struct td_operands *t = &a->texts;
    if (t->n == 0 && isatty(0))
        return NULL;
    if (t->n == 0 || (t->n == 1 && strcmp(t->v[0], "-") == 0))
        return read_stream(stdin, len);
    FILE *file = message_file(t);
    if (file) {
        char *text = read_stream(file, len);
        fclose(file);
        return text;
    }
    size_t total = 1;
    for (int i = 0; i < t->n; i++)
        total += strlen(t->v[i]) + 1;
    char *s = malloc(total);
    if (!s)
        return NULL;
    s[0] = '\0';
    for (int i = 0; i < t->n; i++) {
        if (i)
            strcat(s, " ");
        strcat(s, t->v[i]);
    }
    *len = strlen(s);
    return s;
}

/* The one call into the graph builder (cmd/deps_graph.h): the same graph
 * `deps` builds for the file. */
static bool build_graph(struct local *l, const char *root)
{
    const char *files[1] = {l->host};
    /* The same model as `deps FILE` (graph/target.h): this machine's
     * environment without --root. */
    struct td_target_request req = {.files = files,
                                    .n_files = 1,
                                    .root = root,
                                    .envp = root ? NULL : (const char *const *)environ,
                                    .live_apisets = root ? NULL : td_probe_live_apisets()};
    struct td_err err = {0};
    if (td_target_build(&req, &l->g, &l->plan, &err) != 0) {
        td_local_not_analysed(l->host, err.msg, &l->notes);
        return false;
    }
    td_name_providers(&l->g, NULL);
    return true;
}

/* The file the message is about, when it is here: the requirer of a
 * missing symbol, who needs a missing file, the file being loaded, or the
 * file in the traceback's directories whose DT_NEEDED names it. */
static const char *locate(const struct td_explain *x, const char *root, struct local *l)
{
    const struct td_explain_fields *f = &x->fields;
    const char *path = NULL;
    if (f->symbol && f->file)
        path = f->file, l->role = "needs the missing symbol";
    else if (f->needed_by && td_local_file(f->needed_by, root, l->host, sizeof l->host))
        path = f->needed_by, l->role = "needs the missing file";
    else if (f->file && td_local_file(f->file, root, l->host, sizeof l->host))
        path = f->file, l->role = "was being loaded";
    if (path && !td_local_file(path, root, l->host, sizeof l->host))
        path = NULL;
    if (!path && f->file_name &&
        td_local_requirer(x->text, root, f->file_name, l->host, sizeof l->host))
        path = l->host, l->role = "needs the missing file (found by its DT_NEEDED)";
    return path;
}

/* Runs the graph on the file the message is about, when it is here. */
static void analyse(struct td_explain *x, const char *root, struct local *l)
{
    const char *path = locate(x, root, l);
    if (!path)
        return;
    fmt(l->target, sizeof l->target, "%s", path);
    if (!build_graph(l, root))
        return;
    l->built = true;
    char version[64];
    if (td_local_torch_version(l->host, version, sizeof version))
        td_explain_use_torch_version(x, version);
    td_local_missing(&l->g, &l->notes);
    td_local_symbol(&l->g, x->fields.symbol, x->fields.version, &l->notes);
}

/* The platform whose rules the answer applied: the file analysed here's,
 * else the reading's (--platform, the text's signs, else this machine). */
static const char *platform_of(const struct td_explain *x, const struct local *l)
{
    if (l->built)
        return td_platform_name(l->g.cfg.platform);
    return x->parts.platform ? x->parts.platform : td_host_platform();
}

/* The record the report renders: the local analysis as plain values. */
static void local_view(const struct local *l, struct td_explain_local *v)
{
    *v = (struct td_explain_local){
        .built = l->built,
        .file = l->target,
        .host = l->host,
        .role = l->role,
        .platform = l->built ? td_platform_name(l->g.cfg.platform) : NULL,
        .profile = l->built ? td_profile_name(l->g.cfg.profile) : NULL,
        .notes = &l->notes,
    };
}

/* One message, read into INPUT (freed here): decoded, read, analysed and
 * written in A's format. Returns the exit status. Nothing of one message
 * is left for the next (--each): the analysis starts from zero. */
static int explain_one(const struct explain_args *a, char *input, size_t len)
{
    struct td_decoded text; /* pasted text in any encoding, as UTF-8 */
    int decoded = td_text_decode(input, len, &text);
    free(input);
    if (decoded != 0)
        return TD_EXIT_USAGE;
    input = text.utf8, len = text.len;
    struct td_explain x;
    struct td_err err = {0};
    const char *given = strcmp(a->platform, "auto") == 0 ? NULL : a->platform;
    if (td_explain_text_on(input, len, given, &x, &err) != 0) {
        fprintf(stderr, "torchdoctor explain: %s\n", err.msg);
        free(input);
        return TD_EXIT_USAGE;
    }
    free(input);
    /* On the heap, zeroed: its notes are tens of kilobytes, too many for
     * the stack, and nothing of an earlier message (--each) may be seen. */
    struct local *l = calloc(1, sizeof *l);
    if (!l) {
        fprintf(stderr, "torchdoctor explain: out of memory\n");
        td_explain_free(&x);
        return TD_EXIT_USAGE;
    }
    analyse(&x, a->root, l);
    char confirm[4200];
    fmt(confirm, sizeof confirm, "torchdoctor deps \"%s\"", l->target);
    struct td_findings findings = {0};
    struct td_explain_cause causes[TD_EXPLAIN_MAX_CAUSES];
    size_t n_causes;
    td_explain_findings(&x, l->built ? &l->g.findings : NULL, confirm, &findings, causes,
                        &n_causes);
    struct td_explain_local local;
    local_view(l, &local);
    struct td_explain_view view = {.x = &x,
                                   .findings = &findings,
                                   .causes = causes,
                                   .n_causes = n_causes,
                                   .local = &local,
                                   .platform = platform_of(&x, l),
                                   .input_encoding = text.encoding};
    if (strcmp(a->format, "json") == 0 || strcmp(a->format, "jsonl") == 0) {
        td_explain_render_json(&view, stdout, strcmp(a->format, "json") == 0);
    } else if (strcmp(a->format, "markdown") == 0) {
        td_explain_render_markdown(&view, stdout);
    } else if (strcmp(a->format, "html") == 0) {
        td_explain_render_html(&view, stdout);
    } else {
        struct td_term t;
        td_term_init(&t, stdout, a->color);
        td_explain_render_text(&view, &t);
    }
    fflush(stdout);
    int rc = td_findings_count(&findings, TD_SEV_ERROR) ? TD_EXIT_FINDINGS : TD_EXIT_OK;
    td_findings_free(&findings);
    if (l->built)
        td_graph_free(&l->g);
    td_arena_free(&l->plan);
    free(l);
    td_explain_free(&x);
    return rc;
}

/* File OPERAND's text, or NULL after saying why it is not a message: not a
 * regular file, unreadable, a binary (td_detect knows its kind) or blank. */
static char *read_each(const char *operand, size_t *len)
{
    enum td_file_kind k;
    FILE *in = open_regular(operand, &k);
    if (!in) {
        fprintf(stderr, "torchdoctor explain: --each: %s is not a readable file\n", operand);
        return NULL;
    }
    char *text = is_text(k) ? read_stream(in, len) : NULL;
    fclose(in);
    if (!is_text(k))
        fprintf(stderr, "torchdoctor explain: --each: %s is a binary, not a message\n", operand);
    else if (!text || strspn(text, " \t\r\n") == *len)
        fprintf(stderr, "torchdoctor explain: --each: %s holds no message\n", operand);
    else
        return text;
    free(text);
    return NULL;
}

/* One file's text as read_each() gave it. */
struct message {
    char *text;
    size_t len;
};

/* Every operand's text into M (a->texts.n entries), each file read once:
 * false, with M freed, after the first one that is not a message. */
static bool read_all(const struct explain_args *a, struct message *m)
{
    for (int i = 0; i < a->texts.n; i++) {
        m[i].text = read_each(a->texts.v[i], &m[i].len);
        if (!m[i].text) {
            while (i-- > 0)
                free(m[i].text);
            return false;
        }
    }
    return true;
}

/* --each: every operand a message of its own, in the order given. All are
 * read before the first answer (and never again: a file changed meanwhile
 * cannot stop a run half-answered); the status is the worst of theirs. */
static int explain_each(const struct explain_args *a)
{
    if (strcmp(a->format, "text") != 0 && strcmp(a->format, "jsonl") != 0) {
        fprintf(stderr, "torchdoctor explain: --each writes one answer per file: --format text "
                        "or jsonl\n");
        return TD_EXIT_USAGE;
    }
    if (a->texts.n == 0) {
        fprintf(stderr, "torchdoctor explain: --each needs the files to explain\n");
        return TD_EXIT_USAGE;
    }
    struct message *m = calloc((size_t)a->texts.n, sizeof *m);
    if (!m) {
        fprintf(stderr, "torchdoctor explain: out of memory\n");
        return TD_EXIT_USAGE;
    }
    if (!read_all(a, m)) {
        free(m);
        return TD_EXIT_USAGE;
    }
    int rc = TD_EXIT_OK;
    int i = 0;
    for (; i < a->texts.n && rc != TD_EXIT_USAGE; i++) {
        if (strcmp(a->format, "text") == 0)
            printf("%s==> %s <==\n", i ? "\n" : "", a->texts.v[i]);
        int one = explain_one(a, m[i].text, m[i].len); /* frees the text */
        rc = one > rc ? one : rc;
    }
    for (; i < a->texts.n; i++)
        free(m[i].text);
    free(m);
    return rc;
}

int td_cmd_explain(int argc, char **argv)
{
    struct explain_args a = {0};
    int status = td_args_parse(&td_explain_args, argc, argv, &a, &a.texts);
    if (status != TD_ARGS_CONTINUE)
        return status;
    if (a.each)
        return explain_each(&a);
    size_t len = 0;
    char *input = read_input(&a, &len);
    if (!input || strspn(input, " \t\r\n") == len) {
        fprintf(stderr, "torchdoctor explain: no message to explain (give it as arguments, or on "
                        "standard input with -)\n");
        free(input);
        return TD_EXIT_USAGE;
    }
    return explain_one(&a, input, len);
}
