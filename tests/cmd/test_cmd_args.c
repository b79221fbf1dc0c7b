/* The option parser (src/cmd/args.c) on a table of its own, then every
 * command's real table: each choice accepted and a foreign value refused,
 * each range's ends, each default accepted by its own option, and the
 * values issue 12 found wrongly accepted. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/args.h"
#include "cmd/cmd.h"

struct demo_args {
    const char *format, *root, *python, *env;
    bool quiet;
    int level;
    double seconds;
    struct td_arg_list dirs;
};

static const char *const demo_formats[] = {"text", "json", NULL};

static const char *env_check(const char *v)
{
    return strchr(v, '=') ? NULL : "NAME=VALUE";
}

#define AT(field, ctype) TD_AT(struct demo_args, field, ctype)
static const struct td_option demo_options[] = {
    TD_OPT_FORMAT(struct demo_args, format, demo_formats, "the form"),
    {.name = "--root",
     .type = TD_ARG_DIR,
     .value = "DIR",
     .must_exist = true,
     .help = "a root",
     .at = AT(root, const char *)},
    {.name = "--python",
     .alias = 'p',
     .type = TD_ARG_FILE,
     .value = "EXE",
     .must_exist = true,
     .help = "an interpreter",
     .at = AT(python, const char *)},
    {.name = "--env",
     .type = TD_ARG_STRING,
     .value = "NAME=VALUE",
     .check = env_check,
     .help = "a variable",
     .at = AT(env, const char *)},
    {.name = "--quiet", .type = TD_ARG_FLAG, .help = "quiet", .at = AT(quiet, bool)},
    {.name = "--level",
     .type = TD_ARG_INT,
     .value = "N",
     .min = 1,
     .max = 4,
     .def = "2",
     .help = "a level",
     .at = AT(level, int)},
    {.name = "--seconds",
     .type = TD_ARG_NUMBER,
     .value = "S",
     .min = 0.5,
     .max = 10,
     .help = "a time",
     .at = AT(seconds, double)},
    {.name = "--dir",
     .type = TD_ARG_DIR,
     .value = "DIR",
     .repeat = true,
     .help = "a directory",
     .at = AT(dirs, struct td_arg_list)},
    {0},
};
#undef AT

static const struct td_args_spec demo = {
    .command = "demo",
    .operands = "FILE...",
    .max_operands = 2,
    .options = demo_options,
};

/* Parses the words of LINE (at most 31) by SPEC into ARGS. */
static int parse(const struct td_args_spec *spec, const char *line, void *args,
                 struct td_operands *ops)
{
    static char buf[4096];
    static char *argv[33];
    snprintf(buf, sizeof buf, "%s", line);
    int argc = 0;
    argv[argc++] = (char *)spec->command;
    for (char *w = strtok(buf, " "); w && argc < 32; w = strtok(NULL, " "))
        argv[argc++] = w;
    argv[argc] = NULL;
    struct td_operands none;
    return td_args_parse(spec, argc, argv, args, ops ? ops : &none);
}

static void values_land_in_their_fields(void **state)
{
    struct demo_args a = {0};
    struct td_operands ops;
    int rc = parse(&demo,
                   "x --format=json --root / -p /bin/sh --quiet --level 4 --seconds 0.5 "
                   "--dir /a --dir /b --env A=1 y",
                   &a, &ops);
    assert_int_equal(rc, TD_ARGS_CONTINUE);
    assert_string_equal(a.format, "json");
    assert_string_equal(a.root, "/");
    assert_string_equal(a.python, "/bin/sh");
    assert_string_equal(a.env, "A=1");
    assert_true(a.quiet);
    assert_int_equal(a.level, 4);
    assert_true(a.seconds == 0.5);
    assert_int_equal(a.dirs.n, 2);
    assert_string_equal(a.dirs.items[1], "/b");
    assert_int_equal(ops.n, 2);
    assert_string_equal(ops.v[0], "x");
    assert_string_equal(ops.v[1], "y");
    assert_null(ops.v[2]);
}

static void defaults_apply_without_the_option(void **state)
{
    struct demo_args a = {0};
    assert_int_equal(parse(&demo, "", &a, NULL), TD_ARGS_CONTINUE);
    assert_string_equal(a.format, "text");
    assert_int_equal(a.level, 2);
    assert_null(a.root);
    assert_false(a.quiet);
}

static void bad_usage_is_exit_2(void **state)
{
    static const char *const bad[] = {
        "--format xml",          /* not a choice */
        "--format",              /* no value */
        "--level 0",             /* below the range */
        "--level 5",             /* above it */
        "--level 2x",            /* not a number */
        "--level ''",            /* not a number either */
        "--seconds abc",         /* not a number */
        "--seconds 0.4",         /* below the range */
        "--seconds inf",         /* not finite */
        "--root /nonexistent",   /* a directory that is not there */
        "--root /bin/sh",        /* a file, not a directory */
        "--python /nonexistent", /* a file that is not there */
        "--python /",            /* a directory, not a file */
        "--env PATH",            /* refused by its own check */
        "--quiet=yes",           /* a flag takes no value */
        "--bogus",               /* unknown */
        "-x",                    /* unknown alias */
        "-pq",                   /* aliases are not bundled */
        "a b c",                 /* more operands than the command takes */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct demo_args a = {0};
        int rc = parse(&demo, bad[i], &a, NULL);
        if (rc != TD_EXIT_USAGE)
            fail_msg("'%s' gave %d, not exit 2", bad[i], rc);
    }
}

static void double_dash_ends_options(void **state)
{
    struct demo_args a = {0};
    struct td_operands ops;
    assert_int_equal(parse(&demo, "-- --quiet -", &a, &ops), TD_ARGS_CONTINUE);
    assert_false(a.quiet);
    assert_int_equal(ops.n, 2);
    assert_string_equal(ops.v[0], "--quiet");
    assert_string_equal(ops.v[1], "-");
}

static void help_is_exit_0(void **state)
{
    struct demo_args a = {0};
    FILE *saved = stdout;
    stdout = fopen("/dev/null", "w");
    int rc = parse(&demo, "--level 9 --help", &a, NULL); /* the bad level comes first */
    int rc2 = parse(&demo, "-h", &a, NULL);
    fclose(stdout);
    stdout = saved;
    assert_int_equal(rc, TD_EXIT_USAGE);
    assert_int_equal(rc2, TD_EXIT_OK);
}

/* ---- the real tables ---- */

/* Room for any command's argument struct: the parser writes only where
 * the table says, and these lines are refused or stored and dropped. */
static union {
    max_align_t align;
    char bytes[1 << 16];
} room;

static int parse_real(const struct td_args_spec *spec, const char *line)
{
    memset(&room, 0, sizeof room);
    char with_operand[1024];
    /* Commands that need operands get one that exists. */
    snprintf(with_operand, sizeof with_operand, "%s%s", line,
             spec->min_operands > 0 ? " /bin/sh" : "");
    return parse(spec, with_operand, &room, NULL);
}

static void issue_12_values_are_refused(void **state)
{
    struct {
        const struct td_args_spec *spec;
        const char *line;
    } bad[] = {
        {&td_check_args, "--color bogus"},       {&td_check_args, "--timeout abc"},
        {&td_deps_args, "--cpu-level 9"},        {&td_deps_args, "--profile bogus"},
        {&td_deps_args, "--platform solaris"},   {&td_deps_args, "--python /nonexistent"},
        {&td_check_args, "--root /nonexistent"}, {&td_check_args, "stray"},
        {&td_compat_args, "--os macos"},         {&td_check_args, "--workload nope"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc = parse_real(bad[i].spec, bad[i].line);
        if (rc != TD_EXIT_USAGE)
            fail_msg("%s %s gave %d, not exit 2", bad[i].spec->command, bad[i].line, rc);
    }
    assert_int_equal(parse_real(&td_deps_args, "--profile auto"), TD_ARGS_CONTINUE);
    assert_int_equal(parse_real(&td_check_args, "--color always"), TD_ARGS_CONTINUE);
}

static void each_table_accepts_its_values_and_only_them(void **state)
{
    for (const struct td_command *c = td_commands; c->name; c++) {
        if (!c->args)
            continue;
        for (const struct td_option *o = c->args->options; o->name; o++) {
            char line[1024], v[128];
            assert_non_null(o->help);
            assert_true(strncmp(o->name, "--", 2) == 0);
            assert_true((o->type == TD_ARG_FLAG) == (o->value == NULL));
            if (o->def) {
                snprintf(line, sizeof line, "%s %s", o->name, o->def);
                if (parse_real(c->args, line) != TD_ARGS_CONTINUE)
                    fail_msg("%s: the default of %s is refused", c->name, o->name);
            }
            for (size_t i = 0; td_args_choice(o, i, v, sizeof v); i++) {
                snprintf(line, sizeof line, "%s=%s", o->name, v);
                if (parse_real(c->args, line) != TD_ARGS_CONTINUE)
                    fail_msg("%s: %s is refused", c->name, line);
            }
            if (o->type == TD_ARG_CHOICE || o->type == TD_ARG_INT || o->type == TD_ARG_NUMBER) {
                snprintf(line, sizeof line, "%s no-such-value", o->name);
                if (parse_real(c->args, line) != TD_EXIT_USAGE)
                    fail_msg("%s: %s is accepted", c->name, line);
            }
            if (o->type == TD_ARG_INT || o->type == TD_ARG_NUMBER) {
                snprintf(line, sizeof line, "%s %.15g", o->name, o->max);
                assert_int_equal(parse_real(c->args, line), TD_ARGS_CONTINUE);
                snprintf(line, sizeof line, "%s %.15g", o->name, o->max + 1);
                assert_int_equal(parse_real(c->args, line), TD_EXIT_USAGE);
                snprintf(line, sizeof line, "%s %.15g", o->name, o->min);
                assert_int_equal(parse_real(c->args, line), TD_ARGS_CONTINUE);
            }
            if (o->type == TD_ARG_FLAG) {
                snprintf(line, sizeof line, "%s", o->name);
                assert_int_equal(parse_real(c->args, line), TD_ARGS_CONTINUE);
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(values_land_in_their_fields),
        cmocka_unit_test(defaults_apply_without_the_option),
        cmocka_unit_test(bad_usage_is_exit_2),
        cmocka_unit_test(double_dash_ends_options),
        cmocka_unit_test(help_is_exit_0),
        cmocka_unit_test(issue_12_values_are_refused),
        cmocka_unit_test(each_table_accepts_its_values_and_only_them),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
