/* Demangling through libsupc++'s __cxa_demangle; see demangle.h. */
#include "base/demangle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Itanium C++ ABI, "Demangler API" (declared in <cxxabi.h> for C++). */
char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

const char *td_demangle(const char *name, char *out, size_t cap)
{
    int status = -1;
    char *plain = strncmp(name, "_Z", 2) == 0 ? __cxa_demangle(name, NULL, NULL, &status) : NULL;
    snprintf(out, cap, "%s", status == 0 && plain ? plain : name);
    free(plain);
    return out;
}
