/* Helpers shared by the cmocka tests: where fixtures are, and mapping them. */
#ifndef TD_TESTS_TESTUTIL_H
#define TD_TESTS_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "base/map.h"
#include "base/time_up.h"

/* Absolute path of a fixture file built by tests/fixtures/build.sh, in a
 * static buffer. Fails the test when TD_FIXTURES is not set. */
const char *td_fixture(const char *relpath);

/* Maps a fixture (or any path) and fails the test if that is impossible. */
void td_map_fixture(const char *relpath, struct td_map *m);

/* Reads a whole file into malloc'd memory (for tests that mutate bytes). */
uint8_t *td_read_file(const char *path, size_t *size);

/* A growing text buffer, for rendering what a reader found in the format
 * an independent tool prints, then comparing. */
struct td_text {
    char *s;
    size_t len, cap;
};

void td_text_add(struct td_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A child's timeout as an event, never the clock: time is up once the
 * child has said WORDS (NULL: never; the test's own limit bounds it). */
struct td_time_up td_time_up_once_said(const char *words);

#endif
