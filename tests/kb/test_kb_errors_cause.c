/* The general layer under the catalogue (kb/errors_cause.c): every loader
 * message form, in two display languages where Windows localises it, gives
 * its kind, the library at fault, who needs it and ranked causes; colour
 * split inside a word, CRLF, wrapping and cut-off texts still do; a
 * catalogue row's version condition ranks it. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/data.h"
#include "kb/errors.h"

struct expect {
    const char *text, *kind, *library, *needed_by;
};

static void explain(const char *text, struct td_explain *x)
{
    struct td_err err = {0};
    assert_int_equal(td_explain_text(text, strlen(text), x, &err), 0);
}

static bool same(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* Each case: the load error's kind, library and needed_by, and at least one
 * cause whose confirm command is a torchdoctor command. */
static void check_cases(const struct expect *cases, size_t n)
{
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
        struct td_explain x;
        explain(cases[i].text, &x);
        const struct td_explain_load *l = &x.load;
        if (!l->form || !same(l->kind, cases[i].kind) || !same(l->library, cases[i].library) ||
            !same(l->needed_by, cases[i].needed_by) || l->n_causes == 0 ||
            strncmp(l->causes[0].confirm, "torchdoctor ", 12) != 0) {
            printf("case %zu: form %s kind %s library %s needed_by %s causes %zu\n  %s\n", i,
                   l->form ? l->form : "-", l->kind ? l->kind : "-", l->library ? l->library : "-",
                   l->needed_by ? l->needed_by : "-", l->n_causes, cases[i].text);
            bad++;
        }
        td_explain_free(&x);
    }
    assert_int_equal(bad, 0);
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void windows_codes_in_two_languages(void **state)
{
    static const struct expect cases[] = {
        /* 126: English, Spanish (ctypes.CDLL in torch/__init__.py), Chinese, Russian */
        {"OSError: [WinError 126] The specified module could not be found. Error loading "
         "\"C:\\venv\\Lib\\site-packages\\torch\\lib\\fbgemm.dll\" or one of its dependencies.",
         "missing_library", "fbgemm.dll", NULL},
        {"  File \"C:\\Python38\\lib\\site-packages\\torch\\__init__.py\", line 81, in <module>\n"
         "    ctypes.CDLL(dll)\nOSError: [WinError 126] No se puede encontrar el módulo "
         "especificado",
         "missing_library", NULL, NULL},
        {"OSError: [WinError 126] 找不到指定的模块。 Error loading "
         "\"D:\\a\\torch\\lib\\shm.dll\" or one of its dependencies.",
         "missing_library", "shm.dll", NULL},
        {"OSError: [WinError 126] Не найден указанный модуль. Error loading "
         "\"C:\\a\\torch\\lib\\c10.dll\" or one of its dependencies.",
         "missing_library", "c10.dll", NULL},
        /* 127: Chinese on a cuDNN DLL (the first case), English */
        {"OSError: [WinError 127] 找不到指定的程序。 Error loading "
         "\"C:\\venv\\Lib\\site-packages\\torch\\lib\\cudnn_cnn_infer64_8.dll\" or one of its "
         "dependencies.",
         "missing_symbol", "cudnn_cnn_infer64_8.dll", NULL},
        {"OSError: [WinError 127] The specified procedure could not be found. Error loading "
         "\"C:\\a\\torch\\lib\\torch_python.dll\" or one of its dependencies.",
         "missing_symbol", "torch_python.dll", NULL},
        /* 193: English, Chinese */
        {"OSError: [WinError 193] %1 is not a valid Win32 application. Error loading "
         "\"C:\\a\\torch\\lib\\caffe2_detectron_ops.dll\" or one of its dependencies.",
         "wrong_architecture", "caffe2_detectron_ops.dll", NULL},
        {"OSError: [WinError 193] %1 不是有效的 Win32 应用程序。 Error loading "
         "\"C:\\a\\torch\\lib\\cufft64_10.dll\" or one of its dependencies.",
         "wrong_architecture", "cufft64_10.dll", NULL},
        /* 1114: English, Chinese */
        {"OSError: [WinError 1114] A dynamic link library (DLL) initialization routine failed. "
         "Error loading \"C:\\a\\torch\\lib\\c10.dll\" or one of its dependencies.",
         "init_failure", "c10.dll", NULL},
        {"OSError: [WinError 1114] 动态链接库(DLL)初始化例程失败。 Error loading "
         "\"C:\\a\\torch\\lib\\c10.dll\" or one of its dependencies.",
         "init_failure", "c10.dll", NULL},
        /* 182 (English and Chinese messages), 5, 206 */
        {"OSError: [WinError 182] The operating system cannot run %1. Error loading "
         "\"C:\\a\\torch\\lib\\fbgemm.dll\" or one of its dependencies.",
         "missing_ordinal", "fbgemm.dll", NULL},
        {"OSError: [WinError 182] 操作系统无法运行 %1。 Error loading "
         "\"C:\\a\\torch\\lib\\fbgemm.dll\" or one of its dependencies.",
         "missing_ordinal", "fbgemm.dll", NULL},
        {"OSError: [WinError 5] Access is denied. Error loading \"C:\\a\\torch\\lib\\c10.dll\" "
         "or one of its dependencies.",
         "unreadable_file", "c10.dll", NULL},
        {"OSError: [WinError 206] The filename or extension is too long: 'C:\\a\\b'",
         "path_too_long", NULL, NULL},
    };
    check_cases(cases, N(cases));
}

static void ntstatus_and_loadlibrary(void **state)
{
    static const struct expect cases[] = {
        /* the program whose start failed is the needer of the DLL not found */
        {"error: process didn't exit successfully: `app.exe` (exit code: 0xc0000135, "
         "STATUS_DLL_NOT_FOUND)",
         "missing_library", NULL, "app.exe"},
        {"exit code: 0xc0000139, STATUS_ENTRYPOINT_NOT_FOUND", "missing_symbol", NULL, NULL},
        {"The application was unable to start correctly (0xc000007b).", "wrong_architecture", NULL,
         NULL},
        {"exit code 0xc0000142", "init_failure", NULL, NULL},
        {"Error status 0xc000012f", "not_a_library", NULL, NULL},
        {"LoadLibrary failed with error 126 \"\" when trying to load "
         "\"C:\\ort\\onnxruntime_providers_cuda.dll\"",
         "missing_library", "onnxruntime_providers_cuda.dll", NULL},
    };
    check_cases(cases, N(cases));
}

static void loader_dialogs(void **state)
{
    static const struct expect cases[] = {
        {"The code execution cannot proceed because MSVCP140.dll was not found. Reinstalling the "
         "program may fix this problem.",
         "missing_library", "MSVCP140.dll", NULL},
        {"由于找不到 VCRUNTIME140_1.dll，无法继续执行代码。重新安装程序可能会解决此问题。",
         "missing_library", "VCRUNTIME140_1.dll", NULL},
        {"The procedure entry point ?foo@@YAXXZ could not be located in the dynamic link library "
         "C:\\venv\\Lib\\site-packages\\torch\\_C.pyd",
         "missing_symbol", "_C.pyd", NULL},
        {"无法定位程序输入点 ?foo@@YAXXZ 于动态链接库 C:\\venv\\torch\\lib\\torch_cpu.dll 上。",
         "missing_symbol", "torch_cpu.dll", NULL},
        {"The ordinal 2 could not be located in the dynamic link library "
         "C:\\venv\\Lib\\site-packages\\torch\\lib\\torch_cpu.dll",
         "missing_ordinal", "torch_cpu.dll", NULL},
        {"C:\\Windows\\SYSTEM32\\MSVCP140.dll is either not designed to run on Windows or it "
         "contains an error. Error status 0xc000012f",
         "not_a_library", "MSVCP140.dll", NULL},
        /* no dialog's sentence, but the entry point's noun and a DLL on one
         * line: a function looked for, whatever the words around them */
        {"\"Unable to find entry point named 'DiUninstallDriver' in DLL 'newdev.dll'\"",
         "missing_symbol", "newdev.dll", NULL},
        {"Der Prozedureinsprungpunkt \"libssh2_session_set_read_timeout\" was not found in DLL "
         "\"C:\\xampp\\php8.4\\ext\\php_curl.dll\".",
         "missing_symbol", "php_curl.dll", NULL},
        /* a crash in an msvcp140.dll older than 14.40, as Windows Error
         * Reporting records it, and in its mutex code as a debugger shows */
        {"Faulting application name: python3.12.exe, version: 3.12.7150.1013\n"
         "Faulting module name: MSVCP140.dll, version: **14.28.29334.0**, time stamp: "
         "0x5fa9a827\nException code: 0xc0000005",
         "vc_runtime_too_old", "MSVCP140.dll", NULL},
        {"EXCEPTION_ACCESS_VIOLATION_READ / 0x0 in mtx_do_lock (MSVCP140.dll)",
         "vc_runtime_too_old", "msvcp140.dll", NULL},
        /* the Visual Studio 2015 runtime's own version, 14.0 (one digit) */
        {"Faulting module name: MSVCP140.dll, version: 14.0.24215.1, time stamp: 0x5e7d1e5e",
         "vc_runtime_too_old", "MSVCP140.dll", NULL},
    };
    check_cases(cases, N(cases));
    struct td_explain x;
    /* the symbol after the noun, past .NET's "named" */
    explain(cases[6].text, &x);
    assert_string_equal(x.load.symbol, "DiUninstallDriver");
    td_explain_free(&x);
    /* English prose that names the entry point and a DLL with no word of a
     * failure is no lookup that failed */
    explain("DllMain is the entry point of mylib.dll, called when the process attaches.", &x);
    assert_null(x.load.kind);
    td_explain_free(&x);
    explain("The entry point for the app is main(); it loads plugin.dll at start.", &x);
    assert_null(x.load.kind);
    td_explain_free(&x);
    /* a crash in a runtime of 14.40 or later is no old runtime */
    explain("Faulting module name: MSVCP140.dll, version: 14.42.34433.0, time stamp: 0x0", &x);
    assert_null(x.load.kind);
    td_explain_free(&x);
}

/* One Windows loader dialog in one display language, and where a user's
 * paste of it stops early. */
struct dialog_case {
    const char *form, *language, *text, *cut, *kind, *library, *symbol;
};

static const struct dialog_case dialog_cases[] = {
    {"dll_not_found", "en",
     "The code execution cannot proceed because cudnn64_8.dll was not found. Reinstalling the "
     "program may fix this problem.",
     "The code execution cannot proceed because cudnn64_8.dll was not found", "missing_library",
     "cudnn64_8.dll", NULL},
    {"dll_not_found", "zh-CN",
     "由于找不到 cudnn64_8.dll，无法继续执行代码。重新安装程序可能会解决此问题。",
     "由于找不到 cudnn64_8.dll，无法继续执行代码", "missing_library", "cudnn64_8.dll", NULL},
    {"dll_not_found", "en",
     "The program can't start because cudnn64_8.dll is missing from your computer. Try "
     "reinstalling the program to fix this problem.",
     "The program can't start because cudnn64_8.dll is missing from your computer",
     "missing_library", "cudnn64_8.dll", NULL},
    {"dll_not_found", "ru",
     "Не удается продолжить выполнение кода, поскольку система не обнаружила cudnn64_8.dll. Для "
     "устранения этой проблемы попробуйте переустановить программу.",
     "Не удается продолжить выполнение кода, поскольку система не обнаружила cudnn64_8.dll",
     "missing_library", "cudnn64_8.dll", NULL},
    {"dll_not_found", "ru",
     "Запуск программы невозможен, так как на компьютере отсутствует cudnn64_8.dll. Попробуйте "
     "переустановить программу.",
     "Запуск программы невозможен, так как на компьютере отсутствует cudnn64_8.dll",
     "missing_library", "cudnn64_8.dll", NULL},
    {"dll_not_found", "pt-BR",
     "A execução de código não pode continuar porque cudnn64_8.dll não foi encontrado. "
     "Reinstalar o programa pode corrigir esse problema.",
     "A execução de código não pode continuar porque cudnn64_8.dll não foi encontrado",
     "missing_library", "cudnn64_8.dll", NULL},
    {"entry_point", "en",
     "The procedure entry point ?foo@@YAXXZ could not be located in the dynamic link library "
     "C:\\venv\\Lib\\site-packages\\torch\\lib\\c10.dll.",
     "The procedure entry point ?foo@@YAXXZ could not be located in the dynamic link library "
     "C:\\venv\\Lib\\site-packages\\torch\\lib\\c10.dll",
     "missing_symbol", "c10.dll", "?foo@@YAXXZ"},
    {"entry_point", "zh-CN",
     "无法定位程序输入点 ?foo@@YAXXZ 于动态链接库 C:\\venv\\torch\\lib\\c10.dll 上。",
     "无法定位程序输入点 ?foo@@YAXXZ 于动态链接库 C:\\venv\\torch\\lib\\c10.dll", "missing_symbol",
     "c10.dll", "?foo@@YAXXZ"},
    {"entry_point", "fr",
     "Le point d'entrée de procédure ?foo@@YAXXZ est introuvable dans la bibliothèque de liens "
     "dynamiques C:\\venv\\Lib\\site-packages\\torch\\lib\\c10.dll.",
     "Le point d'entrée de procédure ?foo@@YAXXZ est introuvable dans la bibliothèque de liens "
     "dynamiques C:\\venv\\Lib\\site-packages\\torch\\lib\\c10.dll",
     "missing_symbol", "c10.dll", "?foo@@YAXXZ"},
    {"entry_point", "ja",
     "プロシージャ エントリ ポイント ?foo@@YAXXZ がダイナミック リンク ライブラリ "
     "C:\\venv\\Lib\\site-packages\\torch\\lib\\c10.dll から見つかりませんでした。",
     "プロシージャ エントリ ポイント ?foo@@YAXXZ がダイナミック リンク ライブラリ "
     "C:\\venv\\Lib\\site-packages\\torch\\lib\\c10.dll から見つかりませんでした",
     "missing_symbol", "c10.dll", "?foo@@YAXXZ"},
    {"entry_point", "ru",
     "Точка входа в процедуру ?foo@@YAXXZ не найдена в библиотеке DLL "
     "C:\\venv\\Lib\\site-packages\\torch\\lib\\c10.dll.",
     "Точка входа в процедуру ?foo@@YAXXZ не найдена в библиотеке DLL "
     "C:\\venv\\Lib\\site-packages\\torch\\lib\\c10.dll",
     "missing_symbol", "c10.dll", "?foo@@YAXXZ"},
    {"entry_point", "pt-BR",
     "Não foi possível localizar o ponto de entrada do procedimento ?foo@@YAXXZ na biblioteca de "
     "vínculo dinâmico C:\\venv\\Lib\\site-packages\\torch\\lib\\c10.dll.",
     "Não foi possível localizar o ponto de entrada do procedimento ?foo@@YAXXZ na biblioteca de "
     "vínculo dinâmico C:\\venv\\Lib\\site-packages\\torch\\lib\\c10.dll",
     "missing_symbol", "c10.dll", "?foo@@YAXXZ"},
    {"entry_point", "de",
     "Der Prozedureinsprungpunkt \"?foo@@YAXXZ\" wurde in der DLL "
     "\"C:\\venv\\Lib\\site-packages\\torch\\lib\\c10.dll\" nicht gefunden.",
     "Der Prozedureinsprungpunkt \"?foo@@YAXXZ\" wurde in der DLL "
     "\"C:\\venv\\Lib\\site-packages\\torch\\lib\\c10.dll\" nicht gefunden",
     "missing_symbol", "c10.dll", "?foo@@YAXXZ"},
    {"entry_point", "sv",
     "Det går inte att hitta procedurstartadressen ?foo@@YAXXZ i DLL-filen "
     "C:\\venv\\Lib\\site-packages\\torch\\lib\\c10.dll.",
     "Det går inte att hitta procedurstartadressen ?foo@@YAXXZ i DLL-filen "
     "C:\\venv\\Lib\\site-packages\\torch\\lib\\c10.dll",
     "missing_symbol", "c10.dll", "?foo@@YAXXZ"},
    /* the ru and pt-BR dialogs translated back into English word by word */
    {"entry_point", "en",
     "The entry point to the ?foo@@YAXXZ procedure was not found in the DLL "
     "C:\\venv\\Lib\\site-packages\\torch\\lib\\c10.dll.",
     "The entry point to the ?foo@@YAXXZ procedure was not found in the DLL "
     "C:\\venv\\Lib\\site-packages\\torch\\lib\\c10.dll",
     "missing_symbol", "c10.dll", "?foo@@YAXXZ"},
    {"ordinal", "en",
     "The ordinal 242 could not be located in the dynamic link library "
     "C:\\venv\\Library\\bin\\mkl_intel_thread.dll.",
     "The ordinal 242 could not be located in the dynamic link library "
     "C:\\venv\\Library\\bin\\mkl_intel_thread.dll",
     "missing_ordinal", "mkl_intel_thread.dll", "242"},
    {"ordinal", "zh-CN",
     "无法定位序数 242 于动态链接库 C:\\venv\\Library\\bin\\mkl_intel_thread.dll 上。",
     "无法定位序数 242 于动态链接库 C:\\venv\\Library\\bin\\mkl_intel_thread.dll",
     "missing_ordinal", "mkl_intel_thread.dll", "242"},
    {"ordinal", "ru",
     "Порядковый номер 242 не найден в библиотеке DLL "
     "C:\\venv\\Library\\bin\\mkl_intel_thread.dll.",
     "Порядковый номер 242 не найден в библиотеке DLL C:\\venv\\Library\\bin\\mkl_intel_thread.dll",
     "missing_ordinal", "mkl_intel_thread.dll", "242"},
    {"ordinal", "de",
     "Die Ordnungszahl 242 wurde in der DLL \"C:\\venv\\Library\\bin\\mkl_intel_thread.dll\" "
     "nicht gefunden.",
     "Die Ordnungszahl 242 wurde in der DLL C:\\venv\\Library\\bin\\mkl_intel_thread.dll nicht "
     "gefunden",
     "missing_ordinal", "mkl_intel_thread.dll", "242"},
    {"bad_image", "en",
     "C:\\venv\\Lib\\site-packages\\torch\\lib\\cudnn64_8.dll is either not designed to run on "
     "Windows or it contains an error. Try installing the program again using the original "
     "installation media or contact your system administrator or the software vendor for "
     "support. Error status 0xc000012f.",
     "C:\\venv\\Lib\\site-packages\\torch\\lib\\cudnn64_8.dll is either not designed to run on "
     "Windows or it contains an error",
     "not_a_library", "cudnn64_8.dll", NULL},
    {"bad_image", "zh-CN",
     "C:\\venv\\Lib\\site-packages\\torch\\lib\\cudnn64_8.dll 没有被指定在 Windows "
     "上运行，或者它包含错误。错误状态 0xc000012f。",
     "C:\\venv\\Lib\\site-packages\\torch\\lib\\cudnn64_8.dll 没有被指定在 Windows 上运行",
     "not_a_library", "cudnn64_8.dll", NULL},
    {"bad_image", "ru",
     "Программа \"C:\\venv\\Lib\\site-packages\\torch\\lib\\cudnn64_8.dll\" не предназначена для "
     "выполнения в Windows или содержит ошибку. Состояние ошибки 0xc000012f.",
     "Программа \"C:\\venv\\Lib\\site-packages\\torch\\lib\\cudnn64_8.dll\" не предназначена для "
     "выполнения в Windows",
     "not_a_library", "cudnn64_8.dll", NULL},
    {"bad_image", "de",
     "C:\\venv\\Lib\\site-packages\\torch\\lib\\cudnn64_8.dll ist entweder nicht für die "
     "Ausführung unter Windows vorgesehen oder enthält einen Fehler. Fehlerstatus 0xc000012f",
     "C:\\venv\\Lib\\site-packages\\torch\\lib\\cudnn64_8.dll ist entweder nicht für die "
     "Ausführung unter Windows vorgesehen",
     "not_a_library", "cudnn64_8.dll", NULL},
    {"dll_not_found", "de",
     "Das Programm kann nicht gestartet werden, da cudnn64_8.dll auf dem Computer fehlt. "
     "Installieren Sie das Programm erneut, um das Problem zu beheben.",
     "Das Programm kann nicht gestartet werden, da cudnn64_8.dll auf dem Computer fehlt",
     "missing_library", "cudnn64_8.dll", NULL},
    {"dll_not_found", "fr",
     "Impossible de démarrer le programme car il manque cudnn64_8.dll sur votre ordinateur. "
     "Essayez de réinstaller le programme pour corriger ce problème.",
     "impossible de démarrer le programme car il manque cudnn64_8.dll sur votre ordinateur",
     "missing_library", "cudnn64_8.dll", NULL},
    {"dll_not_found", "fr",
     "Le programme ne peut pas démarrer, car cudnn64_8.dll n'est pas présent sur votre "
     "ordinateur. Essayez de réinstaller le programme pour résoudre ce problème.",
     "Le programme ne peut pas démarrer, car cudnn64_8.dll n'est pas présent sur votre ordinateur",
     "missing_library", "cudnn64_8.dll", NULL},
    {"dll_not_found", "es",
     "La ejecución de código no puede continuar porque no se encontró cudnn64_8.dll. Este "
     "problema se puede solucionar reinstalando el programa.",
     "La ejecución de código no puede continuar porque no se encontró cudnn64_8.dll",
     "missing_library", "cudnn64_8.dll", NULL},
    /* the ordinal dialog with its middle elided */
    {"ordinal", "en", "The ordinal 340 could not be located ...Qt5Network.dll. Any idea?",
     "The ordinal 340 could not be located ...Qt5Network.dll", "missing_ordinal", "Qt5Network.dll",
     "340"},
    /* a dialog known by its frame: the caption after the program's name, the
     * body retold or mistyped ("nof found", "not desgned") */
    {"frame", "en",
     "Title: app.exe - System error\nText: The code can't be executed because cudnn64_8.dll was "
     "nof found. Try reinstalling the program.",
     "app.exe - System error: the code can't run, cudnn64_8.dll", "missing_library",
     "cudnn64_8.dll", NULL},
    {"frame", "en",
     "app.exe - Entry Point Not Found\ncudnnGetVersion is missing from cudnn64_8.dll.",
     "app.exe - Entry Point Not Found: cudnnGetVersion, cudnn64_8.dll", "missing_symbol",
     "cudnn64_8.dll", NULL},
    {"frame", "en",
     "app.exe - Ordinal Not Found\nThe ordinal could not be located in C:\\app\\cudnn64_8.dll, it "
     "says.",
     "app.exe - Ordinal Not Found: 43 in cudnn64_8.dll", "missing_ordinal", "cudnn64_8.dll", NULL},
    /* the same two bodies retold with their inserts kept -- the name after
     * "procedure", the ordinal's number after a word that looks for it, the
     * DLL a few words on -- are read by the loose English rows, which name
     * the symbol too */
    {"entry_point", "en",
     "app.exe - Entry Point Not Found\nThe procedure cudnnGetVersion could not be found in "
     "cudnn64_8.dll.",
     "The procedure cudnnGetVersion could not be found in cudnn64_8.dll", "missing_symbol",
     "cudnn64_8.dll", "cudnnGetVersion"},
    {"ordinal", "en",
     "app.exe - Ordinal Not Found\nIt could not locate ordinal 43 in C:\\app\\cudnn64_8.dll, it "
     "says.",
     "could not locate ordinal 43 in C:\\app\\cudnn64_8.dll", "missing_ordinal", "cudnn64_8.dll",
     "43"},
    {"frame", "en",
     "app.exe - Bad Image\nC:\\app\\cudnn64_8.dll is either not desgned to run on Windows or it "
     "contains an error.",
     "app.exe - Bad Image: C:\\app\\cudnn64_8.dll", "not_a_library", "cudnn64_8.dll", NULL},
    {"frame", "zh-CN", "app.exe-系统错误\n找不到 cudnn64_8.dll ，程序没法运行。",
     "app.exe-系统错误 cudnn64_8.dll", "missing_library", "cudnn64_8.dll", NULL},
    {"frame", "zh-CN", "app.exe - 损坏的图像\nC:\\app\\cudnn64_8.dll 有错误。",
     "app.exe - 损坏的图像 cudnn64_8.dll", "not_a_library", "cudnn64_8.dll", NULL},
    {"frame", "zh-CN", "app.exe - 找不到序数\n序数 43, cudnn64_8.dll 上。",
     "app.exe - 找不到序数 cudnn64_8.dll", "missing_ordinal", "cudnn64_8.dll", NULL},
    {"frame", "de",
     "app.exe - Einsprungpunkt nicht gefunden\ncudnnGetVersion fehlt in cudnn64_8.dll.",
     "app.exe - Einsprungpunkt nicht gefunden cudnn64_8.dll", "missing_symbol", "cudnn64_8.dll",
     NULL},
    {"frame", "de", "app.exe - Ungültiges Bild\nC:\\app\\cudnn64_8.dll ist kaputt.",
     "app.exe - Ungültiges Bild cudnn64_8.dll", "not_a_library", "cudnn64_8.dll", NULL},
    {"frame", "pt-BR",
     "app.exe - Ponto de entrada não encontrado\ncudnnGetVersion não está em cudnn64_8.dll.",
     "app.exe - Ponto de entrada não encontrado cudnn64_8.dll", "missing_symbol", "cudnn64_8.dll",
     NULL},
    {"frame", "ru", "app.exe - Порядковый номер не найден\nномер 43 в cudnn64_8.dll",
     "app.exe - Порядковый номер не найден cudnn64_8.dll", "missing_ordinal", "cudnn64_8.dll",
     NULL},
    {"frame", "ru", "app.exe - Точка входа не найдена\ncudnnGetVersion нет в cudnn64_8.dll",
     "app.exe - Точка входа не найдена cudnn64_8.dll", "missing_symbol", "cudnn64_8.dll", NULL},
};

/* TEXT as Ctrl+C copies a message box: a title between rule lines, CRLF. */
static void as_message_box(const char *text, char *out, size_t cap)
{
    snprintf(out, cap,
             "---------------------------\r\npython.exe - System Error\r\n"
             "---------------------------\r\n%s\r\n---------------------------\r\nOK   \r\n"
             "---------------------------\r\n",
             text);
}

/* TEXT with the blank nearest its middle turned into a line break, as a
 * forum or a mail client rewraps it. */
static void rewrapped(const char *text, char *out, size_t cap)
{
    snprintf(out, cap, "%s", text);
    size_t n = strlen(out), best = 0;
    for (size_t i = 1; i < n; i++)
        if (out[i] == ' ' && (!best || (i > n / 2 ? i - n / 2 : n / 2 - i) <
                                           (best > n / 2 ? best - n / 2 : n / 2 - best)))
            best = i;
    assert_true(best > 0);
    out[best] = '\n';
}

static int dialog_case_fails(const struct dialog_case *c, const char *variant, const char *text)
{
    struct td_explain x;
    explain(text, &x);
    const struct td_explain_load *l = &x.load;
    bool ok = l->form && strcmp(l->form, "dialog") == 0 && same(l->kind, c->kind) &&
              same(l->library, c->library) && same(l->symbol, c->symbol) && l->n_causes > 0;
    if (!ok)
        printf("%s %s (%s): form %s kind %s library %s symbol %s\n  %s\n", c->form, c->language,
               variant, l->form ? l->form : "-", l->kind ? l->kind : "-",
               l->library ? l->library : "-", l->symbol ? l->symbol : "-", text);
    td_explain_free(&x);
    return !ok;
}

/* Every dialog form in every language of data/windows_loader_dialogs.tsv
 * that these cases cover: as pasted, as a message box copy (CRLF), rewrapped
 * and cut off -- the DLL named is the library, and the entry point or
 * ordinal is the symbol. */
static void dialogs_in_every_language(void **state)
{
    int bad = 0;
    char buf[2048];
    for (size_t i = 0; i < N(dialog_cases); i++) {
        const struct dialog_case *c = &dialog_cases[i];
        bad += dialog_case_fails(c, "as pasted", c->text);
        as_message_box(c->text, buf, sizeof buf);
        bad += dialog_case_fails(c, "message box, CRLF", buf);
        rewrapped(c->text, buf, sizeof buf);
        bad += dialog_case_fails(c, "rewrapped", buf);
        bad += dialog_case_fails(c, "cut off", c->cut);
    }
    assert_int_equal(bad, 0);
}

/* How many languages TABLE has rows in whose KEY is VALUE. */
static int languages_of(const char *table, const char *key, const char *value)
{
    const char *const want[] = {"language", key, NULL};
    struct td_table t;
    char seen[16][16];
    int n = 0;
    assert_true(td_table_open(&t, table, want));
    while (td_table_next(&t)) {
        if (strcmp(td_table_cell(&t, 1), value) != 0)
            continue;
        bool dup = false;
        for (int k = 0; k < n; k++)
            dup |= strcmp(seen[k], td_table_cell(&t, 0)) == 0;
        if (!dup && n < 16)
            snprintf(seen[n++], sizeof seen[0], "%s", td_table_cell(&t, 0));
    }
    return n;
}

/* The rule: every message form in at least two languages where
 * Windows localises it -- each dialog form, each Win32 code explain maps. And
 * every (form, language) row of the dialog table has a case above. */
static void every_form_in_two_languages(void **state)
{
    static const char *const forms[] = {"dll_not_found", "entry_point", "ordinal", "bad_image"};
    int bad = 0;
    for (size_t i = 0; i < N(forms); i++)
        if (languages_of("windows_loader_dialogs", "form", forms[i]) < 2) {
            printf("dialog %s: fewer than two languages\n", forms[i]);
            bad++;
        }
    static const char *const codes[] = {"5",   "11",  "126",  "127", "182",
                                        "193", "206", "1114", "1455"};
    for (size_t i = 0; i < N(codes); i++)
        if (languages_of("windows_error_messages", "code", codes[i]) < 2) {
            printf("WinError %s: fewer than two languages\n", codes[i]);
            bad++;
        }
    static const char *const cols[] = {"form", "language", NULL};
    struct td_table t;
    assert_true(td_table_open(&t, "windows_loader_dialogs", cols));
    while (td_table_next(&t)) {
        bool covered = false;
        for (size_t k = 0; k < N(dialog_cases); k++)
            covered |= strcmp(dialog_cases[k].form, td_table_cell(&t, 0)) == 0 &&
                       strcmp(dialog_cases[k].language, td_table_cell(&t, 1)) == 0;
        if (!covered) {
            printf("dialog %s %s: no test case\n", td_table_cell(&t, 0), td_table_cell(&t, 1));
            bad++;
        }
    }
    assert_int_equal(bad, 0);
}

static void python_and_torch_wordings(void **state)
{
    static const struct expect cases[] = {
        {"ImportError: DLL load failed while importing fbgemm: The specified module could not be "
         "found.",
         "missing_library", "fbgemm.pyd", NULL},
        {"ImportError: DLL load failed while importing _C: 找不到指定的模块。", "missing_library",
         "_C.pyd", NULL},
        {"    from torch._C import *\nImportError: DLL load failed: The specified module could "
         "not be found.",
         "missing_library", "_C", NULL},
        /* cut off after the DLL name: no code, no closing quote */
        {"  File \"C:\\venv\\lib\\site-packages\\torch\\__init__.py\", line 128, in <module>\n"
         "    raise err\nOSError: Error loading \"C:\\venv\\lib\\site-packages\\torch\\lib\\"
         "fbgemm.dll",
         "missing_library", "fbgemm.dll", NULL},
        {"RuntimeError: Failed to load fbgemm.dll. Please check your PyTorch installation.",
         "missing_library", "fbgemm.dll", NULL},
        /* a chained traceback: the loader's exception first, the imports of
         * the handler's own failure after it */
        {"    from numba.core.typeconv import _typeconv\nImportError: DLL load failed: No se "
         "puede encontrar el modulo especificado.\n\nDuring handling of the above "
         "exception, another exception occurred:\n\nTraceback (most recent call last):\n"
         "    from numba.core.typing.typeof import typeof\n",
         "missing_library", "_typeconv", NULL},
        /* a title repeating the exception line before the traceback */
        {"ImportError: DLL load failed: The specified module could not be found.\nTraceback "
         "(most recent call last):\n    from torch._C import *\nImportError: DLL load failed: "
         "The specified module could not be found.",
         "missing_library", "_C", NULL},
    };
    check_cases(cases, N(cases));
    struct td_explain x;
    /* torch's own _C (the traceback imports torch._C): torch's role, not a companion's */
    explain("    from torch._C import *\nImportError: DLL load failed: The specified procedure "
            "could not be found.",
            &x);
    assert_string_equal(x.load.kind, "missing_symbol");
    assert_string_equal(x.load.role, "torch");
    td_explain_free(&x);
    explain("    from detectron2 import _C\nImportError: DLL load failed while importing _C: The "
            "specified procedure could not be found.",
            &x);
    assert_string_equal(x.load.role, "python_extension");
    td_explain_free(&x);
    explain(cases[4].text, &x);
    assert_non_null(x.load.note);
    assert_non_null(strstr(x.load.note, "no PyTorch release prints"));
    assert_string_equal(x.load.role, "torch");
    td_explain_free(&x);
}

static void ld_so_and_dyld(void **state)
{
    static const struct expect cases[] = {
        /* the library that lacks the version, and who requires it */
        {"ImportError: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.34' not found "
         "(required by /venv/lib/python3.10/site-packages/torch/lib/libtorch_python.so)",
         "missing_symbol_version", "libc.so.6",
         "/venv/lib/python3.10/site-packages/torch/lib/libtorch_python.so"},
        {"OSError: libcudart.so.12: cannot open shared object file: No such file or directory",
         "missing_library", "libcudart.so.12", NULL},
        {"./app: error while loading shared libraries: libfoo.so.1: cannot open shared object "
         "file: No such file or directory",
         "missing_library", "libfoo.so.1", "./app"},
        /* a companion built for another torch: the companion is at fault */
        {"ImportError: /x/flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: undefined symbol: "
         "_ZN3c104cuda9SetDeviceEi",
         "missing_symbol", "flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so", NULL},
        /* a symbol of its own: the module that needed it is the library, and needed_by */
        {"OSError: /usr/lib/python3.9/site-packages/torchaudio/_torchaudio.so: undefined symbol: "
         "WavpackGetMode",
         "missing_symbol", "_torchaudio.so",
         "/usr/lib/python3.9/site-packages/torchaudio/_torchaudio.so"},
        {"ImportError: /x/libcusparse.so.12: undefined symbol: __nvJitLinkAddData_12_1, version "
         "libnvJitLink.so.12",
         "missing_symbol_version", "libnvJitLink.so.12", "/x/libcusparse.so.12"},
        {"ImportError: dlopen(/x/_C.cpython-38-darwin.so, 2): Library not loaded: "
         "@rpath/libc++.1.dylib\n  Referenced from: /x/_C.cpython-38-darwin.so\n  Reason: image "
         "not found",
         "missing_library", "libc++.1.dylib", "/x/_C.cpython-38-darwin.so"},
        {"ImportError: dlopen(/x/_torch_sox.so, 2): Symbol not found: __ZN3c1011CPUTensorIdEv\n"
         "  Referenced from: /x/_torch_sox.so\n  Expected in: flat namespace",
         "missing_symbol", "_torch_sox.so", NULL},
        {"OSError: dlopen(/x/libtorch_global_deps.dylib, 0x000A): tried: "
         "'/x/libtorch_global_deps.dylib' (mach-o file, but is an incompatible architecture "
         "(have 'x86_64', need 'arm64'))",
         "wrong_architecture", "libtorch_global_deps.dylib", NULL},
        /* a torch symbol expected in torch's own libc10.dylib: the requirer was built for
           another torch */
        {"OSError: dlopen(/x/torch_sparse/_version_cpu.so, 6): Symbol not found: "
         "__ZN3c106detail23torchInternalAssertFailEPKcS2_jS2_S2_\n  Referenced from: "
         "/x/torch_sparse/_version_cpu.so\n  Expected in: /x/torch/lib/libc10.dylib",
         "missing_symbol", "_version_cpu.so", NULL},
        /* musl's loader (ldso/dynlink.c): a glibc wheel in an Alpine image */
        {"ImportError: Error loading shared library ld-linux-x86-64.so.2: No such file or "
         "directory (needed by /usr/local/lib/python3.6/site-packages/torch/_C.so)",
         "missing_library", "ld-linux-x86-64.so.2",
         "/usr/local/lib/python3.6/site-packages/torch/_C.so"},
        {"ImportError: Error relocating /venv/lib/python3.11/site-packages/torch/lib/"
         "libtorch_cpu.so: __memcpy_chk: symbol not found",
         "missing_symbol", "libtorch_cpu.so",
         "/venv/lib/python3.11/site-packages/torch/lib/libtorch_cpu.so"},
    };
    check_cases(cases, N(cases));
}

/* An escape sequence split inside a matched word is removed whole: the text
 * keeps no "[1;31m" and the message still parses. CRLF, a terminal's
 * wrapping and a markdown link around a file name do not get in the way. */
static void colour_crlf_wrapping_and_links(void **state)
{
    struct td_explain x;
    explain("OSError: [WinError 126] The specified module could not be found. Error lo"
            "\x1b[1;31mad\x1b[0ming \"C:\\venv\\Lib\\site-packages\\torch\\lib\\fbg\x1b[1;31memm"
            ".dll\x1b[0m\" or one of its dependencies.\r\n",
            &x);
    assert_null(strstr(x.text, "[1;31m"));
    assert_null(strstr(x.text, "[0m"));
    assert_string_equal(x.load.library, "fbgemm.dll");
    assert_int_equal(x.fields.win32, 126);
    td_explain_free(&x);

    explain("Traceback (most recent call last):\r\n  File \"a.py\", line 1, in <module>\r\n"
            "ImportError: libcudnn.so.9: cannot open shared object file: No such file or "
            "directory\r\n",
            &x);
    assert_string_equal(x.load.library, "libcudnn.so.9");
    assert_string_equal(x.load.role, "cuda");
    td_explain_free(&x);

    /* wrapped at 40 columns by a terminal, inside the path */
    explain("OSError: [WinError 126] The specified mo\n"
            "dule could not be found. Error loading \"\n"
            "C:\\venv\\Lib\\site-packages\\torch\\lib\\fbg\n"
            "emm.dll\" or one of its dependencies.",
            &x);
    assert_string_equal(x.load.library, "fbgemm.dll");
    td_explain_free(&x);

    explain("ImportError: /x/mmcv/[_ext.cpython-38-x86_64-linux-gnu.so](http://_ext.cpython-38-"
            "x86_64-linux-gnu.so/): undefined symbol: _ZN2at5sliceERKNS_6TensorE",
            &x);
    assert_string_equal(x.load.library, "_ext.cpython-38-x86_64-linux-gnu.so");
    td_explain_free(&x);
}

static const struct td_explain_cause *cause_from(const struct td_explain *x, const char *id,
                                                 size_t *rank)
{
    for (size_t i = 0; i < x->load.n_causes; i++)
        if (x->load.causes[i].id && strcmp(x->load.causes[i].id, id) == 0) {
            *rank = i;
            return &x->load.causes[i];
        }
    return NULL;
}

/* win126-fbgemm-libomp holds for torch 2.4.0 only: first when the text shows
 * 2.4.0, first with "If your torch is 2.4.0" when it shows none, last and
 * marked contradicted when it shows 2.5.1. */
static void version_condition_ranks_the_catalogue(void **state)
{
    static const char msg[] =
        "OSError: [WinError 126] The specified module could not be found. Error loading "
        "\"C:\\venv\\Lib\\site-packages\\torch\\lib\\fbgemm.dll\" or one of its dependencies.";
    char text[1024];
    struct td_explain x;
    size_t rank;

    snprintf(text, sizeof text, "torch==2.4.0\n%s", msg);
    explain(text, &x);
    const struct td_explain_cause *c = cause_from(&x, "win126-fbgemm-libomp", &rank);
    assert_non_null(c);
    assert_int_equal(rank, 0);
    assert_false(c->contradicted);
    assert_null(strstr(c->detail, "If your torch"));
    td_explain_free(&x);

    explain(msg, &x);
    c = cause_from(&x, "win126-fbgemm-libomp", &rank);
    assert_non_null(c);
    assert_int_equal(rank, 0);
    assert_true(strncmp(c->detail, "If your torch is 2.4.0:", 23) == 0);
    td_explain_free(&x);

    snprintf(text, sizeof text, "PyTorch version: 2.5.1+cu121\n%s", msg);
    explain(text, &x);
    c = cause_from(&x, "win126-fbgemm-libomp", &rank);
    assert_non_null(c);
    assert_true(c->contradicted);
    assert_int_equal(rank, x.load.n_causes - 1);
    assert_true(rank > 0);
    assert_string_equal(x.load.causes[0].kind, "missing_library");
    td_explain_free(&x);
}

/* A localised system message alone gives the code back, in each language
 * of data/windows_error_messages.tsv that has it. */
static void localised_message_without_code(void **state)
{
    static const struct {
        const char *text, *language;
        int code;
    } cases[] = {
        {"ImportError: DLL load failed while importing _C: No se puede encontrar el módulo "
         "especificado.",
         "es", 126},
        {"ImportError: DLL load failed while importing _C: Не найден указанный модуль.", "ru", 126},
        {"ImportError: DLL load failed while importing _C: Kan opgegeven procedure niet vinden.",
         "nl", 127},
        {"ImportError: DLL load failed while importing _C: "
         "指定されたプロシージャが見つかりません。",
         "ja", 127},
        {"System.ComponentModel.Win32Exception: '動態連結程式庫 (DLL) 初始化例行程序失敗。'",
         "zh-TW", 1114},
        {"ImportError: DLL load failed while importing _C: 지정된 프로시저를 찾을 수 없습니다.",
         "ko", 127},
        {"ImportError: DLL load failed while importing _C: Impossibile trovare il modulo "
         "specificato.",
         "it", 126},
        {"ImportError: DLL load failed: Операционная система не может запустить %1.", "ru", 182},
        {"ImportError: DLL load failed while importing _rust: このオペレーティング システムでは "
         "%1 は実行されません。",
         "ja", 182},
        {"OSError: 拒绝访问。 Error loading \"C:\\venv\\torch\\lib\\c10.dll\"", "zh-CN", 5},
        {"OSError: Accès refusé. Error loading \"C:\\venv\\torch\\lib\\c10.dll\"", "fr", 5},
        {"OSError: 文件名或扩展名太长。 Error loading \"C:\\venv\\torch\\lib\\c10.dll\"", "zh-CN",
         206},
        {"OSError: El nombre del archivo o la extensión es demasiado largo. Error loading "
         "\"C:\\venv\\torch\\lib\\c10.dll\"",
         "es", 206},
    };
    for (size_t i = 0; i < N(cases); i++) {
        struct td_explain x;
        explain(cases[i].text, &x);
        assert_int_equal(x.fields.win32, cases[i].code);
        assert_string_equal(x.fields.language, cases[i].language);
        assert_non_null(x.load.form);
        td_explain_free(&x);
    }
}

/* Text without any load error keeps "no match". */
static void no_load_error(void **state)
{
    struct td_explain x;
    explain("nothing went wrong today", &x);
    assert_null(x.load.form);
    assert_int_equal(x.n_matches, 0);
    td_explain_free(&x);
}

/* Session 14, N2: readings of message forms in their raisers' own words --
 * glibc's link-time-reference error (another build of the library found
 * first), its wrong-class reason in another language or wrapped before the
 * class, dyld 4's "could not use ... not a compatible arch", and dyld's
 * "Library not loaded:" with the path wrapped to the next line. */
static void n2_loader_forms(void **state)
{
    (void)state;
    static const struct expect cases[] = {
        {"./srv: relocation error: /usr/local/lib/libcurl.so.4: symbol SSL_get1_peer_certificate, "
         "version OPENSSL_3.0.0 not defined in file libssl.so.3 with link time reference",
         "shadowed_library", "libssl.so.3", "/usr/local/lib/libcurl.so.4"},
        {"OSError: /env/lib/libcublas.so.11: symbol gemm_x version libcublasLt.so.11 not defined "
         "in file libcublasLt.so.11 with link time reference",
         "shadowed_library", "libcublasLt.so.11", "/env/lib/libcublas.so.11"},
        {"OSError: /opt/x/libfoo.so: \xe9\x94\x99\xe8\xaf\xaf ELF \xe7\xb1\xbb: ELFCLASS32",
         "wrong_architecture", "libfoo.so", NULL},
        {"java.lang.UnsatisfiedLinkError: /tmp/libj.so: /tmp/libj.so: wrong ELF class:\n"
         "ELFCLASS64 (Possible cause: architecture word width mismatch)",
         "wrong_architecture", "libj.so", NULL},
        {"LoadError: dlopen(/g/lib/x.bundle, 0x0009): could not use '/g/lib/x.bundle' because it "
         "is not a compatible arch - /g/lib/x.bundle",
         "wrong_architecture", "x.bundle", NULL},
        {"ImportError: dlopen(/e/_image.so, 2): Library not loaded:\n/usr/local/opt/libpng/lib/"
         "libpng16.16.dylib\n  Referenced from: /e/_image.so\n  Reason: image not found",
         "missing_library", "libpng16.16.dylib", "/e/_image.so"},
    };
    check_cases(cases, N(cases));
}

/* Session 16, O13: native software beyond Python. An entry-point dialog
 * about a documented Windows API function (data/windows_api_homes.tsv) names
 * the function's own DLL, the DLL the dialog names (Windows 8 and later name
 * the importer) becoming the one that needs it; the home itself or an API set
 * named is read as before. The JDK's words read back to the file before them;
 * VCV Rack's GetLastError; plug-ins that are DLLs by other names; a host's
 * bare plug-in name on a LoadLibrary failure. */
static void o13_native_hosts(void **state)
{
    (void)state;
    static const struct expect cases[] = {
        {"The procedure entry point SymFromAddr could not be located in the dynamic link library "
         "C:\\Games\\x\\tier0_s64.dll",
         "shadowed_library", "dbghelp.dll", "tier0_s64.dll"},
        {"The procedure entry point CreateFile2 could not be located in the dynamic link library "
         "C:\\app\\app.exe",
         "missing_symbol", "kernel32.dll", "app.exe"},
        {"\"The procedure entry point GetDpiForSystem could not be located in the dynamic link "
         "library\"",
         "missing_symbol", "user32.dll", NULL},
        {"The procedure entry point CancelIoEx could not be located in the dynamic link library "
         "KERNEL32.dll.",
         "missing_symbol", "KERNEL32.dll", NULL},
        {"The procedure entry point SymFromAddr coculd not be located in the dynamic link library "
         "C:\\g\\steam_api64.dll",
         "shadowed_library", "dbghelp.dll", "steam_api64.dll"},
        {"java.lang.UnsatisfiedLinkError: C:\\a b\\Java \n6\\lib\\libgcc_s_dw2-1.dll: Can't "
         "load IA 32-bit .dll on a AMD 64-bit platform",
         "wrong_architecture", "libgcc_s_dw2-1.dll", NULL},
        {"java.lang.UnsatisfiedLinkError:  C:\\Temp\\123-jSerialComm.dll: Can't find dependent "
         "libraries",
         "missing_library", "123-jSerialComm.dll", NULL},
        {"Failed to load library C:\\Rack\\plugins\\X/plugin.dll: code 127", "missing_symbol",
         "plugin.dll", NULL},
        {"DLL <D:\\Max\\PlugIns\\exp.dle> failed to initialize.\nError code:1114 - A dynamic "
         "library (DLL) initialization routine failed.",
         "init_failure", "exp.dle", NULL},
        {"Failed to load plugin 'Crossbar'. Reason: LoadLibraryA failed. (Error: 126)",
         "missing_library", "Crossbar", NULL},
    };
    check_cases(cases, N(cases));
    /* the dialog's reading says why: the function's home, the first Windows
     * to export it, and Microsoft's page as the cause's source */
    struct td_explain x;
    explain("The procedure entry point GetDpiForWindow could not be located in the dynamic link "
            "library C:\\npp\\plugins\\MultiReplace.dll",
            &x);
    assert_string_equal(x.load.library, "user32.dll");
    assert_string_equal(x.load.needed_by, "MultiReplace.dll");
    assert_string_equal(x.load.defined_by, "user32.dll");
    assert_non_null(x.load.note);
    assert_non_null(strstr(x.load.note, "Windows 10, version 1607"));
    assert_string_equal(x.load.causes[0].kind, "missing_symbol");
    assert_non_null(strstr(x.load.causes[0].source, "learn.microsoft.com"));
    assert_string_equal(x.load.causes[1].kind, "shadowed_library");
    td_explain_free(&x);
}

/* The loader's own reason decides what failed with a file, whoever repeats
 * it: ODPI-C's DPI-1047 quoting ld.so's "file too short" (node-oracledb
 * #1059: a broken symlink extracted as a text file) is a damaged library,
 * not a missing one; and on Linux a .so is ld.so's own format, so the
 * ELF-on-Windows cause does not lead. */
static void loader_reason_inside_a_wrapper(void **state)
{
    (void)state;
    struct td_explain x;
    explain("Error: DPI-1047: Cannot locate a 64-bit Oracle Client library: "
            "\"/opt/oracle/instantclient_18_3/libclntsh.so: file too short\".",
            &x);
    assert_string_equal(x.load.kind, "not_a_library");
    assert_string_equal(x.load.library, "libclntsh.so");
    assert_string_equal(x.load.causes[0].kind, "corrupted_file");
    td_explain_free(&x);
    explain("OSError: /opt/x/libfoo.so: file too short", &x);
    assert_string_equal(x.load.kind, "not_a_library");
    assert_string_equal(x.load.causes[0].kind, "corrupted_file");
    td_explain_free(&x);
    /* the same .so on Windows is a Linux library Windows cannot load */
    explain("OSError: [WinError 193] %1 is not a valid Win32 application: C:\\x\\libfoo.so", &x);
    assert_string_equal(x.load.causes[0].kind, "wrong_architecture");
    td_explain_free(&x);
}

/* A dialog known by its frame blames the program itself (an .exe its body
 * names) only for what a program can lack, an entry point or an ordinal:
 * the missing-DLL frame's program is running (its title bar says so), so
 * an .exe retold after it ("Reinstalling app.exe", another program run
 * later) is no missing library. */
static void frame_blames_a_program_only_for_symbols(void **state)
{
    (void)state;
    static const char *const not_missing[] = {
        "app.exe - System Error\nThe program cannot start because a file is missing from your "
        "computer. Reinstalling app.exe did not help.",
        "When I run app.exe - System Error pops up. Then I ran setup.exe again.",
    };
    struct td_explain x;
    for (size_t i = 0; i < N(not_missing); i++) {
        explain(not_missing[i], &x);
        if (x.load.library)
            printf("%s\n  -> %s\n", not_missing[i], x.load.library);
        assert_true(!x.load.library || !strstr(x.load.library, ".exe"));
        td_explain_free(&x);
    }
    static const struct expect lacking[] = {
        {"Game.exe - Entry Point Not Found\nThe procedure entry point ?f@@YAXXZ could not be "
         "located in the program C:\\Games\\Game.exe.",
         "missing_symbol", "Game.exe", NULL},
    };
    check_cases(lacking, N(lacking));
}

/* A frame's body names its module after a label ("Text:"): the label's
 * colon ends a word of the sentence, a drive's colon is part of the path,
 * so the file deps is asked about is the whole path, not a relative one. */
static void frame_reads_a_drive_after_a_label(void **state)
{
    (void)state;
    struct td_explain x;
    explain("app.exe - System Error\nText:C:\\x\\foo.dll is missing", &x);
    assert_string_equal(x.load.library, "foo.dll");
    assert_string_equal(x.load.file, "C:\\x\\foo.dll");
    td_explain_free(&x);
    explain("app.exe - System Error\nhttp://example.com/foo.dll was not found", &x);
    assert_string_equal(x.load.file, "example.com/foo.dll");
    td_explain_free(&x);
}

/* A frame's body retyped with a blank in the DLL's name ("MSVCP 140.dll",
 * as a user copies the dialog by hand) names the DLL whole, as the body
 * read without its frame does, not a "140.dll". */
static void frame_joins_a_name_split_by_a_blank(void **state)
{
    (void)state;
    static const struct expect cases[] = {
        {"foo.exe - System Error\nThe code execution cannot proceed because MSVCP 140.dll was "
         "not found.",
         "missing_library", "MSVCP140.dll", NULL},
        /* a word in small letters is the sentence's */
        {"foo.exe - System Error\nThe program can't start because api 140.dll is missing.",
         "missing_library", "140.dll", NULL},
    };
    check_cases(cases, N(cases));
}

/* An entry-point caption with only the function after it, as a user retells
 * the box: the function is missing from a DLL the text does not name -- a
 * Windows API function's home DLL when it is one; prose after the caption
 * is no function. */
static void entry_point_caption_names_the_function(void **state)
{
    (void)state;
    struct td_explain x;
    explain("alert a message box show\n\nEntry Point Not Found  PyWinObject_FROMULARGE_INTEGER\n",
            &x);
    assert_string_equal(x.load.kind, "missing_symbol");
    assert_string_equal(x.load.symbol, "PyWinObject_FROMULARGE_INTEGER");
    assert_null(x.load.library);
    td_explain_free(&x);
    explain("Entry Point Not Found: GetSystemMetricsForDpi", &x);
    assert_string_equal(x.load.library, "user32.dll");
    td_explain_free(&x);
    explain("Entry Point Not Found in the Release notes", &x);
    assert_null(x.load.form);
    td_explain_free(&x);
    explain("Entry Point Not Found\nhello", &x);
    assert_null(x.load.form);
    td_explain_free(&x);
    explain("Entry Point Not Found\n  _BinkDX9SurfaceType@4\n", &x);
    assert_string_equal(x.load.symbol, "_BinkDX9SurfaceType@4");
    td_explain_free(&x);
}

/* Captions repeated over a pasted text of 256 KiB, each a dialog's frame
 * with no program before it: each next caption was looked for by regexec
 * over the whole rest of the text, which measures all of it (glibc's and
 * the sanitizers' strlen) at every call, quadratic in the captions. A hang
 * guard, not a speed check: 5 s of CPU time for the four texts, which
 * take 0.4 s plain and 1.6 s under the sanitizers read by windows around
 * each caption, 6.4 s under the sanitizers before. */
static void many_captions_read_in_one_pass(void **state)
{
    (void)state;
    static const char *const units[] = {"Bad Image", "bad image ", "损坏的图像",
                                        "Ordinal Not Found"};
    enum { LONG = 256 << 10 };
    char *text = malloc(LONG + 1);
    assert_non_null(text);
    clock_t start = clock();
    for (size_t i = 0; i < N(units); i++) {
        size_t u = strlen(units[i]), n = 0;
        memcpy(text, "x.exe ", 6), n = 6;
        for (; n + u <= LONG; n += u)
            memcpy(text + n, units[i], u);
        text[n] = '\0';
        struct td_explain x;
        explain(text, &x);
        td_explain_free(&x);
    }
    double cpu = (double)(clock() - start) / CLOCKS_PER_SEC;
    printf("many captions: %.2f s of CPU\n", cpu);
    assert_true(cpu < 5.0);
    free(text);
}

/* A pre-3.8 "DLL load failed:" names no module, and its module is the
 * import before the first such line that has one: a long log repeating the
 * line with no import before it was read again from its start for each
 * (every try walking the whole text's imports, Cython init frames and calls
 * by name), quadratic in the lines: 512 KiB of them, each with init frames
 * that name nothing, took 12 s of CPU plain (0.15 s read in one pass).
 * A hang guard, not a speed check: 5 s of CPU time; the module of an import
 * that follows them is still read. */
static void dll_load_failed_lines_read_in_one_pass(void **state)
{
    (void)state;
    static const char line[] = "DLL load failed in init  in init  in init \n",
                      tail[] = "    import _pg\n";
    enum { LONG = 512 << 10 };
    char *text = malloc(LONG + sizeof tail);
    assert_non_null(text);
    size_t n = 0;
    for (; n + sizeof line - 1 <= LONG; n += sizeof line - 1)
        memcpy(text + n, line, sizeof line - 1);
    memcpy(text + n, tail, sizeof tail);
    clock_t start = clock();
    struct td_explain x;
    explain(text, &x);
    double cpu = (double)(clock() - start) / CLOCKS_PER_SEC;
    printf("DLL load failed lines: %.2f s of CPU\n", cpu);
    assert_true(cpu < 5.0);
    assert_string_equal(x.load.library, "_pg");
    td_explain_free(&x);
    free(text);
}

/* A driver API entry point (cu*, nvml*) missing: the driver's own library
 * is older than its caller needs, whether the text names that library
 * (a dlsym's "X: undefined symbol"), a module that needed it (ld.so's form)
 * or only a log record's library= key beside the error= that names the
 * symbol. */
static void driver_entry_points_missing(void **state)
{
    (void)state;
    static const struct expect cases[] = {
        {"level=INFO msg=\"unable to load cuda driver library\" "
         "library=/usr/lib/x86_64-linux-gnu/libcuda.so.470.82.01 error=\"symbol lookup for "
         "cuCtxCreate_v3 failed: /usr/lib/x86_64-linux-gnu/libcuda.so.470.82.01: undefined "
         "symbol: cuCtxCreate_v3\"",
         "cuda_driver_too_old", "libcuda.so.470.82.01", NULL},
        {"ImportError: /opt/app/lib/libgpu_monitor.so: undefined symbol: "
         "nvmlDeviceGetGpcClkMinMaxVfOffset",
         "cuda_driver_too_old", "libnvidia-ml.so.1", "libgpu_monitor.so"},
        {"level=INFO msg=\"unable to load cuda driver library\" "
         "library=C:\\Windows\\system32\\nvcuda.dll error=\"symbol lookup for cuCtxCreate_v3 "
         "failed: The specified procedure could not be found.\\r\\n\"\n"
         "level=DEBUG msg=\"Unable to load cudart\" "
         "library=C:\\Program Files\\App\\lib\\cudart64_12.dll error=\"your driver is too "
         "old\"",
         "cuda_driver_too_old", "nvcuda.dll", NULL},
        {"Expected symbol in library: DlSym { desc: \"/lib/x86_64-linux-gnu/libcuda.so.1: "
         "undefined symbol: cuLogsCurrent\" }",
         "cuda_driver_too_old", "libcuda.so.1", NULL},
    };
    int bad = 0;
    for (size_t i = 0; i < N(cases); i++) {
        struct td_explain x;
        explain(cases[i].text, &x);
        const struct td_explain_load *l = &x.load;
        /* the finding's kind is the first cause's */
        const char *kind = l->n_causes ? l->causes[0].kind : NULL;
        if (!same(kind, cases[i].kind) || !same(l->library, cases[i].library) ||
            !same(l->needed_by, cases[i].needed_by)) {
            printf("case %zu: cause %s library %s needed_by %s\n", i, kind ? kind : "-",
                   l->library ? l->library : "-", l->needed_by ? l->needed_by : "-");
            bad++;
        }
        td_explain_free(&x);
    }
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(windows_codes_in_two_languages),
        cmocka_unit_test(ntstatus_and_loadlibrary),
        cmocka_unit_test(loader_dialogs),
        cmocka_unit_test(dialogs_in_every_language),
        cmocka_unit_test(every_form_in_two_languages),
        cmocka_unit_test(python_and_torch_wordings),
        cmocka_unit_test(ld_so_and_dyld),
        cmocka_unit_test(colour_crlf_wrapping_and_links),
        cmocka_unit_test(version_condition_ranks_the_catalogue),
        cmocka_unit_test(localised_message_without_code),
        cmocka_unit_test(no_load_error),
        cmocka_unit_test(n2_loader_forms),
        cmocka_unit_test(o13_native_hosts),
        cmocka_unit_test(loader_reason_inside_a_wrapper),
        cmocka_unit_test(frame_blames_a_program_only_for_symbols),
        cmocka_unit_test(frame_reads_a_drive_after_a_label),
        cmocka_unit_test(frame_joins_a_name_split_by_a_blank),
        cmocka_unit_test(entry_point_caption_names_the_function),
        cmocka_unit_test(many_captions_read_in_one_pass),
        cmocka_unit_test(dll_load_failed_lines_read_in_one_pass),
        cmocka_unit_test(driver_entry_points_missing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
