#include "base/embed.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int td_embed_fd(const char *name, const unsigned char *bytes, size_t size, bool inherit,
                struct td_err *err)
{
    int fd = memfd_create(name, inherit ? 0 : MFD_CLOEXEC);
    if (fd < 0) {
        td_err_set(err, "cannot create an in-memory file for %s: %s", name, strerror(errno));
        return -1;
    }
    size_t done = 0;
    while (done < size) {
        ssize_t n = write(fd, bytes + done, size - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            td_err_set(err, "cannot write %s: %s", name, strerror(errno));
            close(fd);
            return -1;
        }
        done += (size_t)n;
    }
    return fd;
}

const char *td_embed_fd_path(int fd, char *out, size_t cap)
{
    snprintf(out, cap, "/proc/self/fd/%d", fd);
    return out;
}
