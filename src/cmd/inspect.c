/* torchdoctor inspect FILE...: what a binary declares (readelf -d, dumpbin
 * /headers /imports /exports, otool -L -l), one view for ELF, PE, Mach-O
 * (thin or universal) and the native members of wheels. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/compat.h"
#include "base/finding.h"
#include "base/map.h"
#include "cmd/args.h"
#include "cmd/cmd.h"
#include "format/detect.h"
#include "format/zip.h"
#include "report/envelope.h"
#include "report/inspect.h"

struct inspect_run {
    struct td_view view;
    struct td_inspect_opts opts;
    struct td_findings findings;
    int failures;             /* files that could not be read or parsed */
    const struct td_map *map; /* the file being described, to ask whether it shrank */
};

struct inspect_args {
    const char *format, *color;
    bool symbols, verbose;
};

static const char *const inspect_formats[] = {"text", "json", NULL};

#define AT(field, ctype) TD_AT(struct inspect_args, field, ctype)
static const struct td_option inspect_options[] = {
    {.name = "--symbols",
     .type = TD_ARG_FLAG,
     .help = "list every dynamic symbol, import and export",
     .at = AT(symbols, bool)},
    {.name = "--verbose",
     .type = TD_ARG_FLAG,
     .help = "also say in which section each CUDA fat binary entry lies",
     .at = AT(verbose, bool)},
    TD_OPT_FORMAT(struct inspect_args, format, inspect_formats,
                  "the report's form: text or json (docs/schema.md)"),
    TD_OPT_COLOR(struct inspect_args, color),
    {0},
};
#undef AT

static const struct td_example inspect_examples[] = {
    {"torchdoctor inspect torch/lib/libtorch_cuda.so", "its soname, needs, runpath, versions"},
    {"torchdoctor inspect ~/models/FLUX.1-dev", "each component's parameters, dtypes and size"},
    {"torchdoctor inspect --format json torch-2.1.2-cp311-cp311-win_amd64.whl",
     "a wheel's members and every DLL inside it, as JSON"},
    {0},
};

const struct td_args_spec td_inspect_args = {
    .command = "inspect",
    .operands = "FILE...",
    .min_operands = 1,
    .max_operands = -1,
    .description =
        "Shows what each binary declares: format, machine, soname or DLL name, needed "
        "libraries, rpath/runpath, symbol versions, imports and exports, version resource, and "
        "for a wheel (.whl) its members and every native library inside. For a model "
        "checkpoint (.safetensors, *.safetensors.index.json, .gguf, or a diffusers or "
        "transformers folder) it reads the headers only: parameters per component, dtypes, "
        "bytes on disk and the memory the weights take at each precision.",
    .options = inspect_options,
    .examples = inspect_examples,
    .exit_status = "0 every file was read, 2 a file was unreadable or malformed.",
};

/* A file (or member) that could not be read: one finding, one message. */
static void record_failure(struct inspect_run *r, const char *path, const char *kind,
                           const char *msg)
{
    r->failures++;
    td_findings_add(&r->findings, TD_SEV_ERROR, kind, path, NULL, NULL, NULL, "%s", msg);
    td_view_str(&r->view, "error", "error", msg);
    fprintf(stderr, "torchdoctor inspect: %s\n", msg);
}

static void describe_buffer(struct inspect_run *r, const char *path, const uint8_t *data,
                            size_t size, int depth);

static void describe_elf(struct inspect_run *r, const char *path, const uint8_t *data, size_t size,
                         struct td_arena *arena, struct td_err *err)
{
    struct td_elf elf;
    if (td_elf_parse(&elf, data, size, arena, err) == 0)
        td_inspect_elf(&r->view, &elf, &r->opts, arena, err);
}

static void describe_pe(struct inspect_run *r, const char *path, const uint8_t *data, size_t size,
                        struct td_arena *arena, struct td_err *err)
{
    struct td_pe pe;
    if (td_pe_parse(&pe, data, size, arena, err) == 0)
        td_inspect_pe(&r->view, &pe, &r->opts, arena, err);
}

static void describe_macho(struct inspect_run *r, const char *path, const uint8_t *data,
                           size_t size, struct td_arena *arena, struct td_err *err)
{
    struct td_macho m;
    if (td_macho_parse(data, size, arena, &m, err) == 0)
        td_inspect_macho(&r->view, &m, &r->opts, arena, err);
}

static void describe_fat(struct inspect_run *r, const char *path, const uint8_t *data, size_t size,
                         struct td_arena *arena, struct td_err *err)
{
    struct td_macho_fat fat;
    td_view_json_str(&r->view, "format", "macho-universal");
    if (td_macho_fat_parse(data, size, arena, &fat, err) != 0)
        return;
    td_view_note(&r->view, "universal Mach-O, %u architectures", fat.nslices);
    td_view_list_begin(&r->view, "slices", NULL);
    for (uint32_t i = 0; i < fat.nslices && !err->set; i++) {
        const struct td_macho_slice *s = &fat.slices[i];
        const char *arch = td_macho_arch_slug(s->cputype, s->cpusubtype);
        char title[128];
        snprintf(title, sizeof title, "slice %u: %s at offset 0x%llx", i, arch ? arch : "unknown",
                 (unsigned long long)s->offset);
        td_view_begin(&r->view, NULL, title);
        td_view_hex(&r->view, "offset", NULL, s->offset);
        td_view_uint(&r->view, "size", NULL, s->size);
        struct td_macho m;
        if (td_macho_parse_slice(data, size, s, arena, &m, err) == 0)
            td_inspect_macho(&r->view, &m, &r->opts, arena, err);
        td_view_end(&r->view);
    }
    td_view_list_end(&r->view);
}

static bool is_native_member(const char *name)
{
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    return strstr(base, ".so") || strstr(base, ".pyd") || strstr(base, ".dll") ||
           strstr(base, ".dylib") || strstr(base, ".exe");
}

/* Inflates (or points at) a native member and describes it as its own file. */
static void describe_member(struct inspect_run *r, const char *wheel, const struct td_zip *z,
                            const struct td_zip_entry *e, int depth)
{
    char path[4096];
    snprintf(path, sizeof path, "%s!%s", wheel, e->name);
    struct td_err err = {0};
    const uint8_t *bytes = NULL;
    size_t len = 0;
    void *inflated = NULL;
    if (e->method == TD_ZIP_STORED) {
        td_zip_stored(z, e, &bytes, &len, &err);
    } else if (e->uncompressed_size > ((uint64_t)4 << 30)) {
        td_err_set(&err, "member %s: declared size %llu is larger than 4 GiB; not inflated",
                   e->name, (unsigned long long)e->uncompressed_size);
    } else if (e->uncompressed_size > 0) {
        len = (size_t)e->uncompressed_size;
        inflated = td_map_scratch(len);
        if (!inflated) {
            td_err_set(&err, "member %s: cannot allocate %zu bytes to inflate it", e->name, len);
        } else if (td_zip_extract(z, e, inflated, len, &err) == 0) {
            bytes = inflated;
        }
    }
    if (err.set) {
        td_view_begin(&r->view, NULL, path);
        td_view_str(&r->view, "path", NULL, path);
        td_err_prefix(&err, "%s: ", wheel);
        record_failure(r, path, TD_KIND_UNREADABLE_FILE, err.msg);
        td_view_end(&r->view);
    } else if (bytes) {
        struct td_inspect_opts whole = r->opts; /* a member's offsets are not the file's */
        r->opts.release = NULL, r->opts.release_ctx = NULL;
        describe_buffer(r, path, bytes, len, depth + 1);
        r->opts = whole;
    }
    if (inflated)
        td_map_scratch_free(inflated, len);
}

static void describe_wheel(struct inspect_run *r, const char *path, const uint8_t *data,
                           size_t size, struct td_arena *arena, struct td_err *err, int depth)
{
    struct td_zip z;
    td_view_json_str(&r->view, "format", depth == 0 ? "wheel" : "zip");
    if (td_zip_open(&z, data, size, arena, err) != 0)
        return;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    struct td_zip_wheel_name wn;
    struct td_err name_err = {0};
    if (td_zip_wheel_parse_name(&wn, base, strlen(base), arena, &name_err) == 0) {
        td_view_begin(&r->view, "wheel", NULL);
        td_view_str(&r->view, "name", "wheel", wn.name);
        td_view_str(&r->view, "version", "version", wn.version);
        td_view_str(&r->view, "python_tag", "python tag", wn.python.text);
        td_view_str(&r->view, "abi_tag", "abi tag", wn.abi.text);
        td_view_str(&r->view, "platform_tag", "platform tag", wn.platform.text);
        td_view_end(&r->view);
    }
    size_t native = 0;
    td_view_list_begin(&r->view, "members", "members");
    for (size_t i = 0; i < z.count; i++) {
        const struct td_zip_entry *e = &z.entries[i];
        bool is_native = !td_zip_is_dir(e) && is_native_member(e->name);
        native += is_native;
        td_view_row_begin(&r->view);
        td_view_str(&r->view, "name", NULL, e->name);
        td_view_uint(&r->view, "size", "size", e->uncompressed_size);
        td_view_uint(&r->view, "compressed_size", "compressed", e->compressed_size);
        td_view_str(&r->view, "method", NULL,
                    e->method == TD_ZIP_STORED     ? "stored"
                    : e->method == TD_ZIP_DEFLATED ? "deflated"
                                                   : "other");
        td_view_bool(&r->view, "native", "native", is_native);
        td_view_row_end(&r->view);
    }
    td_view_list_end(&r->view);
    td_view_list_begin(&r->view, "native", NULL);
    if (depth < 2)
        for (size_t i = 0; i < z.count; i++)
            if (!td_zip_is_dir(&z.entries[i]) && is_native_member(z.entries[i].name))
                describe_member(r, path, &z, &z.entries[i], depth);
    td_view_list_end(&r->view);
    (void)native;
}

/* Describes one file's bytes in a block of its own. */
static void describe_buffer(struct inspect_run *r, const char *path, const uint8_t *data,
                            size_t size, int depth)
{
    struct td_arena arena = {0};
    struct td_err err = {0};
    enum td_file_kind kind = td_detect(data, size);

    td_view_begin(&r->view, NULL, path);
    td_view_str(&r->view, "path", NULL, path);
    td_view_uint(&r->view, "size", NULL, size);
    switch (kind) {
    case TD_FILE_ELF:
        describe_elf(r, path, data, size, &arena, &err);
        break;
    case TD_FILE_PE:
        describe_pe(r, path, data, size, &arena, &err);
        break;
    case TD_FILE_MACHO:
        describe_macho(r, path, data, size, &arena, &err);
        break;
    case TD_FILE_MACHO_FAT:
        describe_fat(r, path, data, size, &arena, &err);
        break;
    case TD_FILE_ZIP:
        describe_wheel(r, path, data, size, &arena, &err, depth);
        break;
    default: {
        char msg[512];
        snprintf(msg, sizeof msg, "%s: not a binary this tool reads (%s)", path,
                 td_file_kind_name(kind));
        td_view_json_str(&r->view, "format", NULL);
        record_failure(r, path, TD_KIND_NOT_A_LIBRARY, msg);
        break;
    }
    }
    if (depth == 0 && r->map && td_map_shrank(r->map)) { /* what was read past the end is zeros */
        memset(&err, 0, sizeof err);
        td_err_set(&err, "changed while it was read (it shrank): what it holds is not reported");
    }
    if (err.set) {
        td_err_prefix(&err, "%s: ", path);
        record_failure(r, path, TD_KIND_UNREADABLE_FILE, err.msg);
    }
    td_view_end(&r->view);
    td_arena_free(&arena);
}

/* A model checkpoint: headers only, however large its tensors. */
static void describe_model(struct inspect_run *r, const char *path)
{
    static struct td_model m;
    struct td_arena arena = {0};
    struct td_err err = {0};
    td_view_begin(&r->view, NULL, path);
    td_view_str(&r->view, "path", NULL, path);
    if (td_model_read(path, &m, &arena, &err) == 0)
        td_inspect_model(&r->view, &m);
    else
        record_failure(r, path, TD_KIND_UNREADABLE_FILE, err.msg);
    td_view_end(&r->view);
    td_arena_free(&arena);
}

/* Drops the pages of the file being described that the fat binary search
 * has passed (file offsets). */
static void release_pages(void *map, uint64_t off, uint64_t len)
{
    td_map_release(map, off, len);
}

static void describe_path(struct inspect_run *r, const char *path)
{
    if (td_model_is_model(path)) {
        describe_model(r, path);
        return;
    }
    struct td_map map;
    struct td_err err = {0};
    if (td_map_open(path, &map, &err) != 0) {
        td_view_begin(&r->view, NULL, path);
        td_view_str(&r->view, "path", NULL, path);
        record_failure(r, path, TD_KIND_UNREADABLE_FILE, err.msg);
        td_view_end(&r->view);
        return;
    }
    r->map = &map;
    r->opts.release = release_pages, r->opts.release_ctx = &map;
    describe_buffer(r, path, map.data, map.size, 0);
    r->opts.release = NULL, r->opts.release_ctx = NULL;
    r->map = NULL;
    td_map_close(&map);
}

int td_cmd_inspect(int argc, char **argv)
{
    struct inspect_args a = {0};
    struct td_operands files;
    int status = td_args_parse(&td_inspect_args, argc, argv, &a, &files);
    if (status != TD_ARGS_CONTINUE)
        return status;
    struct inspect_run r = {.opts.symbols = a.symbols, .opts.verbose = a.verbose};
    const char *format = a.format, *color = a.color;

    bool json = strcmp(format, "json") == 0;
    /* JSON leaves in the writer's own buffer, whole: a stdio buffer beside
     * it would copy every byte again (and 1 MiB of it is 256 fresh pages,
     * half of inspect --symbols' page faults on libtorch_cpu). */
    static char outbuf[1 << 20];
    if (json)
        setvbuf(stdout, NULL, _IONBF, 0);
    else
        setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
    td_view_init(&r.view, json ? TD_VIEW_JSON : TD_VIEW_TEXT, stdout, color);
    if (json) {
        td_envelope_begin(&r.view.json, "inspect", td_host_platform());
        td_jw_key(&r.view.json, "files");
        td_jw_begin_array(&r.view.json);
    }
    for (int i = 0; i < files.n; i++)
        describe_path(&r, files.v[i]);
    if (json) {
        td_jw_end_array(&r.view.json);
        td_envelope_findings(&r.view.json, &r.findings);
        td_envelope_end(&r.view.json);
    }
    fflush(stdout);
    td_findings_free(&r.findings);
    return r.failures ? TD_EXIT_USAGE : TD_EXIT_OK;
}
