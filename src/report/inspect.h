/* Descriptions of single binaries for `torchdoctor inspect`: one describer
 * per format, rendered by a td_view as JSON or text. Every format fills the
 * same common fields (docs/inspect.md), then a section of its own. */
#ifndef TD_REPORT_INSPECT_H
#define TD_REPORT_INSPECT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/err.h"
#include "loader/model.h"
#include "format/elf.h"
#include "format/fatbin.h"
#include "format/macho.h"
#include "format/pe.h"
#include "report/view.h"

struct td_inspect_opts {
    bool symbols; /* list every symbol / import / export */
    bool verbose; /* text: say where each part was found (the fat binary's sections) */
    /* When the buffer maps a whole file on disk: drops the mapping's pages
     * of [off, off + len) (file offsets), which the fat binary search calls
     * behind it as it goes through the data sections, so that they do not
     * stay in memory (NULL: a buffer in memory, nothing to drop). */
    td_fatbin_release_fn release;
    void *release_ctx;
};

/* Each describer writes the fields of one file into the currently open
 * block of V. They return 0, or -1 with ERR when a table the reader had
 * accepted turns out malformed while walking it (the block is still closed
 * consistently, with the error recorded in "error"). */
int td_inspect_elf(struct td_view *v, const struct td_elf *elf, const struct td_inspect_opts *o,
                   struct td_arena *arena, struct td_err *err);
int td_inspect_pe(struct td_view *v, const struct td_pe *pe, const struct td_inspect_opts *o,
                  struct td_arena *arena, struct td_err *err);
int td_inspect_macho(struct td_view *v, const struct td_macho *m, const struct td_inspect_opts *o,
                     struct td_arena *arena, struct td_err *err);

/* The "fatbin" block of an ELF or PE file, from the containers of its fat
 * binary section (.nv_fatbin, .nv_fatb) and of its other data sections:
 * every entry in JSON, one line per kind and architecture in text (and
 * per section with O->verbose); "fatbin": null without any container. -1
 * with ERR when a header of the fat binary section is malformed (the
 * entries before it are still listed). */
int td_inspect_elf_fatbin(struct td_view *v, const struct td_elf *elf,
                          const struct td_inspect_opts *o, struct td_arena *arena,
                          struct td_err *err);
int td_inspect_pe_fatbin(struct td_view *v, const struct td_pe *pe, const struct td_inspect_opts *o,
                         struct td_arena *arena, struct td_err *err);

/* td_inspect_elf_fatbin in two steps: the search starts (on a thread of
 * its own when MAY_THREAD and the data sections are large), and finishing
 * waits for it and writes the block; the bytes are the same. NULL (out of
 * memory) is finished as an error. */
struct td_fatbin_job;
struct td_fatbin_job *td_inspect_elf_fatbin_start(const struct td_elf *elf,
                                                  const struct td_inspect_opts *o,
                                                  struct td_arena *arena, bool may_thread);
int td_inspect_fatbin_finish(struct td_view *v, struct td_fatbin_job *job, struct td_err *err);

/* Splits a colon-separated search path (DT_RPATH/DT_RUNPATH) into a list. */
void td_inspect_path_list(struct td_view *v, const char *key, const char *label, const char *paths);

/* A model checkpoint (inspect MODEL): components, parameters, dtypes,
 * bytes on disk, and its weights' memory at each precision. */
void td_inspect_model(struct td_view *v, const struct td_model *m);

#endif
