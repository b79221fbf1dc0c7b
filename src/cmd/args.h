/* One table-driven option parser for every command. A command declares its
 * options once, in a struct td_args_spec; the parser, --help, the man pages
 * (args_man.c) and the shell completions (args_complete.c) all read that
 * table, so none of them can drift from the others. */
#ifndef TD_CMD_ARGS_H
#define TD_CMD_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum td_arg_type {
    TD_ARG_FLAG,   /* no value; sets a bool */
    TD_ARG_STRING, /* any text (or what .check accepts); a const char * */
    TD_ARG_CHOICE, /* one of .choices or of .values(); a const char * */
    TD_ARG_INT,    /* a whole number from .min to .max; an int */
    TD_ARG_NUMBER, /* a decimal number from .min to .max; a double */
    TD_ARG_FILE,   /* a path (a file with .must_exist); a const char * */
    TD_ARG_DIR,    /* a directory (that exists, with .must_exist); a const char * */
};

enum { TD_ARG_LIST_MAX = 64 };

/* Where the values of a repeated option (.repeat) land, in order. */
struct td_arg_list {
    const char *items[TD_ARG_LIST_MAX];
    size_t n;
};

/* One option. Its value is stored at offset .at of the command's own
 * argument struct; write .at with TD_AT, which checks the field's type. */
struct td_option {
    const char *name; /* "--format" */
    char alias;       /* 'o' for -o; 0 for none */
    enum td_arg_type type;
    const char *value;          /* the value's name in help ("FILE"); NULL for a flag */
    const char *const *choices; /* TD_ARG_CHOICE: the accepted values, NULL-terminated */
    /* TD_ARG_CHOICE from a table instead: writes the I-th accepted value
     * into OUT and returns true, false past the last one. */
    bool (*values)(size_t i, char *out, size_t cap);
    double min, max;  /* TD_ARG_INT, TD_ARG_NUMBER: the accepted range */
    const char *def;  /* the default as it would be typed; applied before parsing */
    const char *help; /* one or more sentences; wrapped when printed */
    bool repeat;      /* may be given many times: the field is a struct td_arg_list */
    bool must_exist;  /* TD_ARG_FILE, TD_ARG_DIR: a missing path is bad usage */
    /* TD_ARG_DIR: a relative value is made absolute against the working
     * directory as the shell spells it ($PWD), so it compares equal with
     * the absolute paths given beside it ("--root drive $PWD/drive/x"). */
    bool absolute;
    /* A further check of the value: NULL when it is fine, else what is
     * accepted ("NAME=VALUE"), for the message. */
    const char *(*check)(const char *value);
    size_t at;
};

/* offsetof(TYPE, FIELD), refused at compile time unless FIELD is a CTYPE. */
#define TD_AT(type, field, ctype) _Generic(((type *)0)->field, ctype : offsetof(type, field))

struct td_example {
    const char *command; /* "torchdoctor check --format json" */
    const char *what;    /* what it does */
};

/* A command's whole interface: what --help, the man page and the
 * completions say about it. Lists end with an all-zero entry. */
struct td_args_spec {
    const char *command;  /* "check" */
    const char *operands; /* the operands' synopsis ("FILE..."); NULL when none */
    int min_operands;
    int max_operands; /* -1: any number */
    /* The first operand ends the options: it and all after it are operands
     * (trace's COMMAND [ARG...]). "--" always ends the options. */
    bool operands_end_options;
    const char *description; /* paragraphs, separated by blank lines */
    const struct td_option *options;
    const struct td_example *examples;
    const char *exit_status; /* NULL: td_args_exit_status */
};

/* The operands left once the options are taken out: argv's own strings,
 * moved to its front in their order, followed by a NULL. */
struct td_operands {
    char **v;
    int n;
};

enum { TD_ARGS_CONTINUE = -1 };

/* Parses ARGV (argv[0] is the command's name) by SPEC into ARGS, the
 * command's argument struct. Returns TD_ARGS_CONTINUE when the command
 * should run; else the exit status to return at once: TD_EXIT_OK after
 * --help (printed on stdout), TD_EXIT_USAGE after a message on stderr
 * naming the option and what it accepts. Never exits. */
int td_args_parse(const struct td_args_spec *spec, int argc, char **argv, void *args,
                  struct td_operands *operands);

/* --help: the synopsis, description, options and exit status. */
void td_args_help(const struct td_args_spec *spec, FILE *out);

/* For the generators: the I-th accepted value of a TD_ARG_CHOICE option
 * into OUT; false past the last. */
bool td_args_choice(const struct td_option *o, size_t i, char *out, size_t cap);
/* What an option accepts and its default, as help shows it after the
 * text ("one of text, json, markdown; default text"); "" when nothing. */
void td_args_accepts(const struct td_option *o, char *out, size_t cap);
/* The synopsis of an option as usage shows it ("--format text|json"). */
void td_args_synopsis(const struct td_option *o, char *out, size_t cap);
/* The exit statuses most commands share (DESIGN.md), as a sentence. */
extern const char td_args_exit_status[];
/* The implicit -h/--help every command has. */
extern const struct td_option td_args_help_option;

/* Options several commands share, written once. */
extern const char *const td_color_choices[];
/* --platform's values where a command models or reads another platform
 * (deps, explain): auto and the three the loaders know. */
extern const char *const td_platform_choices[];
#define TD_OPT_COLOR(T, F)                                                                         \
    {                                                                                              \
        .name = "--color", .type = TD_ARG_CHOICE, .value = "WHEN", .choices = td_color_choices,    \
        .def = "auto",                                                                             \
        .help = "colour the text report: auto colours only a terminal, and never when NO_COLOR "   \
                "is set",                                                                          \
        .at = TD_AT(T, F, const char *)                                                            \
    }
/* The GPU probe's two options (check, snapshot): the driver is loaded only
 * in a child, with a timeout. */
#define TD_OPT_NO_GPU(T, F)                                                                        \
    {                                                                                              \
        .name = "--no-gpu", .type = TD_ARG_FLAG,                                                   \
        .help = "do not load the NVIDIA driver, even in a child", .at = TD_AT(T, F, bool)          \
    }
#define TD_OPT_DRIVER_TIMEOUT(T, F)                                                                \
    {                                                                                              \
        .name = "--timeout", .type = TD_ARG_INT, .value = "MS", .min = 1, .max = 3600000,          \
        .def = "5000", .help = "how long the driver probe may take, in milliseconds",              \
        .at = TD_AT(T, F, int)                                                                     \
    }
#define TD_OPT_FORMAT(T, F, formats, text)                                                         \
    {                                                                                              \
        .name = "--format", .type = TD_ARG_CHOICE, .value = "F", .choices = formats,               \
        .def = "text", .help = text, .at = TD_AT(T, F, const char *)                               \
    }

#endif
