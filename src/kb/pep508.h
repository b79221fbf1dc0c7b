/* Python packaging's version and requirement rules, as pip applies them:
 * PEP 440 versions and specifiers (pep440.c), PEP 508 requirements and
 * environment markers (pep508.c), PEP 503 name normalisation. The
 * reference behaviour is the `packaging` library (Debian's python3-packaging
 * 23.0), which tests/kb/pep508.test.sh uses as the oracle. */
#ifndef TD_KB_PEP508_H
#define TD_KB_PEP508_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { TD_PEP440_MAX_RELEASE = 24, TD_PEP440_LOCAL = 64 };

/* One parsed version: [N!]N(.N)*[{a|b|rc}N][.postN][.devN][+local]. */
struct td_pep440 {
    uint64_t epoch;
    uint64_t release[TD_PEP440_MAX_RELEASE];
    size_t n_release;
    int pre; /* -1 none, 0 a, 1 b, 2 rc */
    uint64_t pre_n;
    bool post, dev;
    uint64_t post_n, dev_n;
    char local[TD_PEP440_LOCAL]; /* normalised ("cu121", "ubuntu.1"); "" when none */
};

/* Parses S (surrounding whitespace allowed, any case, the spellings PEP 440
 * normalises: "1.0-1", "1.0alpha", "v2"); false when it is not a version. */
bool td_pep440_parse(const char *s, struct td_pep440 *v);

/* <0, 0, >0 as A sorts before, equal to, after B (PEP 440 ordering). */
int td_pep440_cmp(const struct td_pep440 *a, const struct td_pep440 *b);

/* The normalised form ("1!2.0rc1.post2.dev3+cu121") into OUT. */
const char *td_pep440_str(const struct td_pep440 *v, char *out, size_t cap);

/* Whether VERSION satisfies the specifier set SPECS ("==2.1.2",
 * ">=1.0,!=1.3.*", "~=2.2", "" for any), pre-releases allowed as `pip
 * check` allows them: 1 yes, 0 no, -1 when SPECS or VERSION is invalid. */
int td_pep440_contains(const char *specs, const char *version);

/* PEP 503: runs of "-", "_", "." become "-", letters lower case. */
const char *td_pep503_normalize(const char *name, size_t len, char *out, size_t cap);

/* The values of PEP 508's environment markers for one interpreter. */
struct td_pep508_env {
    const char *python_version;      /* "3.11" */
    const char *python_full_version; /* "3.11.2" */
    const char *os_name;             /* "posix", "nt" */
    const char *sys_platform;        /* "linux", "win32", "darwin" */
    const char *platform_release;
    const char *platform_system; /* "Linux", "Windows", "Darwin" */
    const char *platform_version;
    const char *platform_machine;               /* "x86_64", "AMD64", "arm64" */
    const char *platform_python_implementation; /* "CPython" */
    const char *implementation_name;            /* "cpython" */
    const char *implementation_version;         /* "3.11.2" */
};

/* The environment of a CPython FULL_VERSION ("3.11.2") on OS ("linux",
 * "windows", "macos") and MACHINE ("x86_64", "aarch64"); strings point
 * into BUF (at least 64 bytes). */
void td_pep508_env_for(struct td_pep508_env *e, const char *os, const char *machine,
                       const char *full_version, char *buf, size_t cap);

enum { TD_REQ_NAME = 128, TD_REQ_SPEC = 512, TD_REQ_MARKER = 1024 };

/* One Requires-Dist line: "torch (>=2.0) ; extra == 'cuda'",
 * "nvidia-cudnn-cu12==8.9.2.26; platform_system == \"Linux\"". */
struct td_requirement {
    char name[TD_REQ_NAME];      /* as written */
    char key[TD_REQ_NAME];       /* PEP 503 normalised: "nvidia-cudnn-cu12" */
    char extras[TD_REQ_NAME];    /* normalised, comma-separated; "" when none */
    char specifier[TD_REQ_SPEC]; /* "==8.9.2.26", ">=1.0,<2"; "" for any version */
    bool url;                    /* "name @ URL": no version constraint */
    char marker[TD_REQ_MARKER];  /* "" when none */
};

/* Parses LINE; false when it is not a valid PEP 508 requirement (or does
 * not fit the fixed buffers). */
bool td_pep508_parse(const char *line, struct td_requirement *r);

/* Evaluates MARKER for ENV with `extra` set to EXTRA ("" as pip check
 * does): 1 true, 0 false, -1 invalid or undefined (an unknown variable,
 * a version comparison of a non-version). */
int td_pep508_marker(const char *marker, const struct td_pep508_env *env, const char *extra);

/* The next valid Requires-Dist requirement of core metadata headers
 * (METADATA, PKG-INFO) from *CURSOR, NUL-terminated text, into R; *CURSOR
 * moves past it. False when none is left: the headers end at the first
 * blank line. Lines may end in CRLF. */
bool td_metadata_next_requirement(const char **cursor, struct td_requirement *r);

#endif
