/* The man pages, torchdoctor(1) and torchdoctor-COMMAND(1), written from
 * the same option tables as --help (cmd/args.h), so the two cannot drift.
 * The build runs the hidden `torchdoctor __man [COMMAND]` to make them. */
#include <stdio.h>
#include <string.h>

#include "cmd/args.h"
#include "cmd/cmd.h"

/* TEXT as roff: backslashes escaped, every dash of an option or command
 * word ("--search-dir") a real minus (\-), so that what is copied from the
 * page can be typed; paragraphs (blank lines) as .PP, and nothing that a
 * line start would read as a request; a word is never broken at its
 * dashes. */
static void roff_text(FILE *out, const char *text)
{
    bool line_start = true, in_option = false;
    for (const char *p = text; *p; p++) {
        if (p[0] == '\n' && p[1] == '\n') {
            fputs("\n.PP\n", out);
            p++;
            line_start = true;
            continue;
        }
        if (line_start && (*p == '.' || *p == '\''))
            fputs("\\&", out);
        line_start = *p == '\n';
        bool word_start = p == text || strchr(" \n[(|/\"'`", p[-1]);
        size_t word = strcspn(p, " \n");
        /* No line break at its dashes; \% only at a word's start (inside a
         * word it would mark a break instead), so never at TEXT's start,
         * which may be inside one. */
        if (p > text && (p[-1] == ' ' || p[-1] == '\n') && memchr(p, '-', word))
            fputs("\\%", out);
        if (*p == '-' && word_start)
            in_option = true;
        else if (strchr(" \n[](|,;=\"'`", *p))
            in_option = false;
        if (*p == '\\')
            fputs("\\e", out);
        else if (*p == '-' && in_option)
            fputs("\\-", out);
        else
            fputc(*p == '\n' ? ' ' : *p, out);
    }
}

static void bold(FILE *out, const char *s)
{
    fputs("\\fB", out);
    roff_text(out, s);
    fputs("\\fR", out);
}

static void italic(FILE *out, const char *s)
{
    fputs("\\fI", out);
    roff_text(out, s);
    fputs("\\fR", out);
}

static void title(FILE *out, const char *page)
{
    fputs(".TH ", out);
    for (const char *p = page; *p; p++)
        if (*p == '-')
            fputs("\\-", out);
        else
            fputc(*p >= 'a' && *p <= 'z' ? *p - 32 : *p, out);
    fprintf(out, " 1 \"\" \"torchdoctor %s\" \"torchdoctor manual\"\n", TD_VERSION);
    /* Left-adjusted, unhyphenated: long paths and options stay whole. */
    fputs(".ad l\n.nh\n", out);
}

static void synopsis_option(FILE *out, const struct td_option *o)
{
    char syn[256];
    td_args_synopsis(o, syn, sizeof syn);
    char *value = strchr(syn, ' ');
    if (value)
        *value++ = '\0';
    fputs("\\%[", out); /* never broken after the bracket */
    bold(out, syn);
    if (value) {
        fputc(' ', out);
        italic(out, value);
    }
    fprintf(out, "]%s\n", o->repeat ? "..." : "");
}

static void option_item(FILE *out, const struct td_option *o)
{
    char accepts[1024];
    fputs(".TP\n", out);
    if (o->alias) {
        char a[3] = {'-', o->alias, '\0'};
        bold(out, a);
        fputs(", ", out);
    }
    bold(out, o->name);
    if (o->value) {
        fputc(' ', out);
        italic(out, o->value);
    }
    fputc('\n', out);
    roff_text(out, o->help);
    td_args_accepts(o, accepts, sizeof accepts);
    if (accepts[0]) {
        fputs(" (", out);
        roff_text(out, accepts);
        fputc(')', out);
    }
    fputc('\n', out);
}

static void command_page(FILE *out, const struct td_command *c)
{
    const struct td_args_spec *s = c->args;
    char page[64];
    snprintf(page, sizeof page, "torchdoctor-%s", c->name);
    title(out, page);
    fputs(".SH NAME\n", out);
    roff_text(out, page);
    fputs(" \\- ", out);
    roff_text(out, c->summary);
    fprintf(out, "\n.SH SYNOPSIS\n.B torchdoctor %s\n", c->name);
    for (const struct td_option *o = s->options; o->name; o++)
        synopsis_option(out, o);
    if (s->operands) {
        italic(out, s->operands);
        fputc('\n', out);
    }
    fputs(".SH DESCRIPTION\n", out);
    roff_text(out, s->description);
    fputs("\n.SH OPTIONS\n", out);
    for (const struct td_option *o = s->options; o->name; o++)
        option_item(out, o);
    option_item(out, &td_args_help_option);
    if (s->examples && s->examples[0].command) {
        fputs(".SH EXAMPLES\n", out);
        for (const struct td_example *e = s->examples; e->command; e++) {
            fputs(".TP\n", out);
            bold(out, e->command);
            fputc('\n', out);
            roff_text(out, e->what);
            fputc('\n', out);
        }
    }
    fputs(".SH EXIT STATUS\n", out);
    roff_text(out, s->exit_status ? s->exit_status : td_args_exit_status);
    fputs("\n.SH SEE ALSO\n.BR torchdoctor (1)\n", out);
}

static void program_page(FILE *out)
{
    title(out, "torchdoctor");
    fputs(".SH NAME\n"
          "torchdoctor \\- why PyTorch will not load or will not use the GPU\n"
          ".SH SYNOPSIS\n"
          ".B torchdoctor\n"
          "\\fICOMMAND\\fR [\\fIOPTION\\fR]... [\\fIARG\\fR]...\n"
          ".br\n"
          ".B torchdoctor\n"
          "\\fB\\-\\-help\\fR | \\fB\\-\\-version\\fR\n"
          ".SH DESCRIPTION\n",
          out);
    roff_text(out, td_program_description);
    fputs("\n.SH COMMANDS\n", out);
    for (const struct td_command *c = td_commands; c->name; c++) {
        if (!c->summary)
            continue;
        fputs(".TP\n", out);
        bold(out, c->name);
        fputc('\n', out);
        roff_text(out, c->summary);
        fprintf(out, " (torchdoctor\\-%s(1))\n", c->name);
    }
    fputs(".SH EXIT STATUS\n", out);
    roff_text(out, td_args_exit_status);
    fputs("\n.SH ENVIRONMENT\n"
          ".TP\n"
          ".B NO_COLOR\n"
          "when set, text reports are never coloured unless \\fB\\-\\-color always\\fR is "
          "given (no\\-color.org)\n"
          ".SH SEE ALSO\n",
          out);
    const char *sep = "";
    for (const struct td_command *c = td_commands; c->name; c++)
        if (c->summary && c->args) {
            fprintf(out, "%s.BR torchdoctor\\-%s (1)", sep, c->name);
            sep = ",\n";
        }
    fputc('\n', out);
}

struct man_args {
    bool list;
};

static const struct td_option man_options[] = {
    {.name = "--list",
     .type = TD_ARG_FLAG,
     .help = "print the name of every page, one a line",
     .at = TD_AT(struct man_args, list, bool)},
    {0},
};

static const struct td_args_spec man_spec = {
    .command = "__man",
    .operands = "[COMMAND]",
    .max_operands = 1,
    .description = "Writes torchdoctor(1), or with COMMAND torchdoctor-COMMAND(1), on standard "
                   "output (the build runs this).",
    .options = man_options,
};

int td_cmd_man(int argc, char **argv)
{
    struct man_args a = {0};
    struct td_operands page;
    int status = td_args_parse(&man_spec, argc, argv, &a, &page);
    if (status != TD_ARGS_CONTINUE)
        return status;
    if (a.list) {
        puts("torchdoctor");
        for (const struct td_command *c = td_commands; c->name; c++)
            if (c->summary && c->args)
                printf("torchdoctor-%s\n", c->name);
        return TD_EXIT_OK;
    }
    if (page.n == 0) {
        program_page(stdout);
        return TD_EXIT_OK;
    }
    for (const struct td_command *c = td_commands; c->name; c++)
        if (c->summary && c->args && strcmp(c->name, page.v[0]) == 0) {
            command_page(stdout, c);
            return TD_EXIT_OK;
        }
    fprintf(stderr, "torchdoctor __man: no page for '%s'\n", page.v[0]);
    return TD_EXIT_USAGE;
}
