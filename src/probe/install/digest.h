/* File digests for the integrity checks against RECORD (SHA-256) and
 * dpkg's md5sums: nettle on POSIX (Debian nettle-dev, linked statically),
 * the system's bcrypt.dll on Windows (Debian has no mingw nettle). */
#ifndef TD_PROBE_DIGEST_H
#define TD_PROBE_DIGEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum td_digest_algo { TD_DIGEST_SHA256, TD_DIGEST_MD5 };

enum { TD_DIGEST_MAX = 32 };

/* Size in bytes of ALGO's digest. */
size_t td_digest_size(enum td_digest_algo algo);

/* Reads FD to its end through BUF (CAP bytes) and writes ALGO's digest to
 * OUT (td_digest_size bytes). False when a read fails. */
bool td_digest_fd(int fd, enum td_digest_algo algo, uint8_t *buf, size_t cap, uint8_t *out);

/* SHA-256 fed in pieces (a zip member streamed through the inflater):
 * begin, update any number of times, end. End writes 32 bytes and frees
 * what begin took; false when the system's hash refused. */
struct td_sha256;
struct td_sha256 *td_sha256_begin(void);
void td_sha256_update(struct td_sha256 *h, const uint8_t *data, size_t len);
bool td_sha256_end(struct td_sha256 *h, uint8_t out[32]);

#endif
