/* Shell completions for bash, zsh and fish, written from the option tables
 * (cmd/args.h): the commands, each command's options, and the values of
 * those that take a fixed set (formats, profiles, workloads from the data
 * table). The build runs the hidden `torchdoctor __completion SHELL`. */
#include <stdio.h>
#include <string.h>

#include "cmd/args.h"
#include "cmd/cmd.h"

static bool public_command(const struct td_command *c)
{
    return c->summary && c->args;
}

static bool takes_value(const struct td_option *o)
{
    return o->type != TD_ARG_FLAG;
}

/* The accepted values separated by SEP ("a b c"); "" for a free value. */
static void values_of(const struct td_option *o, const char *sep, char *out, size_t cap)
{
    char v[128];
    size_t len = 0;
    out[0] = '\0';
    for (size_t i = 0; o->type == TD_ARG_CHOICE && td_args_choice(o, i, v, sizeof v); i++)
        if (len < cap)
            len += (size_t)snprintf(out + len, cap - len, "%s%s", i ? sep : "", v);
}

/* The help text's first clause, for the shells that show one: up to a
 * ';', '(', ':' or ". ", cut at a word before 60 characters. */
static void short_help(const char *help, char *out, size_t cap)
{
    size_t n = strcspn(help, ";(:");
    const char *stop = strstr(help, ". ");
    if (stop && (size_t)(stop - help) < n)
        n = (size_t)(stop - help);
    if (n > 60) {
        n = 60;
        while (n > 0 && help[n] != ' ')
            n--;
    }
    while (n > 0 && (help[n - 1] == ' ' || help[n - 1] == ','))
        n--;
    snprintf(out, cap, "%.*s", (int)n, help);
}

/* ---- bash ---- */

static void bash_words(FILE *out, const struct td_args_spec *s)
{
    for (const struct td_option *o = s->options; o->name; o++) {
        if (o->alias)
            fprintf(out, "-%c ", o->alias);
        fprintf(out, "%s ", o->name);
    }
    fputs("--help", out);
}

static void bash_values(FILE *out, const struct td_args_spec *s)
{
    for (const struct td_option *o = s->options; o->name; o++) {
        if (!takes_value(o))
            continue;
        char values[4096];
        values_of(o, " ", values, sizeof values);
        fputs("        ", out);
        if (o->alias)
            fprintf(out, "-%c|", o->alias);
        if (values[0])
            fprintf(out, "%s) _torchdoctor_words \"%s\"; return 0 ;;\n", o->name, values);
        else if (o->type == TD_ARG_FILE)
            fprintf(out, "%s) _torchdoctor_files -f; return 0 ;;\n", o->name);
        else if (o->type == TD_ARG_DIR)
            fprintf(out, "%s) _torchdoctor_files -d; return 0 ;;\n", o->name);
        else
            fprintf(out, "%s) return 0 ;;\n", o->name);
    }
}

static void bash_command(FILE *out, const struct td_command *c)
{
    const struct td_args_spec *s = c->args;
    fprintf(out, "    %s)\n        case $prev in\n", c->name);
    bash_values(out, s);
    fputs("        esac\n", out);
    if (s->operands_end_options)
        fputs("        _torchdoctor_after_operand && { _torchdoctor_files -c; return 0; }\n", out);
    fputs("        if [[ $cur == -* ]]; then\n            _torchdoctor_words \"", out);
    bash_words(out, s);
    fputs("\"\n", out);
    if (s->operands && s->operands_end_options)
        fputs("        else\n            _torchdoctor_files -c\n", out);
    else if (s->operands && strstr(s->operands, "FILE"))
        fputs("        else\n            _torchdoctor_files -f\n", out);
    fputs("        fi\n        ;;\n", out);
}

static void bash_script(FILE *out)
{
    fputs("# bash completion for torchdoctor, written from its option tables by\n"
          "# `torchdoctor __completion bash` (src/cmd/args_complete.c).\n"
          "_torchdoctor_words()\n{\n"
          "    COMPREPLY=($(compgen -W \"$1\" -- \"$cur\"))\n}\n\n"
          "_torchdoctor_files()\n{\n"
          "    local IFS=$'\\n'\n"
          "    COMPREPLY=($(compgen \"$1\" -- \"$cur\"))\n"
          "    compopt -o filenames 2>/dev/null\n}\n\n"
          "# True when a word before the current one ended the options (trace).\n"
          "_torchdoctor_after_operand()\n{\n"
          "    local i\n"
          "    for ((i = 2; i < COMP_CWORD; i++)); do\n"
          "        [[ ${COMP_WORDS[i]} == -- ]] && return 0\n"
          "    done\n"
          "    return 1\n}\n\n"
          "_torchdoctor()\n{\n"
          "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
          "    COMPREPLY=()\n"
          "    # --opt=value: bash splits at the '='\n"
          "    if [[ $cur == = ]]; then\n"
          "        cur=\n"
          "    elif [[ $prev == = ]]; then\n"
          "        prev=${COMP_WORDS[COMP_CWORD-2]}\n"
          "    fi\n"
          "    if ((COMP_CWORD == 1)); then\n"
          "        _torchdoctor_words \"",
          out);
    for (const struct td_command *c = td_commands; c->name; c++)
        if (public_command(c))
            fprintf(out, "%s ", c->name);
    fputs("--help --version\"\n        return 0\n    fi\n    case ${COMP_WORDS[1]} in\n", out);
    for (const struct td_command *c = td_commands; c->name; c++)
        if (public_command(c))
            bash_command(out, c);
    fputs("    esac\n    return 0\n}\n\ncomplete -F _torchdoctor torchdoctor\n", out);
}

/* ---- zsh ---- */

/* TEXT inside a single-quoted _arguments spec: quotes closed and reopened,
 * and the characters _arguments reads ([ ] :) escaped. */
static void zsh_quoted(FILE *out, const char *text)
{
    for (const char *p = text; *p; p++) {
        if (*p == '\'')
            fputs("'\\''", out);
        else if (*p == '[' || *p == ']' || *p == ':' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else
            fputc(*p, out);
    }
}

static void zsh_option(FILE *out, const struct td_option *o)
{
    char help[128], values[4096];
    short_help(o->help, help, sizeof help);
    fputs("        ", out);
    if (o->alias)
        fprintf(out, "'(-%c %s)'{-%c,%s}'", o->alias, o->name, o->alias, o->name);
    else
        fprintf(out, "'%s%s", o->repeat ? "*" : "", o->name);
    fputc('[', out);
    zsh_quoted(out, help);
    fputc(']', out);
    if (takes_value(o)) {
        values_of(o, " ", values, sizeof values);
        fprintf(out, ":%s:", o->value);
        if (values[0])
            fprintf(out, "(%s)", values);
        else if (o->type == TD_ARG_FILE)
            fputs("_files", out);
        else if (o->type == TD_ARG_DIR)
            fputs("_files -/", out);
        else
            fputc(' ', out);
    }
    fputs("' \\\n", out);
}

static void zsh_command(FILE *out, const struct td_command *c)
{
    const struct td_args_spec *s = c->args;
    fprintf(out, "    %s)\n        _arguments -s \\\n", c->name);
    for (const struct td_option *o = s->options; o->name; o++)
        zsh_option(out, o);
    fputs("        '(- *)'{-h,--help}'[show the help]'", out);
    if (s->operands_end_options)
        fputs(" \\\n        '*::command:_normal'", out);
    else if (s->operands && strstr(s->operands, "FILE"))
        fputs(" \\\n        '*:file:_files'", out);
    else if (s->operands)
        fputs(" \\\n        '*:text: '", out);
    fputs("\n        ;;\n", out);
}

static void zsh_script(FILE *out)
{
    fputs("#compdef torchdoctor\n"
          "# zsh completion for torchdoctor, written from its option tables by\n"
          "# `torchdoctor __completion zsh` (src/cmd/args_complete.c).\n\n"
          "_torchdoctor() {\n"
          "    local -a commands\n"
          "    commands=(\n",
          out);
    for (const struct td_command *c = td_commands; c->name; c++)
        if (public_command(c)) {
            fprintf(out, "        '%s:", c->name);
            zsh_quoted(out, c->summary);
            fputs("'\n", out);
        }
    fputs("    )\n"
          "    if ((CURRENT == 2)); then\n"
          "        _describe -t commands 'torchdoctor command' commands\n"
          "        return\n"
          "    fi\n"
          "    local cmd=$words[2]\n"
          "    shift words\n"
          "    ((CURRENT--))\n"
          "    case $cmd in\n",
          out);
    for (const struct td_command *c = td_commands; c->name; c++)
        if (public_command(c))
            zsh_command(out, c);
    fputs("    esac\n}\n\n_torchdoctor \"$@\"\n", out);
}

/* ---- fish ---- */

static void fish_quoted(FILE *out, const char *text)
{
    fputc('\'', out);
    for (const char *p = text; *p; p++) {
        if (*p == '\'' || *p == '\\')
            fputc('\\', out);
        fputc(*p, out);
    }
    fputc('\'', out);
}

static void fish_option(FILE *out, const char *command, const struct td_option *o)
{
    char help[128], values[4096];
    short_help(o->help, help, sizeof help);
    fprintf(out, "complete -c torchdoctor -n '__fish_seen_subcommand_from %s' -l %s", command,
            o->name + 2);
    if (o->alias)
        fprintf(out, " -s %c", o->alias);
    if (takes_value(o)) {
        values_of(o, " ", values, sizeof values);
        if (values[0])
            fprintf(out, " -x -a '%s'", values);
        else if (o->type == TD_ARG_FILE)
            fputs(" -r -F", out);
        else if (o->type == TD_ARG_DIR)
            fputs(" -x -a '(__fish_complete_directories)'", out);
        else
            fputs(" -x", out);
    }
    fputs(" -d ", out);
    fish_quoted(out, help);
    fputc('\n', out);
}

static void fish_script(FILE *out)
{
    fputs("# fish completion for torchdoctor, written from its option tables by\n"
          "# `torchdoctor __completion fish` (src/cmd/args_complete.c).\n"
          "complete -c torchdoctor -f\n"
          "complete -c torchdoctor -n __fish_use_subcommand -l help -s h -d 'show the help'\n"
          "complete -c torchdoctor -n __fish_use_subcommand -l version -d 'print the version'\n",
          out);
    for (const struct td_command *c = td_commands; c->name; c++) {
        if (!public_command(c))
            continue;
        fprintf(out, "complete -c torchdoctor -n __fish_use_subcommand -a %s -d ", c->name);
        fish_quoted(out, c->summary);
        fputc('\n', out);
    }
    for (const struct td_command *c = td_commands; c->name; c++) {
        if (!public_command(c))
            continue;
        const struct td_args_spec *s = c->args;
        for (const struct td_option *o = s->options; o->name; o++)
            fish_option(out, c->name, o);
        if (s->operands && (strstr(s->operands, "FILE") || s->operands_end_options))
            fprintf(out, "complete -c torchdoctor -n '__fish_seen_subcommand_from %s' -F\n",
                    c->name);
    }
}

static const struct td_option completion_options[] = {{0}};

static const struct td_args_spec completion_spec = {
    .command = "__completion",
    .operands = "bash|zsh|fish",
    .min_operands = 1,
    .max_operands = 1,
    .description = "Writes the completion script for the shell on standard output (the build "
                   "runs this).",
    .options = completion_options,
};

int td_cmd_completion(int argc, char **argv)
{
    struct td_operands shell;
    int status = td_args_parse(&completion_spec, argc, argv, NULL, &shell);
    if (status != TD_ARGS_CONTINUE)
        return status;
    const char *s = shell.v[0];
    if (strcmp(s, "bash") == 0)
        bash_script(stdout);
    else if (strcmp(s, "zsh") == 0)
        zsh_script(stdout);
    else if (strcmp(s, "fish") == 0)
        fish_script(stdout);
    else {
        fprintf(stderr,
                "torchdoctor __completion: the shell must be one of bash, zsh, fish "
                "(got '%s')\n",
                s);
        return TD_EXIT_USAGE;
    }
    return TD_EXIT_OK;
}
