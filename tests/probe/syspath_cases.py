#!/usr/bin/python3
"""sys.path and `import torch`, computed by torchdoctor without running Python,
against the real interpreter in the same environment. Each case builds real
environments in a temporary folder (venvs made by `python3 -m venv`, a user
site under a temporary HOME, .pth files, fake torch packages: torch/__init__.py
and torch/version.py), then asks /usr/bin/python3 (Debian's, with Debian's
site.py) for sys.path and importlib.util.find_spec("torch"), and asserts that
`torchdoctor check --format json` says the same entry by entry, names the same
torch as imported, and reports every other torch on the path as a
multiple_installs finding naming the winner and the shadowed copy."""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.environ["TD_SRC"], "tests"))
from casekit import TD, check, finish, td_json  # noqa: E402

PY = "/usr/bin/python3"
DEBIAN_TORCH = "/usr/lib/python3/dist-packages/torch"


def fake_torch(site, version, init=True):
    d = os.path.join(site, "torch")
    os.makedirs(os.path.join(d, "lib"), exist_ok=True)
    with open(os.path.join(d, "version.py"), "w") as f:
        f.write(f"__version__ = '{version}'\ndebug = False\ncuda = None\nhip = None\n")
    if init:
        with open(os.path.join(d, "__init__.py"), "w") as f:
            f.write("from torch.version import __version__\n")
    return d


def dist_info(site, name, version):
    di = os.path.join(site, f"{name}-{version}.dist-info")
    os.makedirs(di, exist_ok=True)
    with open(os.path.join(di, "METADATA"), "w") as f:
        f.write(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n\n")
    with open(os.path.join(di, "INSTALLER"), "w") as f:
        f.write("pip\n")
    return di


def base_env(t, home, extra):
    env = {"PATH": "/usr/bin:/bin", "HOME": home, "LANG": "C.UTF-8"}
    env.update(extra)
    return env


ORACLE = ("import importlib.util as u, json, sys\n"
          "s = u.find_spec('torch')\n"
          "print(json.dumps({'path': sys.path, 'origin': s.origin if s else None,\n"
          "  'locations': list(s.submodule_search_locations or []) if s else None}))\n")


def real(exe, env, cwd):
    p = subprocess.run([exe, "-c", ORACLE], capture_output=True, text=True, env=env, cwd=cwd)
    check(p.returncode == 0, f"{exe}: {p.stderr[-400:]}")
    return json.loads(p.stdout)


def td(exe, env, cwd):
    return td_json("check", "--python", exe, "--no-gpu", env=env, cwd=cwd, timeout=300, schema=True,
                   what=f"check --python {exe}")[1]


def imported_dir(r):
    """The folder `import torch` takes: a regular package's, or the first
    namespace portion when only those exist; None when there is no torch."""
    if r["origin"]:
        return os.path.dirname(r["origin"])
    return r["locations"][0] if r["locations"] else None


def compare(name, exe, env, cwd):
    """Asserts sys.path and the imported torch agree; returns both views."""
    want = real(exe, env, cwd)
    doc = td(exe, env, cwd)
    got = [e["path"] for e in doc["pythons"][0]["sys_path"]]
    check(got == want["path"], f"{name}: sys.path\n  python3:     {want['path']}\n  torchdoctor: {got}")
    imported = [t for t in doc["torch"] if t["imported"]]
    wdir = imported_dir(want)
    check([t["dir"] for t in imported] == ([wdir] if wdir else []),
          f"{name}: python imports {wdir}, torchdoctor says {[t['dir'] for t in imported]}")
    return want, doc


def shadow_findings(doc, lib="torch"):
    return [f for f in doc["findings"] if f["kind"] == "multiple_installs" and f["library"] == lib]


def names_both(name, doc, win, lose, why):
    fs = [f for f in shadow_findings(doc) if lose in f["detail"]]
    d = fs[0]["detail"] if fs else ""
    check(fs and win in d and d.index(win) < d.index(lose) and why in d,
          f"{name}: a multiple_installs finding naming {win} before {lose} and '{why}': "
          f"{[f['detail'] for f in shadow_findings(doc)]}")
    loser = [t for t in doc["torch"] if t["dir"] == lose]
    check(loser and loser[0]["imported"] is False and loser[0]["shadowed_by"] == win,
          f"{name}: {lose} shadowed_by {win}: {loser}")


def venv(t, name, system_site=False):
    root = os.path.join(t, name)
    args = [PY, "-m", "venv", "--without-pip"] + (["--system-site-packages"] if system_site else [])
    subprocess.run(args + [root], check=True)
    return os.path.join(root, "bin", "python"), os.path.join(root, "lib", "python3.11", "site-packages")


def pythonpath_shadows_venv(t):
    exe, site = venv(t, "venv")
    mine = fake_torch(site, "2.1.2")
    pp = os.path.join(t, "pp")
    theirs = fake_torch(pp, "2.0.1")
    env = base_env(t, os.path.join(t, "nohome"), {"PYTHONPATH": pp})
    want, doc = compare("PYTHONPATH over a venv", exe, env, t)
    check(imported_dir(want) == theirs, f"python imports {imported_dir(want)} (expected {theirs})")
    win = [x for x in doc["torch"] if x["imported"]]
    check(win and win[0]["version"] == "2.0.1" and win[0]["sys_path_entry"] == pp and
          win[0]["reason"] == "$PYTHONPATH entry 1", f"PYTHONPATH torch: {win}")
    names_both("PYTHONPATH over a venv", doc, theirs, mine, "PYTHONPATH")
    f = shadow_findings(doc)
    check(f and "unset PYTHONPATH" in (f[0]["fix"] or ""), f"fix takes PYTHONPATH away: {f and f[0]['fix']}")
    # The text view says the same: which copy is imported, from which entry, and which is shadowed.
    text = subprocess.run([TD, "check", "--python", exe, "--no-gpu", "--color", "never"],
                          capture_output=True, text=True, env=env, cwd=t).stdout
    check(f"imported by {exe}: sys.path[1] {pp} ($PYTHONPATH entry 1)" in text and
          f"shadowed: {exe} imports {theirs} instead" in text and f"{pp} [pythonpath]" in text,
          f"check text names the winner and the shadowed copy:\n{text}")
    # PYTHONSAFEPATH drops the current directory; a relative and an empty entry are made absolute.
    env.update({"PYTHONSAFEPATH": "1", "PYTHONPATH": f"rel::{pp}"})
    compare("PYTHONSAFEPATH, relative PYTHONPATH", exe, env, t)
    # PYTHONHOME names the installation and turns the venv off.
    compare("PYTHONHOME", exe, base_env(t, os.path.join(t, "nohome"), {"PYTHONHOME": "/usr"}), t)


def user_site(t):
    home = os.path.join(t, "home")
    usite = os.path.join(home, ".local", "lib", "python3.11", "site-packages")
    mine = fake_torch(usite, "2.3.0")
    dist_info(usite, "torch", "2.3.0")
    env = base_env(t, home, {})
    want, doc = compare("user site over the system's", PY, env, t)
    check(imported_dir(want) == mine, f"python imports {imported_dir(want)} (expected {mine})")
    names_both("user site over the system's", doc, mine, DEBIAN_TORCH, "the user site (HOME=")
    env["PYTHONNOUSERSITE"] = "1"
    want, doc = compare("PYTHONNOUSERSITE", PY, env, t)
    check(imported_dir(want) == DEBIAN_TORCH and not shadow_findings(doc) and
          doc["pythons"][0]["user_site_off"] == "PYTHONNOUSERSITE",
          f"PYTHONNOUSERSITE: {imported_dir(want)}, {shadow_findings(doc)}")
    # PYTHONUSERBASE moves the user site.
    ub = os.path.join(t, "userbase")
    other = fake_torch(os.path.join(ub, "lib", "python3.11", "site-packages"), "2.4.0")
    want, doc = compare("PYTHONUSERBASE", PY, base_env(t, home, {"PYTHONUSERBASE": ub}), t)
    check(imported_dir(want) == other, f"PYTHONUSERBASE: python imports {imported_dir(want)}")


def pth_files(t):
    """.pth files in the user site, read in sorted order: paths that exist are
    added, relative ones against the site folder, `import` lines reported."""
    home = os.path.join(t, "pthhome")
    usite = os.path.join(home, ".local", "lib", "python3.11", "site-packages")
    os.makedirs(usite)
    extra = os.path.join(t, "extra")
    mine = fake_torch(extra, "1.9.0")
    rel = os.path.join(usite, "relative")
    os.makedirs(rel)
    with open(os.path.join(usite, "b.pth"), "w") as f:
        f.write(f"# a comment\n\n{extra}\n{t}/does-not-exist\nimport os; os.environ.get('X')\n")
    with open(os.path.join(usite, "a.pth"), "w") as f:
        f.write("relative\n")
    with open(os.path.join(usite, "__editable__.thing-0.1.pth"), "w") as f:
        f.write(f"{t}/src-thing\n")
    os.makedirs(os.path.join(t, "src-thing"))
    env = base_env(t, home, {})
    want, doc = compare(".pth files", PY, env, t)
    check(imported_dir(want) == mine, f".pth torch: python imports {imported_dir(want)}")
    names_both(".pth files", doc, mine, DEBIAN_TORCH, "b.pth")
    imports = [i for i in doc["pythons"][0]["pth_imports"] if i["file"].startswith(usite)]
    check(len(imports) == 1 and imports[0]["line"] == 5 and imports[0]["text"].startswith("import os"),
          f".pth import line reported: {imports}")
    f = [x for x in shadow_findings(doc) if DEBIAN_TORCH in x["detail"]]
    check(f and os.path.join(usite, "b.pth") in (f[0]["fix"] or ""), f".pth fix names the file: {f}")


def editable_install(t):
    """pip install -e (PEP 660): the user site holds __editable__.torch-….pth
    naming the source checkout and the dist-info whose direct_url.json says
    editable; Python imports the checkout's torch."""
    home = os.path.join(t, "edhome")
    usite = os.path.join(home, ".local", "lib", "python3.11", "site-packages")
    src = os.path.join(t, "pytorch")
    mine = fake_torch(src, "2.6.0a0+git1234")
    di = dist_info(usite, "torch", "2.6.0a0+git1234")
    with open(os.path.join(di, "direct_url.json"), "w") as f:
        json.dump({"url": "file://" + src, "dir_info": {"editable": True}}, f)
    with open(os.path.join(usite, "__editable__.torch-2.6.0a0+git1234.pth"), "w") as f:
        f.write(src + "\n")
    want, doc = compare("editable install", PY, base_env(t, home, {}), t)
    check(imported_dir(want) == mine, f"editable: python imports {imported_dir(want)}")
    win = [x for x in doc["torch"] if x["imported"]]
    check(win and win[0]["editable"] == "file://" + src and win[0]["installer"] == "pip" and
          "__editable__.torch-2.6.0a0+git1234.pth" in win[0]["reason"], f"editable torch: {win}")
    names_both("editable install", doc, mine, DEBIAN_TORCH, "__editable__")


def venv_system_site(t):
    home = os.path.join(t, "vhome")
    usite = os.path.join(home, ".local", "lib", "python3.11", "site-packages")
    os.makedirs(usite)
    with open(os.path.join(usite, "u.pth"), "w") as f:
        f.write("import sys\n")
    env = base_env(t, home, {})
    exe, _ = venv(t, "nosys")
    want, doc = compare("venv without system site packages", exe, env, t)
    check(imported_dir(want) is None and doc["torch"] == [], f"no torch in a closed venv: {doc['torch']}")
    exe, _ = venv(t, "withsys", system_site=True)
    want, doc = compare("venv with system site packages", exe, env, t)
    check(imported_dir(want) == DEBIAN_TORCH, f"system torch through the venv: {imported_dir(want)}")
    py = doc["pythons"][0]
    check(usite in want["path"] and py["kind"] == "venv" and
          len([i for i in py["pth_imports"] if i["file"].startswith(usite)]) == 1,
          f"the user site's .pth read once: {py['pth_imports']}")


def namespace_loses(t):
    """A torch/ folder without __init__.py early on the path (what an
    interrupted uninstall leaves) is a namespace portion: Python takes the
    regular package later on the path."""
    ns = os.path.join(t, "leftover")
    fake_torch(ns, "0.0.0", init=False)
    env = base_env(t, os.path.join(t, "nohome"), {"PYTHONPATH": ns})
    want, doc = compare("namespace portion first", PY, env, t)
    check(imported_dir(want) == DEBIAN_TORCH, f"namespace loses: python imports {imported_dir(want)}")
    lose = [x for x in doc["torch"] if x["dir"] == os.path.join(ns, "torch")]
    check(lose and lose[0]["namespace_only"] and not lose[0]["imported"], f"namespace torch: {lose}")
    names_both("namespace portion first", doc, DEBIAN_TORCH, os.path.join(ns, "torch"), "__init__.py")


def namespace_only(t):
    """Only a leftover torch/ without __init__.py on the path: Python imports
    an empty namespace package; torchdoctor says so."""
    exe, site = venv(t, "nsvenv")
    left = fake_torch(site, "0.0.0", init=False)
    want, doc = compare("only a namespace portion", exe, base_env(t, os.path.join(t, "nohome"), {}), t)
    check(want["origin"] is None and imported_dir(want) == left, f"python: namespace {want}")
    f = [x for x in doc["findings"] if x["kind"] == "corrupted_file" and x["library"] == left + "/__init__.py"]
    check(f and f[0]["severity"] == "warning" and "namespace" in f[0]["detail"] and left in (f[0]["fix"] or ""),
          f"namespace-only torch reported: {doc['findings']}")


def companions_on_path(t):
    """torchvision is resolved on the same path as torch: the venv's
    torchvision comes with the PYTHONPATH torch, and a second copy is named."""
    exe, site = venv(t, "cvenv")
    fake_torch(site, "2.1.2")
    dist_info(site, "torchvision", "0.16.2")
    pp = os.path.join(t, "cpp")
    fake_torch(pp, "2.0.1")
    dist_info(pp, "torchvision", "0.15.2")
    env = base_env(t, os.path.join(t, "nohome"), {"PYTHONPATH": pp})
    want, doc = compare("companions", exe, env, t)
    win = [x for x in doc["torch"] if x["imported"]][0]
    check([c["version"] for c in win["companions"] if c["name"] == "torchvision"] == ["0.15.2"],
          f"torchvision of the imported torch: {win['companions']}")
    f = shadow_findings(doc, "torchvision")
    check(f and "0.15.2" in f[0]["detail"] and "0.16.2" in f[0]["detail"] and
          f[0]["detail"].index("0.15.2") < f[0]["detail"].index("0.16.2"),
          f"shadowed torchvision named: {[x['detail'] for x in f]}")


if not os.access(PY, os.X_OK) or not os.path.isfile(os.path.join(DEBIAN_TORCH, "__init__.py")):
    print("skipped: needs Debian's /usr/bin/python3 and python3-torch")
    sys.exit(0)
with tempfile.TemporaryDirectory() as t:
    t = os.path.realpath(t)
    pythonpath_shadows_venv(t)
    user_site(t)
    pth_files(t)
    editable_install(t)
    venv_system_site(t)
    namespace_loses(t)
    namespace_only(t)
    companions_on_path(t)

finish("sys.path cases")
