/* ELF reader, part 4: names for e_machine values, as readelf prints them,
 * and short architecture slugs that also reflect class and byte order. */
#include "format/elf.h"

enum {
    EM_NONE = 0,
    EM_SPARC = 2,
    EM_386 = 3,
    EM_68K = 4,
    EM_MIPS = 8,
    EM_PARISC = 15,
    EM_SPARC32PLUS = 18,
    EM_PPC = 20,
    EM_PPC64 = 21,
    EM_S390 = 22,
    EM_ARM = 40,
    EM_SH = 42,
    EM_SPARCV9 = 43,
    EM_IA_64 = 50,
    EM_X86_64 = 62,
    EM_AVR = 83,
    EM_CUDA = 190,
    EM_AARCH64 = 183,
    EM_AMDGPU = 224,
    EM_RISCV = 243,
    EM_BPF = 247,
    EM_LOONGARCH = 258,
    EM_ALPHA = 0x9026,
};

struct machine_name {
    uint16_t machine;
    const char *name;
};

/* Names as binutils readelf's get_machine_name spells them. */
static const struct machine_name MACHINES[] = {
    {EM_NONE, "None"},
    {EM_SPARC, "Sparc"},
    {EM_386, "Intel 80386"},
    {EM_68K, "MC68000"},
    {EM_MIPS, "MIPS R3000"},
    {EM_PARISC, "HPPA"},
    {EM_SPARC32PLUS, "Sparc v8+"},
    {EM_PPC, "PowerPC"},
    {EM_PPC64, "PowerPC64"},
    {EM_S390, "IBM S/390"},
    {EM_ARM, "ARM"},
    {EM_SH, "Renesas / SuperH SH"},
    {EM_SPARCV9, "Sparc v9"},
    {EM_IA_64, "Intel IA-64"},
    {EM_X86_64, "Advanced Micro Devices X86-64"},
    {EM_AVR, "Atmel AVR 8-bit microcontroller"},
    {EM_AARCH64, "AArch64"},
    {EM_CUDA, "NVIDIA CUDA architecture"},
    {EM_AMDGPU, "AMD GPU"},
    {EM_RISCV, "RISC-V"},
    {EM_BPF, "Linux BPF"},
    {EM_LOONGARCH, "LoongArch"},
    {EM_ALPHA, "Alpha"},
};

const char *td_elf_machine_name(uint16_t machine)
{
    for (size_t i = 0; i < sizeof MACHINES / sizeof MACHINES[0]; i++)
        if (MACHINES[i].machine == machine)
            return MACHINES[i].name;
    return "<unknown>";
}

/* Slugs follow the Debian/GNU triplet CPU names (uname -m style). */
static const char *pick(bool is64, bool big_endian, const char *s32le, const char *s32be,
                        const char *s64le, const char *s64be)
{
    if (is64)
        return big_endian ? s64be : s64le;
    return big_endian ? s32be : s32le;
}

const char *td_elf_arch(const struct td_elf *elf)
{
    bool w = elf->is64, be = elf->big_endian;
    switch (elf->machine) {
    case EM_386:
        return "i386";
    case EM_X86_64:
        return w ? "x86_64" : "x32";
    case EM_AARCH64:
        return be ? "aarch64_be" : "aarch64";
    case EM_ARM:
        return be ? "armeb" : "arm";
    case EM_RISCV:
        return w ? "riscv64" : "riscv32";
    case EM_PPC64:
        return be ? "ppc64" : "ppc64le";
    case EM_PPC:
        return be ? "ppc" : "ppcle";
    case EM_S390:
        return w ? "s390x" : "s390";
    case EM_MIPS:
        return pick(w, be, "mipsel", "mips", "mips64el", "mips64");
    case EM_SPARC:
    case EM_SPARC32PLUS:
        return "sparc";
    case EM_SPARCV9:
        return "sparc64";
    case EM_IA_64:
        return "ia64";
    case EM_LOONGARCH:
        return w ? "loongarch64" : "loongarch32";
    case EM_ALPHA:
        return "alpha";
    case EM_68K:
        return "m68k";
    case EM_PARISC:
        return w ? "hppa64" : "hppa";
    case EM_SH:
        return be ? "sheb" : "sh";
    default:
        return "unknown";
    }
}
