/* Dotted version numbers as the tables and probes write them: "2.10.1",
 * "525.60.13", "12.4", "3.11". Compared part by part as numbers, so
 * "2.10" > "2.9"; a local tag ("+cu121") and pre-release suffixes
 * ("2.6.0a0", "2.5.0.dev20240801") are ignored. */
#ifndef TD_BASE_VERSION_H
#define TD_BASE_VERSION_H

#include <stdbool.h>
#include <stddef.h>

/* <0, 0, >0 as A is older, equal, newer. Missing parts count as 0. */
int td_version_cmp(const char *a, const char *b);

/* True when V satisfies SPEC: ">=3.9", "<=3.12", "<3.13", "=2.1", "2.1"
 * (exact), "-" or "" (no constraint). */
bool td_version_satisfies(const char *v, const char *spec);

/* True when V's first N parts equal PREFIX's ("2.1.2" has prefix "2.1"). */
bool td_version_has_prefix(const char *v, const char *prefix);

/* The first N dot-separated parts of V ("2.1.2+cu121", 2 -> "2.1") into OUT. */
const char *td_version_trim(const char *v, int parts, char *out, size_t cap);

#endif
