/* Where an ELF or PE file keeps its CUDA fat binary: the ELF section
 * .nv_fatbin, the PE section ".nv_fatb" (the same name cut to the 8 bytes
 * of a PE section name). Shared by `inspect` and check's GPU-code check. */
#ifndef TD_FORMAT_DETECT_FATBIN_H
#define TD_FORMAT_DETECT_FATBIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "format/elf.h"
#include "format/pe.h"

struct td_fatbin_section {
    const char *name;    /* ".nv_fatbin" or ".nv_fatb" */
    const uint8_t *data; /* inside the file's buffer */
    size_t size;
};

/* True with OUT set when the file has the section and it lies inside the
 * file; false when it has none; false with ERR set when the section header
 * points past the end of the file. */
bool td_fatbin_section_elf(const struct td_elf *elf, struct td_fatbin_section *out,
                           struct td_err *err);
bool td_fatbin_section_pe(const struct td_pe *pe, struct td_fatbin_section *out,
                          struct td_err *err);

#endif
