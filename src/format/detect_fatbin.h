/* Where an ELF or PE file may keep CUDA fat binary containers: its fat
 * binary section (ELF .nv_fatbin, PE ".nv_fatb": the same name cut to the
 * 8 bytes of a PE section name) and every other loaded data section, since
 * NVIDIA's large libraries keep most of theirs there (cuFFT's ~24,000 in
 * .ldata). Shared by `inspect` and check's GPU-code check. */
#ifndef TD_FORMAT_DETECT_FATBIN_H
#define TD_FORMAT_DETECT_FATBIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/err.h"
#include "format/elf.h"
#include "format/pe.h"

/* A range of the file to read for containers (td_fatbin_scan). */
struct td_fatbin_region {
    const char *name;      /* ".nv_fatbin", ".ldata", ...; "segment N" without sections */
    uint64_t offset, size; /* in the file, inside it */
    bool primary;          /* the fat binary section: containers only */
};

struct td_fatbin_regions {
    struct td_fatbin_region *list; /* arena; the fat binary section first, then file order */
    size_t count;
};

/* The regions of ELF: .nv_fatbin, then every other SHF_ALLOC PROGBITS
 * section that is not executable (no section table: every PT_LOAD
 * segment without PF_X). Sections whose bytes are not in the file are
 * left out. 0, or -1 with ERR when out of memory. */
int td_fatbin_regions_elf(const struct td_elf *elf, struct td_arena *arena,
                          struct td_fatbin_regions *out, struct td_err *err);

/* The regions of PE: .nv_fatb, then every other initialized-data section
 * that is not executable. -1 with ERR when .nv_fatb points past the end of
 * the file or memory runs out. */
int td_fatbin_regions_pe(const struct td_pe *pe, struct td_arena *arena,
                         struct td_fatbin_regions *out, struct td_err *err);

#endif
