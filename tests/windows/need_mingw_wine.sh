# Sourced by the Wine tests of tests/windows/ that build DLLs with mingw-w64
# (not a test itself): exe, the win64 torchdoctor.exe fixture; the test is
# skipped (exit 0) without it, Wine or the mingw-w64 compiler.
exe=${TD_FIXTURES:?}/windows_exe/win64/torchdoctor.exe
[ -f "$exe" ] || { echo "skipped: no windows_exe fixture"; exit 0; }
command -v wine >/dev/null && command -v x86_64-w64-mingw32-gcc >/dev/null ||
    { echo "skipped: no wine or mingw-w64"; exit 0; }
