/* Reader for the Windows API-set schema, version 6 (Windows 10 and later,
 * and Wine): the API_SET_NAMESPACE the loader keeps at PEB->ApiSetMap and
 * that System32\apisetschema.dll carries in its ".apiset" section. Pure
 * functions over a byte buffer: the Windows probe hands it the live map,
 * tests and the fuzzer hand it a file. It maps every contract to its
 * default host DLL, the key cut as data/windows_apisets.tsv cuts it.
 *
 * Layout (all fields little-endian uint32, offsets from the map's start):
 *   namespace {Version, Size, Flags, Count, EntryOffset, HashOffset, HashFactor}
 *   entry     {Flags, NameOffset, NameLength, HashedLength, ValueOffset, ValueCount}
 *   value     {Flags, NameOffset, NameLength, ValueOffset, ValueLength}
 *   names are UTF-16LE, lengths in bytes, not NUL-terminated.
 * Sources: winsiderss/phnt ntpebteb.h (PEB->ApiSetMap, API_SET_NAMESPACE,
 * _ENTRY, _VALUE_ENTRY, _HASH_ENTRY); wine-mirror/wine:dlls/ntdll/loader.c
 * @4220e6805aa0711302a05e55a227bd08b079e68c (get_apiset_entry: HashedLength covers the name up to
 * its last '-'; get_apiset_target: with no requester the first value is the host, an empty one
 * means none); casualx/pelite's API_SET_NAMESPACE_V6 field notes. */
#ifndef TD_FORMAT_APISET_H
#define TD_FORMAT_APISET_H

#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/err.h"

#define TD_APISET_VERSION 6

struct td_apiset_contract {
    const char *contract; /* lower-case, without ".dll", cut at the last '-' */
    const char *name;     /* the schema's full name, lower-case */
    const char *host;     /* the default host DLL, or "-" when it has none */
};

struct td_apiset_map {
    uint32_t version;
    struct td_apiset_contract *contracts;
    size_t count;
};

/* Parses a version-6 namespace of SIZE bytes at DATA into OUT (strings in
 * ARENA). Returns 0, or -1 with ERR set on any other version, an offset or
 * length outside the bytes, or a name that is not ASCII. */
int td_apiset_parse(const uint8_t *data, size_t size, struct td_arena *arena,
                    struct td_apiset_map *out, struct td_err *err);

/* Finds the ".apiset" section of a PE file (apisetschema.dll) and parses it. */
int td_apiset_parse_pe(const uint8_t *data, size_t size, struct td_arena *arena,
                       struct td_apiset_map *out, struct td_err *err);

/* The contract NAME (an import name such as "API-MS-Win-Core-Synch-L1-2-0.dll")
 * resolves to: the matching entry (lower-case, ".dll" dropped, cut at the
 * last '-', compared with each contract), or NULL. */
const struct td_apiset_contract *td_apiset_find(const struct td_apiset_map *map, const char *name);

#endif
