/* The fix of a missing library names what provides it (issue #13): the
 * installed distribution whose RECORD lists the file, else the nvidia-*
 * wheel of torch's CUDA major (at the version torch pins), else the
 * system component (the VC++ Redistributable of the process's machine,
 * the Universal CRT, the NVIDIA driver, the distribution's package), and
 * only then a search (apt-file, dnf provides). Every command that builds
 * a target's graph runs it on the graph's findings. */
#ifndef TD_PROBE_PROVIDER_H
#define TD_PROBE_PROVIDER_H

#include "graph/graph.h"

/* Rewrites the fix of every missing_library finding of G. PYTHON_EXE is
 * the interpreter pip runs under (a target path), or NULL: the one of the
 * site directory the needing file lies in, from its layout. */
void td_name_providers(struct td_graph *g, const char *python_exe);

/* The same fix for one LIBRARY that NEEDED_BY (a host path on this
 * machine, or NULL) could not load, into OUT: what a live trace saw. */
const char *td_provider_fix(const char *library, const char *needed_by, bool windows, char *out,
                            size_t cap);

#endif
