#include "probe/install/digest.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include <nettle/md5.h>
#include <nettle/sha2.h>

size_t td_digest_size(enum td_digest_algo algo)
{
    return algo == TD_DIGEST_SHA256 ? SHA256_DIGEST_SIZE : MD5_DIGEST_SIZE;
}

bool td_digest_fd(int fd, enum td_digest_algo algo, uint8_t *buf, size_t cap, uint8_t *out)
{
    struct sha256_ctx sha;
    struct md5_ctx md5;
    sha256_init(&sha);
    md5_init(&md5);
    for (;;) {
        ssize_t n = read(fd, buf, cap);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return false;
        if (n == 0)
            break;
        if (algo == TD_DIGEST_SHA256)
            sha256_update(&sha, (size_t)n, buf);
        else
            md5_update(&md5, (size_t)n, buf);
    }
    if (algo == TD_DIGEST_SHA256)
        sha256_digest(&sha, SHA256_DIGEST_SIZE, out);
    else
        md5_digest(&md5, MD5_DIGEST_SIZE, out);
    return true;
}

struct td_sha256 {
    struct sha256_ctx ctx;
};

struct td_sha256 *td_sha256_begin(void)
{
    struct td_sha256 *h = malloc(sizeof *h);
    if (h)
        sha256_init(&h->ctx);
    return h;
}

void td_sha256_update(struct td_sha256 *h, const uint8_t *data, size_t len)
{
    if (h)
        sha256_update(&h->ctx, len, data);
}

bool td_sha256_end(struct td_sha256 *h, uint8_t out[32])
{
    if (!h)
        return false;
    sha256_digest(&h->ctx, SHA256_DIGEST_SIZE, out);
    free(h);
    return true;
}
