/* What a pasted error message says, field by field: the failing file and
 * who needed it, the error code (Win32, NTSTATUS, errno, signal, CUDA), the
 * symbol and its version, CUDA versions; and the Windows system messages of
 * data/windows_error_messages.tsv, by which a localised message gives back
 * its code. The message forms parsed here are those of glibc's ld.so
 * (elf/dl-load.c, elf/dl-version.c, elf/dl-lookup.c), CPython's
 * Python/dynload_win.c ("DLL load failed while importing"), ctypes
 * (OSError [WinError N]), torch/__init__.py ("Error loading ... or one of
 * its dependencies") and dyld ("Library not loaded", "Referenced from"). */
#include <ctype.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/compat.h"
#include "base/data.h"
#include "kb/explain/errors_internal.h"

enum { MAX_WINMSGS = 128, LINE_CAP = 2048 };

static struct {
    bool loaded;
    struct td_winmsg rows[MAX_WINMSGS];
    size_t n;
    char text[MAX_WINMSGS][LINE_CAP];
} g_msgs;

static int by_length(const void *a, const void *b)
{
    const struct td_winmsg *x = a, *y = b;
    return x->stem_len < y->stem_len ? 1 : x->stem_len > y->stem_len ? -1 : 0;
}

/* The final full stop of a message: "." or the ideographic "。". */
static size_t full_stop_len(const char *s, size_t n)
{
    static const char ideo[] = "\xe3\x80\x82";
    if (n >= 3 && memcmp(s + n - 3, ideo, 3) == 0)
        return 3;
    return n && s[n - 1] == '.' ? 1 : 0;
}

const struct td_winmsg *td_winmsgs(size_t *n)
{
    if (!g_msgs.loaded) {
        g_msgs.loaded = true;
        size_t len;
        const char *t = td_data_table("windows_error_messages", &len);
        struct td_tsv tsv;
        td_tsv_open(&tsv, t, len);
        const char *cells[8];
        char header[LINE_CAP];
        int hn = td_tsv_next(&tsv, header, sizeof header, cells, 8);
        int c_code = td_tsv_column(cells, hn, "code"), c_name = td_tsv_column(cells, hn, "name"),
            c_lang = td_tsv_column(cells, hn, "language"),
            c_can = td_tsv_column(cells, hn, "canonical"),
            c_msg = td_tsv_column(cells, hn, "message");
        while (g_msgs.n < MAX_WINMSGS && c_msg >= 0) {
            char *line = g_msgs.text[g_msgs.n];
            int cn = td_tsv_next(&tsv, line, LINE_CAP, cells, 8);
            if (cn < 0)
                break;
            if (cn != hn)
                continue;
            struct td_winmsg *m = &g_msgs.rows[g_msgs.n++];
            m->code = atoi(cells[c_code]);
            m->name = cells[c_name];
            m->language = cells[c_lang];
            m->canonical = strcmp(cells[c_can], "yes") == 0;
            m->message = cells[c_msg];
            size_t ml = strlen(m->message);
            m->stem_len = ml - full_stop_len(m->message, ml);
        }
        qsort(g_msgs.rows, g_msgs.n, sizeof g_msgs.rows[0], by_length);
    }
    *n = g_msgs.n;
    return g_msgs.n ? g_msgs.rows : NULL;
}

/* Whether TEXT holds the N bytes of STEM with at least one line break (with
 * the blanks before and after it) between two of its bytes, or a blank
 * between two bytes of non-ASCII characters. */
static bool wrapped_in(const char *text, const char *stem, size_t n)
{
    for (const char *p = strchr(text, stem[0]); p && n; p = strchr(p + 1, stem[0])) {
        const char *t = p;
        size_t i = 0;
        bool broke = false;
        while (i < n) {
            if (*t == stem[i]) {
                t++, i++;
                continue;
            }
            const char *b = t;
            while (*b == ' ' || *b == '\t')
                b++;
            if (*b == '\r')
                b++;
            /* a blank between two characters of a CJK message, which has
             * none: a copy from a picture or a retyping put it there
             * ("找不到指 定的模块。") */
            if (i > 0 && b > t && *b != '\n' && (unsigned char)stem[i] >= 0x80 &&
                (unsigned char)stem[i - 1] >= 0x80) {
                t = b, broke = true;
                continue;
            }
            if (i == 0 || *b != '\n')
                break;
            b++;
            while (*b == ' ' || *b == '\t')
                b++;
            t = b, broke = true;
            while (i < n && stem[i] == ' ')
                i++; /* the break stood for the message's own blank */
        }
        if (i == n && broke)
            return true;
    }
    return false;
}

/* S's words in lower case, one blank between them, without the words a
 * retyping drops ("is", "the", "a", "an"): "%1 not a valid win32 application"
 * and "%1 is not a valid Win32 application" both give "%1 not valid win32
 * application". Writes at most CAP - 1 bytes to OUT; returns the count of
 * words kept. */
static size_t loose_words(const char *s, size_t len, char *out, size_t cap)
{
    static const char *const dropped[] = {"is", "the", "a", "an"};
    size_t o = 0, words = 0, i = 0;
    while (i < len && o + 1 < cap) {
        while (i < len && isspace((unsigned char)s[i]))
            i++;
        size_t w = i;
        while (i < len && !isspace((unsigned char)s[i]))
            i++;
        if (i == w)
            break;
        bool drop = false;
        for (size_t d = 0; d < sizeof dropped / sizeof dropped[0]; d++)
            if (strlen(dropped[d]) == i - w && strncasecmp(s + w, dropped[d], i - w) == 0)
                drop = true;
        if (drop)
            continue;
        if (o && o + 1 < cap)
            out[o++] = ' ';
        for (size_t k = w; k < i && o + 1 < cap; k++)
            out[o++] = (char)tolower((unsigned char)s[k]);
        words++;
    }
    out[o] = '\0';
    return words;
}

/* An English message retyped: its case changed and a short word left out
 * ("DLL load failed: %1 not a valid win32 application!"). Only messages of
 * three words or more once those are dropped. */
static const struct td_winmsg *retyped_english(const char *text, const struct td_winmsg *m,
                                               size_t n)
{
    size_t len = strlen(text);
    if (len > (1u << 20))
        return NULL;
    char *flat = malloc(len + 1);
    if (!flat)
        return NULL;
    loose_words(text, len, flat, len + 1);
    const struct td_winmsg *found = NULL;
    for (size_t i = 0; i < n && !found; i++) {
        char stem[LINE_CAP];
        if (strcmp(m[i].language, "en") != 0 ||
            loose_words(m[i].message, m[i].stem_len, stem, sizeof stem) < 3)
            continue;
        if (strstr(flat, stem))
            found = &m[i];
        /* and in the present tense ("The Specified Module Cannot Be Found") */
        const char *cn = strstr(m[i].message, " could not ");
        if (!found && cn && cn - m[i].message < (ptrdiff_t)m[i].stem_len) {
            char present[LINE_CAP];
            int pl = snprintf(present, sizeof present, "%.*s cannot %.*s", (int)(cn - m[i].message),
                              m[i].message, (int)(m[i].stem_len - (size_t)(cn - m[i].message) - 11),
                              cn + 11);
            if (pl > 0 && loose_words(present, strlen(present), stem, sizeof stem) >= 3 &&
                strstr(flat, stem))
                found = &m[i];
        }
    }
    free(flat);
    return found;
}

/* Whether TEXT holds M's message with its insert "%1" filled in by the
 * program that formatted it: libuv's uv_dlopen (Node's, Electron's
 * process.dlopen) replaces the "%1" of ERROR_BAD_EXE_FORMAT's message with
 * the file's name ("\\?\C:\...\addon.node is not a valid Win32
 * application."), as FormatMessage does for any caller that passes its
 * arguments. The words of the message on one side of the insert (ten bytes
 * at least), next to a word that is not a blank: the name. */
static const char *filled_at(const char *text, const struct td_winmsg *m, size_t *len);

static bool filled_insert(const char *text, const struct td_winmsg *m)
{
    size_t len;
    return filled_at(text, m, &len) != NULL;
}

/* The word that fills the insert of M in TEXT (see filled_insert), or NULL;
 * *LEN its length. */
static const char *filled_at(const char *text, const struct td_winmsg *m, size_t *len)
{
    const char *ins = strstr(m->message, "%1");
    if (!ins || ins - m->message >= (ptrdiff_t)m->stem_len)
        return NULL;
    size_t before = (size_t)(ins - m->message), after = m->stem_len - before - 2;
    if (after >= 10) {
        char stem[LINE_CAP];
        snprintf(stem, sizeof stem, "%.*s", (int)after, ins + 2);
        for (const char *p = strstr(text, stem); p; p = strstr(p + 1, stem)) {
            if (p == text || isspace((unsigned char)p[-1]) ||
                (p - text >= 2 && p[-2] == '%' && p[-1] == '1'))
                continue;
            /* the filling: the word that ends where the message goes on */
            const char *w = p;
            while (w > text && !isspace((unsigned char)w[-1]) && !strchr("\"'`", w[-1]))
                w--;
            *len = (size_t)(p - w);
            if (!before)
                return w;
            /* the words before the insert end on the same line before the name */
            const char *line = p;
            while (line > text && line[-1] != '\n')
                line--;
            char pre[LINE_CAP];
            snprintf(pre, sizeof pre, "%.*s", (int)before, m->message);
            const char *q = strstr(line, pre);
            if (q && q < p)
                return w;
        }
    } else if (before >= 10 && after == 0) {
        char stem[LINE_CAP];
        snprintf(stem, sizeof stem, "%.*s", (int)before, m->message);
        for (const char *p = strstr(text, stem); p; p = strstr(p + 1, stem)) {
            const char *q = p + before;
            if (*q && !isspace((unsigned char)*q) && *q != '%') {
                *len = strcspn(q, " \t\r\n\"'`");
                return q;
            }
        }
    }
    return NULL;
}

/* The bytes of the UTF-8 character at S (1 for a byte that starts none). */
static size_t utf8_len(const unsigned char *s)
{
    if (*s >= 0xf0)
        return 4;
    if (*s >= 0xe0)
        return 3;
    return *s >= 0xc0 ? 2 : 1;
}

/* Whether TEXT holds M's stem with one of its CJK characters (three bytes in
 * UTF-8: ideographs, kana, Hangul) left out, as a retyping or a copy from a
 * picture drops one ("找不到指的程序" for "找不到指定的程序"). Only stems
 * of six characters at least, so that five remain. */
static bool cjk_dropped_one(const char *text, const struct td_winmsg *m)
{
    const unsigned char *st = (const unsigned char *)m->message;
    size_t chars = 0;
    for (size_t i = 0; i < m->stem_len; i += utf8_len(st + i))
        chars++;
    if (chars < 6)
        return false;
    for (size_t i = 0; i < m->stem_len; i += utf8_len(st + i)) {
        if (utf8_len(st + i) != 3 || i + 3 > m->stem_len)
            continue;
        char cut[LINE_CAP];
        snprintf(cut, sizeof cut, "%.*s%.*s", (int)i, m->message, (int)(m->stem_len - i - 3),
                 m->message + i + 3);
        if (strstr(text, cut))
            return true;
    }
    return false;
}

/* The one code whose CJK message TEXT holds with a character left out (see
 * cjk_dropped_one); NULL where none does or messages of two codes do. */
static const struct td_winmsg *cjk_retyped(const char *text, const struct td_winmsg *m, size_t n)
{
    const struct td_winmsg *found = NULL;
    for (size_t i = 0; i < n; i++) {
        if (!cjk_dropped_one(text, &m[i]))
            continue;
        if (found && found->code != m[i].code)
            return NULL;
        found = &m[i];
    }
    return found;
}

/* Whether TEXT holds M's stem with the words WAS, at AT in it, told as SAID
 * instead. */
static bool holds_retold(const char *text, const struct td_winmsg *m, const char *at,
                         const char *was, const char *said)
{
    char stem[LINE_CAP];
    size_t before = (size_t)(at - m->message);
    snprintf(stem, sizeof stem, "%.*s%s%.*s", (int)before, m->message, said,
             (int)(m->stem_len - before - strlen(was)), at + strlen(was));
    return strstr(text, stem) != NULL;
}

const struct td_winmsg *td_winmsg_find(const char *text)
{
    size_t n;
    const struct td_winmsg *m = td_winmsgs(&n);
    for (size_t i = 0; i < n; i++) {
        char stem[LINE_CAP];
        snprintf(stem, sizeof stem, "%.*s", (int)m[i].stem_len, m[i].message);
        if (strstr(text, stem))
            return &m[i];
    }
    /* an English message retyped in the present tense ("The specified
     * program cannot be found"): "could not" read as "cannot" */
    for (size_t i = 0; i < n; i++) {
        const char *cn = strstr(m[i].message, " could not ");
        if (strcmp(m[i].language, "en") != 0 || !cn ||
            cn - m[i].message >= (ptrdiff_t)m[i].stem_len)
            continue;
        if (holds_retold(text, &m[i], cn, " could not ", " cannot "))
            return &m[i];
        /* and told in the past ("The specified module was not found.", as a
         * translation of the localised message back to English says it) */
        if (strncmp(cn, " could not be ", 14) == 0 &&
            holds_retold(text, &m[i], cn, " could not be ", " was not "))
            return &m[i];
    }
    /* a message a terminal wrapped: a line break (and the blanks around it)
     * inside it, even between two characters of a word or of a CJK message
     * ("找不到\n指定的程序。" at 80 columns); a blank alone inside a CJK one */
    for (size_t i = 0; i < n; i++)
        if (wrapped_in(text, m[i].message, m[i].stem_len))
            return &m[i];
    for (size_t i = 0; i < n; i++)
        if (filled_insert(text, &m[i]))
            return &m[i];
    const struct td_winmsg *cjk = cjk_retyped(text, m, n);
    return cjk ? cjk : retyped_english(text, m, n);
}

/* S with the characters ERE gives a meaning escaped by a backslash. */
static void ere_escape(const char *s, size_t n, char *out, size_t cap)
{
    size_t o = 0;
    for (size_t i = 0; i < n && o + 2 < cap; i++) {
        if (strchr("\\^$.[]|()*+?{}", s[i]))
            out[o++] = '\\';
        out[o++] = s[i];
    }
    out[o] = '\0';
}

/* Bytes at S that end a message: an optional full stop (".", "\.", "。")
 * then blanks (and in an ERE, a " ?" stays: it then applies to our blank). */
static size_t message_tail(const char *s, bool regex)
{
    size_t i = 0;
    if (regex && s[0] == '\\' && s[1] == '.')
        i = 2;
    else if (s[0] == '.')
        i = 1;
    else if (strncmp(s, "\xe3\x80\x82", 3) == 0)
        i = 3;
    while (s[i] == ' ' && s[i + 1] != '?')
        i++;
    return i;
}

char *td_explain_neutral(const char *s, bool regex, struct td_arena *a, size_t *removed)
{
    size_t n;
    const struct td_winmsg *m = td_winmsgs(&n);
    *removed = 0;
    size_t len = strlen(s);
    char *cur = td_arena_strdup(a, s);
    bool changed = false;
    for (size_t i = 0; cur && i < n; i++) {
        char stem[LINE_CAP];
        if (regex)
            ere_escape(m[i].message, m[i].stem_len, stem, sizeof stem);
        else
            snprintf(stem, sizeof stem, "%.*s", (int)m[i].stem_len, m[i].message);
        size_t sl = strlen(stem);
        if (!sl || !strstr(cur, stem))
            continue;
        char token[16];
        int tl = snprintf(token, sizeof token, "\x01%d\x02 ", m[i].code);
        /* Each replacement is shorter than the message it replaces. */
        char *next = td_arena_alloc(a, len + 1 + (size_t)tl);
        if (!next)
            return NULL;
        size_t o = 0;
        for (const char *p = cur; *p;) {
            const char *hit = strstr(p, stem);
            if (!hit) {
                size_t rest = strlen(p);
                memcpy(next + o, p, rest);
                o += rest;
                break;
            }
            memcpy(next + o, p, (size_t)(hit - p));
            o += (size_t)(hit - p);
            memcpy(next + o, token, (size_t)tl);
            o += (size_t)tl;
            p = hit + sl;
            p += message_tail(p, regex);
            *removed += sl;
        }
        next[o] = '\0';
        cur = next;
        len = o;
        changed = true;
    }
    return changed ? cur : NULL;
}

/* ---- small readings errors_cause.c and errors_read.c share (here, the file
 * both already call, so no two object files call each other) ---- */

size_t td_explain_module_span(const char *s)
{
    return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.");
}

const char *td_explain_cython_init(const char *text, size_t *len)
{
    const char *best = NULL;
    for (const char *q = strstr(text, " in init "); q; q = strstr(q + 1, " in init ")) {
        size_t n = td_explain_module_span(q + 9);
        while (n && q[9 + n - 1] == '.')
            n--; /* a sentence's full stop after it */
        if (n && q[9] != '.') {
            best = q + 9;
            *len = n;
        }
    }
    return best;
}

const char *td_explain_split_name_start(const char *text, const char *name, const char *dot)
{
    if (dot - name < 2 || !isdigit((unsigned char)name[0]) || !isdigit((unsigned char)name[1]))
        return NULL;
    for (const char *q = name; q < dot; q++)
        if (!isdigit((unsigned char)*q) && *q != '_')
            return NULL;
    if (name - text < 3 || name[-1] != ' ' || !isupper((unsigned char)name[-2]))
        return NULL;
    const char *w = name - 1;
    while (w > text && (isupper((unsigned char)w[-1]) || isdigit((unsigned char)w[-1]) ||
                        w[-1] == '_' || w[-1] == '-'))
        w--;
    if (w > text && (isalnum((unsigned char)w[-1]) || strchr("/\\.", w[-1])))
        return NULL;
    return name - 1 - w >= 2 ? w : NULL;
}

char *td_explain_joined_name(const char *word, const char *name, const char *end,
                             struct td_arena *a)
{
    size_t nw = (size_t)(name - 1 - word), nn = (size_t)(end - name);
    char *s = td_arena_alloc(a, nw + nn + 1);
    if (!s)
        return NULL;
    memcpy(s, word, nw);
    memcpy(s + nw, name, nn);
    s[nw + nn] = '\0';
    return s;
}

const char *td_explain_line_start(const char **line, const char **seen, const char *at)
{
    for (const char *nl; (nl = memchr(*seen, '\n', (size_t)(at - *seen))) != NULL;)
        *seen = *line = nl + 1;
    *seen = at;
    return *line;
}

bool td_explain_one_of(const char *const *words, size_t count, const char *s, size_t n)
{
    for (size_t i = 0; i < count; i++)
        if (strlen(words[i]) == n && strncmp(s, words[i], n) == 0)
            return true;
    return false;
}

/* ---- fields ---- */

bool td_explain_drive_path(const char *text)
{
    for (const char *p = strstr(text, ":/"); p; p = strstr(p + 1, ":/"))
        if (p - text >= 1 && isalpha((unsigned char)p[-1]) &&
            (p - text == 1 || !isalnum((unsigned char)p[-2])) && p[2] != '/')
            return true; /* "C:/Users/...", not "https://" */
    return false;
}

struct extractor {
    const char *re;
    int group;
    enum {
        F_FILE,
        F_NEEDED_BY,
        F_MODULE,
        F_SYMBOL,
        F_VERSION,
        F_WIN32,
        F_NTSTATUS,
        F_NTSTATUS_LOOSE,
        F_CUDA_DRIVER,
        F_CUDA_A,
        F_CUDA_B,
        F_ARCH,
        F_CUDA_ERROR,
        F_TORCH,
        F_EXPECTED
    } field;
};

/* First match wins per field, in this order. */
static const struct extractor extractors[] = {
    /* a dependency checker's verdict pasted after a load error (Dependencies, ldd, otool: "four
       dependencies are missing: `B.dll`, ...", "missing dependency: B"): the load error names
       the library that was asked for, the verdict the one of its dependencies that is not
       there, which is the file at fault -- first, before the load error's own file */
    {"[Dd]ependenc(y|ies) (is |are )?(missing|not found)(:|\xef\xbc\x9a)?"
     "[ \t]*[`'\"]?([A-Za-z0-9_+-][A-Za-z0-9_.+-]*\\.(dll|DLL|so(\\.[0-9]+)*|dylib))"
     "([^A-Za-z0-9_.+-]|$)",
     5, F_FILE},
    {"[Mm]issing dependenc(y|ies)(:|\xef\xbc\x9a)?"
     "[ \t]*[`'\"]?([A-Za-z0-9_+-][A-Za-z0-9_.+-]*\\.(dll|DLL|so(\\.[0-9]+)*|dylib))"
     "([^A-Za-z0-9_.+-]|$)",
     3, F_FILE},
    /* Wine's loader (dlls/ntdll/loader.c, import_dll): "Loading library %s (which is needed by
       %s) failed (error %x)." and "Library %s (which is needed by %s) not found": the first name
       is the DLL that failed, the one in parentheses its importer; the error is an NTSTATUS
       printed in hex without "0x" */
    {"[Ll]oading library ([^ \t\n(]+) \\(which is needed by ", 1, F_FILE},
    {"(^|[^A-Za-z])Library ([^ \t\n(]+) \\(which is needed by [^\n]*\\) not found", 2, F_FILE},
    {"\\(which is needed by L?\"?([^\")\n]+)", 1, F_NEEDED_BY},
    {"\\(which is needed by [^\n]*\\) failed \\(error ([cC]0[0-9a-fA-F]{6})\\)", 1, F_NTSTATUS},
    /* torch/__init__.py, Windows: err.strerror += f' Error loading "{dll}" or one of its
       dependencies.' */
    {"Error loading \"([^\"\n]+)\"", 1, F_FILE},
    /* the same, cut off before the closing quote, retyped with curly quotes, or unquoted */
    {"Error? loading[[:space:]]*(\"|\xe2\x80\x9c)([^\"\n]+)", 2, F_FILE},
    {"Error loading ([A-Za-z]:\\\\[^\"\n]+) or one of its", 1, F_FILE},
    /* a wording no torch prints (docs/explain.md), and PyInstaller's */
    {"Failed to load (dynlib/dll )?'?([^ '\t\n]+\\.(dll|pyd|so|dylib)[.0-9]*)", 2, F_FILE},
    /* ctypes (Python 3.8+) for ERROR_MOD_NOT_FOUND: "Could not find module 'X' (or one of its
       dependencies)"; a path whose last part has no dot is a folder a loader
       tried among its candidates (mpi4py's "cannot load MPI library", one
       OSError per line), not a file: the first name that is one */
    {"Could not find module '(([^'\n]*[\\/])?[^'\n\\/]*\\.[^'\n\\/]*|[^'\n\\/]+)'", 1, F_FILE},
    /* onnxruntime's provider bridge */
    {"when trying to load \"([^\"\n]+)\"", 1, F_FILE},
    /* glibc elf/dl-load.c via _dl_signal_error: "PROGRAM: error while loading shared libraries:
       LIB: ..." */
    {"error while loading shared libraries: ([^ \t\n:]+): ", 1, F_FILE},
    /* the same retyped without the blank, or cut after the library's name; a library's name
       holds a dot or a slash -- _dl_signal_error leaves the name out for the program itself
       (its l_name is ""), so "PROG: error while loading shared libraries: cannot restore
       segment prot after reloc: ..." names no library, and "cannot" is not one */
    {"error while loading shared libraries:[ \t]*([^ \t\n:]*[./][^ \t\n:]*)", 1, F_FILE},
    {"(^|[ \t])([^ \t\n:]+): error while loading shared libraries", 2, F_NEEDED_BY},
    /* musl ldso/dynlink.c: "Error loading shared library %s: %m (needed by %s)" and
       "Error relocating %s: %s: symbol not found" */
    {"Error loading shared library ([^ \t\n:]+): ", 1, F_FILE},
    /* glibc elf/rtld.c (do_preload): "ERROR: ld.so: object '%s' from %s cannot be preloaded
       (%s): ignored." -- the object is the file, not "ld.so" before it */
    {"object '([^'\n]+)' from [^ \t\n]+ cannot be preloaded", 1, F_FILE},
    {"Error loading shared library [^\n]*\\(needed by ([^)\n]+)\\)", 1, F_NEEDED_BY},
    {"Error relocating ([^ \t\n:]+): ([^ \t\n:]+): symbol not found", 1, F_FILE},
    {"Error relocating ([^ \t\n:]+): ([^ \t\n:]+): symbol not found", 2, F_SYMBOL},
    /* dyld */
    /* dyld prints the install name alone to the end of its line; inside a
     * framework bundle the binary is named after the bundle and both may hold
     * blanks ("@rpath/Electron Framework.framework/Electron Framework"): a
     * path through a ".framework" folder is read to the line's end (no colon:
     * a one-line paste's "Referenced from:" is not part of it) */
    {"Library not loaded:[[:space:]]*'?(([^\n':`]*/)?[^/\n':`]+\\.framework/([^\n':`]*/)?[^/\n':` "
     "][^/\n':`]*[^/\n':` ])'?[ \t]*$",
     1, F_FILE},
    /* a paste wrapped at the colon puts the library on the next line */
    {"Library not loaded:[[:space:]]*([^ \t\n]+)", 1, F_FILE},
    /* macOS 12+ puts the image's UUID first: "Referenced from: <UUID> /path" */
    /* a "(...)" inside the path is part of it ("/Users/(me)/prog"); one after a
     * blank is dyld's note ("(which was built for Mac OS X 10.13)") */
    /* dyld prints a blank after each field's colon ("Referenced from: %s",
     * "Expected in: %s"); a paste that lost it
     * ("Referenced from:fastfetch-macos-amd64/fastfetch") is read the same */
    {"Referenced from:[ \t]*(<[^>\n]*>[ \t]*)?(([^ \t\n(]|[ \t][^\n(]|[^ \t\n(]\\([^)\n]*\\))+)", 2,
     F_NEEDED_BY},
    {"Symbol not found: ([^ \t\n]+)", 1, F_SYMBOL},
    /* macOS 12+: "symbol not found in flat namespace '_PyArg_ParseTuple'"; dyld's quotes
       retyped as parentheses, or lost with a title's length */
    {"symbol not found in flat namespace ['(]?([^')[:space:]]+)", 1, F_SYMBOL},
    {"Expected in:[ \t]*(<[^>\n]*>[ \t]*)?([^ \t\n][^\n]*)", 2, F_EXPECTED},
    /* glibc elf/dl-lookup.c (check_match's caller): "REFERENCE: symbol S, version V not defined
       in file F with link time reference" -- F, the library that should define S, lacks it */
    {"not defined in file ([^ \t\n,]+) with link time reference", 1, F_FILE},
    {"([^ \t\n'\"(]+):[[:space:]]*symbol [^ \t\n,]+,? version [^ \t\n]+ not defined in file", 1,
     F_NEEDED_BY},
    {"symbol ([^ \t\n,]+),? version [^ \t\n]+ not defined in file", 1, F_SYMBOL},
    /* glibc elf/dl-lookup.c: "FILE: undefined symbol: NAME, version V"; a
     * symbol's name (C, Itanium) holds no quote, backtick or parenthesis, so
     * one glued on by the sentence that quotes the message is not part of it
     * ("the problem that \"undefined symbol: _ZNSt13runtime_errorC2EPKc\"") */
    {"([^ \t\n'\"(]+):[[:space:]]*undefined symbol: ([^ \t\n,]+)", 1, F_FILE},
    {"([^ \t\n'\"(]+):[[:space:]]*undefined symbol: ([^ \t\n,'\"`()]+)", 2, F_SYMBOL},
    {"[Uu]ndefined symbol: ([^ \t\n,'\"`()]+)", 1, F_SYMBOL},
    /* the same retold without its colon ("ImportError: undefined symbol
     * _ZN3c105ErrorC2"): only a linker's name follows, one with a '_' (a
     * mangled or C name), not a word of prose ("undefined symbol error") */
    {"[Uu]ndefined symbol (_[A-Za-z0-9_$]+|[A-Za-z][A-Za-z0-9$]*_[A-Za-z0-9_$]*)", 1, F_SYMBOL},
    {"[Uu]ndefined symbol: [^ \t\n,]+, version ([^ \t\n]+)", 1, F_VERSION},
    /* glibc elf/dl-version.c: "LIB: version `V' not found (required by FILE)" */
    {"([^ \t\n'\"(]+): version .([^'` \t\n]+). not found \\(required by ([^)\n]+)\\)", 1, F_FILE},
    {"([^ \t\n'\"(]+): version .([^'` \t\n]+). not found \\(required by ([^)\n]+)\\)", 2,
     F_VERSION},
    {"([^ \t\n'\"(]+): version .([^'` \t\n]+). not found \\(required by ([^)\n]+)\\)", 3,
     F_NEEDED_BY},
    /* the same, cut before "(required by" */
    {"([^ \t\n'\"(]+): version .([^'` \t\n]+). not found", 1, F_FILE},
    {"([^ \t\n'\"(]+): version .([^'` \t\n]+). not found", 2, F_VERSION},
    /* the same, retyped without the quotes */
    {"([^ \t\n'\"(]+): version ([A-Z]+_[0-9][0-9.]*) not found \\(required by ([^)\n]+)\\)", 1,
     F_FILE},
    {"([^ \t\n'\"(]+): version ([A-Z]+_[0-9][0-9.]*) not found \\(required by ([^)\n]+)\\)", 2,
     F_VERSION},
    {"([^ \t\n'\"(]+): version ([A-Z]+_[0-9][0-9.]*) not found \\(required by ([^)\n]+)\\)", 3,
     F_NEEDED_BY},
    /* the same retyped by hand: the blank before the quote lost, blanks in the
       version's name, a full stop after "found", "Required" ("libc.so.6:
       version'GLIB _2.28' not found. (Required by ./gophish)") */
    {"([^ \t\n'\"(]+): version ?[`']([^'`\n]{1,40})' not found\\.? \\([Rr]equired by ([^)\n]+)\\)",
     1, F_FILE},
    {"([^ \t\n'\"(]+): version ?[`']([^'`\n]{1,40})' not found\\.? \\([Rr]equired by ([^)\n]+)\\)",
     2, F_VERSION},
    {"([^ \t\n'\"(]+): version ?[`']([^'`\n]{1,40})' not found\\.? \\([Rr]equired by ([^)\n]+)\\)",
     3, F_NEEDED_BY},
    /* glibc: "LIB: cannot open shared object file: No such file or directory"; a
       library's name holds no semicolon, so a word a retelling glued on with one is not
       part of it ("Import error;libc10_cuda.so: cannot open ...") */
    {"([^ \t\n'\"():;]+): cannot open shared object file", 1, F_FILE},
    {"([^ \t\n'\"(]+): (wrong ELF class: ELFCLASS[0-9]+|invalid ELF header)", 1, F_FILE},
    /* the same in the C library's other languages ("错误 ELF 类: ELFCLASS32"): the class
       is never translated, and a wrapped paste may break the line before it */
    {"([^ \t\n'\"(]+):[^:\n]*:[[:space:]]*ELFCLASS(32|64)", 1, F_FILE},
    {"dlopen\\(([^,\n]+), [0-9xA-Fa-f]+\\)", 1, F_FILE},
    /* dyld's list of the paths it tried, "tried: 'P' (why)", when the paste lost the line that
       named the library ("Library not loaded: X"): a P dyld found and refused (another
       architecture, not a Mach-O, a duplicate LC_RPATH, a bad signature) is the file at fault;
       "Referenced from:" is the image that needs it, never the subject */
    {"tried: '([^'\n]+)' \\((mach-o file, but|not a mach-o|duplicate LC_RPATH|code signature|file "
     "too short|fat file)",
     1, F_FILE},
    /* the same list when every place it names held no file ("Reason: tried: '$ORIGIN/X'
       (no such file), '/usr/lib/X' (no such file)"): each is the install name X under a
       path dyld tried, so the first names the library */
    {"[Rr]eason: tried: '([^'\n]+)' \\(no such file", 1, F_FILE},
    /* TensorFlow's dso_loader quotes the name ("Could not load dynamic library 'X'; dlerror:"),
       cuDNN does not ("Could not load library X. Error code 126"), but its X is a file name
       with an extension: unquoted, a word without a dot is prose ("Could not load dynamic
       library error" in a title), not a file */
    {"Could not load (dynamic )?library '([^ '\t\n]+[^ '\t\n.])'", 2, F_FILE},
    {"Could not load (dynamic )?library ([^ '\t\n]*[^ '\t\n.]\\.[^ '\t\n]*[^ '\t\n.])", 2, F_FILE},
    {"Loading binary ([^ \t\n]+)", 1, F_FILE},
    /* TensorFlow 1.x stream_executor/dso_loader.cc */
    {"Couldn't open CUDA library ([^ \t\n]+[^ \t\n.])", 1, F_FILE},
    /* last resort: ctypes.CDLL('X') in the traceback; .NET's DllNotFoundException */
    {"CDLL\\(u?['\"]([^'\"\n]+)['\"]", 1, F_FILE},
    /* (Chinese drops the space between CJK and Latin as often as it keeps it: 无法加载DLL"X") */
    {"(Unable to load DLL|\xe6\x97\xa0\xe6\xb3\x95\xe5\x8a\xa0\xe8\xbd\xbd ?DLL) "
     "?(\xe2\x80\x9c|'|\")([^'\"\n]+)",
     3, F_FILE},
    /* .NET's DllNotFoundException in any display language (mscorlib's resource
       Arg_DllNotFoundExceptionParameterized, localised): the verb moves, but the name is quoted
       right after the word "DLL" and the Win32 code follows on the same line as an HRESULT
       (HRESULT_FROM_WIN32: 0x8007xxxx) */
    {"DLL "
     "?(\xe2\x80\x9c|'|\")([^'\"\n]+)(\xe2\x80\x9d|'|\")[^\n]*(HRESULT|\\(0x8007[0-9A-Fa-f]{4}\\))",
     2, F_FILE},
    /* dyld's "Reason: tried: 'P' (no such file), ..." lists the paths it tried for one
       library, each ending in the name it looked for; when the paste lost the line that named
       it ("Library not loaded: X", "dlopen(X, N)"), the first path tried is the file -- the
       library a runtime asked for may only need it */
    {"tried: ([^'\n]*)'([^'\n]+)' \\(no such file", 2, F_FILE},
    {"Module use of ([^ \t\n]+) conflicts", 1, F_FILE},
    {"PyInit_([A-Za-z0-9_]+)", 1, F_MODULE},
    /* CPython Python/dynload_win.c (3.8+): "DLL load failed while importing %U: %s"; a
       dotted name never ends in its dot, which is a retyped sentence's full stop ("DLL load
       failed while importing QtCore.") */
    {"DLL load failed while importing ([A-Za-z0-9_.]*[A-Za-z0-9_])", 1, F_MODULE},
    /* the same retyped without "while importing" ("DLL load failed _iec61850 : %1 is not a
       valid Win32 application"): a name right before the colon, never a word of prose (one
       that is not all lower-case letters: an underscore, a digit, a capital or a dot) */
    {"DLL load failed ([a-z]*[A-Z0-9_.][A-Za-z0-9_.]*[A-Za-z0-9_]|[a-z]*[A-Z0-9_]) ?: ", 1,
     F_MODULE},
    {"\\[WinError ([0-9]+)\\]", 1, F_WIN32},
    {"WindowsError: \\[Error ([0-9]+)\\]", 1, F_WIN32},
    {"(^|[^A-Za-z])WinError ([0-9]+)", 2, F_WIN32},
    {"Load(ing)? ?Library failed with error ([0-9]+)", 2, F_WIN32},
    /* a program's own words for LoadLibrary's failure, GetLastError later on the line
       ("LoadLibrary() returned error code 126", "LoadLibrary returned NULL. Make sure the DLL
       is 64 bit ... Error code 193", "LoadLibrary(\"X\") failed: 193"): LoadLibrary sets only
       the last error, so the number after error, code or failed on its line is that
       (learn.microsoft.com, LoadLibraryW, Return value); Unreal's "Failed to load 'X'
       (GetLastError=126)" names it */
    {"LoadLibrary(Ex)?[AW]?(\\(\\))?[^\n]{0,160}([Ee]rror|[Cc]ode|failed)"
     "[ :=#]*\\(?([1-9][0-9]{0,4})([^0-9]|$)",
     4, F_WIN32},
    {"GetLastError(\\(\\))?[ \t]*[=:][ \t]*([1-9][0-9]{0,4})([^0-9]|$)", 2, F_WIN32},
    /* a load's failure in a host's or a poster's words with the code right after it ("The
       plugin dll could not be loaded: 126", "DLL load error 126"): two digits at least, so a
       version or a count is not one */
    {"([Cc]ould ?n[o']?t|[Cc]annot|[Cc]an't|[Uu]nable to|[Ff]ailed to)( be)? load(ed)?[ \t]*"
     "[:(][ \t]*([1-9][0-9]{1,4})([^0-9]|$)",
     4, F_WIN32},
    {"(DLL|dll) load(ing)? (error|fail(ed|ure)?)[ \t:]*\\(?(error |code )?([1-9][0-9]{1,4})"
     "([^0-9]|$)",
     6, F_WIN32},
    /* Go's syscall (src/syscall/dll_windows.go, DLL.FindProc): "Failed to find %s procedure in
       %s: %v", the DLL's name as the program gave it (LoadLibrary adds ".dll" to a name
       without an extension) */
    {"Failed to find ([^ \t\n]+) procedure in ([^ \t\n:]+): ", 2, F_FILE},
    {"Failed to find ([^ \t\n]+) procedure in ([^ \t\n:]+): ", 1, F_SYMBOL},
    /* pywin32 (win32/src/PyWinTypesmodule.cpp, PyWin_SetAPIError): the error is the tuple
       (code, the API's name, the system message): "pywintypes.error: (126, 'LoadLibraryEx',
       ...)" */
    {"(pywintypes|win32api)\\.error: \\(([0-9]+), '[A-Za-z]+'", 2, F_WIN32},
    /* OBS (libobs/util/platform-windows.c, os_dlopen): "LoadLibrary failed for '%s': %s (%lu)",
       the system message ending in a line break, so the code may open the log's next line */
    {"LoadLibrary failed for '[^'\n]+': ([^\n]*|[^\n]*\n[0-9:. \t]*)\\(([0-9]+)\\)", 2, F_WIN32},
    /* VCV Rack (src/plugin.cpp, loadLibrary) and the hosts that copied it: "Failed to load
       library %s: code %d", GetLastError after LoadLibraryW (127: the plug-in imports a function
       the host does not export, a plug-in built for another Rack) */
    {"Failed to load library [^\n]+: code ([0-9]+)", 1, F_WIN32},
    /* a host naming the plug-in it passed to LoadLibrary by its bare name ("Failed to load
       plugin 'X'. Reason: LoadLibraryA failed. (Error: 126)"): LoadLibrary appends ".dll" to a
       name without an extension (learn.microsoft.com, LoadLibraryA, lpLibFileName) */
    {"(plugin|module|library|DLL) '([A-Za-z0-9_+-][A-Za-z0-9_.+-]*)'[^\n]*LoadLibrary[A-Za-z]* "
     "failed",
     2, F_FILE},
    {"(0[xX][cC]0[0-9a-fA-F]{6})", 1, F_NTSTATUS},
    /* Windows Error Reporting's and Event Viewer's "Exception Code" field, and WinDbg's
       exception record ("ExceptionCode: c06d007e"), print the exception code in hex, WER and
       WinDbg without "0x" ("Exception Code:\tc06d007e") */
    {"[Ee]xception ?[Cc]ode:?[ \t]*([cC]0[0-9a-fA-F]{6})([^0-9A-Za-z]|$)", 1, F_NTSTATUS},
    /* an NTSTATUS retyped with its zeros miscounted ("0xc00007b", "0xc0000000135"), or, in
       the start-failure dialog, without its "c" ("unable to start correctly (0x000007b)"):
       kept only when the re-counted code is a known status */
    {"(^|[^0-9A-Za-z])(0[xX][cC]0{2,7}[1-9a-fA-F][0-9a-fA-F]{0,3})([^0-9A-Za-z]|$)", 2,
     F_NTSTATUS_LOOSE},
    {"unable to start "
     "correctly[^0-9\n]{0,4}(0[xX]0{2,7}[1-9a-fA-F][0-9a-fA-F]{0,3})([^0-9A-Za-z]|$)",
     1, F_NTSTATUS_LOOSE},
    /* torch's cudaDriverGetVersion report: "found version 11040" */
    {"found version ([0-9]{4,6})", 1, F_CUDA_DRIVER},
    {"CUDA Version=([0-9][0-9.]*[0-9]) and [A-Za-z]+ has CUDA Version=([0-9][0-9.]*[0-9])", 1,
     F_CUDA_A},
    {"CUDA Version=([0-9][0-9.]*[0-9]) and [A-Za-z]+ has CUDA Version=([0-9][0-9.]*[0-9])", 2,
     F_CUDA_B},
    {"capability (sm_[0-9]+[a-z]?)", 1, F_ARCH},
    {"CUDA failure ([0-9]+)", 1, F_CUDA_ERROR},
    /* the torch the text says ran: "torch 2.4.0", "torch==2.4.1", "PyTorch version: 2.5.1" */
    {"(^|[^A-Za-z_])([Tt]orch|PyTorch|pytorch)( version)?(:|==|=| |-| v)?[ "
     "]?([0-9]+\\.[0-9]+(\\.[0-9]+)?)",
     5, F_TORCH},
};

enum { N_EXTRACTORS = sizeof extractors / sizeof extractors[0] };

static struct {
    bool needles_done;
    struct td_ere_needles needles[N_EXTRACTORS];
    bool compiled[N_EXTRACTORS];
    regex_t re[N_EXTRACTORS];
    bool ok[N_EXTRACTORS];
} g_ex;

size_t td_explain_extractor_eres(const char **out, size_t cap)
{
    size_t n = 0;
    for (size_t k = 0; k < N_EXTRACTORS && n < cap; k++)
        out[n++] = extractors[k].re;
    return n;
}

size_t td_ere_needle(const char *re, char *out, size_t cap)
{
    char run[256];
    size_t n = 0, best = 0, opened = 0;
    int depth = 0;
    bool bracket = false;
    out[0] = '\0';
    for (size_t i = 0; re[i]; i++) {
        char c = re[i], lit = 0;
        if (bracket) {
            /* a "]" first in the list ("[]…]", "[^]…]") is one of its
             * characters; "[:space:]" is a class inside it; a "[" alone is
             * only a character ("[^]['\"(]") */
            size_t first = opened + 1 + (re[opened + 1] == '^');
            if (c == '[' && (re[i + 1] == ':' || re[i + 1] == '.' || re[i + 1] == '=')) {
                const char *end = strchr(re + i + 2, re[i + 1]);
                while (end && end[1] != ']')
                    end = strchr(end + 1, re[i + 1]);
                if (end)
                    i = (size_t)(end + 1 - re);
                continue;
            }
            bracket = !(c == ']' && i > first);
            continue;
        }
        if (c == '|' && depth == 0)
            return out[0] = '\0', 0; /* an alternative at the top: no text is required */
        if (c == '{') {
            /* a bound ("{0,24}") counts what comes before it: its digits are no text */
            const char *end = strchr(re + i, '}');
            if (end)
                i = (size_t)(end - re);
            n = 0;
            continue;
        }
        if (c == '\\' && re[i + 1] && !isalnum((unsigned char)re[i + 1]))
            lit = re[++i];
        else if (!strchr("\\^$.[]()|*+?{}", c))
            lit = c;
        else if (c == '[')
            bracket = true, opened = i;
        else if (c == '(')
            depth++;
        else if (c == ')')
            depth--;
        char next = re[i + 1];
        bool optional = next == '*' || next == '?' || next == '{';
        if (lit && depth == 0 && !bracket && !optional && n + 1 < sizeof run) {
            run[n++] = lit;
        } else {
            n = 0;
            continue;
        }
        if (n > best && n < cap) {
            best = n;
            memcpy(out, run, n);
            out[n] = '\0';
        }
    }
    return best;
}

static const char *grab(const char *text, size_t i, struct td_arena *a)
{
    if (!g_ex.needles_done) {
        g_ex.needles_done = true;
        for (size_t k = 0; k < N_EXTRACTORS; k++)
            td_ere_needles(extractors[k].re, &g_ex.needles[k]);
    }
    /* the pattern's required text first: most extractors are ruled out
     * by a strstr, and compiled only when one is not */
    if (!td_ere_needles_from(&g_ex.needles[i], text))
        return NULL;
    if (!g_ex.compiled[i]) {
        g_ex.compiled[i] = true;
        g_ex.ok[i] = regcomp(&g_ex.re[i], extractors[i].re, REG_EXTENDED | REG_NEWLINE) == 0;
    }
    regmatch_t m[8];
    if (!g_ex.ok[i] || td_ere_needles_exec(&g_ex.re[i], &g_ex.needles[i], text, 8, m) != 0)
        return NULL;
    int gi = extractors[i].group;
    if (m[gi].rm_so < 0)
        return NULL;
    return td_arena_strndup(a, text + m[gi].rm_so, (size_t)(m[gi].rm_eo - m[gi].rm_so));
}

void td_explain_drop_closers(char *s)
{
    size_t n = strlen(s), b = n;
    while (b && strchr(")]}", s[b - 1]))
        b--;
    if (b < n && b && strchr("'\"` ", s[b - 1]))
        s[b] = '\0';
}

/* A file named in a message, without the punctuation around it (and what
 * follows a path whose closing quote was cut or retyped). */
static const char *tidy_path(char *s)
{
    static const char *const ends[] = {"\xe2\x80\x9d", " or one of its", "\xe2\x80\x9c"};
    for (size_t k = 0; k < sizeof ends / sizeof ends[0]; k++) {
        char *e = strstr(s, ends[k]);
        if (e && e != s)
            *e = '\0';
    }
    size_t n = strlen(s);
    while (n && s[n - 1] == ' ')
        s[--n] = '\0';
    while (*s == ' ')
        s++;
    n = strlen(s);
    td_explain_drop_closers(s);
    n = strlen(s);
    while (n && s[n - 1] == ' ')
        s[--n] = '\0';
    while (n && strchr(".,;:'\"`", s[n - 1]))
        s[--n] = '\0';
    while (*s && strchr("'\"`", *s))
        s++;
    return s;
}

static const char *base_name(const char *path)
{
    const char *b = path;
    for (const char *p = path; *p; p++)
        if (*p == '/' || *p == '\\')
            b = p + 1;
    return b;
}

static const char *ntstatus_lookup(unsigned long v, const char **name, int *win32,
                                   struct td_arena *a)
{
    char hex[16];
    snprintf(hex, sizeof hex, "0x%08lX", v);
    size_t len;
    const char *t = td_data_table("windows_ntstatus", &len);
    struct td_tsv tsv;
    td_tsv_open(&tsv, t, len);
    const char *cells[8];
    char line[LINE_CAP];
    int hn = td_tsv_next(&tsv, line, sizeof line, cells, 8);
    int c_st = td_tsv_column(cells, hn, "ntstatus"), c_name = td_tsv_column(cells, hn, "name"),
        c_w = td_tsv_column(cells, hn, "win32");
    while (c_st >= 0 && td_tsv_next(&tsv, line, sizeof line, cells, 8) == hn) {
        if (strcasecmp(cells[c_st], hex) == 0) {
            *name = td_arena_strdup(a, cells[c_name]);
            *win32 = atoi(cells[c_w]);
            break;
        }
    }
    return td_arena_strdup(a, hex);
}

/* Status ST as F's NTSTATUS, its name and the Win32 error it maps to;
 * with KNOWN_ONLY, only when the table knows it (a code re-counted from a
 * retyped one). */
static void take_ntstatus(struct td_explain_fields *f, unsigned long st, bool known_only,
                          struct td_arena *a)
{
    const char *name = NULL;
    int w = 0;
    const char *hex = ntstatus_lookup(st, &name, &w, a);
    if (known_only && !name)
        return;
    f->ntstatus = hex;
    f->ntstatus_name = name;
    if (!f->win32)
        f->win32 = w;
}

/* An NTSTATUS named by its symbol alone ("STATUS_DLL_NOT_FOUND", as a crash
 * dialog, a debugger or a Rust or Go runtime prints it without the number):
 * the status data/windows_ntstatus.tsv gives that name, when F has none. */
static void take_ntstatus_name(const char *text, struct td_explain_fields *f, struct td_arena *a)
{
    if (f->ntstatus || !strstr(text, "STATUS_"))
        return;
    static const char *const cols[] = {"ntstatus", "name", NULL};
    struct td_table t;
    if (!td_table_open(&t, "windows_ntstatus", cols))
        return;
    while (td_table_next(&t)) {
        const char *name = td_table_cell(&t, 1);
        size_t n = strlen(name);
        if (strncmp(name, "STATUS_", 7) != 0)
            continue;
        for (const char *at = strstr(text, name); at; at = strstr(at + 1, name))
            if ((at == text || !(isalnum((unsigned char)at[-1]) || at[-1] == '_')) &&
                !(isalnum((unsigned char)at[n]) || at[n] == '_')) {
                take_ntstatus(f, strtoul(td_table_cell(&t, 0), NULL, 16), true, a);
                return;
            }
    }
}

/* Whether CODE (explain's vocabulary: "WinError 126", "errno 8") by itself
 * says an image failed to load, wherever it is printed: data/
 * load_error_codes.tsv's alone column (ERROR_ACCESS_DENIED or ENOENT say so
 * only beside a load). */
static bool load_code_alone(const char *code)
{
    static const char *const cols[] = {"code", "alone", NULL};
    struct td_table t;
    if (!td_table_open(&t, "load_error_codes", cols))
        return false;
    while (td_table_next(&t))
        if (strcmp(td_table_cell(&t, 0), code) == 0)
            return strcmp(td_table_cell(&t, 1), "yes") == 0;
    return false;
}

/* The statuses TEXT prints where its words say they are statuses, however
 * spelled (errors_status.c): the first NTSTATUS as F's when it has none; an
 * HRESULT made of a Win32 error (HRESULT_FROM_WIN32, learn.microsoft.com
 * "HRESULT_FROM_WIN32 macro") as F's Win32 error when that error alone says
 * a load failed. */
static void take_statuses(const char *text, struct td_explain_fields *f, struct td_arena *a)
{
    uint32_t codes[16];
    size_t n = td_explain_statuses(text, codes, sizeof codes / sizeof *codes);
    for (size_t i = 0; i < n; i++) {
        if ((codes[i] & 0xF0000000u) == 0xC0000000u) {
            if (!f->ntstatus)
                take_ntstatus(f, codes[i], false, a);
            continue;
        }
        char code[32];
        snprintf(code, sizeof code, "WinError %u", (unsigned)(codes[i] & 0xFFFFu));
        if (!f->win32 && load_code_alone(code))
            f->win32 = (int)(codes[i] & 0xFFFFu);
    }
}

/* A signal's description as the C library prints it ("Illegal instruction"),
 * at the start of a line or after ": ", ends a line or is followed by
 * " (core dumped)" or ": N" (macOS). Returns "SIGILL" or NULL. */
static const char *signal_in(const char *text, struct td_arena *a)
{
    for (int sig = 1; sig < 32; sig++) {
        const char *desc = strsignal(sig), *abbrev = sigabbrev_np(sig);
        if (!desc || !abbrev || strncmp(desc, "Unknown", 7) == 0)
            continue;
        size_t dl = strlen(desc);
        for (const char *at = strstr(text, desc); at; at = strstr(at + 1, desc)) {
            bool start = at == text || at[-1] == '\n' || (at - text >= 2 && at[-2] == ':');
            const char *end = at + dl;
            bool stop = *end == '\0' || *end == '\n' || strncmp(end, " (core dumped)", 14) == 0 ||
                        strncmp(end, ": ", 2) == 0 || strncmp(end, " : ", 3) == 0;
            if (start && stop) {
                char name[32];
                snprintf(name, sizeof name, "SIG%s", abbrev);
                return td_arena_strdup(a, name);
            }
        }
    }
    return NULL;
}

/* Whether the name that ends right before END (a path's last part) is a
 * library's file: ".so" or ".so.N...", ".dylib", ".dll", ".pyd", ".node". */
static bool library_name_ends(const char *text, const char *end)
{
    const char *start = end;
    while (start > text && !strchr(" \t\n'\"`(/\\", start[-1]))
        start--;
    const char *so = NULL;
    for (const char *c = start; c + 3 <= end; c++)
        if (strncmp(c, ".so", 3) == 0 && (c + 3 == end || c[3] == '.'))
            so = c;
    if (so && strspn(so + 3, ".0123456789") == (size_t)(end - so - 3))
        return true;
    static const char *const exts[] = {".dylib", ".dll", ".pyd", ".node"};
    for (size_t k = 0; k < sizeof exts / sizeof *exts; k++) {
        size_t n = strlen(exts[k]);
        if ((size_t)(end - start) > n && strncasecmp(end - n, exts[k], n) == 0)
            return true;
    }
    return false;
}

/* An errno description the C library's table gives, printed after ": " by a
 * loader: ld.so's "cannot open shared object file: No such file or
 * directory", and any loader's "LIB: Exec format error" after the library's
 * file (musl's "Error loading shared library %s: %m", dlerror()s that end in
 * strerror). Returns the number, 0 when none. */
static int errno_in(const char *text)
{
    for (int e = 1; e < 134; e++) {
        const char *desc = strerror(e);
        if (!desc || strncmp(desc, "Unknown", 7) == 0)
            continue;
        char needle[256];
        snprintf(needle, sizeof needle, "shared object file: %s", desc);
        if (strstr(text, needle))
            return e;
        size_t dl = strlen(desc);
        for (const char *at = strstr(text, desc); at; at = strstr(at + 1, desc))
            if (at - text >= 3 && at[-2] == ':' && at[-1] == ' ' &&
                !isalpha((unsigned char)at[dl]) && library_name_ends(text, at - 2))
                return e;
    }
    return 0;
}

/* The platform the text's signs say, and the sign that decided it
 * (errors_platform.c). */
static void infer_platform(const char *text, struct td_explain_fields *f)
{
    struct td_platform_reading r;
    td_explain_platform_read(text, f, &r);
    f->platform = r.platform;
    f->platform_sign = r.sign;
}

bool td_explain_delay_load(const struct td_explain_fields *f)
{
    return f->ntstatus && strncasecmp(f->ntstatus, "0xC06D", 6) == 0;
}

/* The DLL a delay-load helper thunk is named after: the linker gives each
 * delay-loaded DLL a "__tailMerge_" thunk named by the DLL, lld as it is
 * ("__tailMerge_tdh.dll", lld/COFF/DLL.cpp), link.exe with the dot made an
 * underscore ("__tailMerge_tdh_dll", as WinDbg's failure bucket
 * "E_DELAYLOAD_MOD_NOT_FOUND_c06d007e_X.dll!_tailMerge_tdh_dll" shows): the
 * DLL being loaded when the delay-load failed. NULL when none is named. */
static const char *delay_loaded(const char *text, struct td_arena *a)
{
    const char *at = strstr(text, "tailMerge_");
    if (!at)
        return NULL;
    at += 10;
    size_t n = 0;
    while (isalnum((unsigned char)at[n]) || at[n] == '_' || at[n] == '.' || at[n] == '-')
        n++;
    /* up to the first "_dll" or ".dll": a DLL is what is delay-loaded */
    for (size_t k = 1; k + 4 <= n; k++)
        if ((at[k] == '_' || at[k] == '.') && strncasecmp(at + k + 1, "dll", 3) == 0) {
            char *name = td_arena_strndup(a, at, k + 4);
            if (name)
                name[k] = '.';
            return name;
        }
    return NULL;
}

/* The message table's first row for Win32 error CODE, or NULL. */
static const struct td_winmsg *winmsg_of(int code)
{
    size_t n;
    const struct td_winmsg *m = td_winmsgs(&n);
    for (size_t i = 0; i < n; i++)
        if (m[i].code == code)
            return &m[i];
    return NULL;
}

/* A Win32 load error's number that the program calling LoadLibrary printed
 * after the word "error" with the system message after a colon ("loadlib
 * failed with error 126: The specified module was not found.", "error code
 * 126: cannot find the specified module", "Error Code = 126 : ..."): taken
 * when the code has a system message of its own (data/
 * windows_error_messages.tsv) and the rest of the line speaks of a module, a
 * procedure, a DLL or a Win32 application, so that a shell's "make: ***
 * [all] Error 127" is not one. 0 when none. */
static int loader_error_number(const char *text)
{
    for (const char *at = td_ere_find(text, "rror"); at; at = td_ere_find(at + 4, "rror")) {
        if (at == text || (at[-1] != 'e' && at[-1] != 'E'))
            continue;
        const char *s = at + 4;
        if (strncasecmp(s, " code", 5) == 0)
            s += 5;
        /* "Error code:1114 - A dynamic library (DLL) initialization routine failed." (a
           plug-in host's log: the code after a colon, the system message after a dash) */
        bool colon_first = *s == ':';
        s += strspn(s, " \t=#:");
        size_t d = strspn(s, "0123456789");
        if (d < 2 || d > 5)
            continue;
        const char *c = s + d;
        c += strspn(c, " \t");
        if (*c != ':' && !(colon_first && *c == '-'))
            continue;
        size_t line = strcspn(c, "\n");
        char rest[256];
        snprintf(rest, sizeof rest, "%.*s", (int)(line < 255 ? line : 255), c);
        for (char *r = rest; *r; r++)
            *r = (char)tolower((unsigned char)*r);
        if (!strstr(rest, "module") && !strstr(rest, "procedure") && !strstr(rest, "dll") &&
            !strstr(rest, "win32"))
            continue;
        int code = atoi(s);
        if (winmsg_of(code))
            return code;
    }
    return 0;
}

/* A Win32 error named by its winerror.h name (a loader that prints
 * "ERROR_PROC_NOT_FOUND" for GetLastError's 127): the code of the first
 * tabled name standing as a word in TEXT, else 0. */
static int win32_by_name(const char *text)
{
    size_t n;
    const struct td_winmsg *m = td_winmsgs(&n);
    for (size_t i = 0; i < n; i++) {
        size_t l = strlen(m[i].name);
        for (const char *at = strstr(text, m[i].name); at; at = strstr(at + 1, m[i].name))
            if ((at == text || !(isalnum((unsigned char)at[-1]) || at[-1] == '_')) &&
                !(isalnum((unsigned char)at[l]) || at[l] == '_'))
                return m[i].code;
    }
    return 0;
}

/* Where extractor X's plain value goes in F: the fields kept as the text
 * reads them (the numeric codes are converted by take_field). */
static const char **plain_slot(struct td_explain_fields *f, const struct extractor *x)
{
    const char **slot[] = {
        [F_FILE] = &f->file,
        [F_NEEDED_BY] = &f->needed_by,
        [F_MODULE] = &f->module,
        [F_SYMBOL] = &f->symbol,
        [F_VERSION] = &f->version,
        [F_CUDA_DRIVER] = &f->cuda_driver,
        [F_CUDA_A] = &f->cuda_versions[0],
        [F_CUDA_B] = &f->cuda_versions[1],
        [F_ARCH] = &f->gpu_arch,
        [F_TORCH] = &f->torch_version,
        [F_EXPECTED] = &f->expected_in,
    };
    return slot[x->field];
}

/* Extractor I's reading of TEXT into F, unless an earlier extractor filled
 * that field already (the first match wins); a CUDA error name goes to
 * CUDA_ERROR, which error_code_of reads. */
static void take_field(const char *text, size_t i, struct td_explain_fields *f,
                       const char **cuda_error, struct td_arena *a)
{
    const struct extractor *x = &extractors[i];
    const char *v;
    switch (x->field) {
    case F_WIN32:
        if (!f->win32 && (v = grab(text, i, a)))
            f->win32 = atoi(v);
        break;
    case F_NTSTATUS:
        if (!f->ntstatus && (v = grab(text, i, a)))
            take_ntstatus(f, strtoul(v, NULL, 16), false, a);
        break;
    case F_NTSTATUS_LOOSE:
        if (!f->ntstatus && (v = grab(text, i, a))) {
            /* the digits after the zeros are the status's own: 0xC0000000 | them */
            const char *d = v + 2 + ((v[2] | 0x20) == 'c');
            d += strspn(d, "0");
            take_ntstatus(f, 0xC0000000UL | strtoul(d, NULL, 16), true, a);
        }
        break;
    case F_CUDA_ERROR:
        if (!*cuda_error)
            *cuda_error = grab(text, i, a);
        break;
    case F_CUDA_DRIVER:
        if (!f->cuda_driver && (v = grab(text, i, a))) {
            /* cudaDriverGetVersion: 1000 * major + 10 * minor */
            long n = strtol(v, NULL, 10);
            char buf[32];
            snprintf(buf, sizeof buf, "%ld.%ld", n / 1000, (n % 1000) / 10);
            f->cuda_driver = td_arena_strdup(a, buf);
        }
        break;
    default:
        if (!*plain_slot(f, x) && (v = grab(text, i, a)))
            *plain_slot(f, x) = v;
    }
}

/* F's paths tidied; a file whose name has no letter or digit dropped. */
static void tidy_paths(struct td_explain_fields *f)
{
    if (f->file) {
        f->file = tidy_path((char *)f->file);
        f->file_name = base_name(f->file);
        /* a name with no letter or digit is a loader's placeholder for one it
         * could not tell ("error while loading shared libraries: ?:", as
         * MSYS2's and Cygwin's loaders print it on Windows), not a file */
        bool named = false;
        for (const char *c = f->file_name; *c && !named; c++)
            named = isalnum((unsigned char)*c) || (unsigned char)*c >= 0x80;
        if (!named)
            f->file = f->file_name = NULL;
    }
    if (f->needed_by)
        f->needed_by = tidy_path((char *)f->needed_by);
    if (f->expected_in)
        f->expected_in = tidy_path((char *)f->expected_in);
}

/* The file the caller put in Windows message MSG's insert ("FBE.exe is not
 * a valid Win32 application") as F's file, when it has an extension. */
static void take_inserted_file(const char *text, const struct td_winmsg *msg,
                               struct td_explain_fields *f, struct td_arena *a)
{
    size_t len;
    const char *at = filled_at(text, msg, &len);
    const char *dot = at ? memchr(at, '.', len) : NULL;
    if (!dot)
        return;
    const char *ext = at + len;
    while (ext > at && ext[-1] != '.')
        ext--;
    size_t el = (size_t)(at + len - ext);
    bool word = el >= 1 && el <= 8;
    for (size_t k = 0; k < el && word; k++)
        word = isalnum((unsigned char)ext[k]) != 0;
    if (word) {
        f->file = tidy_path(td_arena_strndup(a, at, len));
        f->file_name = base_name(f->file);
    }
}

/* What a Windows system message TEXT quotes gives F: its code, its
 * language when not English, and the file of its insert. */
static void take_winmsg(const char *text, struct td_explain_fields *f, struct td_arena *a)
{
    const struct td_winmsg *msg = td_winmsg_find(text);
    if (!msg)
        return;
    if (!f->win32)
        f->win32 = msg->code;
    if (strcmp(msg->language, "en") != 0)
        f->language = msg->language;
    if (!f->file)
        take_inserted_file(text, msg, f, a);
}

/* F's Windows error when no extractor found one: the loader's number, else
 * a code's name; the DLL a delay-load failure names; the code's name. */
static void take_win32(const char *text, struct td_explain_fields *f, struct td_arena *a)
{
    if (!f->win32)
        f->win32 = loader_error_number(text);
    if (!f->win32 && !f->ntstatus)
        f->win32 = win32_by_name(text);
    /* a delay-load failure (the delay-load helper's exception 0xC06D007E or
     * 0xC06D007F) names the DLL it was loading in its thunk's name */
    if (!f->file && td_explain_delay_load(f)) {
        const char *dll = delay_loaded(text, a);
        if (dll)
            f->file = f->file_name = dll;
    }
    const struct td_winmsg *named = f->win32 && !f->win32_name ? winmsg_of(f->win32) : NULL;
    if (named)
        f->win32_name = named->name;
}

/* The one error code the report shows, the first of: the Windows error,
 * CUDA_ERROR, a signal, an errno; NULL when TEXT has none. */
static const char *error_code_of(const char *text, const struct td_explain_fields *f,
                                 const char *cuda_error, struct td_arena *a)
{
    char code[64];
    const char *sig = signal_in(text, a);
    int e = errno_in(text);
    if (f->win32)
        snprintf(code, sizeof code, "WinError %d", f->win32);
    else if (cuda_error)
        snprintf(code, sizeof code, "cudaError %s", cuda_error);
    else if (sig)
        snprintf(code, sizeof code, "%s", sig);
    else if (e)
        snprintf(code, sizeof code, "errno %d", e);
    else
        code[0] = '\0';
    return code[0] ? td_arena_strdup(a, code) : NULL;
}

/* Whether NAME is a name .NET's probing made of WANT (W bytes) by putting
 * "lib" before it, with or without the platform's suffix (NativeLibrary's
 * LibraryNameVariation tries X.so, libX.so, X, libX): liblibSkiaSharp. */
static bool prefixed_probe(const char *name, const char *want, size_t w)
{
    static const char *const suffixes[] = {"", ".so", ".dylib"};
    if (strncmp(name, "lib", 3) != 0 || strncmp(name + 3, want, w) != 0)
        return false;
    for (size_t k = 0; k < sizeof suffixes / sizeof *suffixes; k++)
        if (strcmp(name + 3 + w, suffixes[k]) == 0)
            return true;
    return false;
}

/* Where NAME (N bytes) has a shared library's suffix, looked for from FROM:
 * ".so" at its end or ".so." inside it (a versioned name), or ".dylib" at
 * its end; N when it has none. */
static size_t library_suffix_at(const char *name, size_t n, size_t from)
{
    for (size_t i = from; i + 3 <= n; i++) {
        if (strncmp(name + i, ".so", 3) == 0 && (i + 3 == n || name[i + 3] == '.'))
            return i;
        if (i + 6 == n && strncmp(name + i, ".dylib", 6) == 0)
            return i;
    }
    return n;
}

/* Whether NAME (N bytes) has a shared library's suffix. */
static bool library_suffixed(const char *name, size_t n)
{
    return library_suffix_at(name, n, 0) < n;
}

/* Whether WANT (W bytes), the name a DllImport asked for, already has what
 * .NET's probing adds to a name: the "lib" prefix or a shared library's
 * suffix, ".so" or ".dylib" at its end or ".so." inside it (a versioned
 * name, nativedep.so.6); the probing adds them again all the same
 * (learn.microsoft.com/dotnet/standard/native-interop/native-library-loading,
 * "Library name variations": libnativedep.so.6.so). */
static bool probe_doubles(const char *want, size_t w)
{
    return (w > 3 && strncmp(want, "lib", 3) == 0) || library_suffixed(want, w);
}

/* .NET on Linux and macOS (Strings.resx DllNotFound_Linux, DllNotFound_Mac:
 * "Unable to load shared library '{0}' or one of its dependencies. In order to
 * help diagnose loading problems, consider setting the LD_DEBUG /
 * DYLD_PRINT_LIBRARIES environment variable: {1}", {1} the dlerror() of each
 * name tried): when the file the loader's message names is only one of the
 * names .NET's probing made of the one it was asked for by doubling what the
 * name had already (liblibSkiaSharp for libSkiaSharp, liblibdl.so for
 * libdl.so), the library is the one asked for. A name the probing made the
 * platform's file of ("gdiplus" -> libgdiplus, libgdiplus.so) is the file the
 * loader looked for, and stays; so does a dependency the loader names. */
static void dotnet_probe(const char *text, struct td_explain_fields *f, struct td_arena *a)
{
    static const char lead[] = "Unable to load shared library '";
    const char *at = strstr(text, lead);
    if (!at || !f->file)
        return;
    const char *want = at + sizeof lead - 1;
    size_t w = strcspn(want, "'\n");
    const char *base = f->file; /* after the last folder, either slash */
    for (const char *c = f->file; *c; c++)
        if (*c == '/' || *c == '\\')
            base = c + 1;
    if (!w || want[w] != '\'' || !prefixed_probe(base, want, w) || !probe_doubles(want, w))
        return;
    /* the name asked for, made the platform's file when it has no suffix:
     * the message's variable says which platform (DllNotFound_Linux names
     * LD_DEBUG, DllNotFound_Mac DYLD_PRINT_LIBRARIES) */
    const char *suffix = strstr(text, "DYLD_PRINT_LIBRARIES") ? ".dylib"
                         : strstr(text, "LD_DEBUG")           ? ".so"
                                                              : "";
    if (library_suffixed(want, w))
        suffix = "";
    char name[300];
    snprintf(name, sizeof name, "%.*s%s", (int)(w < 256 ? w : 256), want, suffix);
    f->file = td_arena_strdup(a, name);
}

/* The length of NAME's stem: after a "lib" prefix (*SKIP), up to a library
 * suffix (".so", ".so.N", ".dylib"); *FORMED whether NAME had both, the form
 * of a library's file on Linux and macOS. */
static size_t try_stem(const char *name, size_t n, size_t *skip, bool *formed)
{
    *skip = n > 3 && strncmp(name, "lib", 3) == 0 ? 3 : 0;
    size_t end = library_suffix_at(name, n, *skip);
    *formed = *skip && end < n;
    return end - *skip;
}

bool td_explain_formed_try_of(const char *file, const char *name)
{
    size_t fskip, nskip;
    bool fformed, nformed;
    if (!file || !name)
        return false;
    size_t fstem = try_stem(file, strlen(file), &fskip, &fformed);
    size_t nstem = try_stem(name, strlen(name), &nskip, &nformed);
    return fformed && !nformed && fstem && fstem == nstem &&
           strncmp(file + fskip, name + nskip, fstem) == 0;
}

/* Where the tries of a text are read from: AT, and the next of each loader
 * message at or after it (NULL once there is none), each looked for again
 * only when AT has passed it, so the text is walked once. */
struct try_cursor {
    const char *at, *glibc, *dyld;
};

static const char glibc_try[] = ": cannot open shared object file", dyld_try[] = "dlopen(";

/* The longest path dlopen() takes on macOS (MAXPATHLEN, sys/param.h): a
 * longer run to the comma is no name dyld printed, and is not walked. */
enum { DYLD_PATH_MAX = 1024 };

/* The length of the name at S, dyld's "dlopen(NAME, MODE)" argument, up to
 * its comma, bracket or line break; 0 when that is further than a path
 * can be. */
static size_t dyld_name_length(const char *s)
{
    size_t n = 0;
    while (s[n] && !strchr(",)\n", s[n]))
        if (++n > DYLD_PATH_MAX)
            return 0;
    return n;
}

/* The next name a system loader's message says it tried, from C's AT on --
 * glibc's "NAME: cannot open shared object file" (elf/dl-load.c), dyld's
 * "dlopen(NAME, MODE)" -- as its start and length, AT moved past it; false
 * when there is none. */
static bool next_try(struct try_cursor *c, const char **name, size_t *n)
{
    if (c->glibc && c->glibc < c->at)
        c->glibc = strstr(c->at, glibc_try);
    if (c->dyld && c->dyld < c->at)
        c->dyld = strstr(c->at, dyld_try);
    const char *g = c->glibc, *d = c->dyld;
    if (!g && !d)
        return false;
    if (g && (!d || g < d)) {
        const char *s = g;
        while (s > c->at && !strchr(" \t\n'\"():", s[-1]))
            s--;
        *name = s, *n = (size_t)(g - s), c->at = g + 1;
    } else {
        const char *s = d + sizeof dyld_try - 1;
        *name = s, *n = dyld_name_length(s), c->at = s;
    }
    return true;
}

/* A runtime tries a logical name by several names, and the system loader
 * prints one line per try: Ruby FFI's ffi_lib the name as given, then the
 * platform's file of it (FFI::Platform::LIBPREFIX and LIBSUFFIX: "zstd", then
 * "libzstd.so"), .NET's probing X.so before libX.so (NativeLibrary's
 * LibraryNameVariation). When F's file is the first of those tries and not
 * in the form of a library's file (lib and a suffix), the first later try of
 * the same name that is is the file looked for. */
static void platform_try(const char *text, struct td_explain_fields *f, struct td_arena *a)
{
    if (!f->file_name || strpbrk(f->file_name, "\\"))
        return;
    size_t skip, fn = strlen(f->file_name);
    bool formed;
    size_t stem = try_stem(f->file_name, fn, &skip, &formed);
    const char *want = f->file_name + skip;
    if (formed || !stem)
        return;
    struct try_cursor tries = {text, strstr(text, glibc_try), strstr(text, dyld_try)};
    const char *name;
    size_t n;
    while (next_try(&tries, &name, &n)) {
        const char *base = name;
        for (const char *c = name; c < name + n; c++)
            if (*c == '/')
                base = c + 1;
        size_t bskip;
        bool bformed;
        size_t bstem = try_stem(base, (size_t)(name + n - base), &bskip, &bformed);
        if (bformed && bstem == stem && strncmp(base + bskip, want, stem) == 0) {
            f->file = td_arena_strndup(a, name, n);
            f->file_name = base_name(f->file);
            return;
        }
    }
}

/* .NET's DllNotFoundException on Windows ("Unable to load DLL 'X'", in any
 * display language the name quoted right after the word DLL) names the
 * DllImport's name; its probing tries X.dll first unless X ends in .dll or
 * .exe (NativeLibrary's LibraryNameVariation.Windows), as LoadLibrary
 * itself adds ".dll" to a bare name: that is the file. */
static void dotnet_windows_name(const char *text, struct td_explain_fields *f, struct td_arena *a)
{
    static const char *const quotes[][2] = {
        {"'", "'"}, {"\"", "\""}, {"\xe2\x80\x9c", "\xe2\x80\x9d"}};
    if (!f->file || strpbrk(f->file, "/\\"))
        return;
    size_t n = strlen(f->file);
    if (n > 4 &&
        (strcasecmp(f->file + n - 4, ".dll") == 0 || strcasecmp(f->file + n - 4, ".exe") == 0))
        return;
    for (size_t k = 0; k < sizeof quotes / sizeof quotes[0]; k++) {
        char said[300];
        for (int blank = 0; blank < 2; blank++) {
            snprintf(said, sizeof said, "DLL%s%s%s%s", blank ? " " : "", quotes[k][0], f->file,
                     quotes[k][1]);
            if (n < 256 && strstr(text, said)) {
                char name[300];
                snprintf(name, sizeof name, "%s.dll", f->file);
                f->file = td_arena_strdup(a, name);
                f->file_name = base_name(f->file);
                return;
            }
        }
    }
}

void td_explain_extract(const char *text, struct td_explain_fields *f, struct td_arena *a)
{
    const char *cuda_error = NULL;
    for (size_t i = 0; i < N_EXTRACTORS; i++)
        take_field(text, i, f, &cuda_error, a);
    tidy_paths(f);
    dotnet_probe(text, f, a);
    platform_try(text, f, a);
    dotnet_windows_name(text, f, a);
    take_statuses(text, f, a);
    take_winmsg(text, f, a);
    take_win32(text, f, a);
    take_ntstatus_name(text, f, a);
    f->error_code = error_code_of(text, f, cuda_error, a);
    infer_platform(text, f);
}
