/* Wheel tags and extension module suffixes as text: the platform tag
 * (PEP 425, PEP 513/571/599/600 manylinux, PEP 656 musllinux, macOS and
 * Windows forms of packaging.python.org "Platform compatibility tags"),
 * the Python and ABI tags, and the suffix CPython puts on an extension
 * module's file name (PEP 3149, PEP 384 abi3, importlib.machinery
 * EXTENSION_SUFFIXES). Pure functions over strings (zip_tags.c). */
#ifndef TD_FORMAT_WHEEL_TAG_H
#define TD_FORMAT_WHEEL_TAG_H

#include <stdbool.h>
#include <stddef.h>

enum td_wheel_os {
    TD_WHEEL_OS_ANY,       /* "any" */
    TD_WHEEL_OS_LINUX,     /* "linux_x86_64": this machine only, PyPI refuses it */
    TD_WHEEL_OS_MANYLINUX, /* manylinux1/2010/2014 and manylinux_X_Y (glibc X.Y) */
    TD_WHEEL_OS_MUSLLINUX, /* musllinux_X_Y (musl X.Y) */
    TD_WHEEL_OS_WINDOWS,   /* win32, win_amd64, win_arm64 */
    TD_WHEEL_OS_MACOS,     /* macosx_X_Y_ARCH */
    TD_WHEEL_OS_OTHER,     /* a form this reader does not know */
};

enum { TD_WHEEL_ARCH_MAX = 24 };

/* One platform tag. ARCH is canonical, the same words the binary readers'
 * slugs are mapped to (td_wheel_arch_canonical): x86_64, x86, aarch64,
 * arm, ppc64le, ppc64, s390x, riscv64, loongarch64; "universal2" (x86_64
 * and aarch64), "universal" or "intel" for the older macOS fat forms. */
struct td_wheel_platform {
    enum td_wheel_os os;
    char arch[TD_WHEEL_ARCH_MAX];
    int major, minor; /* glibc, musl or macOS version; -1 when the tag has none */
    bool legacy;      /* manylinux1 / manylinux2010 / manylinux2014 (PEP 600 aliases) */
};

/* Parses one platform tag (not a dotted set). Returns 0, or -1 when TAG
 * has none of the known forms (OUT->os is then TD_WHEEL_OS_OTHER). */
int td_wheel_platform_parse(const char *tag, size_t len, struct td_wheel_platform *out);

/* The canonical name of an architecture as a tag, ELF slug, PE slug or
 * Mach-O slug spells it ("amd64", "x64", "win32", "i386", "i686", "arm64"
 * -> x86_64, x86, x86, x86, x86, aarch64); NULL for an unknown word. */
const char *td_wheel_arch_canonical(const char *word, size_t len);

/* A Python tag ("cp311", "py3", "py2.py3" items one at a time) or a CPython
 * ABI tag ("cp311", "cp313t", "abi3", "none"). */
struct td_wheel_python {
    char impl[8];       /* "cp", "py", "pp", "abi3", "none" */
    int major, minor;   /* -1 when absent ("py3": 3, -1) */
    bool free_threaded; /* "t" flag (PEP 703) */
    bool debug;         /* "d" flag */
};

/* 0, or -1 when TAG is not of those forms. */
int td_wheel_python_parse(const char *tag, size_t len, struct td_wheel_python *out);

/* What an extension module's file name says of the interpreter it is for. */
struct td_wheel_ext {
    bool tagged;        /* the name carries an interpreter suffix */
    bool abi3;          /* ".abi3.so" */
    int major, minor;   /* "cpython-310" -> 3, 10; -1 when untagged or abi3 */
    bool free_threaded; /* "cpython-313t" */
    char platform[48];  /* "x86_64-linux-gnu", "darwin", "win_amd64", or "" */
    char module[64];    /* the module name before the first dot (PyInit_<module>) */
};

/* Reads BASE (a file name without directories) ending in .so or .pyd.
 * Returns 1 for a tagged (or abi3) extension name, 0 for an untagged .so /
 * .pyd (an extension or a plain library: the symbols decide), -1 when the
 * name is neither (libfoo.so.1, foo.dll). */
int td_wheel_ext_parse(const char *base, size_t len, struct td_wheel_ext *out);

#endif
