"""``python -m torchdoctor ARGS``: runs the installed executable with ARGS."""

import os
import subprocess
import sys

from torchdoctor import find_torchdoctor_bin


def main() -> int:
    try:
        exe = find_torchdoctor_bin()
    except FileNotFoundError as e:
        sys.stderr.write("torchdoctor: the executable %s is not installed beside this package\n" % e)
        return 2
    if sys.platform == "win32":
        return subprocess.call([exe, *sys.argv[1:]])
    os.execv(exe, [exe, *sys.argv[1:]])
    return 2  # not reached


if __name__ == "__main__":
    sys.exit(main())
