/* Fix scripts with non-ASCII paths (report/fix_script.c): fix.bat quotes
 * a command's path (or keeps the quotes it came with) and, written where
 * no OEM code page is known (this build), runs the UTF-8 body behind chcp
 * 65001 with the previous code page put back at every exit, without a BOM;
 * fix.ps1 starts with a UTF-8 BOM and calls a path with &. The OEM form is
 * tests/windows/fix_bat_wine.test.sh's (Wine's cmd runs it). */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "base/compat.h"
#include "report/fix_script.h"

static const char FIX[] =
    "C:\\Users\\用户张三\\Python311\\python.exe -m pip install --force-reinstall torch";

static char *script_for(enum td_shell shell, const char *fix)
{
    struct td_findings f = {0};
    td_findings_add(&f, TD_SEV_ERROR, TD_KIND_CORRUPTED_FILE, "c10.dll", NULL, NULL, fix,
                    "c10.dll under C:\\Users\\用户张三 differs from RECORD");
    struct td_memstream ms;
    FILE *out = td_memstream_open(&ms);
    assert_non_null(out);
    td_fix_script(out, &f, shell);
    size_t len;
    char *s = td_memstream_close(&ms, &len);
    td_findings_free(&f);
    assert_non_null(s);
    return s;
}

static char *script(enum td_shell shell)
{
    return script_for(shell, FIX);
}

static void batch_file(void **state)
{
    char *s = script(TD_SHELL_CMD);
    assert_memory_equal(s, "@echo off\n", 10); /* no BOM: cmd would run it as a command */
    char *chcp = strstr(s, "rem Non-ASCII text below is in code page 65001 (UTF-8)");
    assert_non_null(chcp);
    chcp = strstr(chcp, "\nchcp 65001 >nul\n");
    char *cmd = strstr(s, "%TD_RUN% \"C:\\Users\\用户张三\\Python311\\python.exe\" -m pip install "
                          "--force-reinstall torch\n");
    assert_non_null(chcp);
    assert_non_null(cmd);
    assert_true(chcp < cmd);
    assert_true(chcp > strstr(s, "rem")); /* only ASCII above it */
    for (const char *p = s; p < chcp; p++)
        assert_true((unsigned char)*p < 0x80);
    assert_non_null(strstr(s, "for /f \"tokens=2 delims=:.\" %%c in ('chcp') do set TD_CP=%%c\n"));
    assert_non_null(strstr(cmd, "if errorlevel 1 set TD_RC=1& goto td_end\n"));
    assert_non_null(strstr(s, ":td_end\nif defined TD_CP chcp %TD_CP% >nul\nexit /b %TD_RC%\n"));
    free(s);
}

static void powershell_script(void **state)
{
    char *s = script(TD_SHELL_POWERSHELL);
    assert_memory_equal(s, "\xef\xbb\xbf# Fixes", 10);
    assert_non_null(strstr(s, "\n& \"C:\\Users\\用户张三\\Python311\\python.exe\" -m pip install "
                              "--force-reinstall torch\n"));
    free(s);
}

/* A path with a blank comes quoted from probe/install/torch.c: still a command,
 * its quotes kept as they are, not doubled. */
static void quoted_path(void **state)
{
    static const char fix[] = "\"C:\\Program Files\\Python311\\python.exe\" -m pip install torch";
    char *s = script_for(TD_SHELL_CMD, fix);
    assert_non_null(strstr(s, "\n%TD_RUN% \"C:\\Program Files\\Python311\\python.exe\" -m pip "
                              "install torch\nif errorlevel 1"));
    free(s);
    s = script_for(TD_SHELL_POWERSHELL, fix);
    assert_non_null(strstr(s, "\n& \"C:\\Program Files\\Python311\\python.exe\" -m pip install "
                              "torch\n"));
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(batch_file),
        cmocka_unit_test(powershell_script),
        cmocka_unit_test(quoted_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
