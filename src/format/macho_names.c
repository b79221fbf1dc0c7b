/* Names for Mach-O numbers: CPU types and architecture slugs, file types,
 * header flags, platforms, load commands, and "a.b.c" versions. Values are
 * those of Apple's <mach/machine.h> and <mach-o/loader.h>. */
#include "format/macho.h"

#include <inttypes.h>
#include <stdio.h>

char *td_macho_version_string(uint32_t version, char out[TD_MACHO_VERSION_MAX])
{
    /* loader.h: "X.Y.Z is encoded in nibbles xxxx.yy.zz" */
    snprintf(out, TD_MACHO_VERSION_MAX, "%" PRIu32 ".%" PRIu32 ".%" PRIu32, version >> 16,
             (version >> 8) & 0xff, version & 0xff);
    return out;
}

static const char *arm_slug(uint32_t subtype)
{
    switch (subtype) {
    case 6:
        return "armv6";
    case 9:
        return "armv7";
    case 11:
        return "armv7s";
    case 12:
        return "armv7k";
    default:
        return "arm";
    }
}

const char *td_macho_arch_slug(uint32_t cputype, uint32_t cpusubtype)
{
    uint32_t subtype = cpusubtype & ~TD_MACHO_CPU_SUBTYPE_MASK;
    switch (cputype) {
    case TD_MACHO_CPU_TYPE_X86_64:
        return subtype == TD_MACHO_CPU_SUBTYPE_X86_64_H ? "x86_64h" : "x86_64";
    case TD_MACHO_CPU_TYPE_ARM64:
        return subtype == TD_MACHO_CPU_SUBTYPE_ARM64E ? "arm64e" : "arm64";
    case TD_MACHO_CPU_TYPE_ARM64_32:
        return "arm64_32";
    case TD_MACHO_CPU_TYPE_X86:
        return "i386";
    case TD_MACHO_CPU_TYPE_ARM:
        return arm_slug(subtype);
    case TD_MACHO_CPU_TYPE_POWERPC:
        return "ppc";
    case TD_MACHO_CPU_TYPE_POWERPC64:
        return "ppc64";
    default:
        return NULL;
    }
}

const char *td_macho_cpu_name(uint32_t cputype)
{
    switch (cputype) {
    case TD_MACHO_CPU_TYPE_X86_64:
        return "x86-64";
    case TD_MACHO_CPU_TYPE_ARM64:
        return "ARM64";
    case TD_MACHO_CPU_TYPE_ARM64_32:
        return "ARM64_32";
    case TD_MACHO_CPU_TYPE_X86:
        return "i386";
    case TD_MACHO_CPU_TYPE_ARM:
        return "ARM";
    case TD_MACHO_CPU_TYPE_POWERPC:
        return "PowerPC";
    case TD_MACHO_CPU_TYPE_POWERPC64:
        return "PowerPC 64";
    default:
        return "unknown";
    }
}

const char *td_macho_filetype_name(uint32_t filetype)
{
    static const char *const names[] = {
        NULL,         "MH_OBJECT",      "MH_EXECUTE",  "MH_FVMLIB", "MH_CORE",
        "MH_PRELOAD", "MH_DYLIB",       "MH_DYLINKER", "MH_BUNDLE", "MH_DYLIB_STUB",
        "MH_DSYM",    "MH_KEXT_BUNDLE", "MH_FILESET",
    };
    return filetype < sizeof names / sizeof names[0] ? names[filetype] : NULL;
}

const char *td_macho_flag_name(uint32_t flag_bit)
{
    static const char *const names[] = {
        "MH_NOUNDEFS",
        "MH_INCRLINK",
        "MH_DYLDLINK",
        "MH_BINDATLOAD",
        "MH_PREBOUND",
        "MH_SPLIT_SEGS",
        "MH_LAZY_INIT",
        "MH_TWOLEVEL",
        "MH_FORCE_FLAT",
        "MH_NOMULTIDEFS",
        "MH_NOFIXPREBINDING",
        "MH_PREBINDABLE",
        "MH_ALLMODSBOUND",
        "MH_SUBSECTIONS_VIA_SYMBOLS",
        "MH_CANONICAL",
        "MH_WEAK_DEFINES",
        "MH_BINDS_TO_WEAK",
        "MH_ALLOW_STACK_EXECUTION",
        "MH_ROOT_SAFE",
        "MH_SETUID_SAFE",
        "MH_NO_REEXPORTED_DYLIBS",
        "MH_PIE",
        "MH_DEAD_STRIPPABLE_DYLIB",
        "MH_HAS_TLV_DESCRIPTORS",
        "MH_NO_HEAP_EXECUTION",
        "MH_APP_EXTENSION_SAFE",
        "MH_NLIST_OUTOFSYNC_WITH_DYLDINFO",
        "MH_SIM_SUPPORT",
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (flag_bit == UINT32_C(1) << i)
            return names[i];
    }
    return flag_bit == 0x80000000u ? "MH_DYLIB_IN_CACHE" : NULL;
}

const char *td_macho_platform_name(uint32_t platform)
{
    static const char *const names[] = {
        NULL,        "macos",       "ios",          "tvos",          "watchos",
        "bridgeos",  "maccatalyst", "iossimulator", "tvossimulator", "watchossimulator",
        "driverkit",
    };
    return platform < sizeof names / sizeof names[0] ? names[platform] : NULL;
}

const char *td_macho_dylib_kind_name(enum td_macho_dylib_kind kind)
{
    switch (kind) {
    case TD_MACHO_DYLIB_LOAD:
        return "LC_LOAD_DYLIB";
    case TD_MACHO_DYLIB_WEAK:
        return "LC_LOAD_WEAK_DYLIB";
    case TD_MACHO_DYLIB_REEXPORT:
        return "LC_REEXPORT_DYLIB";
    case TD_MACHO_DYLIB_LAZY:
        return "LC_LAZY_LOAD_DYLIB";
    case TD_MACHO_DYLIB_UPWARD:
        return "LC_LOAD_UPWARD_DYLIB";
    }
    return "?";
}

const char *td_macho_command_name(uint32_t cmd)
{
    /* Indexed by cmd without LC_REQ_DYLD (0x80000000); loader.h numbering. */
    static const char *const names[] = {
        NULL,
        "LC_SEGMENT",
        "LC_SYMTAB",
        "LC_SYMSEG",
        "LC_THREAD",
        "LC_UNIXTHREAD",
        "LC_LOADFVMLIB",
        "LC_IDFVMLIB",
        "LC_IDENT",
        "LC_FVMFILE",
        "LC_PREPAGE",
        "LC_DYSYMTAB",
        "LC_LOAD_DYLIB",
        "LC_ID_DYLIB",
        "LC_LOAD_DYLINKER",
        "LC_ID_DYLINKER",
        "LC_PREBOUND_DYLIB",
        "LC_ROUTINES",
        "LC_SUB_FRAMEWORK",
        "LC_SUB_UMBRELLA",
        "LC_SUB_CLIENT",
        "LC_SUB_LIBRARY",
        "LC_TWOLEVEL_HINTS",
        "LC_PREBIND_CKSUM",
        "LC_LOAD_WEAK_DYLIB",
        "LC_SEGMENT_64",
        "LC_ROUTINES_64",
        "LC_UUID",
        "LC_RPATH",
        "LC_CODE_SIGNATURE",
        "LC_SEGMENT_SPLIT_INFO",
        "LC_REEXPORT_DYLIB",
        "LC_LAZY_LOAD_DYLIB",
        "LC_ENCRYPTION_INFO",
        "LC_DYLD_INFO",
        "LC_LOAD_UPWARD_DYLIB",
        "LC_VERSION_MIN_MACOSX",
        "LC_VERSION_MIN_IPHONEOS",
        "LC_FUNCTION_STARTS",
        "LC_DYLD_ENVIRONMENT",
        "LC_MAIN",
        "LC_DATA_IN_CODE",
        "LC_SOURCE_VERSION",
        "LC_DYLIB_CODE_SIGN_DRS",
        "LC_ENCRYPTION_INFO_64",
        "LC_LINKER_OPTION",
        "LC_LINKER_OPTIMIZATION_HINT",
        "LC_VERSION_MIN_TVOS",
        "LC_VERSION_MIN_WATCHOS",
        "LC_NOTE",
        "LC_BUILD_VERSION",
        "LC_DYLD_EXPORTS_TRIE",
        "LC_DYLD_CHAINED_FIXUPS",
        "LC_FILESET_ENTRY",
    };
    /* Which commands carry LC_REQ_DYLD, so that 0x1c alone is not LC_RPATH. */
    static const uint32_t required[] = {0x18, 0x1c, 0x1f, 0x22, 0x23, 0x28, 0x33, 0x34, 0x35};
    uint32_t base = cmd & ~0x80000000u;
    bool req = (cmd & 0x80000000u) != 0;
    if (base >= sizeof names / sizeof names[0] || !names[base])
        return NULL;
    bool must_req = false;
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
        must_req |= required[i] == base;
    if (base == 0x22 && !req)
        return "LC_DYLD_INFO";
    if (base == 0x22)
        return "LC_DYLD_INFO_ONLY";
    return req == must_req ? names[base] : NULL;
}
