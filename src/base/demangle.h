/* C++ (Itanium ABI) names made readable for reports: "_ZN3c1010TensorImpl..."
 * becomes "c10::TensorImpl::...". Uses the demangler of GCC's runtime
 * (libsupc++, linked statically), never one of our own. */
#ifndef TD_BASE_DEMANGLE_H
#define TD_BASE_DEMANGLE_H

#include <stddef.h>

/* Writes the demangled form of NAME into OUT (truncated to CAP), or NAME
 * itself when it is not a mangled C++ name. Returns OUT. */
const char *td_demangle(const char *name, char *out, size_t cap);

#endif
