/* Magic-byte sniffing; readers do the real validation. */
#include "format/detect.h"

#include <string.h>

#include "format/buf.h"

static int starts_with(const uint8_t *data, size_t size, const char *magic)
{
    size_t n = strlen(magic);
    return size >= n && memcmp(data, magic, n) == 0;
}

/* 0xcafebabe is both the universal Mach-O magic and the Java class-file
 * magic; a fat header's next word is the slice count, small in practice,
 * while a class file has its version there (major >= 45). */
static int is_fat_macho(const struct td_buf *b)
{
    uint32_t magic, nfat;
    if (!td_buf_u32(b, 0, &magic) || !td_buf_u32(b, 4, &nfat))
        return 0;
    return (magic == 0xcafebabe || magic == 0xcafebabf) && nfat > 0 && nfat < 45;
}

static int is_pe(const struct td_buf *b)
{
    uint32_t lfanew, sig;
    return td_buf_u32(b, 0x3c, &lfanew) && td_buf_u32(b, lfanew, &sig) && sig == 0x00004550;
}

static int is_ld_script(const uint8_t *data, size_t size)
{
    static const char *const openers[] = {"/* GNU ld script", "INPUT(", "GROUP(", "OUTPUT_FORMAT("};
    for (size_t i = 0; i < sizeof openers / sizeof openers[0]; i++)
        if (starts_with(data, size, openers[i]))
            return 1;
    return 0;
}

enum td_file_kind td_detect(const uint8_t *data, size_t size)
{
    struct td_buf le = td_buf_make(data, size, false);
    struct td_buf be = td_buf_make(data, size, true);
    uint32_t m;
    if (size == 0)
        return TD_FILE_EMPTY;
    if (starts_with(data, size,
                    "\x7f"
                    "ELF"))
        return TD_FILE_ELF;
    if (starts_with(data, size, "MZ"))
        return is_pe(&le) ? TD_FILE_PE : TD_FILE_DOS;
    if (is_fat_macho(&be))
        return TD_FILE_MACHO_FAT;
    if (td_buf_u32(&le, 0, &m) &&
        (m == 0xfeedface || m == 0xfeedfacf || m == 0xcefaedfe || m == 0xcffaedfe))
        return TD_FILE_MACHO;
    if (starts_with(data, size, "PK\x03\x04") || starts_with(data, size, "PK\x05\x06"))
        return TD_FILE_ZIP;
    if (starts_with(data, size, "!<arch>\n"))
        return TD_FILE_AR;
    if (is_ld_script(data, size))
        return TD_FILE_LD_SCRIPT;
    return TD_FILE_UNKNOWN;
}

const char *td_file_kind_name(enum td_file_kind kind)
{
    switch (kind) {
    case TD_FILE_EMPTY:
        return "empty file";
    case TD_FILE_ELF:
        return "ELF";
    case TD_FILE_PE:
        return "PE";
    case TD_FILE_DOS:
        return "DOS executable without a PE header";
    case TD_FILE_MACHO:
        return "Mach-O";
    case TD_FILE_MACHO_FAT:
        return "universal Mach-O";
    case TD_FILE_ZIP:
        return "zip archive";
    case TD_FILE_AR:
        return "static archive (ar)";
    case TD_FILE_LD_SCRIPT:
        return "GNU ld script";
    case TD_FILE_UNKNOWN:
        break;
    }
    return "unknown format";
}
