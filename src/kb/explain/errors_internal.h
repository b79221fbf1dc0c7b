/* Shared between the files of the error explainer (errors*.c): the table
 * of Windows system messages and the language-neutral rewriting. */
#ifndef TD_KB_ERRORS_INTERNAL_H
#define TD_KB_ERRORS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/arena.h"
#include "base/compat.h"
#include "base/data.h"
#include "kb/errors.h"

/* One row of data/windows_error_messages.tsv. */
struct td_winmsg {
    int code;
    const char *name, *language, *message;
    size_t stem_len; /* the message without its final "." or "。" */
    bool canonical;
};

/* The rows, longest message first (so a longer text is replaced before a
 * shorter one inside it). Loaded once; NULL with *N = 0 when the table is
 * missing. */
const struct td_winmsg *td_winmsgs(size_t *n);

/* The first message of the table found in TEXT, or NULL. */
const struct td_winmsg *td_winmsg_find(const char *text);

/* TEXT with every loader message of glibc's in another language
 * (data/glibc_message_translations.tsv), and the errno text dlerror() puts
 * after it, replaced by the English glibc prints (errors_l10n.c). Returns
 * TEXT itself when it holds none, else a copy from A. */
char *td_explain_glibc_english(char *text, struct td_arena *a);

/* TEXT without the probe lines of an optional library whose program printed
 * its own verdict that they are harmless (data/optional_probes.tsv:
 * TensorFlow's probes for TensorRT), so that no reader takes them for the
 * failure (errors_probes.c). Returns TEXT itself when it holds no verdict,
 * else a copy from A. */
char *td_explain_drop_optional_probes(char *text, struct td_arena *a);

/* Rewrites S with every known Windows message replaced by a token naming its
 * code (the same for every language), followed by one blank; blanks after
 * the message and its final full stop are dropped. REGEX: S is an ERE, whose
 * messages may be written with escaped specials. Returns the rewritten string
 * (from A), or NULL when S holds no message. *REMOVED gets the bytes of
 * message text the tokens replaced. */
char *td_explain_neutral(const char *s, bool regex, struct td_arena *a, size_t *removed);

/* Whether F's NTSTATUS is a delay-load helper's exception (facility 0x6D:
 * 0xC06D007E for a DLL, 0xC06D007F for a procedure;
 * data/windows_load_status.tsv). */
bool td_explain_delay_load(const struct td_explain_fields *f);

/* The Windows statuses TEXT gives where the words before each say it is one
 * (an exit code or status, an HRESULT, an error; errors_status.c), in text
 * order, however each is spelled: NTSTATUS values of severity error and
 * HRESULT_FROM_WIN32 values (0x8007XXXX), at most CAP into OUT. Returns how
 * many. */
size_t td_explain_statuses(const char *text, uint32_t *out, size_t cap);

/* Fills F from TEXT (the cleaned input). */
void td_explain_extract(const char *text, struct td_explain_fields *f, struct td_arena *a);

/* Every ERE the explainer hands to regcomp (REG_EXTENDED | REG_NEWLINE):
 * each catalogue row's, as written and language-neutral, then the field
 * extractors', the raisers', the platform signs' and the dialogs'. For tests that compare regex
 * engines (tests/kb/test_kb_ere.c). Returns how many were stored in OUT. */
size_t td_explain_eres(const char **out, size_t cap);
size_t td_explain_extractor_eres(const char **out, size_t cap);
/* The general layer's: the loader dialogs' (data/windows_loader_dialogs.tsv). */
size_t td_explain_dialog_eres(const char **out, size_t cap);

/* The general layer under the catalogue (errors_cause.c): fills X->load
 * from X's cleaned text, fields and matches. */
void td_explain_load_error(struct td_explain *x);

/* The structural reading (errors_read.c): fills P from TEXT (the cleaned
 * input) and F (the fields already extracted), on the platform GIVEN
 * (explain --platform) whatever the text's signs say; GIVEN NULL reads it
 * from them. */
void td_explain_read_on(const char *text, const struct td_explain_fields *f, const char *given,
                        struct td_explain_parts *p, struct td_arena *a);

/* "file" when TEXT's failing operation is a file operation on a path
 * (deleting, renaming, copying, writing or extracting a file), read from the
 * traceback's last code line or frame or from CPython's OSError format with a
 * file name (data/file_operations.tsv, errors_operation.c), else NULL. */
const char *td_explain_file_operation(const char *text);
/* The EREs of data/file_operations.tsv (for the regex stand-in's checks),
 * and those that do not compile with a line for rows past the loader's
 * limit (for td_explain_raiser_bad_groups). */
size_t td_explain_file_operation_eres(const char **out, size_t cap);
size_t td_explain_file_operation_bad_rows(const char **out, size_t cap);

/* The Python package TEXT is about among those that load their own native
 * library (data/python_native_libraries.tsv): P's package, package_library
 * (on P's platform) and package_said (errors_package.c). */
void td_explain_read_package(const char *text, struct td_explain_parts *p);

/* After a table loader's loop stopped with N of its array's MAX rows kept:
 * whether T still has a row, which would be read as absent (the loaders
 * record it for raiser_files). */
static inline bool td_explain_rows_left(struct td_table *t, size_t n, size_t max)
{
    return n == max && td_table_next(t);
}

/* Whether data/python_native_libraries.tsv or data/managed_bindings.tsv had
 * more rows than their loaders keep (the rest would be read as absent). */
bool td_explain_packages_dropped(void);
bool td_explain_bindings_dropped(void);
/* The same for the tables errors_cause.c keeps (roles, causes, dialogs and
 * their frames, API homes): a line naming the limit, or NULL. */
const char *td_explain_cause_tables_cut(void);
/* A load the general reading left without a form or a file, in a text that
 * holds a package's own not-found message: that package's library. */
void td_explain_package_form(struct td_explain *x);

/* What a text's signs say of the platform it was copied on
 * (errors_platform.c, data/platform_signs.tsv): the platform of its
 * heaviest sign, that sign's words and weight; all NULL/0 when it holds
 * none. F's Windows error codes count as signs. */
struct td_platform_reading {
    const char *platform; /* windows, linux, macos */
    const char *sign;     /* "a drive path (C:\\)", "dyld's wording", ... */
    int weight;
};
void td_explain_platform_read(const char *text, const struct td_explain_fields *f,
                              struct td_platform_reading *out);
/* The column for PLATFORM of a table with windows, linux and macos columns,
 * in that order (0, 1, 2): Linux's for another Unix and for no platform, as
 * a loader on Linux would be asked. */
int td_explain_platform_column(const char *platform);
/* The sign table's EREs, for tests that compare regex engines. */
size_t td_explain_platform_eres(const char **out, size_t cap);
/* The sign rows that do not compile or name no platform or weight: their
 * patterns, into OUT. */
size_t td_explain_platform_bad_signs(const char **out, size_t cap);

/* The platform's GPU driver library: libcuda.so.1, nvcuda.dll, MPS on macOS. */
const char *td_explain_driver_library(const char *platform);

/* The structural reading's EREs (data/error_raisers.tsv, version rules). */
size_t td_explain_raiser_eres(const char **out, size_t cap);
/* The raiser rows whose pattern does not compile or has no group of the row's
 * number (a row that would name no file): their patterns, into OUT; and a
 * line for each table (raisers, packages, bindings) with rows past what its
 * loader keeps. */
size_t td_explain_raiser_bad_groups(const char **out, size_t cap);
/* Every library file name in TEXT, in order (the last CAP): where it starts
 * (AT), its length (LEN), and whether it stands in a list of three or more
 * names (LISTED: "SDL2.dll, SDL2_mixer.dll, ... and zlib1.dll are present");
 * the count. The ERE that finds them is td_explain_library_name_re. */
size_t td_explain_named_files(const char *text, const char **at, size_t *len, bool *listed,
                              size_t cap);
extern const char td_explain_library_name_re[];
/* The last library file TEXT names outside a list of three or more, else NULL:
 * the file at fault when no message form named one. */
const char *td_explain_last_named(const char *text, struct td_arena *a);

/* The longest text every match of the ERE RE must hold (a run of literal
 * characters outside groups, brackets and optional parts) into OUT; ""
 * when an alternative at the top level leaves none. Returns its length. */
size_t td_ere_needle(const char *re, char *out, size_t cap);

/* Texts of which every match of an ERE holds at least one, found through
 * groups and alternatives (src/kb/explain/errors_needle.c): "[Cc]onnection
 * refused|TCPStore" holds "Connection refused", "connection refused" or
 * "TCPStore"; "x\\.(dll|pyd)" holds "x.dll" or "x.pyd". N 0: nothing is
 * known, the pattern must be run. */
enum { TD_ERE_NEEDLES_MAX = 16, TD_ERE_NEEDLE_CAP = 40 };
struct td_ere_needles {
    size_t n;
    bool one_line; /* no match holds a newline (no "\n", [[:space:]], ...) */
    char s[TD_ERE_NEEDLES_MAX][TD_ERE_NEEDLE_CAP];
};
size_t td_ere_needles(const char *re, struct td_ere_needles *out);
/* Whether TEXT holds one of N's texts (ASCII letters without case when
 * NOCASE, for a REG_ICASE pattern); true when N knows none. */
bool td_ere_needles_in(const struct td_ere_needles *n, const char *text, bool nocase);
/* Whether TEXT holds NEEDLE, ASCII letters compared without case; where
 * it first does, or NULL. Not strcasestr: called again from each place
 * found, it costs what it reads, where the sanitizers' strcasestr measures
 * the whole rest of the text at every call. */
bool td_ere_holds_nocase(const char *text, const char *needle);
const char *td_ere_find_nocase(const char *text, const char *needle);
/* Where TEXT first holds NEEDLE, or NULL: strstr for a search repeated from
 * each place found over a long text, for the same reason. */
const char *td_ere_find(const char *text, const char *needle);
/* Where regexec of N's ERE over TEXT may start with the same leftmost match:
 * the start of the line that holds the first of N's texts when no match
 * holds a newline (a match is inside one line, which holds a needle), so a
 * long line before it is not tried at every position; TEXT when a match
 * may span lines or N knows nothing; NULL when TEXT holds none of N's
 * texts. The offsets regexec gives are then from the pointer returned. */
const char *td_ere_needles_from(const struct td_ere_needles *n, const char *text);
/* regexec of RE (compiled with REG_NEWLINE; N its needles) over TEXT, with
 * regexec's answer: when no match holds a newline, only the lines that hold
 * one of N's texts are tried, each alone, so a long line without one costs
 * nothing, before or after them; otherwise from at most TD_ERE_BACK bytes
 * of whole lines (or the last token of a longer line) before the line that
 * holds the first of N's texts. M's offsets are from TEXT. */
enum { TD_ERE_BACK = 1024 };
int td_ere_needles_exec(const regex_t *re, const struct td_ere_needles *n, const char *text,
                        size_t nmatch, regmatch_t *m);

/* A table row's pattern, compiled at its first use: a text holds the
 * needles of few rows, and compiling every row of every table before
 * reading it was half of what explain cost (docs/explain.md "Long texts"). */
struct td_lazy_re {
    regex_t re;
    bool tried, ok;
};
/* L's regex of PATTERN with regcomp's FLAGS, compiled at the first call;
 * NULL when PATTERN is NULL or does not compile. */
const regex_t *td_lazy_re(struct td_lazy_re *l, const char *pattern, int flags);

/* S without the brackets that close what quoted a message, after its
 * closing quote or the blank the cleaner put for it (a JSON log's
 * "...X.dylib\"}", a repr's "...X.dll.')"), in place; the quote stays. */
void td_explain_drop_closers(char *s);

/* Whether TEXT holds a Windows path written with forward slashes ("C:/x"). */
bool td_explain_drive_path(const char *text);

/* The native library of the managed binding (a .NET namespace or type, a
 * Java package or class; data/managed_bindings.tsv) NAME (N bytes) belongs
 * to, case ignored; with NAME NULL, of the first dotted name in TEXT that
 * belongs to one (a stack frame), case as written. COLUMN: the platform's
 * (0 Windows, 1 Linux, 2 macOS). NULL when none does (errors_managed.c). */
const char *td_explain_binding_library(const char *text, const char *name, size_t n, int column);

/* The lower-cased last path component of PATH (either separator) in OUT. */
const char *td_explain_base_name(const char *path);
/* Whether FILE (a base name) is the try in the form of a library's file
 * (lib and a suffix: libvips.42.dylib) of NAME, a try of the same library
 * that is not in that form (vips.42, SkiaSharp.so): the name a runtime gave
 * and the platform's file the loader looked for. */
bool td_explain_formed_try_of(const char *file, const char *name);

/* A data table's cell kept in arena A for the program's life, or NULL for
 * an empty cell or "-" (the tables' word for none). */
static inline const char *td_explain_keep_cell(struct td_arena *a, const char *cell)
{
    return cell && *cell && strcmp(cell, "-") != 0 ? td_arena_strdup(a, cell) : NULL;
}

/* The length of the CJK or typographic quote, bracket or colon S starts with
 * (U+2010-U+203F, U+3000-U+303F, U+FF01-U+FF0F, U+FF1A-U+FF20: "「", "“",
 * "："), else 0: no part of a file's name that follows it. */
size_t td_explain_quote_mark(const char *s);

/* The start of the word a retyped name lost to a blank, when the file's
 * name at NAME (its extension at DOT) is a number of two digits or more
 * (and perhaps "_1") and the word before the blank is in capitals, as the
 * loader's dialog prints a DLL ("VCRUNTIME 140.dll", "VCRUNTIME 140_1.dll":
 * vcruntime140.dll and vcruntime140_1.dll as a user copied them). A word in
 * small letters is the sentence's ("Failed to load 1.dll" names 1.dll). The
 * word is a name's start (capitals, digits, '_' or '-', ending in a
 * letter), not a path's. NULL when NAME is not so. */
const char *td_explain_split_name_start(const char *text, const char *name, const char *dot);
/* WORD (from td_explain_split_name_start) and NAME..END joined without the
 * blank between them: "VCRUNTIME" + "140.dll". */
char *td_explain_joined_name(const char *word, const char *name, const char *end,
                             struct td_arena *a);

/* The start of the line of a text that holds AT, for points AT asked in
 * increasing order: *LINE and *SEEN carry what earlier calls found (both the
 * text's start at first), so a text of one long line costs one pass, not one
 * walk back per point. */
const char *td_explain_line_start(const char **line, const char **seen, const char *at);

/* The file a raiser loads on the text's PLATFORM, from SPEC, a raiser
 * row's per-platform library ("WINDOWS|LINUX|MACOS" after "platform:"):
 * the second entry when the platform is Linux, another Unix or unknown;
 * NULL for an empty entry (errors_programs.c). */
const char *td_explain_platform_file(const char *spec, const char *platform, struct td_arena *a);

/* The dotted module of the last Cython init frame in TEXT ("File
 * \"h5py/h5.pyx\", line 1, in init h5py.h5", IPython's "h5py\\h5.pyx in init
 * h5py.h5()"): the extension module whose initialisation was running, its
 * length in *LEN; NULL when the text has none. */
const char *td_explain_cython_init(const char *text, size_t *len);

/* The length of the dotted Python module name at S ("torch._C"), 0: none. */
size_t td_explain_module_span(const char *s);

/* Whether the N bytes at S are, whole, one of the COUNT words of WORDS. */
bool td_explain_one_of(const char *const *words, size_t count, const char *s, size_t n);

#endif
