"""torchdoctor: why won't PyTorch load? The program is the native executable
this wheel installs on PATH (the wheel's scripts); this package only finds
it, for ``python -m torchdoctor``."""

import os
import sys
import sysconfig

__all__ = ["find_torchdoctor_bin"]


def find_torchdoctor_bin() -> str:
    """The path of the torchdoctor executable this package was installed with."""
    exe = "torchdoctor" + (".exe" if sys.platform == "win32" else "")
    schemes = [sysconfig.get_default_scheme()]
    if os.name == "nt":
        schemes.append("nt_user")
    elif sys.platform == "darwin" and sys._framework:  # pragma: no cover
        schemes.append("osx_framework_user")
    else:
        schemes.append("posix_user")
    for scheme in schemes:
        try:
            path = os.path.join(sysconfig.get_path("scripts", scheme=scheme), exe)
        except KeyError:
            continue
        if os.path.isfile(path):
            return path
    # pip install --target DIR puts the scripts in DIR/bin.
    path = os.path.join(os.path.dirname(os.path.dirname(__file__)), "bin", exe)
    if os.path.isfile(path):
        return path
    raise FileNotFoundError(exe)
