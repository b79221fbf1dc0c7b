/* The live API-set schema: the loader maps apisetschema.dll's .apiset
 * section into every process and keeps its address in the PEB, at
 * PEB->ApiSetMap (offset 0x68 in the 64-bit PEB, 0x38 in the 32-bit one;
 * winsiderss/phnt ntpebteb.h, Geoff Chappell's PEB layout notes). Wine
 * fills it the same way (wine-mirror/wine dlls/ntdll/loader.c, peb->ApiSetMap
 * and get_apiset_entry). Its header's Size bounds the bytes parsed. The
 * PEB's address comes from NtQueryInformationProcess(ProcessBasicInformation),
 * looked up in ntdll as RtlGetVersion is (system_windows.c). */
#include <windows.h>
#include <winternl.h>

#include <string.h>

#include "probe/system/apiset.h"

#ifdef _WIN64
#define PEB_API_SET_MAP 0x68
#else
#define PEB_API_SET_MAP 0x38
#endif

const struct td_apiset_map *td_probe_live_apisets(void)
{
    static struct td_arena arena;
    static struct td_apiset_map map;
    static int state; /* 0 not read, 1 read, -1 unreadable */
    if (state)
        return state > 0 ? &map : NULL;
    state = -1;
    typedef LONG(WINAPI * query_fn)(HANDLE, PROCESSINFOCLASS, PVOID, ULONG, PULONG);
    HMODULE ntdll = GetModuleHandleW(L"ntdll.dll");
    FARPROC proc = ntdll ? GetProcAddress(ntdll, "NtQueryInformationProcess") : NULL;
    PROCESS_BASIC_INFORMATION pbi;
    query_fn query;
    if (!proc)
        return NULL;
    memcpy(&query, &proc, sizeof query);
    memset(&pbi, 0, sizeof pbi);
    if (query(GetCurrentProcess(), ProcessBasicInformation, &pbi, sizeof pbi, NULL) != 0 ||
        !pbi.PebBaseAddress)
        return NULL;
    const uint8_t *peb = (const uint8_t *)pbi.PebBaseAddress;
    const uint8_t *ns;
    memcpy(&ns, peb + PEB_API_SET_MAP, sizeof ns);
    if (!ns)
        return NULL;
    uint32_t size; /* API_SET_NAMESPACE.Size, after Version */
    memcpy(&size, ns + 4, sizeof size);
    struct td_err err = {0};
    if (td_apiset_parse(ns, size, &arena, &map, &err) != 0)
        return NULL;
    state = 1;
    return &map;
}
