/* sys.path of one interpreter, computed from its layout and the probed
 * environment without running it (python_syspath.c). Internal to
 * src/probe: python.c describes the install, this file orders the path. */
#ifndef TD_PROBE_PYTHON_SYSPATH_H
#define TD_PROBE_PYTHON_SYSPATH_H

#include <stdbool.h>

#include "probe/probe.h"

/* What getpath.py would have learnt about the install before site runs. */
struct td_syspath_layout {
    bool windows;            /* a python.exe: Windows paths and rules */
    bool venv;               /* pyvenv.cfg found (sys.prefix is the venv) */
    bool system_site;        /* its include-system-site-packages = true */
    const char *base_prefix; /* the installation (a venv's `home` folder's prefix) */
    const char *base_dir;    /* the installation's executable folder (Windows: python3XY.dll's) */
};

/* Fills PY's sys_path, site_dirs, pth_imports, pth_file, site_imported and
 * user_site from L and ctx's environment (PYTHONPATH, PYTHONHOME,
 * PYTHONNOUSERSITE, PYTHONSAFEPATH, PYTHONUSERBASE, HOME, APPDATA). PY's
 * exe, real, prefix and version are already set. */
void td_python_syspath(const struct td_probe_ctx *ctx, struct td_python *py,
                       const struct td_syspath_layout *l);

#endif
