#include "probe/install/digest.h"

#include <io.h>
#include <stdlib.h>
#include <windows.h>

#include <bcrypt.h>

size_t td_digest_size(enum td_digest_algo algo)
{
    return algo == TD_DIGEST_SHA256 ? 32 : 16;
}

bool td_digest_fd(int fd, enum td_digest_algo algo, uint8_t *buf, size_t cap, uint8_t *out)
{
    BCRYPT_ALG_HANDLE alg = NULL;
    BCRYPT_HASH_HANDLE h = NULL;
    bool ok = false;
    LPCWSTR name = algo == TD_DIGEST_SHA256 ? BCRYPT_SHA256_ALGORITHM : BCRYPT_MD5_ALGORITHM;
    if (BCryptOpenAlgorithmProvider(&alg, name, NULL, 0) != 0)
        return false;
    if (BCryptCreateHash(alg, &h, NULL, 0, NULL, 0, 0) != 0)
        goto out;
    for (;;) {
        int n = _read(fd, buf, cap > 0x40000000 ? 0x40000000 : (unsigned)cap);
        if (n < 0)
            goto out;
        if (n == 0)
            break;
        if (BCryptHashData(h, buf, (ULONG)n, 0) != 0)
            goto out;
    }
    ok = BCryptFinishHash(h, out, (ULONG)td_digest_size(algo), 0) == 0;
out:
    if (h)
        BCryptDestroyHash(h);
    BCryptCloseAlgorithmProvider(alg, 0);
    return ok;
}

struct td_sha256 {
    BCRYPT_ALG_HANDLE alg;
    BCRYPT_HASH_HANDLE h;
    bool failed;
};

struct td_sha256 *td_sha256_begin(void)
{
    struct td_sha256 *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    if (BCryptOpenAlgorithmProvider(&h->alg, BCRYPT_SHA256_ALGORITHM, NULL, 0) != 0) {
        free(h);
        return NULL;
    }
    if (BCryptCreateHash(h->alg, &h->h, NULL, 0, NULL, 0, 0) != 0) {
        BCryptCloseAlgorithmProvider(h->alg, 0);
        free(h);
        return NULL;
    }
    return h;
}

void td_sha256_update(struct td_sha256 *h, const uint8_t *data, size_t len)
{
    while (h && !h->failed && len > 0) {
        ULONG n = len > 0x40000000 ? 0x40000000 : (ULONG)len;
        h->failed = BCryptHashData(h->h, (PUCHAR)(uintptr_t)data, n, 0) != 0;
        data += n;
        len -= n;
    }
}

bool td_sha256_end(struct td_sha256 *h, uint8_t out[32])
{
    if (!h)
        return false;
    bool ok = !h->failed && BCryptFinishHash(h->h, out, 32, 0) == 0;
    BCryptDestroyHash(h->h);
    BCryptCloseAlgorithmProvider(h->alg, 0);
    free(h);
    return ok;
}
