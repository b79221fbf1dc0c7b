#!/usr/bin/env bash
# torchdoctor.exe under Wine gives what the Linux build gives: --version;
# inspect --format json of PE, ELF and Mach-O fixtures named by Windows
# paths (Z:\...), equal but for the host platform and path spelling; a
# wheel with a stored DLL and a deflated ELF member, the same JSON as the
# Linux build's (the exe links Debian's static mingw zlib); deps on the torch layout of
# tests/fixtures/windows_torch.sh under --root (the same text, byte for
# byte but CRLF) and copied onto Wine's own C:\, analysed as the live
# system (exit 1, libomp140.x86_64.dll missing, needed by fbgemm.dll);
# explain of a Windows and a Linux error, the same JSON as the Linux build
# (the exe matches with base/ere.c, Linux with glibc's regex).
# One WINEPREFIX for the run; eight wine invocations.
set -euo pipefail
exe=${TD_FIXTURES:?}/windows_exe/win64/torchdoctor.exe
torch=$TD_FIXTURES/windows_torch/root
. "$(dirname "$0")/wine_prefix.sh"
win() { wine "$exe" "$@" | tr -d '\r'; } # the exe writes CRLF, as Windows programs do

# 1. --version
check "--version" [ "$(win --version)" == "$("$TD_BIN" --version)" ]

# 2. inspect: the same JSON but "platform", once Z:\x\y is read as /x/y.
files=("$TD_FIXTURES/pe/x64/foo.dll" "$TD_FIXTURES/pe/x86/app.exe" "$TD_FIXTURES/pe/arm/arm64.dll"
    "$TD_FIXTURES/elf/libver.so" "$TD_FIXTURES/macho/libSystem.arm64.dylib")
wfiles=()
for f in "${files[@]}"; do wfiles+=("$(winpath "$f")"); done
"$TD_BIN" inspect --format json "${files[@]}" >"$tmp/linux.json"
rc=0
win inspect --format json "${wfiles[@]}" >"$tmp/wine.json" || rc=$?
check "inspect exit status $rc" [ $rc == 0 ]
same_json() {
    /usr/bin/python3 - "$1" "$2" <<'P'
import json, sys
def load(p):
    text = open(p).read()
    d = json.loads(text.replace("Z:\\\\", "/").replace("\\\\", "/"))
    d.pop("platform")
    return d
a, b = load(sys.argv[1]), load(sys.argv[2])
if a != b:
    for x, y in zip(json.dumps(a, indent=1).splitlines(), json.dumps(b, indent=1).splitlines()):
        if x != y:
            print("linux:", x, "\nwine: ", y)
            break
sys.exit(a != b)
P
}
check "inspect JSON equal to the Linux build's" same_json "$tmp/linux.json" "$tmp/wine.json"
check "platform windows" grep -Eq '"platform": ?"windows"' "$tmp/wine.json"

# 3. A wheel with a stored and a deflated member: both read (the exe links
# Debian's static mingw zlib), the same JSON as the Linux build's.
/usr/bin/python3 - "$tmp/demo-1.0-py3-none-win_amd64.whl" "$TD_FIXTURES/pe/x64/foo.dll" \
    "$TD_FIXTURES/elf/libver.so" <<'P'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w") as z:
    z.write(sys.argv[2], "demo/foo.dll", compress_type=zipfile.ZIP_STORED)
    z.write(sys.argv[3], "demo/libver.so", compress_type=zipfile.ZIP_DEFLATED)
P
rc_linux=0 rc=0
"$TD_BIN" inspect --format json "$tmp/demo-1.0-py3-none-win_amd64.whl" >"$tmp/wheel-linux.json" ||
    rc_linux=$?
win inspect --format json "$(winpath "$tmp/demo-1.0-py3-none-win_amd64.whl")" >"$tmp/wheel.json" ||
    rc=$?
check "wheel exit status $rc, Linux $rc_linux" [ $rc == $rc_linux ]
check "wheel JSON (deflated member read) equal to the Linux build's" \
    same_json "$tmp/wheel-linux.json" "$tmp/wheel.json"
check "wheel: the deflated ELF member described" grep -q '"format": "elf"' "$tmp/wheel.json"

# 4. deps --root: the same report, line for line.
lib=$torch/venv/Lib/site-packages/torch/lib
rc_linux=0 rc=0
"$TD_BIN" deps --color never --root "$torch" --env 'PATH=C:\tools' "$lib/fbgemm.dll" \
    >"$tmp/deps-linux.txt" || rc_linux=$?
win deps --color never --root "$torch" --env 'PATH=C:\tools' "$lib/fbgemm.dll" \
    >"$tmp/deps-wine.txt" || rc=$?
check "deps --root exit status $rc, Linux $rc_linux" [ $rc == 1 -a $rc_linux == 1 ]
check "deps --root text equal to the Linux build's" diff "$tmp/deps-linux.txt" "$tmp/deps-wine.txt"

# 5. deps on Wine's live C:\ (no --root): same verdict.
cp -rL "$torch/venv" "$torch/tools" "$WINEPREFIX/drive_c/"
rc=0
win deps --format json --env 'PATH=C:\tools' 'C:\venv\Lib\site-packages\torch\lib\fbgemm.dll' \
    >"$tmp/live.json" || rc=$?
check "deps on C:\\ exit status $rc" [ $rc == 1 ]
/usr/bin/python3 - "$tmp/live.json" <<'P' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
want = [("error", "missing_library", "libomp140.x86_64.dll",
         "C:\\venv\\Lib\\site-packages\\torch\\lib\\fbgemm.dll"),
        ("warning", "found_only_via_path", "C:\\tools\\asmjit.dll",
         "C:\\venv\\Lib\\site-packages\\torch\\lib\\fbgemm.dll")]
got = sorted((f["severity"], f["kind"], f["library"], f["needed_by"]) for f in d["findings"])
ok = got == sorted(want) and d["profile"] == "torch-import"
print("ok: deps on C:\\" if ok else f"FAIL: deps on C:\\: {got}, profile {d['profile']}")
sys.exit(not ok)
P

# 5b. The live API-set schema: on Windows without --root the exe resolves
# contracts through the running system's schema, not the data table. The
# one contract where Wine 8's schema and the table disagree shows which.
cp "$TD_FIXTURES/windows_loader/apiset_live/main.exe" "$WINEPREFIX/drive_c/sfmain.exe"
win deps --format json --no-symbols 'C:\sfmain.exe' >"$tmp/apiset-live.json" || true
/usr/bin/python3 - "$tmp/apiset-live.json" <<'P' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
lib = [l for l in d["libraries"] if l["name"].lower() == "api-ms-win-shell-shellfolders-l1-1-0.dll"]
ok = lib and lib[0]["found_via"] == "API set" and (lib[0]["path"] or "").lower().endswith("\\shell32.dll")
print("ok: live API-set schema (shell32.dll, not the table's windows.storage.dll)" if ok
      else f"FAIL: live API-set schema: {lib}")
sys.exit(not ok)
P

# 6. explain: the same JSON (catalogue row, fields, findings) as the Linux build.
n=0
for text in 'OSError: [WinError 126] The specified module could not be found. Error loading "C:\Python311\Lib\site-packages\torch\lib\fbgemm.dll" or one of its dependencies.' \
    'ImportError: /venv/lib/python3.10/site-packages/torchvision/_C.so: undefined symbol: _ZN3c106detail19maybe_wrap_dim_slowEllb'; do
    n=$((n + 1))
    rc_linux=0 rc=0
    "$TD_BIN" explain --format json "$text" >"$tmp/explain-linux-$n.json" || rc_linux=$?
    win explain --format json "$text" >"$tmp/explain-wine-$n.json" || rc=$?
    check "explain $n exit status $rc, Linux $rc_linux" [ $rc == $rc_linux ]
    check "explain $n JSON equal to the Linux build's" same_json "$tmp/explain-linux-$n.json" \
        "$tmp/explain-wine-$n.json"
    check "explain $n matched a catalogue row" grep -q '"id"' "$tmp/explain-wine-$n.json"
done

# 7. A text with no sign of its platform is read as the platform explain runs
# on: the Windows build names torch's CUDA DLL, the Linux build its .so.
text='CUDA error: no kernel image is available for execution on the device'
"$TD_BIN" explain --format json "$text" >"$tmp/unsigned-linux.json" || true
win explain --format json "$text" >"$tmp/unsigned-wine.json" || true
/usr/bin/python3 - "$tmp/unsigned-linux.json" "$tmp/unsigned-wine.json" <<'P' || fail=1
import json, sys
lib = [json.load(open(f))["findings"][0].get("library") for f in sys.argv[1:]]
ok = lib == ["libtorch_cuda.so", "torch_cuda.dll"]
print(("ok" if ok else "FAIL") + f": a text without platform signs names {lib} (Linux build, Windows build)")
sys.exit(not ok)
P
exit $fail
