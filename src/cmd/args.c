/* The option parser every command shares, and its --help: both read the
 * command's table (cmd/args.h), so a value is checked, defaulted and
 * described in one place. Errors are messages on stderr and an exit status
 * for the caller to return; nothing here exits. */
#include "cmd/args.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/compat.h"
#include "cmd/cmd.h"

enum { HELP_WIDTH = 79, HELP_COLUMN = 24 };

const char td_args_exit_status[] =
    "0 no error found, 1 an error finding, 2 the tool could not do what was asked.";

const char *const td_color_choices[] = {"auto", "always", "never", NULL};
const char *const td_platform_choices[] = {"auto", "linux", "windows", "macos", NULL};

const struct td_option td_args_help_option = {
    .name = "--help", .alias = 'h', .type = TD_ARG_FLAG, .help = "show this help and exit"};

bool td_args_choice(const struct td_option *o, size_t i, char *out, size_t cap)
{
    if (o->values)
        return o->values(i, out, cap);
    for (size_t k = 0; o->choices && o->choices[k]; k++)
        if (k == i) {
            snprintf(out, cap, "%s", o->choices[k]);
            return true;
        }
    return false;
}

/* "text, json, markdown" (SEP ", ") or "text|json|markdown" (SEP "|"). */
static void join_choices(const struct td_option *o, const char *sep, char *out, size_t cap)
{
    size_t len = 0;
    char v[128];
    out[0] = '\0';
    for (size_t i = 0; td_args_choice(o, i, v, sizeof v) && len < cap; i++)
        len += (size_t)snprintf(out + len, cap - len, "%s%s", i ? sep : "", v);
}

void td_args_accepts(const struct td_option *o, char *out, size_t cap)
{
    char list[1024] = "";
    if (o->type == TD_ARG_CHOICE)
        join_choices(o, ", ", list, sizeof list);
    size_t len = 0;
    out[0] = '\0';
    if (list[0])
        len = (size_t)snprintf(out, cap, "one of %s", list);
    else if (o->type == TD_ARG_INT || o->type == TD_ARG_NUMBER)
        len = (size_t)snprintf(out, cap, "from %.15g to %.15g", o->min, o->max);
    if (o->def && len < cap)
        snprintf(out + len, cap - len, "%sdefault %s", len ? "; " : "", o->def);
}

void td_args_synopsis(const struct td_option *o, char *out, size_t cap)
{
    char list[256] = "";
    if (o->type == TD_ARG_CHOICE && !o->values)
        join_choices(o, "|", list, sizeof list);
    const char *value = list[0] && strlen(list) <= 40 ? list : o->value;
    if (o->alias)
        snprintf(out, cap, "-%c%s%s", o->alias, value ? " " : "", value ? value : "");
    else
        snprintf(out, cap, "%s%s%s", o->name, value ? " " : "", value ? value : "");
}

/* ---- storing values ---- */

static void *field(void *args, const struct td_option *o)
{
    return (char *)args + o->at;
}

static int bad_value(const char *cmd, const struct td_option *o, const char *v, const char *what)
{
    fprintf(stderr, "torchdoctor %s: %s must be %s (got '%s')\n", cmd, o->name, what, v);
    return -1;
}

static bool is_choice(const struct td_option *o, const char *v)
{
    char c[128];
    for (size_t i = 0; td_args_choice(o, i, c, sizeof c); i++)
        if (strcmp(c, v) == 0)
            return true;
    return false;
}

static bool parse_long(const char *v, long *out)
{
    char *end;
    errno = 0;
    *out = strtol(v, &end, 10);
    return *v && !*end && errno == 0;
}

static bool parse_double(const char *v, double *out)
{
    char *end;
    errno = 0;
    *out = strtod(v, &end);
    return *v && !*end && errno == 0 && isfinite(*out);
}

static bool path_exists(const char *path, bool want_dir)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return false;
    return want_dir ? S_ISDIR(st.st_mode) : !S_ISDIR(st.st_mode);
}

/* The working directory as the shell names it: $PWD when it is this very
 * directory (a path through a symbolic link stays as typed), else getcwd. */
static bool working_dir(char *out, size_t cap)
{
    const char *pwd = getenv("PWD");
    struct stat here, there;
    if (pwd && td_host_absolute(pwd) && stat(".", &here) == 0 && stat(pwd, &there) == 0 &&
        here.st_dev == there.st_dev && here.st_ino == there.st_ino &&
        (size_t)snprintf(out, cap, "%s", pwd) < cap)
        return true;
    return getcwd(out, cap) != NULL;
}

/* V made absolute: the working directory, then V's components, with "."
 * dropped and ".." taking one back (as `cd` does with a logical $PWD).
 * The result lives until the fourth call after this one; V when it cannot
 * be made absolute (the loader then sees what the user typed). */
static const char *absolute_path(const char *v)
{
    enum { SLOTS = 4, CAP = 4096 };
    static char slots[SLOTS][CAP];
    static unsigned next;
    if (!v || td_host_absolute(v))
        return v;
    char *out = slots[next++ % SLOTS];
    if (!working_dir(out, CAP))
        return v;
    size_t len = strlen(out);
    while (len > 1 && TD_HOST_SEP(out[len - 1]))
        out[--len] = '\0';
    for (const char *p = v; *p;) {
        size_t n = 0;
        while (p[n] && !TD_HOST_SEP(p[n]))
            n++;
        if (n == 2 && p[0] == '.' && p[1] == '.') {
            char *sep = td_host_last_sep(out);
            if (sep)
                len = sep == out ? 1 : (size_t)(sep - out);
            out[len] = '\0';
        } else if (n && !(n == 1 && p[0] == '.')) {
            if (len + 1 + n >= CAP)
                return v;
            if (!TD_HOST_SEP(out[len - 1]))
                out[len++] = '/';
            memcpy(out + len, p, n);
            len += n;
            out[len] = '\0';
        }
        p += n;
        while (TD_HOST_SEP(*p))
            p++;
    }
    return out;
}

/* Checks V against O and stores it; -1 after a message. */
static int store(const char *cmd, const struct td_option *o, const char *v, void *args)
{
    char what[1100];
    const char *extra = o->check && v ? o->check(v) : NULL;
    if (extra)
        return bad_value(cmd, o, v, extra);
    switch (o->type) {
    case TD_ARG_FLAG:
        *(bool *)field(args, o) = true;
        return 0;
    case TD_ARG_CHOICE:
        if (!is_choice(o, v)) {
            char list[1024];
            join_choices(o, ", ", list, sizeof list);
            snprintf(what, sizeof what, "one of %s", list);
            return bad_value(cmd, o, v, what);
        }
        break;
    case TD_ARG_INT: {
        long n;
        if (!parse_long(v, &n) || n < o->min || n > o->max) {
            snprintf(what, sizeof what, "a whole number from %.15g to %.15g", o->min, o->max);
            return bad_value(cmd, o, v, what);
        }
        *(int *)field(args, o) = (int)n;
        return 0;
    }
    case TD_ARG_NUMBER: {
        double d;
        if (!parse_double(v, &d) || d < o->min || d > o->max) {
            snprintf(what, sizeof what, "a number from %.15g to %.15g", o->min, o->max);
            return bad_value(cmd, o, v, what);
        }
        *(double *)field(args, o) = d;
        return 0;
    }
    case TD_ARG_FILE:
    case TD_ARG_DIR:
        if (o->must_exist && !path_exists(v, o->type == TD_ARG_DIR))
            return bad_value(cmd, o, v,
                             o->type == TD_ARG_DIR ? "an existing directory" : "an existing file");
        if (o->absolute)
            v = absolute_path(v);
        break;
    case TD_ARG_STRING:
        break;
    }
    if (o->repeat) {
        struct td_arg_list *l = field(args, o);
        if (l->n == TD_ARG_LIST_MAX) {
            fprintf(stderr, "torchdoctor %s: %s given more than %d times\n", cmd, o->name,
                    TD_ARG_LIST_MAX);
            return -1;
        }
        l->items[l->n++] = v;
    } else {
        *(const char **)field(args, o) = v;
    }
    return 0;
}

/* Defaults are typed values, so they go through the same conversion. */
static void apply_defaults(const struct td_args_spec *spec, void *args)
{
    for (const struct td_option *o = spec->options; o->name; o++) {
        if (!o->def)
            continue;
        if (o->type == TD_ARG_INT)
            *(int *)field(args, o) = atoi(o->def);
        else if (o->type == TD_ARG_NUMBER)
            *(double *)field(args, o) = atof(o->def);
        else if (o->type != TD_ARG_FLAG && !o->repeat)
            *(const char **)field(args, o) = o->def;
    }
}

/* ---- reading argv ---- */

static const struct td_option *find_long(const struct td_args_spec *spec, const char *s, size_t len)
{
    for (const struct td_option *o = spec->options; o->name; o++)
        if (strlen(o->name) == len && strncmp(o->name, s, len) == 0)
            return o;
    return NULL;
}

static const struct td_option *find_alias(const struct td_args_spec *spec, char c)
{
    for (const struct td_option *o = spec->options; o->name; o++)
        if (o->alias && o->alias == c)
            return o;
    return NULL;
}

static bool is_help(const char *s)
{
    return strcmp(s, "--help") == 0 || strcmp(s, "-h") == 0;
}

/* One option word at ARGV[*I] (and its value after it); -1 after a message. */
static int take_option(const struct td_args_spec *spec, int argc, char **argv, int *i, void *args)
{
    const char *s = argv[*i], *cmd = spec->command;
    const char *eq = s[1] == '-' ? strchr(s, '=') : NULL;
    const struct td_option *o = s[1] == '-' ? find_long(spec, s, eq ? (size_t)(eq - s) : strlen(s))
                                : !s[2] ? find_alias(spec, s[1])
                                            : NULL;
    if (!o) {
        fprintf(stderr, "torchdoctor %s: unknown option '%s' (see 'torchdoctor %s --help')\n", cmd,
                s, cmd);
        return -1;
    }
    if (o->type == TD_ARG_FLAG) {
        if (eq) {
            fprintf(stderr, "torchdoctor %s: %s takes no value (got '%s')\n", cmd, o->name, s);
            return -1;
        }
        return store(cmd, o, NULL, args);
    }
    if (eq)
        return store(cmd, o, eq + 1, args);
    if (*i + 1 >= argc) {
        char accepts[1024];
        td_args_accepts(o, accepts, sizeof accepts);
        fprintf(stderr, "torchdoctor %s: %s needs a value (%s%s%s)\n", cmd, o->name, o->value,
                accepts[0] ? ": " : "", accepts);
        return -1;
    }
    *i += 1;
    return store(cmd, o, argv[*i], args);
}

static int check_operand_count(const struct td_args_spec *spec, int n, char **v)
{
    const char *cmd = spec->command;
    if (n < spec->min_operands) {
        fprintf(stderr, "torchdoctor %s: missing %s (see 'torchdoctor %s --help')\n", cmd,
                spec->operands ? spec->operands : "operand", cmd);
        return -1;
    }
    if (spec->max_operands >= 0 && n > spec->max_operands) {
        const char *stray = v[spec->max_operands];
        if (spec->max_operands == 0)
            fprintf(stderr, "torchdoctor %s: unexpected argument '%s' (%s takes only options)\n",
                    cmd, stray, cmd);
        else
            fprintf(stderr, "torchdoctor %s: unexpected argument '%s' (at most %d %s)\n", cmd,
                    stray, spec->max_operands, spec->operands);
        return -1;
    }
    return 0;
}

int td_args_parse(const struct td_args_spec *spec, int argc, char **argv, void *args,
                  struct td_operands *operands)
{
    apply_defaults(spec, args);
    int n = 0; /* operands so far, moved to argv[1..n] */
    bool options_over = false;
    for (int i = 1; i < argc; i++) {
        char *s = argv[i];
        if (options_over || s[0] != '-' || s[1] == '\0') {
            argv[1 + n++] = s; /* "-" alone is an operand: standard input */
            options_over |= spec->operands_end_options;
        } else if (strcmp(s, "--") == 0) {
            options_over = true;
        } else if (is_help(s)) {
            td_args_help(spec, stdout);
            return TD_EXIT_OK;
        } else if (take_option(spec, argc, argv, &i, args) != 0) {
            return TD_EXIT_USAGE;
        }
    }
    if (check_operand_count(spec, n, argv + 1) != 0)
        return TD_EXIT_USAGE;
    argv[1 + n] = NULL; /* within argv: n < argc */
    *operands = (struct td_operands){argv + 1, n};
    return TD_ARGS_CONTINUE;
}

/* ---- --help ---- */

/* Writes TEXT from column COL, wrapped at HELP_WIDTH, continuation lines
 * indented to INDENT; blank lines in TEXT start new paragraphs. */
static void wrap(FILE *out, const char *text, int col, int indent)
{
    const char *p = text;
    while (*p) {
        if (*p == '\n') {
            bool paragraph = p[1] == '\n';
            fprintf(out, "%s%*s", paragraph ? "\n\n" : "\n", indent, "");
            col = indent;
            p += paragraph ? 2 : 1;
            continue;
        }
        size_t word = strcspn(p, " \n");
        if (col > indent && col + 1 + (int)word > HELP_WIDTH)
            fprintf(out, "\n%*s", indent, ""), col = indent;
        else if (col > indent)
            fputc(' ', out), col++;
        fprintf(out, "%.*s", (int)word, p);
        col += (int)word;
        p += word;
        while (*p == ' ')
            p++;
    }
}

/* "usage: torchdoctor CMD [OPTION]... OPERANDS", continuation lines
 * indented under the first option. */
static void help_synopsis(const struct td_args_spec *spec, FILE *out)
{
    int lead = fprintf(out, "usage: torchdoctor %s", spec->command), col = lead;
    for (const struct td_option *o = spec->options; o->name; o++) {
        char syn[256];
        td_args_synopsis(o, syn, sizeof syn);
        int w = 3 + (int)strlen(syn) + (o->repeat ? 3 : 0);
        if (col + w > HELP_WIDTH)
            col = fprintf(out, "\n%*s", lead, "") - 1;
        col += fprintf(out, " [%s]%s", syn, o->repeat ? "..." : "");
    }
    if (spec->operands) {
        if (col + 1 + (int)strlen(spec->operands) > HELP_WIDTH)
            fprintf(out, "\n%*s", lead, "");
        fprintf(out, " %s", spec->operands);
    }
    fputc('\n', out);
}

static void option_label(const struct td_option *o, char *out, size_t cap)
{
    if (o->alias)
        snprintf(out, cap, "-%c, %s%s%s", o->alias, o->name, o->value ? " " : "",
                 o->value ? o->value : "");
    else
        snprintf(out, cap, "%s%s%s", o->name, o->value ? " " : "", o->value ? o->value : "");
}

static void help_option(const struct td_option *o, FILE *out)
{
    char label[256], accepts[1024], text[2048];
    option_label(o, label, sizeof label);
    td_args_accepts(o, accepts, sizeof accepts);
    snprintf(text, sizeof text, "%s%s%s%s", o->help, accepts[0] ? " (" : "", accepts,
             accepts[0] ? ")" : "");
    int col = fprintf(out, "  %s", label);
    if (col + 2 > HELP_COLUMN)
        fprintf(out, "\n%*s", HELP_COLUMN, "");
    else
        fprintf(out, "%*s", HELP_COLUMN - col, "");
    wrap(out, text, HELP_COLUMN, HELP_COLUMN);
    fputc('\n', out);
}

void td_args_help(const struct td_args_spec *spec, FILE *out)
{
    help_synopsis(spec, out);
    if (spec->description) {
        fputc('\n', out);
        wrap(out, spec->description, 0, 0);
        fputc('\n', out);
    }
    fprintf(out, "\noptions:\n");
    for (const struct td_option *o = spec->options; o->name; o++)
        help_option(o, out);
    help_option(&td_args_help_option, out);
    int col = fprintf(out, "\nExit status:") - 1;
    wrap(out, spec->exit_status ? spec->exit_status : td_args_exit_status, col, 0);
    fputc('\n', out);
}
