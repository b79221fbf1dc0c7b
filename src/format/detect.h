/* Tells which container format a buffer holds, from its magic bytes only. */
#ifndef TD_FORMAT_DETECT_H
#define TD_FORMAT_DETECT_H

#include <stddef.h>
#include <stdint.h>

enum td_file_kind {
    TD_FILE_UNKNOWN,
    TD_FILE_EMPTY,
    TD_FILE_ELF,
    TD_FILE_PE,        /* MZ header followed by a PE signature */
    TD_FILE_DOS,       /* MZ without a valid PE header */
    TD_FILE_MACHO,     /* thin Mach-O, either byte order */
    TD_FILE_MACHO_FAT, /* universal file */
    TD_FILE_ZIP,       /* zip archive: wheels */
    TD_FILE_AR,        /* static archive (!<arch>) */
    TD_FILE_LD_SCRIPT, /* GNU ld script such as libc.so on glibc systems */
};

enum td_file_kind td_detect(const uint8_t *data, size_t size);
const char *td_file_kind_name(enum td_file_kind kind);

#endif
