/* The Windows registry, read (never written) with the ...W functions; key
 * and value names and REG_SZ data in UTF-8. Windows builds only. */
#ifndef TD_BASE_REGISTRY_H
#define TD_BASE_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>

#include <windows.h>

/* REG_SZ value NAME of ROOT\KEY into OUT; FLAGS adds RRF_SUBKEY_WOW64*KEY.
 * False when absent, empty, not a string or too long for OUT. */
bool td_reg_string(HKEY root, const char *key, const char *name, DWORD flags, char *out,
                   size_t cap);
bool td_reg_dword(HKEY root, const char *key, const char *name, DWORD flags, DWORD *out);
/* RegOpenKeyExW with KEY_READ | VIEW. */
bool td_reg_open(HKEY root, const char *key, REGSAM view, HKEY *out);
/* The name of subkey I of KEY (RegEnumKeyExW) into OUT. */
bool td_reg_subkey(HKEY key, DWORD i, char *out, size_t cap);
/* Value I of KEY if it is a REG_SZ (RegEnumValueW): its data into OUT. */
bool td_reg_value_string(HKEY key, DWORD i, char *out, size_t cap);

#endif
