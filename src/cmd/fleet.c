/* torchdoctor fleet: many nodes' check and bench reports (files, folders,
 * JSON Lines on stdin, or gathered through srun with --slurm) aggregated
 * into groups of identical environments, outliers with what differs and
 * the one fix, slow and failed nodes (probe/fleet/fleet.h). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/map.h"
#include "cmd/args.h"
#include "cmd/cmd.h"
#include "probe/fleet/fleet.h"
#include "probe/fleet/slurm.h"
#include "report/fleet.h"

struct fleet_args {
    const char *format, *color, *program, *srun, *expect;
    bool slurm, bench;
    int timeout_s;
};

static const char *const fleet_formats[] = {"text", "json", "markdown", "html", NULL};

#define AT(field, ctype) TD_AT(struct fleet_args, field, ctype)
static const struct td_option fleet_options[] = {
    {.name = "--slurm",
     .type = TD_ARG_FLAG,
     .help = "run `srun -l --ntasks-per-node=1 [SRUN-ARGS] torchdoctor check --format jsonl` and "
             "aggregate what the nodes send; the operands (after --) are srun's arguments",
     .at = AT(slurm, bool)},
    {.name = "--bench",
     .type = TD_ARG_FLAG,
     .help = "with --slurm: also run `bench --quick` on every node, for the slow-node figures",
     .at = AT(bench, bool)},
    {.name = "--expect",
     .type = TD_ARG_STRING,
     .value = "HOSTLIST",
     .help = "the nodes that should report, in Slurm hostlist notation (gpu[001-064]); each one "
             "no report names is reported missing (with --slurm, srun's -w/--nodelist does it)",
     .at = AT(expect, const char *)},
    {.name = "--program",
     .type = TD_ARG_STRING,
     .value = "PATH",
     .help = "with --slurm: torchdoctor as the nodes find it (default: this program's own path, "
             "which a shared file system makes the same everywhere)",
     .at = AT(program, const char *)},
    {.name = "--srun",
     .type = TD_ARG_STRING,
     .value = "PATH",
     .def = "srun",
     .help = "with --slurm: the srun program",
     .at = AT(srun, const char *)},
    {.name = "--timeout",
     .type = TD_ARG_INT,
     .value = "SEC",
     .min = 1,
     .max = 86400,
     .def = "600",
     .help = "with --slurm: stop srun after SEC seconds; nodes that had not reported are "
             "reported as timed out",
     .at = AT(timeout_s, int)},
    TD_OPT_FORMAT(struct fleet_args, format, fleet_formats,
                  "the report's form: text, json (docs/schema.md), markdown or html"),
    TD_OPT_COLOR(struct fleet_args, color),
    {0},
};
#undef AT

static const struct td_example fleet_examples[] = {
    {"torchdoctor fleet reports/", "every *.json and *.jsonl report in a folder"},
    {"srun -l --ntasks-per-node=1 torchdoctor check --format jsonl | torchdoctor fleet -",
     "the nodes' reports as they come from srun"},
    {"torchdoctor fleet --slurm -- -N 64 -p gpu", "the same, srun run by fleet"},
    {"torchdoctor fleet --format html check/ bench/ > fleet.html",
     "check and bench paired by host"},
    {0},
};

const struct td_args_spec td_fleet_args = {
    .command = "fleet",
    .operands = "REPORT... | --slurm [-- SRUN-ARGS...]",
    .min_operands = 0,
    .max_operands = -1,
    .description =
        "Reads many nodes' `check` and `bench` JSON reports (files, folders of *.json and "
        "*.jsonl, or JSON Lines on stdin as `-`, `srun -l` labels understood), pairs each "
        "node's reports by host, and groups the nodes by their environment's fingerprint: "
        "driver, GPU count and model, CUDA runtime, torch build, NCCL, Python, glibc, kernel. "
        "The largest group is the fleet's majority; every other group is an outlier, named in "
        "Slurm hostlist notation (gpu[001-063]) with each field that differs and its one fix. "
        "A node whose bench figure is below the fleet's median by more than 10% and by more "
        "than two median absolute deviations is slow.\n\n"
        "A report that cannot be read is named on stderr with why, and the others are still "
        "aggregated. With --slurm, a node whose task failed or did not finish in time is "
        "reported as such, not dropped (docs/fleet.md).",
    .options = fleet_options,
    .examples = fleet_examples,
    .exit_status = "0 the nodes agree and none failed, 1 an outlier, a failed node or another "
                   "error finding, 2 bad usage or no report could be read at all (a bad report "
                   "among good ones is named on stderr and does not change the status).",
};

/* One file: mapped and read. */
static void read_file(struct td_fleet *f, const char *path)
{
    struct td_map m;
    struct td_err err = {0};
    if (td_map_open(path, &m, &err) != 0) {
        size_t n = strlen(path); /* the message names the file already: "PATH: cannot open" */
        bool named = strncmp(err.msg, path, n) == 0 && err.msg[n] == ':' && err.msg[n + 1] == ' ';
        td_fleet_problem(f, path, named ? err.msg + n + 2 : err.msg);
        return;
    }
    if (m.size == 0)
        td_fleet_problem(f, path, "empty file");
    else
        td_fleet_read(f, path, (const char *)m.data, m.size);
    td_map_close(&m);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool is_report_name(const char *name)
{
    size_t n = strlen(name);
    return (n > 5 && strcmp(name + n - 5, ".json") == 0) ||
           (n > 6 && strcmp(name + n - 6, ".jsonl") == 0);
}

/* A folder: its *.json and *.jsonl files, in name order. */
static void read_dir(struct td_fleet *f, const char *path)
{
    DIR *d = opendir(path);
    if (!d) {
        td_fleet_problem(f, path, "cannot open the folder");
        return;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (!is_report_name(e->d_name))
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 256;
            char **g = realloc(names, cap * sizeof *g);
            if (!g)
                break;
            names = g;
        }
        size_t len = strlen(path) + strlen(e->d_name) + 2;
        if ((names[n] = malloc(len)))
            snprintf(names[n++], len, "%s/%s", path, e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; i++) {
        read_file(f, names[i]);
        free(names[i]);
    }
    free(names);
}

static void read_stdin(struct td_fleet *f)
{
    size_t len = 0, cap = 1 << 20;
    char *buf = malloc(cap);
    for (size_t n; buf && (n = fread(buf + len, 1, cap - len, stdin)) > 0;) {
        len += n;
        if (len == cap) {
            char *g = realloc(buf, cap *= 2);
            if (!g) {
                td_fleet_problem(f, "stdin", "out of memory");
                free(buf);
                return;
            }
            buf = g;
        }
    }
    if (buf && len)
        td_fleet_read(f, "stdin", buf, len);
    else
        td_fleet_problem(f, "stdin", "no input");
    free(buf);
}

static void progress(void *ctx, unsigned long reports, unsigned long errors)
{
    fprintf(stderr, "\r\033[Kfleet: %lu line%s from the nodes, %lu from srun on stderr", reports,
            reports == 1 ? "" : "s", errors);
    fflush(stderr);
}

static int run_slurm(const struct fleet_args *a, const struct td_operands *ops, struct td_fleet *f)
{
    char self[4096];
    const char *program = a->program;
    if (!program) {
#ifdef _WIN32
        ssize_t n = 0; /* Slurm runs on Linux: the runner says so */
#else
        ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
#endif
        if (n <= 0) {
            fprintf(stderr, "torchdoctor fleet: cannot tell this program's path: give --program\n");
            return TD_EXIT_USAGE;
        }
        self[n] = '\0';
        program = self;
    }
    struct td_fleet_slurm_request q = {.srun = a->srun,
                                       .program = program,
                                       .srun_args = (const char *const *)ops->v,
                                       .bench = a->bench,
                                       .timeout_s = a->timeout_s,
                                       .progress = isatty(2) ? progress : NULL};
    td_fleet_slurm(&q, f);
    if (q.progress)
        fprintf(stderr, "\r\033[K");
    fprintf(stderr, "torchdoctor fleet: %zu report%s from srun\n", f->reports_read,
            f->reports_read == 1 ? "" : "s");
    return TD_ARGS_CONTINUE;
}

/* srun's -w LIST, -wLIST, --nodelist=LIST or --nodelist LIST. */
static const char *srun_nodelist(const struct td_operands *ops)
{
    for (int i = 0; i < ops->n; i++) {
        const char *s = ops->v[i];
        if ((strcmp(s, "-w") == 0 || strcmp(s, "--nodelist") == 0) && i + 1 < ops->n)
            return ops->v[i + 1];
        if (strncmp(s, "--nodelist=", 11) == 0)
            return s + 11;
        if (strncmp(s, "-w", 2) == 0 && s[2])
            return s + 2;
    }
    return NULL;
}

static void render(const struct fleet_args *a, const struct td_fleet *f)
{
    if (strcmp(a->format, "json") == 0) {
        td_fleet_json(f, stdout);
    } else if (strcmp(a->format, "markdown") == 0) {
        td_fleet_markdown(f, stdout);
    } else if (strcmp(a->format, "html") == 0) {
        td_fleet_html(f, stdout);
    } else {
        struct td_term t;
        td_term_init(&t, stdout, a->color);
        td_fleet_text(f, &t);
    }
    fflush(stdout);
}

int td_cmd_fleet(int argc, char **argv)
{
    struct fleet_args a = {0};
    struct td_operands ops;
    int rc = td_args_parse(&td_fleet_args, argc, argv, &a, &ops);
    if (rc != TD_ARGS_CONTINUE)
        return rc;
    if (!a.slurm && ops.n == 0) {
        fprintf(stderr, "torchdoctor fleet: name the reports (files, folders, - for stdin), or "
                        "give --slurm\n");
        return TD_EXIT_USAGE;
    }
    struct td_fleet f = {.arena = {.cap = (size_t)1 << 30}};
    if (a.slurm) {
        if ((rc = run_slurm(&a, &ops, &f)) != TD_ARGS_CONTINUE)
            return rc;
    } else {
        for (int i = 0; i < ops.n; i++) {
            struct stat st;
            if (strcmp(ops.v[i], "-") == 0)
                read_stdin(&f);
            else if (stat(ops.v[i], &st) == 0 && S_ISDIR(st.st_mode))
                read_dir(&f, ops.v[i]);
            else
                read_file(&f, ops.v[i]);
        }
    }
    const char *expect = a.expect ? a.expect : a.slurm ? srun_nodelist(&ops) : NULL;
    const char *bad = expect ? td_fleet_expect(&f, expect) : NULL;
    if (bad) {
        fprintf(stderr, "torchdoctor fleet: --expect '%s': %s\n", expect, bad);
        td_fleet_free(&f);
        return TD_EXIT_USAGE;
    }
    for (size_t i = 0; i < f.n_problems; i++)
        fprintf(stderr, "torchdoctor fleet: %s: %s\n", f.problems[i].where, f.problems[i].what);
    if (f.n_nodes == 0) {
        fprintf(stderr, "torchdoctor fleet: no report could be read\n");
        td_fleet_free(&f);
        return TD_EXIT_USAGE;
    }
    td_fleet_analyze(&f);
    render(&a, &f);
    rc = td_findings_count(&f.findings, TD_SEV_ERROR) ? TD_EXIT_FINDINGS : TD_EXIT_OK;
    td_fleet_free(&f);
    return rc;
}
