"""Holds kb/pep508's answers against python3-packaging's over (requirement,
installed version) pairs: every Requires-Dist of the METADATA files on this
machine (Debian's dist-packages, the NVIDIA wheels' dist-info under
/usr/local/cuda) and torch 2.1.2's, each paired with the versions around
its specifier, plus generated edge cases; under two marker environments
(this interpreter's, and a Windows one). The C side is test_kb_pep508 --pairs."""
import glob
import itertools
import os
import subprocess
import sys

from packaging.markers import default_environment
from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

sys.path.insert(0, os.path.join(os.environ["TD_SRC"], "tests"))
from pkgmeta import TORCH_212_REQUIRES  # noqa: E402

SOURCES = ["/usr/lib/python3/dist-packages/*.dist-info/METADATA",
           "/usr/lib/python3*/site-packages/*.dist-info/METADATA",
           "/usr/local/cuda/dist-info/*/METADATA"]


def machine_requirements():
    reqs, files = [], 0
    for pattern in SOURCES:
        for path in sorted(glob.glob(pattern)):
            files += 1
            for line in open(path, encoding="utf-8", errors="replace"):
                if line.startswith("Requires-Dist:"):
                    reqs.append(line[len("Requires-Dist:"):].strip())
                elif not line.strip():
                    break
    return reqs, files


def neighbours(spec_versions):
    """Versions around each one a specifier names: itself, local, pre, post,
    dev, its last part bumped either way, and a shorter and longer form."""
    out = {"0", "1.0", "2.1.2+cu121"}
    for v in spec_versions:
        try:
            p = Version(v)
        except InvalidVersion:
            continue
        rel = list(p.release)
        base = ".".join(map(str, rel))
        out |= {str(p), p.public, base, base + "+cu121", base + "a1", base + "rc1",
                base + ".post1", base + ".dev0", base + ".0", ".".join(map(str, rel[:-1] or [0]))}
        up, down = rel[:], rel[:]
        up[-1] += 1
        down[-1] = max(0, down[-1] - 1)
        out |= {".".join(map(str, up)), ".".join(map(str, down)), "1!" + base}
    return sorted(out)


SPECS = ["==2.1.2", "==2.1.2+cu121", "==2.1.*", "!=2.1.*", "~=2.1", "~=2.1.2", "~=1.4.5a4",
         "~=2.2.post3", "~=1.0.c1", "~=1.0.RC1", "~=1!2.0", ">=1.0,<2", ">2.1.2", "<2.1.2", ">=2.1.2.dev0",
         "<=2.1.2", "===2.1.2", "===2.1.2+CU121", "==1!2.*", "==1.0.0.*", "!=1.0", ">1.0.post1",
         "<1.0rc1", "==0.16.*", ">=0.16,<0.17", "~=0.16.0", "==1.0a1", "==1.0.dev0",
         "> 1.0", "< 2 , >= 1", "", ",", ">=1.0+local", "==1.*.0", "~=1", "=1.0", "==v1.0",
         "==2.1.2.*", ">=2.1.2a1", "!=2.1.2+cu118", "==01.002"]
VERSIONS = ["2.1.2", "2.1.2+cu121", "2.1.2+cu118", "2.1.2+cpu", "2.1.10", "2.1", "2.1.0", "2.2",
            "2.1.2a1", "2.1.2rc1", "2.1.2.post1", "2.1.2.dev0", "2.1.3.dev1", "1!2.1.2", "1!2.0",
            "1.0", "1.0.0", "1.0a1", "1.0.post1", "1.0.post1.dev1", "1.0+local.7", "1.0c1",
            "0.16.0", "0.16.2+cu121", "0.17", "1.4.5", "1.4.6", "1.5", "2.2.post3", "2.3",
            "1.0.0rc1", "3", "v2.1.2", "2.1.2-1", "2.1.2_a_1", "2.1.2 ", "not-a-version", "1.0.0.0.1"]
MARKERS = ['', 'platform_system == "Linux"', "sys_platform == 'win32'", "extra == 'cuda'",
           'python_version < "3.12" and platform_machine == "x86_64"',
           "python_full_version >= '3.8.1' or os_name == 'nt'",
           "'linux' in sys_platform", "platform_machine not in 'arm64 aarch64'",
           '(python_version >= "3.8") and (implementation_name == "cpython")',
           'platform.python_implementation == "CPython"', "python_version == '3.*'",
           "python_version ~= '3.10'", "extra == 'Opt_Einsum'"]
REQS = ["torch", "Torch_Vision[Extra_1, b]", "nvidia-cudnn-cu12 (==8.9.2.26)", "name @ https://x.org/a.whl",
        "pkg==1.0 junk", "pkg[", "  spaced  >=1  "]


def expected(line, version, env):
    try:
        req = Requirement(line)
    except InvalidRequirement:
        return "E\tE\tE"
    try:
        applies = "1" if req.marker is None or req.marker.evaluate(dict(env, extra="")) else "0"
    except Exception:  # packaging's UndefinedComparison, InvalidVersion
        applies = "E"
    if req.url:
        ok = "1"
    else:
        try:
            ok = "1" if req.specifier.contains(Version(version), prereleases=True) else "0"
        except InvalidVersion:
            ok = "E"
    return f"{canonicalize_name(req.name)}\t{applies}\t{ok}"


def main():
    machine, files = machine_requirements()
    reqs = machine + TORCH_212_REQUIRES
    pairs = []
    for line in reqs:
        try:
            versions = [str(s.version) for s in Requirement(line).specifier]
        except InvalidRequirement:
            versions = []
        pairs += [(line, v) for v in neighbours(versions)]
    gen = [(f"{r}{' ; ' + m if m else ''}" if "@" not in r else f"{r}{' ; ' + m if m else ''}", "1.0")
           for r, m in itertools.product(REQS, MARKERS)]
    gen += [(f"pkg{s}", v) for s, v in itertools.product(SPECS, VERSIONS)]
    pairs += gen
    linux = default_environment()
    windows = dict(linux, os_name="nt", sys_platform="win32", platform_system="Windows",
                   platform_machine="AMD64")
    stdin, want = [], []
    for env in (linux, windows):
        stdin += [f"ENV\t{k}\t{v}" for k, v in env.items()]
        for line, version in pairs:
            if "\t" in line or "\n" in line:
                continue
            stdin.append(f"REQ\t{line}\t{version}")
            want.append((line, version, expected(line, version, env), env["sys_platform"]))
    out = subprocess.run([sys.argv[1], "--pairs"], input="\n".join(stdin) + "\n",
                         capture_output=True, text=True, check=True).stdout.splitlines()
    bad = [(w, g) for w, g in zip(want, out) if w[2] != g]
    print(f"{len(want)} pairs ({len(machine)} Requires-Dist lines from {files} METADATA files, "
          f"{len(TORCH_212_REQUIRES)} of torch 2.1.2, {len(gen)} generated; 2 environments); "
          f"{len(bad)} differ from python3-packaging")
    for (line, version, exp, plat), got in bad[:40]:
        print(f"  [{plat}] {line!r} with {version!r}: packaging {exp!r}, torchdoctor {got!r}")
    if len(out) != len(want):
        print(f"FAIL: {len(out)} answers for {len(want)} pairs")
        sys.exit(1)
    if bad or len(want) < 500:
        sys.exit(1)


main()
