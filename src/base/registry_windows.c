/* Registry reads for the Windows probes (base/registry.h): the wide
 * functions, with every name and string converted in base/utf8_windows.c. */
#include "base/registry.h"
#include "base/utf8.h"

#include <stdlib.h>

/* NULL stays NULL (a key's default value, or the key itself); false when
 * S is not UTF-8. */
static bool widen(const char *s, wchar_t **out)
{
    *out = s ? td_utf8_to_wide(s) : NULL;
    return !s || *out;
}

bool td_reg_string(HKEY root, const char *key, const char *name, DWORD flags, char *out, size_t cap)
{
    wchar_t *wkey, *wname, buf[2048];
    DWORD size = sizeof buf;
    bool ok =
        widen(key, &wkey) & widen(name, &wname) &&
        RegGetValueW(root, wkey, wname, RRF_RT_REG_SZ | flags, NULL, buf, &size) == ERROR_SUCCESS &&
        buf[0] && td_wide_to_utf8_buf(buf, out, cap) > 0;
    free(wkey);
    free(wname);
    return ok;
}

bool td_reg_dword(HKEY root, const char *key, const char *name, DWORD flags, DWORD *out)
{
    wchar_t *wkey, *wname;
    DWORD size = sizeof *out;
    bool ok = widen(key, &wkey) & widen(name, &wname) &&
              RegGetValueW(root, wkey, wname, RRF_RT_REG_DWORD | flags, NULL, out, &size) ==
                  ERROR_SUCCESS;
    free(wkey);
    free(wname);
    return ok;
}

bool td_reg_open(HKEY root, const char *key, REGSAM view, HKEY *out)
{
    wchar_t *wkey = td_utf8_to_wide(key);
    bool ok = wkey && RegOpenKeyExW(root, wkey, 0, KEY_READ | view, out) == ERROR_SUCCESS;
    free(wkey);
    return ok;
}

bool td_reg_subkey(HKEY key, DWORD i, char *out, size_t cap)
{
    wchar_t name[256]; /* a key name's limit ("Registry element size limits") */
    DWORD len = sizeof name / sizeof name[0];
    return RegEnumKeyExW(key, i, name, &len, NULL, NULL, NULL, NULL) == ERROR_SUCCESS &&
           td_wide_to_utf8_buf(name, out, cap) > 0;
}

bool td_reg_value_string(HKEY key, DWORD i, char *out, size_t cap)
{
    wchar_t name[16384], data[1024];
    DWORD nlen = sizeof name / sizeof name[0], dlen = sizeof data - sizeof data[0], type = 0;
    if (RegEnumValueW(key, i, name, &nlen, NULL, &type, (BYTE *)data, &dlen) != ERROR_SUCCESS ||
        type != REG_SZ)
        return false;
    data[dlen / sizeof data[0]] = L'\0';
    return data[0] && td_wide_to_utf8_buf(data, out, cap) > 0;
}
