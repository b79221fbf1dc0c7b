/* The error explainer against its whole catalogue (every data/errors.tsv
 * row's example is won by that row, with the row's kind, and its fields come
 * out), then against the ways a message reaches us: wrapped by a terminal or
 * a logger, coloured, with CRLF, inside a traceback, in Chinese or German, in
 * Python 3.7's and 3.8's wording. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/data.h"
#include "kb/errors.h"
#include "kb/explain/errors_internal.h"

static struct td_explain explain(const char *text)
{
    struct td_explain x;
    struct td_err err = {0};
    assert_int_equal(td_explain_text(text, strlen(text), &x, &err), 0);
    return x;
}

static const char *best_id(const struct td_explain *x)
{
    return x->n_matches ? x->matches[0].id : "(none)";
}

/* The catalogue (data/errors.tsv) opened in T, its header read into LINE
 * (N bytes) and CELLS (16): the number of header cells. */
static int open_errors_table(struct td_tsv *t, char *line, size_t n, const char **cells)
{
    size_t len;
    const char *table = td_data_table("errors", &len);
    assert_non_null(table);
    td_tsv_open(t, table, len);
    return td_tsv_next(t, line, n, cells, 16);
}

/* Every row: its example is won by the row itself (alone at the top), the
 * kind is the row's, and each placeholder captured something; when the row
 * names a Windows error code the example carries, the extractor agrees. */
static void every_example_is_won_by_its_row(void **state)
{
    struct td_tsv t;
    static char line[8192];
    const char *cells[16];
    int hn = open_errors_table(&t, line, sizeof line, cells);
    int c_id = td_tsv_column(cells, hn, "id"), c_kind = td_tsv_column(cells, hn, "kind"),
        c_ex = td_tsv_column(cells, hn, "example"), c_code = td_tsv_column(cells, hn, "error_code");
    int rows = 0, bad = 0;
    struct td_arena a = {0};
    while (td_tsv_next(&t, line, sizeof line, cells, 16) == hn) {
        rows++;
        const char *example = td_explain_decode_example(cells[c_ex], &a);
        struct td_explain x = explain(example);
        const char *got = best_id(&x);
        if (strcmp(got, cells[c_id]) != 0 || x.n_best != 1) {
            printf("row %s: won by %s (%zu equally specific)\n", cells[c_id], got, x.n_best);
            bad++;
        } else if (strcmp(x.matches[0].kind, cells[c_kind]) != 0) {
            printf("row %s: kind %s\n", cells[c_id], x.matches[0].kind);
            bad++;
        } else {
            for (size_t k = 0; k < x.matches[0].n_captures; k++)
                if (!x.matches[0].captures[k][0] && strcmp(x.matches[0].capture_names[k], "dir")) {
                    printf("row %s: empty {%s}\n", cells[c_id], x.matches[0].capture_names[k]);
                    bad++;
                }
            if (strncmp(cells[c_code], "WinError ", 9) == 0 && strstr(example, "WinError") &&
                (!x.fields.error_code || strcmp(x.fields.error_code, cells[c_code]) != 0)) {
                printf("row %s: error code %s, row says %s\n", cells[c_id],
                       x.fields.error_code ? x.fields.error_code : "(none)", cells[c_code]);
                bad++;
            }
        }
        td_explain_free(&x);
    }
    td_arena_free(&a);
    printf("catalogue: %d rows, %d failures\n", rows, bad);
    assert_true(rows >= 90);
    assert_int_equal(bad, 0);
}

#define FBGEMM_EN                                                                                  \
    "OSError: [WinError 126] The specified module could not be found. Error loading "              \
    "\"C:\\Users\\Noor\\anaconda3\\envs\\DL\\Lib\\site-packages\\torch\\lib\\fbgemm.dll\" or one " \
    "of its dependencies."
#define FBGEMM_PATH                                                                                \
    "C:\\Users\\Noor\\anaconda3\\envs\\DL\\Lib\\site-packages\\torch\\lib\\fbgemm.dll"

static void expect(const char *text, const char *id, const char *file, const char *code)
{
    struct td_explain x = explain(text);
    assert_string_equal(best_id(&x), id);
    if (file)
        assert_string_equal(x.fields.file ? x.fields.file : "(none)", file);
    if (code)
        assert_string_equal(x.fields.error_code ? x.fields.error_code : "(none)", code);
    td_explain_free(&x);
}

/* A terminal 80 columns wide broke the message into three lines. */
static void wrapped_by_a_terminal(void **state)
{
    const char *m = FBGEMM_EN;
    char wrapped[1024];
    size_t o = 0, n = strlen(m);
    for (size_t i = 0; i < n; i++) {
        if (i && i % 80 == 0)
            wrapped[o++] = '\n';
        wrapped[o++] = m[i];
    }
    wrapped[o] = '\0';
    assert_non_null(strchr(wrapped, '\n'));
    expect(wrapped, "win126-fbgemm-libomp", FBGEMM_PATH, "WinError 126");
}

/* Many lines of one width, each followed by a blank, are no terminal's
 * wrap (a line that goes on is never blank), and finding that out is one
 * pass: asking every line about every other line of 150,000 took about 20 s. */
static void one_width_between_blanks_is_no_wrap(void **state)
{
    (void)state;
    size_t n = 150000, k = 62;
    char *text = malloc(n * k + 1);
    assert_non_null(text);
    for (size_t i = 0; i < n; i++) {
        memset(text + i * k, 'x', k - 2);
        memcpy(text + i * k + k - 2, "\n\n", 2);
    }
    text[n * k] = '\0';
    struct td_arena a = {0};
    char *clean = td_explain_clean(text, n * k, &a);
    assert_non_null(clean);
    assert_memory_equal(clean, text, k); /* not joined: the first line and its blank */
    td_arena_free(&a);
    free(text);
}

/* A title-case line back in sentence case: a word opening a sentence, the
 * module after "importing", files and words in capitals keep their case;
 * a text with no title-case line gives NULL. */
static void title_case_to_sentence_case(void **state)
{
    (void)state;
    struct td_arena a = {0};
    static const char title[] = "Could Not Find Module 'C:\\x\\Llama.dll' (Or One Of Its "
                                "Dependencies). Error Loading DLL While Importing Foo: The Module";
    char *s = td_explain_sentence_case(title, sizeof title - 1, &a);
    assert_non_null(s);
    assert_string_equal(s, "Could not find module 'C:\\x\\Llama.dll' (or one of its "
                           "dependencies). Error loading DLL while importing Foo: The module");
    static const char plain[] = "OSError: [WinError 126] The specified module could not be found";
    assert_null(td_explain_sentence_case(plain, sizeof plain - 1, &a));
    td_arena_free(&a);
}

/* A logger continued its line under its message column; a quoted path
 * broke inside the quotes. */
static void wrapped_by_a_logger(void **state)
{
    expect("12:00:01 ERROR    OSError: [WinError 126] The specified module could not be found.\n"
           "                  Error loading "
           "\"C:\\Users\\Noor\\anaconda3\\envs\\DL\\Lib\\site-packages\\tor\n"
           "ch\\lib\\fbgemm.dll\" or one of its dependencies.",
           "win126-fbgemm-libomp", FBGEMM_PATH, "WinError 126");
}

static void ansi_colour_crlf_and_doubled_backslashes(void **state)
{
    expect("\x1b[1;31mOSError\x1b[0m: [WinError 126] The specified module could not be found. "
           "Error loading \"C:\\\\Users\\\\Noor\\\\anaconda3\\\\envs\\\\DL\\\\Lib\\\\site-packages"
           "\\\\torch\\\\lib\\\\fbgemm.dll\" or one of its dependencies.\x1b]8;;\a\r\n\r\n",
           "win126-fbgemm-libomp", FBGEMM_PATH, "WinError 126");
}

/* The message inside a whole traceback, with its fields. */
static void inside_a_traceback(void **state)
{
    struct td_explain x = explain(
        "Traceback (most recent call last):\r\n"
        "  File \"/srv/app/train.py\", line 3, in <module>\r\n"
        "    import torch\r\n"
        "  File \"/usr/local/lib/python3.10/dist-packages/torch/__init__.py\", line 237, in "
        "<module>\r\n"
        "    from torch._C import *  # noqa: F403\r\n"
        "ImportError: /usr/local/lib/python3.10/dist-packages/torch/lib/../../nvidia/cusparse/lib/"
        "libcusparse.so.12: undefined symbol: __nvJitLinkAddData_12_1, version "
        "libnvJitLink.so.12\r\n"
        "Press any key to continue . . .\r\n");
    assert_string_equal(best_id(&x), "linux-nvjitlink-versioned-symbol");
    assert_string_equal(x.fields.symbol, "__nvJitLinkAddData_12_1");
    assert_string_equal(x.fields.version, "libnvJitLink.so.12");
    assert_string_equal(x.fields.file, "/usr/local/lib/python3.10/dist-packages/torch/lib/../../"
                                       "nvidia/cusparse/lib/libcusparse.so.12");
    assert_string_equal(x.fields.platform, "linux");
    td_explain_free(&x);
}

static void chinese_and_german(void **state)
{
    struct td_explain x =
        explain("OSError: [WinError 126] 找不到指定的模块。 Error loading "
                "\"E:\\MaterialSearch\\lib\\site-packages\\torch\\lib\\fbgemm.dll\" or one of its "
                "dependencies.");
    assert_string_equal(best_id(&x), "win126-fbgemm-zh");
    assert_false(x.matches[0].language_neutral);
    assert_string_equal(x.fields.language, "zh-CN");
    assert_string_equal(x.fields.win32_name, "ERROR_MOD_NOT_FOUND");
    td_explain_free(&x);

    /* No German row: the English one answers through the code. */
    x = explain("OSError: [WinError 126] Das angegebene Modul wurde nicht gefunden. Error loading "
                "\"C:\\venv\\Lib\\site-packages\\torch\\lib\\fbgemm.dll\" or one of its "
                "dependencies.");
    assert_string_equal(best_id(&x), "win126-fbgemm-libomp");
    assert_true(x.matches[0].language_neutral);
    assert_string_equal(x.fields.language, "de");
    assert_string_equal(x.fields.file_name, "fbgemm.dll");
    td_explain_free(&x);

    /* Chinese 1114 and 193, German 127 without the number: the text gives the code. */
    expect("OSError: [WinError 1114] 动态链接库(DLL)初始化例程失败。", "win1114-zh", NULL,
           "WinError 1114");
    expect("ImportError: DLL load failed while importing _C: Die angegebene Prozedur wurde nicht "
           "gefunden.",
           "win-dllload-c-procedure", NULL, "WinError 127");
    x = explain("ImportError: DLL load failed while importing _C: 找不到指定的程序。");
    assert_string_equal(x.fields.error_code, "WinError 127");
    assert_string_equal(x.fields.module, "_C");
    td_explain_free(&x);
}

/* Python <= 3.7 says "DLL load failed:", 3.8+ "DLL load failed while importing X:". */
static void python_37_and_38_wording(void **state)
{
    expect("ImportError: DLL load failed: The specified module could not be found.",
           "win-dllload-py37-module", NULL, "WinError 126");
    struct td_explain x =
        explain("ImportError: DLL load failed while importing _C: The specified module could not "
                "be found.");
    assert_string_equal(best_id(&x), "win-dllload-c-module-zh");
    assert_true(x.matches[0].language_neutral);
    assert_string_equal(x.fields.module, "_C");
    assert_string_equal(x.fields.error_code, "WinError 126");
    td_explain_free(&x);
}

static void codes_versions_and_no_match(void **state)
{
    struct td_explain x = explain(
        "ImportError: /usr/lib/x86_64-linux-gnu/libstdc++.so.6: version `GLIBCXX_3.4.30' not "
        "found (required by /opt/env/lib/python3.10/site-packages/torch/lib/libtorch_python.so)");
    assert_string_equal(best_id(&x), "linux-glibcxx-system-too-old");
    assert_string_equal(x.fields.version, "GLIBCXX_3.4.30");
    assert_string_equal(x.fields.file, "/usr/lib/x86_64-linux-gnu/libstdc++.so.6");
    assert_string_equal(x.fields.needed_by,
                        "/opt/env/lib/python3.10/site-packages/torch/lib/libtorch_python.so");
    td_explain_free(&x);

    x = explain("RuntimeError: The NVIDIA driver on your system is too old (found version 11040).");
    assert_string_equal(best_id(&x), "cuda-driver-too-old-found-version");
    assert_string_equal(x.fields.cuda_driver, "11.4");
    td_explain_free(&x);

    expect("Illegal instruction (core dumped)", "linux-sigill-no-avx", NULL, "SIGILL");

    x = explain("Process finished with exit code -1073741795 (0xC000001D)");
    assert_string_equal(x.fields.ntstatus, "0xC000001D");
    assert_string_equal(x.fields.ntstatus_name, "STATUS_ILLEGAL_INSTRUCTION");
    td_explain_free(&x);
    x = explain("python.exe exited with code -1073741515");
    assert_string_equal(x.fields.ntstatus, "0xC0000135");
    assert_string_equal(x.fields.error_code, "WinError 126");
    td_explain_free(&x);

    x = explain("everything is fine");
    assert_int_equal(x.n_matches, 0);
    assert_null(x.fields.error_code);
    td_explain_free(&x);
}

static void expect_clean(const char *text, const char *want)
{
    struct td_arena a = {0};
    char *clean = td_explain_clean(text, strlen(text), &a);
    assert_non_null(clean);
    assert_string_equal(clean, want);
    td_arena_free(&a);
}

/* Markdown's strong emphasis a forum or tracker paste put around a file or a
 * word of a message goes, as do HTML's entities and line breaks; Python's
 * "**kwargs", dunder names, globs (a double star before a slash, "*.dll") and a lone pair of
 * stars inside a word stay. */
static void markdown_and_html_noise(void **state)
{
    (void)state;
    expect_clean("milvus: error while loading shared libraries: **libcudart.so.12**: cannot open",
                 "milvus: error while loading shared libraries: libcudart.so.12: cannot open");
    expect_clean("The specified **module** could not be found.",
                 "The specified module could not be found.");
    expect_clean("**Error**: **C:\\x\\a b.dll** (**126**)", "Error: C:\\x\\a b.dll (126)");
    expect_clean("f(*args, **kwargs)\n__nvJitLinkComplete_12_4 in __init__.py",
                 "f(*args, **kwargs)\n__nvJitLinkComplete_12_4 in __init__.py");
    expect_clean("ls **/*.so lib**x**y *.dll \"*cudnn*\"",
                 "ls **/*.so lib**x**y *.dll \"*cudnn*\"");
    expect_clean("OSError: cannot load library &#39;libcairo.so.2&#39;: &quot;x&quot; &lt;b&gt; "
                 "&amp;&#x27;&bogus;",
                 "OSError: cannot load library 'libcairo.so.2': \"x\" <b> &'&bogus;");
    /* a quoted message's next line that starts with a drive starts a path,
     * not the rest of the word before it */
    expect_clean("\"could not be located in the dynamic link libary\nc:\\windows\\q.dll\"",
                 "\"could not be located in the dynamic link libary c:\\windows\\q.dll\"");
    expect_clean("ImportError: libx.so.1: cannot open<br>shared object<br/>file<BR />ok",
                 "ImportError: libx.so.1: cannot open\nshared object\nfile\nok");
}

/* Typographic quotes an editor put in a retyped message become the
 * loader's ASCII ones; an apostrophe inside a word of another language
 * stays, an English contraction's becomes ASCII like the loader's. */
static void typographic_quotes(void **state)
{
    (void)state;
    expect_clean("libc.so.6: version \u2018GLIBC_2.28\u2019 not found, \u201cX.dll\u201d",
                 "libc.so.6: version 'GLIBC_2.28' not found, \"X.dll\"");
    expect_clean("Referenced from: \u2018/x/odin\u2019\nversion\u2019GLIBC_2.28\u2019",
                 "Referenced from: '/x/odin'\nversion'GLIBC_2.28'");
    expect_clean("n\u2019est pas, d\u2019entr\u00e9e; can\u2019t load, it\u2019s",
                 "n\u2019est pas, d\u2019entr\u00e9e; can't load, it's");
    /* a Python string's prefix, and a library's name, end at the quote */
    expect_clean("[u\u2019face.dll\u2019, rb\u2019x\u2019] cusolver64_10.dll\u2019\u3002 "
                 "libx.so.8\u2019, libz.so\u2019s",
                 "[u'face.dll', rb'x'] cusolver64_10.dll'\u3002 libx.so.8', libz.so's");
}

/* A reply's "> " (nested too) and pytest's "E   " before each line go; a
 * Python prompt stays. */
static void quote_marks_before_lines(void **state)
{
    (void)state;
    expect_clean(
        "> dyld: Library not loaded: @rpath/libx.dylib\n>   Referenced from: /a/b.so\n>\n"
        "> > nested\n>>> import x",
        "dyld: Library not loaded: @rpath/libx.dylib\n  Referenced from: /a/b.so\n\nnested\n"
        ">>> import x");
    expect_clean(
        "E   ImportError: dlopen(/a/b.so, 2): Symbol not found: _f\nE     Referenced from: "
        "/a/b.so\nEND",
        "ImportError: dlopen(/a/b.so, 2): Symbol not found: _f\n  Referenced from: /a/b.so\nEND");
}

/* ld.so's "version `V' not found (required by F)" retyped by hand: the
 * blank before the quote lost, a blank in the version, "found.",
 * "Required" -- still the library, the version and who needed it. */
static void retyped_version_not_found(void **state)
{
    (void)state;
    struct td_explain x =
        explain("problem /lib/x86_64-linux-gnu/libc.so.6: version\u2019GLIB _2.28\u2019 not found. "
                "(Required by ./gophish)");
    assert_string_equal(x.fields.file ? x.fields.file : "(none)",
                        "/lib/x86_64-linux-gnu/libc.so.6");
    assert_string_equal(x.fields.version ? x.fields.version : "(none)", "GLIB _2.28");
    assert_string_equal(x.fields.needed_by ? x.fields.needed_by : "(none)", "./gophish");
    td_explain_free(&x);
}

/* A message a JSON log or Python's repr printed on one line, its breaks
 * escaped, gets its lines back; a Windows path's single backslashes are
 * no escapes, and a line with one escaped break keeps it unless a blank
 * follows. A JSON log's own quotes become blanks, so
 * none seems left open over the lines. */
static void escaped_on_one_line(void **state)
{
    (void)state;
    expect_clean(
        "{\"msg\": \"dlopen(/a/b.so, 2): Library not loaded: @rpath/libx.dylib\\nReferenced "
        "from: /a/b.so\\nReason: image not found\\t(\\\"x\\\")\"}",
        "{ msg :  dlopen(/a/b.so, 2): Library not loaded: @rpath/libx.dylib\nReferenced "
        "from: /a/b.so\nReason: image not found\t(\"x\") }");
    expect_clean("C:\\Users\\nadia\\new\\nvidia\\x.dll", "C:\\Users\\nadia\\new\\nvidia\\x.dll");
    expect_clean("['a\\n  b', 'c\\nd']", "['a\n  b', 'c\nd']");
    expect_clean("x\\ny", "x\\ny");
    /* one escaped break inside a record's braces; a repr's list escaped
       again inside it */
    expect_clean("{\"msg\": \"E\\nx: ['a\\\\n  b']\"}", "{ msg :  E\nx: ['a\n  b'] }");
    expect_clean("a\\n  b", "a\n  b");
    struct td_explain x =
        explain("{\"level\": \"error\", \"msg\": \"dyld: Symbol not found: _f\\n  "
                "Referenced from: /x/app\\n  Expected in: /usr/lib/libfoo.dylib\"}");
    assert_string_equal(x.fields.expected_in ? x.fields.expected_in : "(none)",
                        "/usr/lib/libfoo.dylib");
    td_explain_free(&x);
}

static void expect_split(const char *cell, const char *cause, const char *provenance)
{
    struct td_arena a = {0};
    const char *note = "(unset)";
    const char *got = td_explain_split_cause(cell, &a, &note);
    assert_string_equal(got, cause);
    if (provenance)
        assert_string_equal(note ? note : "(none)", provenance);
    else
        assert_null(note);
    td_arena_free(&a);
}

/* docs/errors.md "Sources and honesty rules": a row whose thread established
 * nothing opens its cause with "Undiagnosed in thread"; the report leads with
 * the cause and says where it comes from beside the source. */
static void cause_read_apart_from_its_provenance(void **state)
{
    (void)state;
    expect_split("Undiagnosed in thread (reporter confirms the DLL exists); most defensible: one "
                 "of the imports did not resolve.",
                 "One of the imports did not resolve.",
                 "undiagnosed in the source thread (reporter confirms the DLL exists); the cause "
                 "given is the most defensible from the loader rules");
    expect_split("Undiagnosed in thread; Python >= 3.8 form of a load failure.",
                 "Python >= 3.8 form of a load failure.",
                 "undiagnosed in the source thread; the cause given is the most defensible from "
                 "the loader rules");
    /* a nested parenthesis in the remark; a name with its version and a file
       keep their spelling */
    expect_split("Undiagnosed in thread (works (from PowerShell); not VS Code); torch 2.4.0 x.",
                 "torch 2.4.0 x.",
                 "undiagnosed in the source thread (works (from PowerShell); not VS Code); the "
                 "cause given is the most defensible from the loader rules");
    expect_split("Undiagnosed in thread; most defensible: libcusparse.so.12 needs X.",
                 "libcusparse.so.12 needs X.",
                 "undiagnosed in the source thread; the cause given is the most defensible from "
                 "the loader rules");
    /* not the convention's opening: as written */
    expect_split("torch 2.4.0 Windows wheels built fbgemm.dll; undiagnosed in thread.",
                 "torch 2.4.0 Windows wheels built fbgemm.dll; undiagnosed in thread.", NULL);
    expect_split("Undiagnosed in thread.", "Undiagnosed in thread.", NULL);
    expect_split("Undiagnosed in thread (never closed; x", "Undiagnosed in thread (never closed; x",
                 NULL);

    /* every catalogue row: a cause never opens with its provenance */
    struct td_tsv t;
    static char line[8192];
    const char *cells[16];
    int hn = open_errors_table(&t, line, sizeof line, cells);
    int c_ex = td_tsv_column(cells, hn, "example"), c_cause = td_tsv_column(cells, hn, "cause");
    int undiagnosed = 0;
    struct td_arena a = {0};
    while (td_tsv_next(&t, line, sizeof line, cells, 16) == hn) {
        bool opens = strncmp(cells[c_cause], "Undiagnosed in thread", 21) == 0;
        undiagnosed += opens;
        struct td_explain x = explain(td_explain_decode_example(cells[c_ex], &a));
        assert_true(x.n_matches > 0);
        assert_true(strncmp(x.matches[0].cause, "Undiagnosed", 11) != 0);
        assert_true(strncmp(x.matches[0].cause, "Most defensible", 15) != 0);
        assert_int_equal(x.matches[0].provenance != NULL, opens);
        td_explain_free(&x);
    }
    td_arena_free(&a);
    assert_true(undiagnosed >= 24);

    /* the report's first words are the cause; the first cause carries the note */
    struct td_explain x = explain("ImportError: DLL load failed while importing _C: "
                                  "\xe6\x89\xbe\xe4\xb8\x8d\xe5\x88\xb0\xe6\x8c\x87\xe5\xae\x9a"
                                  "\xe7\x9a\x84\xe6\xa8\xa1\xe5\x9d\x97\xe3\x80\x82");
    assert_string_equal(x.matches[0].id, "win-dllload-c-module-zh");
    assert_true(strncmp(x.matches[0].cause, "Python >= 3.8 form", 18) == 0);
    assert_true(x.load.n_causes > 0);
    assert_string_equal(x.load.causes[0].id, "win-dllload-c-module-zh");
    assert_true(strncmp(x.load.causes[0].detail, "Python >= 3.8 form", 18) == 0);
    assert_non_null(x.load.causes[0].provenance);
    td_explain_free(&x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_example_is_won_by_its_row),
        cmocka_unit_test(wrapped_by_a_terminal),
        cmocka_unit_test(one_width_between_blanks_is_no_wrap),
        cmocka_unit_test(wrapped_by_a_logger),
        cmocka_unit_test(markdown_and_html_noise),
        cmocka_unit_test(title_case_to_sentence_case),
        cmocka_unit_test(ansi_colour_crlf_and_doubled_backslashes),
        cmocka_unit_test(inside_a_traceback),
        cmocka_unit_test(chinese_and_german),
        cmocka_unit_test(python_37_and_38_wording),
        cmocka_unit_test(codes_versions_and_no_match),
        cmocka_unit_test(typographic_quotes),
        cmocka_unit_test(quote_marks_before_lines),
        cmocka_unit_test(retyped_version_not_found),
        cmocka_unit_test(escaped_on_one_line),
        cmocka_unit_test(cause_read_apart_from_its_provenance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
