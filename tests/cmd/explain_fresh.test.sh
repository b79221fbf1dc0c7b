#!/usr/bin/env bash
# explain on a fresh set of real error texts (session 10), collected after the
# rules of explain_corpus.json / explain_heldout.json and labelled from each
# thread's resolution (docs/explain.md "Fresh set (session 10)"). Two halves,
# split at random with a fixed seed:
#   tests/cmd/explain_fresh_a.json -- A: may be read while working on explain;
#   tests/cmd/explain_fresh_b.json -- B: kept out of sight until it was scored at
#                                     the end of session 10; open since, and
#                                     worked on (no longer held out), so its
#                                     misses are printed too.
# A third set, C (session 11), collected the same way from threads that none of
# the other sets nor any other file cites (docs/explain.md "Set C (held out,
# session 11)"):
#   tests/cmd/explain_fresh_c.json -- C: held out until it was scored at the
#                                     end of session 11; open since, and worked
#                                     on (no longer held out), so its misses
#                                     are printed too.
# A fourth set, D (session 11), collected the same way after C was scored, from
# threads that none of A, B, C nor any other file cites (docs/explain.md "Set D
# (held out, session 11)"):
#   tests/cmd/explain_fresh_d.json -- D: held out until it was scored after C's
#                                     rules were merged; open since (docs/
#                                     explain.md "Session 11: D opened"), so
#                                     its misses are printed too.
# A fifth set, E (session 11), collected the same way while explain was being
# worked on against D, from threads that none of A, B, C, D nor any other file
# cites (docs/explain.md "Set E (held out, session 11)"):
#   tests/cmd/explain_fresh_e.json -- E: held out until it was scored after D's
#                                     rules were merged; open since (docs/
#                                     explain.md "Session 12: E opened"), so
#                                     its misses are printed too.
# A sixth set, H (session 12), collected the same way but open from the start:
# real Windows texts from threads that none of A-E, no other file and no
# held-out set cites, gathered to work on the general layer's Windows reading
# (docs/explain.md "Session 12: set H (open, Windows)"):
#   tests/cmd/explain_fresh_h.json -- H: a development set, never held out;
#                                     its misses are printed.
# A seventh set, G (session 12), macOS and Linux only, collected the same way as
# an OPEN development set for the general layer's dyld and ld.so reading
# (docs/explain.md "Session 12: set G (open, macOS/Linux)"): its misses are
# printed.
#   tests/cmd/explain_fresh_g.json -- G: open, worked on.
# An eighth set, F (session 12), in two files, collected before any of session
# 12's work on explain by two engineers who did not work on it, from threads no
# other file cites (docs/explain.md "Set F (held out, session 12)"):
#   tests/cmd/explain_fresh_f1.json -- F's Linux and macOS texts;
#   tests/cmd/explain_fresh_f2.json -- F's Windows texts: held out until they
#                                     were scored on the merge of E's, G's and
#                                     H's rules; open since, so their misses
#                                     are printed too.
# A ninth set, I (session 13), collected the same way from threads that none of
# the other sets nor any other file cites, 26 texts per platform (docs/
# explain.md "Session 13: I opened"):
#   tests/cmd/explain_fresh_i.json  -- I: held out until it was scored blind at
#                                     67/78 on main after F's work, then opened
#                                     in session 13, so its misses are printed
#                                     too.
# A tenth set, K (session 13), Windows only, collected the same way as an OPEN
# development set for the general layer's Windows reading, from threads that no
# file cites and that are not in the held-out set J (docs/explain.md "Session 13:
# set K (open, Windows)"): its misses are printed.
#   tests/cmd/explain_fresh_k.json -- K: open, worked on.
# An eleventh set, J (session 13), in two files, collected at the start of
# session 13 by two engineers who did not work on explain, from threads no
# other file cites (docs/explain.md "Set J (held out, session 13)"):
#   tests/cmd/explain_fresh_j1.json -- J's Linux and macOS texts;
#   tests/cmd/explain_fresh_j2.json -- J's Windows texts: held out until scored
#                                     blind at 86/96, 86/96 and 87/96 in
#                                     session 13, then opened (docs/explain.md
#                                     "Session 13: J opened"), so their misses
#                                     are printed too.
# A twelfth set, M (session 13), collected the same way as an OPEN development
# set for native loads by runtimes and tools other than torch (R, Julia, the
# JVM, Ruby, Rust under Nix, Node, .NET), 20 macOS, 10 Linux and 10 Windows
# texts from threads that no file cites and that are not in the held-out set L
# (docs/explain.md "Session 13: set M (open, other runtimes)"): its misses are
# printed.
#   tests/cmd/explain_fresh_m.json -- M: open, worked on.
# A thirteenth set, L (session 13), in two files, collected at the start of
# session 13 by two engineers who did not work on explain, from threads no
# other file cites (76 projects; docs/explain.md "Session 13: L opened"):
#   tests/cmd/explain_fresh_l1.json -- L's Linux and macOS texts (20 each);
#   tests/cmd/explain_fresh_l2.json -- L's Windows texts (40): held out until
#                                     scored blind at 62/80 and 63/80 in
#                                     session 13, then opened, so their misses
#                                     are printed too.
# A fourteenth, O3 (session 14), open from the start: 25 macOS and 15 Linux
# texts from threads no other file cites nor the held-out N (docs/explain.md
# "Session 14: set O3 (open, macOS/Linux)"): its misses are printed.
#   tests/cmd/explain_fresh_o3.json -- O3: open, worked on.
# A fifteenth set, O1 (session 14), collected the same way as an OPEN
# development set for the Windows reading of the Python ML and scientific stack
# (torch companions, TensorFlow, ONNX Runtime, CTranslate2, llama.cpp, OpenCV,
# Qt, GDAL, scipy/MKL, frozen apps), 40 texts from threads that no file cites
# and that are not in the held-out set N (docs/explain.md "Session 14: set O1
# (open, Windows ML stack)"): its misses are printed.
#   tests/cmd/explain_fresh_o1.json -- O1: open, worked on.
# A sixteenth, O4 (session 14), Linux only, collected the same way as an
# OPEN development set from threads no other file cites and that are not in
# the held-out set N (docs/explain.md "Session 14: set O4 (open, Linux)"):
#   tests/cmd/explain_fresh_o4.json -- O4: open, worked on.
# A seventeenth set, O2 (session 14), Windows only, collected the same way as an
# OPEN development set for native loads by programs other than the Python ML
# stack (Node addons, the JVM, .NET, Rust, Nim, Julia, R, Perl, Ruby, PHP, Qt,
# games, OBS plugins, MinGW programs), from threads that no file cites and that
# are not in the held-out sets J, L and N (docs/explain.md "Session 14: set O2
# (open, Windows programs)"): its misses are printed.
#   tests/cmd/explain_fresh_o2.json -- O2: open, worked on.
# N (session 14), held out while O1-O4 were worked on, scored blind, then
# opened (docs/explain.md "Set N (held out, session 14)"):
#   tests/cmd/explain_fresh_n1.json -- N1: 45 Windows texts;
#   tests/cmd/explain_fresh_n2.json -- N2: 25 Linux, 25 macOS.
# P (session 14), held out while N was worked on, scored blind, opened in
# session 15 (docs/explain.md "Set P"):
#   tests/cmd/explain_fresh_p1.json -- P1: 30 Windows texts;
#   tests/cmd/explain_fresh_p2.json -- P2: 15 Linux, 15 macOS.
# An OPEN development set O5 (session 15), 25 Windows texts, collected the same
# way while P1's misses were read (docs/explain.md "Session 15: P1 opened
# (Windows) and set O5"):
#   tests/cmd/explain_fresh_o5.json -- O5: open, worked on.
# O6 (session 15), open from the start: 18 macOS and 7 Linux texts from threads
# no other file cites nor the held-out Q (docs/explain.md "Session 15: P2 opened
# (Linux, macOS) and set O6"): its misses are printed.
#   tests/cmd/explain_fresh_o6.json -- O6: open, worked on.
# An OPEN development set O7 (session 15), 25 Windows texts as users paste them
# when they are not a clean traceback (docs/explain.md "Session 15: set O7
# (open, Windows as pasted)"):
#   tests/cmd/explain_fresh_o7.json -- O7: open, worked on.
# An OPEN development set O8 (session 15), 25 Linux texts beyond the ML stack
# (docs/explain.md "Session 15: set O8 (open, Linux beyond the ML stack)"):
#   tests/cmd/explain_fresh_o8.json -- O8: open, worked on.
# An OPEN development set O9 (session 15), 20 Windows texts of the ML stack and
# its neighbours (docs/explain.md "Session 15: set O9 (open, Windows ML stack)"):
#   tests/cmd/explain_fresh_o9.json -- O9: open, worked on.
# An OPEN development set O10 (session 15), 20 macOS texts as users paste them
# (docs/explain.md "Session 15: set O10 (open, macOS)"):
#   tests/cmd/explain_fresh_o10.json -- O10: open, worked on.
# Q (session 15), held out while P and O5-O10 were worked on, scored blind,
# opened in session 16 (docs/explain.md "Set Q"):
#   tests/cmd/explain_fresh_q1.json -- Q1: 30 Windows texts;
#   tests/cmd/explain_fresh_q2.json -- Q2: 15 Linux, 15 macOS.
# R (session 16), held out while Q and O11-O16 were worked on, scored blind,
# opened in session 17 (docs/explain.md "Set R"):
#   tests/cmd/explain_fresh_r1.json -- R1: 30 Windows texts;
#   tests/cmd/explain_fresh_r2.json -- R2: 15 Linux, 15 macOS.
# S (session 17), held out while R and O17-O23 were worked on, scored blind,
# opened in session 18 (docs/explain.md "Set S"):
#   tests/cmd/explain_fresh_s1.json -- S1: 30 Windows texts;
#   tests/cmd/explain_fresh_s2.json -- S2: 15 Linux, 15 macOS.
# U (session 19), held out while O27-O32 were worked on, kept compressed in
# tests/heldout/, scored blind, opened in session 20 (docs/explain.md "Set U"):
#   tests/cmd/explain_fresh_u1.json -- U1: 30 Windows texts;
#   tests/cmd/explain_fresh_u2.json -- U2: 15 Linux, 15 macOS.
# V (session 20), held out while O33-O37 were worked on, kept compressed in
# tests/heldout/, scored blind, opened in session 21 (docs/explain.md "Set V"):
#   tests/cmd/explain_fresh_v1.json -- V1: 30 Windows texts;
#   tests/cmd/explain_fresh_v2.json -- V2: 20 Linux texts;
#   tests/cmd/explain_fresh_v3.json -- V3: 20 macOS texts.
# W (session 21), held out while O38-O43 were worked on, kept compressed in
# tests/heldout/, scored blind, opened in session 22 (docs/explain.md "Set W"):
#   tests/cmd/explain_fresh_w1.json -- W1: 39 Windows texts;
#   tests/cmd/explain_fresh_w2.json -- W2: 20 Linux texts;
#   tests/cmd/explain_fresh_w3.json -- W3: 20 macOS texts.
# X (session 22), collected blind and held out while O44-O46 were worked on,
# kept compressed in tests/heldout/, scored blind, opened in session 23
# (docs/explain.md "Set X"):
#   tests/cmd/explain_fresh_x1.json -- X1: 37 Windows texts;
#   tests/cmd/explain_fresh_x2.json -- X2: 20 Linux texts;
#   tests/cmd/explain_fresh_x3.json -- X3: 20 macOS texts.
# Y (session 23), collected blind and held out while O47-O51 were worked on,
# kept compressed in tests/heldout/, scored blind, opened in session 24
# (docs/explain.md "Set Y"):
#   tests/cmd/explain_fresh_y1.json -- Y1: 40 Windows texts;
#   tests/cmd/explain_fresh_y2.json -- Y2: 20 Linux texts;
#   tests/cmd/explain_fresh_y3.json -- Y3: 20 macOS texts.
# An OPEN development set O24 (session 18), 20 Windows texts of 2023-2026 of
# the forms S1 missed: no file named, installer and launcher logs, dialogs,
# other languages, .NET, Java, Node (docs/explain.md "Session 18: S1 opened
# (Windows) and set O24"):
#   tests/cmd/explain_fresh_o24.json -- O24: open, worked on.
# A set O14 (session 16), open from the start: 25 texts as users paste them on
# forums, Q&A sites, mailing lists and vendor pages rather than issue threads
# (docs/explain.md "Session 16: set O14 (open, forum texts)"): its misses are
# printed.
#   tests/cmd/explain_fresh_o14.json -- O14: open, worked on.
# An OPEN development set O13 (session 16), 25 Windows texts from threads about
# native software beyond Python (docs/explain.md "Session 16: set O13 (open,
# Windows native software)"):
#   tests/cmd/explain_fresh_o13.json -- O13: open, worked on.
# An OPEN development set O11 (session 16), 25 Windows texts of the ML stack
# and other programs that load native code (docs/explain.md "Session 16: Q1
# opened (Windows) and set O11"):
#   tests/cmd/explain_fresh_o11.json -- O11: open, worked on.
# An OPEN development set O12 (session 16), 15 macOS and 10 Linux texts beyond
# torch (Node, Ruby, R, Java, Homebrew, pyenv, conda; containers, clusters)
# (docs/explain.md "Session 16: Q2 opened (Linux, macOS) and set O12"):
#   tests/cmd/explain_fresh_o12.json -- O12: open, worked on.
# An OPEN development set O15 (session 16), 15 Windows texts as pasted in
# other display languages (Chinese, German, Russian, French, Korean)
# (docs/explain.md "Session 16: set O15 (open, Windows in other languages)"):
#   tests/cmd/explain_fresh_o15.json -- O15: open, worked on.
# An OPEN development set O16 (session 16), 20 Windows texts from Python
# packages with native extensions outside the ML stack (GDAL, shapely, pyproj,
# h5py, lxml, pyzmq, cairocffi, pyvips, cx_Oracle, tesserocr, pycurl)
# (docs/explain.md "Session 16: set O16 (open, Windows Python extensions)"):
#   tests/cmd/explain_fresh_o16.json -- O16: open, worked on.
# An OPEN development set O18 (session 17), 20 macOS and 5 Linux texts from
# threads of 2024-2026 (Python extensions in and outside ML, Homebrew and
# MacPorts builds, R, PHP, Node, Julia, Java, Electron, Rust and C programs;
# Apple Silicon and Intel, code signing, MPS, OpenMP) (docs/explain.md
# "Session 17: R2 opened (Linux, macOS) and set O18"):
#   tests/cmd/explain_fresh_o18.json -- O18: open, worked on.
# An OPEN development set O19 (session 17), 15 Windows texts in other display
# languages (Korean, German, Spanish, French, Chinese) from Python, .NET, Node,
# Rust and Java (docs/explain.md "Session 17: set O19 (open, Windows in more
# languages)"):
#   tests/cmd/explain_fresh_o19.json -- O19: open, worked on.
# An OPEN development set O20 (session 17), 25 texts from the newest releases
# (CUDA 12.8/12.9/13, torch 2.7-2.10 wheels, Blackwell GPUs, cuDNN 9
# sub-libraries, NumPy 2's ABI, torchcodec, bitsandbytes, flash-attn, vLLM;
# 10 Linux, 10 Windows, 5 macOS) (docs/explain.md "Session 17: set O20 (open,
# newest releases)"):
#   tests/cmd/explain_fresh_o20.json -- O20: open, worked on.
# An OPEN development set O21 (session 17), 25 Linux texts from native software
# outside the ML stack (R, Julia, JNI, Ruby, Node, Go, musl/Alpine, AppImage,
# Qt, GStreamer, glibc's refusals) (docs/explain.md "Session 17: set O21
# (open, Linux native software)"):
#   tests/cmd/explain_fresh_o21.json -- O21: open, worked on.
# An OPEN development set O22 (session 17), 25 Windows texts in the poster's
# own words: issue titles, one-line reports, dialogs retold, a launcher's or a
# wrapper's line, an exit status (docs/explain.md "Session 17: set O22 (open,
# Windows texts in the poster's words)"):
#   tests/cmd/explain_fresh_o22.json -- O22: open, worked on.
# An OPEN development set O23 (session 17), 12 Linux and 8 macOS texts in the
# poster's own words: issue titles, one-line reports, a wrapper's or a
# launcher's line, ldd's "not found" lines (docs/explain.md "Session 17: set
# O23 (open, Linux and macOS texts in the poster's words)"):
#   tests/cmd/explain_fresh_o23.json -- O23: open, worked on.
# The negative set (session 17), 40 real texts that name libraries, DLLs,
# CUDA or torch but fail in no way explain has a kind for (docs/explain.md
# "Session 17: negatives (texts with no loader failure)"): a right answer is no
# finding at all; the findings explain invents for them are printed:
#   tests/cmd/explain_negatives.json -- open, worked on.
#   tests/cmd/explain_negatives_s3.json -- S's negatives, held out with S,
#                                     opened in session 18.
#   tests/cmd/explain_negatives_u3.json -- U's negatives, held out with U,
#                                     opened in session 20.
#   tests/cmd/explain_negatives_v4.json -- V's negatives, held out with V,
#                                     opened in session 21.
#   tests/cmd/explain_negatives_w4.json -- W's negatives, held out with W,
#                                     opened in session 22.
#   tests/cmd/explain_negatives_x4.json -- X's negatives, held out with X,
#                                     opened in session 23.
#   tests/cmd/explain_negatives_y4.json -- Y's negatives, held out with Y,
#                                     opened in session 24.
#   tests/cmd/explain_negatives_o41.json -- O41's 10 negatives (8 Linux, 2
#                                     macOS), open, session 21.
#   tests/cmd/explain_negatives_o55.json -- O55's 10 negatives (Windows: file
#                                     operations on a DLL or .pyd that are no
#                                     load), open, session 24.
# An OPEN development set O17 (session 17), 20 Windows texts of 2024-2026 as
# pasted, at most two per project (native apps, game mods, .NET, JNI, Electron,
# Tauri, Go, Python extensions) (docs/explain.md "Session 17: R1 opened
# (Windows) and set O17"):
#   tests/cmd/explain_fresh_o17.json -- O17: open, worked on.
# An OPEN development set O25 (session 18), 10 Linux and 10 macOS texts of
# 2023-2026 from 20 projects: loader messages inside other programs' logs
# (RetroArch, a JVM launcher, npm, a coding agent), the JVM, Node, .NET, Ruby,
# R, Julia, conda, Homebrew, GLIBC/GLIBCXX, arm64/x86_64 (docs/explain.md
# "Session 18: S2 opened (Linux, macOS), S's negatives and set O25"):
#   tests/cmd/explain_fresh_o25.json -- O25: open, worked on.
# An OPEN development set O26 (session 18), 7 Windows, 6 Linux and 7 macOS texts
# of 2023-2026 from 19 projects, each naming several files -- the module that
# failed, the dependency the loader could not find or refused, the importer, a
# tried path, the program -- labelled with the one at fault (docs/explain.md
# "Session 18: set O26 (open, texts naming several files)"):
#   tests/cmd/explain_fresh_o26.json -- O26: open, worked on.
# An OPEN development set O28 (session 19), 20 Windows texts of 2023-2026 from
# 20 projects, 12 of Python packages, each naming the file its resolution
# blames (docs/explain.md "Session 19: set O28 (open, Windows texts that name
# the file)"):
#   tests/cmd/explain_fresh_o28.json -- O28: open, worked on.
# An OPEN development set O29 (session 19), 10 Linux and 10 macOS texts of
# 2023-2026 from 18 projects, each naming the file its resolution blames --
# GLIBC/GLIBCXX in Node addons, a JDBC extension and SQLite extensions,
# vLLM's and CyLP's extensions, dyld's rpath, flat-namespace and architecture
# messages in curly quotes or inside a solver's log (docs/explain.md
# "Session 19: set O29 (open, Linux and macOS texts naming the file at fault)"):
#   tests/cmd/explain_fresh_o29.json -- O29: open, worked on.
# An OPEN development set O27 (session 19), 9 Windows, 7 macOS and 4 Linux texts
# whose error lines carry weak or no sign of the platform they were copied on
# (no .dll/.so/.dylib, no drive), the platform told by the thread, the file
# named by it (docs/explain.md "Session 19: set O27 (which platform a text is
# from)"):
#   tests/cmd/explain_fresh_o27.json -- O27: open, worked on.
# An OPEN development set O30 (session 19), 9 Linux, 6 macOS and 5 Windows texts
# of 2024-2026 from 19 projects, failures told in the words of the program or
# framework that hit them (JAX's CUDA checks and PJRT plugins, vLLM, ggml's
# Metal loader, Triton, OpenMP, MPS, the CUDA arch list) rather than a
# loader's (docs/explain.md "Session 19: set O30"):
#   tests/cmd/explain_fresh_o30.json -- O30: open, worked on.
# An OPEN development set O31 (session 19), 20 Windows texts of 2022-2026 from
# 20 projects in which a program tells a load failure in its own words
# (.NET's DllNotFoundException in Chinese and Russian, JNA, the JVM, Unity,
# Qt, OBS, Electron, Python packages' wrappers) and names the file
# (docs/explain.md "Session 19: set O31"):
#   tests/cmd/explain_fresh_o31.json -- O31: open, worked on.
# An OPEN development set O32 (session 19), 14 Linux, 4 macOS and 2 Windows
# texts of 2023-2026 from 19 projects, GPU-stack failures told by a CUDA
# library or tool (NVML, nvidia-smi, cuBLAS, cuFFT, NCCL, Numba, the CUDA
# runtime, MPS) rather than a loader (docs/explain.md "Session 19: set O32"):
#   tests/cmd/explain_fresh_o32.json -- O32: open, worked on.
# An OPEN development set O36 (session 20), 17 Windows and 3 Linux texts from
# 18 projects whose main evidence is a load failure's code in a form it was
# not read in: an exit code or status (unsigned or signed decimal, Pascal's
# "$C000007B"), an HRESULT made of a Win32 error (0x8007007E, 0x800700C1,
# 0x8007045A), an errno after a library's file (docs/explain.md "Session 20:
# set O36"):
#   tests/cmd/explain_fresh_o36.json -- O36: open, worked on.
# An OPEN development set O33 (session 20), 8 Linux, 7 macOS and 5 Windows
# texts from 20 projects in which a program or wrapper says it cannot find or
# load a library it names bare, not as a file (pyzbar, python-magic, shapely,
# sounddevice, soundfile, pyglet, PySDL2, OpenSlide, Django's GDAL, .NET's
# libgdiplus) (docs/explain.md "Session 20: set O33"):
#   tests/cmd/explain_fresh_o33.json -- O33: open, worked on.
# An OPEN development set O35 (session 20), 14 Windows, 3 Linux and 3 macOS
# texts of 2013-2026 from 20 projects (MATLAB MEX files, Godot's GDExtension
# loader, Node and NW.js addons, Qt plug-ins, Blender add-ons, JNI, R, cargo's
# failed starts, dyld and ld.so), each naming the module whose load failed
# where a reading by suffix does not look (docs/explain.md "Session 20: set
# O35"):
#   tests/cmd/explain_fresh_o35.json -- O35: open, worked on.
# An OPEN development set O34 (session 20), 4 Linux and 16 Windows texts
# from 20 threads in which the loader's message reached the user in their
# language: glibc's dlerror() translated by libc.mo (Chinese), Windows'
# system message in Polish, German, Czech, Russian, Italian and Chinese
# (docs/explain.md "Session 20: set O34"):
#   tests/cmd/explain_fresh_o34.json -- O34: open, worked on.
# An OPEN development set O37 (session 20), 25 Windows texts of 2022-2026
# from 25 projects, a program or module that would not load or start, half
# outside Python (games and mods, Unreal and Godot plugins, Qt and .NET
# programs, installers, a driver tool) and half Python packages and frozen
# programs (docs/explain.md "Session 20: set O37"):
#   tests/cmd/explain_fresh_o37.json -- O37: open, worked on.
# An OPEN development set O40 (session 21), 14 Windows, 4 Linux and 2 macOS
# texts from 20 projects, a program's or framework's own sentence that it
# could not load or start the library it depends on, naming no file
# (VapourSynth hosts, GLFW's and ncnn's Vulkan, hashcat's OpenCL, x264's
# AviSynth, Qt; docs/explain.md "Set O40"):
#   tests/cmd/explain_fresh_o40.json -- O40: open, worked on.
# An OPEN development set O42 (session 21), 20 Windows texts of 2021-2026
# from 20 projects taken as they came, half Python packages and half native
# programs (docs/explain.md "Set O42"):
#   tests/cmd/explain_fresh_o42.json -- O42: open, worked on.
# An OPEN development set O44 (session 22), 20 Windows texts from 20
# projects: the loader's message boxes as users paste or retell them -- the
# caption over them, their body retyped, misspelt, elided or in Chinese or
# Portuguese (docs/explain.md "Set O44"):
#   tests/cmd/explain_fresh_o44.json -- O44: open, worked on.
# An OPEN development set O46 (session 22), 20 Windows texts from 20 projects
# taken as they came, any load or GPU-setup failure of a program or package
# (docs/explain.md "Set O46"):
#   tests/cmd/explain_fresh_o46.json -- O46: open, worked on.
# An OPEN development set O47 (session 23), 20 Windows texts from 20 Python
# packages with a native extension or a ctypes/cffi-loaded library, taken as
# users pasted them (docs/explain.md "Set O47"):
#   tests/cmd/explain_fresh_o47.json -- O47: open, worked on.
# An OPEN development set O48 (session 23), 20 Windows texts from 20 native
# programs and non-Python runtimes (games and mods, Electron addons, Rust, Go,
# R, CUDA programs), labelled from each thread's resolution (docs/explain.md
# "Set O48"):
#   tests/cmd/explain_fresh_o48.json -- O48: open, worked on.
# An OPEN development set O49 (session 23), 12 Linux and 8 macOS texts from
# 20 projects taken as users pasted them (Python packages and native
# software: Node addons, JNI, R, Ruby, Rust, Qt, conda and CUDA programs)
# (docs/explain.md "Set O49"):
#   tests/cmd/explain_fresh_o49.json -- O49: open, worked on.
# An OPEN development set O51 (session 23), 16 Linux, 2 Windows and 2 macOS
# GPU-stack failures (docs/explain.md "Set O51"):
#   tests/cmd/explain_fresh_o51.json -- O51: open, worked on.
# An OPEN development set O55 (session 24), 8 Windows, 7 Linux and 5 macOS
# texts where the operation or the environment decides (a Python that cannot
# start for PYTHONHOME/PYTHONPATH, LD_PRELOAD, DYLD_LIBRARY_PATH, a conda
# environment not activated) (docs/explain.md "Set O55"):
#   tests/cmd/explain_fresh_o55.json -- O55: open, worked on.
# An OPEN development set O50 (session 23), 20 Windows texts whose system
# message or loader dialog is in another language (docs/explain.md "Set O50"):
#   tests/cmd/explain_fresh_o50.json -- O50: open, worked on.
# An OPEN development set O53 (session 24), 19 Linux and 1 Windows texts of
# the driver's user-space libraries and its kernel module disagreeing, or a
# driver library lacking an entry point its caller needs (docs/explain.md
# "Set O53"):
#   tests/cmd/explain_fresh_o53.json -- O53: open, worked on.
# An OPEN development set O52 (session 24), 11 Windows, 6 macOS and 3 Linux
# texts pasted through tracker markdown or retold (docs/explain.md "Set O52"):
#   tests/cmd/explain_fresh_o52.json -- O52: open, worked on.
# An OPEN development set O39 (session 21), 14 Windows, 3 Linux and 3 macOS
# texts from 20 projects: a managed binding (a .NET type, a Java class) whose
# native library failed to load, the file unnamed (docs/explain.md
# "Session 21: set O39"):
#   tests/cmd/explain_fresh_o39.json -- O39: open, worked on.
# An OPEN development set O54 (session 24), 7 Linux, 7 macOS and 6 Windows
# texts where a runtime (.NET, JNA, Java, Ruby FFI, ctypes, koffi, Mono) asks
# for a library by a logical name and the system loader looks for another
# file (docs/explain.md "Set O54"):
#   tests/cmd/explain_fresh_o54.json -- O54: open, worked on.
# An OPEN development set O38 (session 21), 20 texts (12 Windows, 4 Linux, 4
# macOS) from 20 Python packages that load their own native library with
# ctypes or cffi and failed to (docs/explain.md "Session 21: set O38"):
#   tests/cmd/explain_fresh_o38.json -- O38: open, worked on.
# An OPEN development set O41 (session 21), 15 Linux and 5 macOS texts of
# 2020-2026 from 20 projects as users pasted them (AppImages, Alpine's musl,
# HPC modules, Jetson, WSL2, containers, conda, Rust, Go, Java and Node
# programs, games), with 10 negatives (docs/explain.md "Set O41"):
#   tests/cmd/explain_fresh_o41.json -- O41: open, worked on.
# An OPEN development set O43 (session 21), 20 Windows texts from 20
# projects taken as they came, any failure to load or start a native library
# or program or a GPU setup failure, not chosen for a class (docs/explain.md
# "Set O43"):
#   tests/cmd/explain_fresh_o43.json -- O43: open, worked on.
# An OPEN development set O45 (session 22), 7 Windows, 6 Linux and 7 macOS
# texts from 20 projects: a library or package that says in its own words
# that it could not load its native library or a dependency and names no
# file (urllib3's and pip's missing ssl module, PyOpenGL's null GLUT
# function, cudarc's bare names, a ctypes call failing with an NTSTATUS)
# (docs/explain.md "Set O45"):
#   tests/cmd/explain_fresh_o45.json -- O45: open, worked on.
# Scores `explain --format json` with tests/explain_score.py, as
# explain_corpus.test.sh does: the first finding's kind must be one of the
# expected kinds and its library (or, for a symbol missing from an unnamed
# library, its needed_by) the expected file.
# Prints "N passed, N failed" per set and per platform, and the misses of A,
# B, C, D, E, F, G, H, I, J, K, L, M, O3, O1, O4, O2, N, P, O5, O6, O7, O8, O10, Q, O14, O11, O12, O15, O16, R, O18, O19, O20, O21, O22, O23, O17, S, O24-O32, U, O36, O33, O35, O34, O37, V, O40, O39, O38, O41, O43, O42, W, O45, O44, O46, X, O47, O48, O49, O51, O50, Y, O54, O53, O52 and O55. The thresholds (90% of each set explain_corpus.test.sh holds
# and of each platform in it) are explain_corpus.test.sh's; this one fails only when explain crashes
# or exits other than 0/1, when its output is not JSON or not valid against the
# report schema, or when a set file is unreadable or malformed.
# A set's texts are explained by `explain --each --format jsonl` a chunk at a
# time (tests/explain_score.py explain_many).
set -euo pipefail
exec /usr/bin/python3 - "$TD_BIN" "$TD_SRC" <<'P'
import json, os, sys
td, src = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(src, "tests"))
from explain_score import explain_many, judge_answer, judge_negative, on_users_machine, validator
check = validator(src)
FIELDS = ["url", "platform", "kind", "library", "cause", "text"]
# N (session 14) also keeps its collector's own labels, taken before the older
# sets' convention was added to kind and library, and whether the text names
# the file at all (docs/explain.md "Set N")
OPTIONAL = {"project", "strict_kind", "strict_library", "file_in_text"}
PLATFORMS = ["linux", "macos", "windows"]
EVERY = []  # (entry, answer) of every set's every text, for the users' machines' count

def score(name, show_misses):
    bad = 0
    try:
        corpus = json.load(open(os.path.join(src, "tests/cmd", name), encoding="utf-8"))
        for c in corpus:
            assert set(FIELDS) <= set(c) <= set(FIELDS) | OPTIONAL, f"fields {sorted(c)}"
            assert c["platform"] in PLATFORMS, c["platform"]
            assert isinstance(c["kind"], list) and c["kind"], "kind"
            assert isinstance(c["library"], list), "library"
    except (OSError, ValueError, AssertionError) as e:
        print(f"FAIL: {name}: malformed: {e}")
        return 1, set()
    right = {p: 0 for p in PLATFORMS}
    total = {p: 0 for p in PLATFORMS}
    misses = []
    answers = explain_many(td, [c["text"] for c in corpus])
    EVERY.extend(zip(corpus, answers))
    for i, (c, (error, ok, miss)) in enumerate(
            zip(corpus, [judge_answer(check, c, a) for c, a in zip(corpus, answers)])):
        total[c["platform"]] += 1
        if error:
            # a held-out set's failure names its entry by index only
            where = f" ({c['url']})" if show_misses else ""
            print(f"FAIL: {name} {i}{where}: {error if show_misses else error.split(':')[0]}")
            bad += 1
            continue
        right[c["platform"]] += ok
        if miss:
            misses.append(f"{miss} [{c['platform']}]")
    n, r = len(corpus), sum(right.values())
    print(f"explain {name}: {r} passed, {n - r} failed ({r / n if n else 0:.1%} of {n})")
    for p in PLATFORMS:
        print(f"explain {name} {p}: {right[p]} passed, {total[p] - right[p]} failed")
    if show_misses:
        for m in misses:
            print(m)
    return bad, {c["url"] for c in corpus}

# every set, in the order they were collected; a set of several files is one set
ORDER = [("a",), ("b",), ("c",), ("d",), ("e",), ("g",), ("h",), ("f1", "f2"), ("i",), ("k",), ("j1", "j2"),
         ("m",), ("l1", "l2"), ("o3",), ("o1",), ("o4",), ("o2",), ("n1", "n2"), ("p1", "p2"), ("o5",),
         ("o6",), ("o7",), ("o8",), ("o9",), ("o10",), ("q1", "q2"), ("o14",), ("o13",), ("o11",), ("o12",),
         ("o15",), ("o16",), ("r1", "r2"), ("o18",), ("o19",), ("o20",), ("o21",), ("o22",), ("o23",),
         ("o17",), ("s1", "s2"), ("o24",), ("o25",), ("o26",), ("o27",), ("o28",), ("o29",), ("o30",),
         ("o31",), ("o32",), ("u1", "u2"), ("o36",), ("o33",), ("o35",), ("o34",), ("o37",), ("v1", "v2",
         "v3"), ("o40",), ("o39",), ("o38",), ("o41",), ("o43",), ("o42",),
         ("w1", "w2", "w3"), ("o45",), ("o44",), ("o46",),
         ("x1", "x2", "x3"), ("o47",), ("o48",), ("o49",), ("o51",),
         ("o50",), ("y1", "y2", "y3"), ("o54",), ("o53",), ("o52",), ("o55",)]
bad, urls = 0, {}
for group in ORDER:
    for part in group:
        b, urls[part] = score(f"explain_fresh_{part}.json", True)
        bad |= b
def negatives(name):
    """The negative set: prints how many texts got no finding, per platform,
    and every finding explain gave one (a false finding)."""
    try:
        corpus = json.load(open(os.path.join(src, "tests/cmd", name), encoding="utf-8"))
        for c in corpus:
            assert set(FIELDS) <= set(c) <= set(FIELDS) | OPTIONAL, f"fields {sorted(c)}"
            assert c["platform"] in PLATFORMS, c["platform"]
            assert c["kind"] == [] and c["library"] == [], "a negative names a kind or library"
    except (OSError, ValueError, AssertionError) as e:
        print(f"FAIL: {name}: malformed: {e}")
        return 1, set()
    bad, clean, total, false = 0, {p: 0 for p in PLATFORMS}, {p: 0 for p in PLATFORMS}, []
    answers = explain_many(td, [c["text"] for c in corpus])
    for i, (c, a) in enumerate(zip(corpus, answers)):
        error, ok, miss = judge_negative(check, c, a)
        if error:
            print(f"FAIL: {name} {i} ({c['url']}): {error}")
            bad += 1
            continue
        total[c["platform"]] += 1
        clean[c["platform"]] += ok
        if miss:
            false.append(f"{miss} [{c['platform']}]")
    n = sum(total.values())
    print(f"explain {name}: {sum(clean.values())} with no finding, {n - sum(clean.values())} "
          f"false findings (of {n})")
    for p in PLATFORMS:
        print(f"explain {name} {p}: {clean[p]} with no finding, {total[p] - clean[p]} false findings")
    for m in false:
        print(m)
    return bad, {c["url"] for c in corpus}

b, urls["negatives"] = negatives("explain_negatives.json")
bad |= b
b, urls["negatives_s3"] = negatives("explain_negatives_s3.json")
bad |= b
b, urls["negatives_u3"] = negatives("explain_negatives_u3.json")
bad |= b
b, urls["negatives_v4"] = negatives("explain_negatives_v4.json")
bad |= b
b, urls["negatives_o41"] = negatives("explain_negatives_o41.json")
bad |= b
b, urls["negatives_w4"] = negatives("explain_negatives_w4.json")
bad |= b
b, urls["negatives_x4"] = negatives("explain_negatives_x4.json")
bad |= b
b, urls["negatives_y4"] = negatives("explain_negatives_y4.json")
bad |= b
b, urls["negatives_o55"] = negatives("explain_negatives_o55.json")
bad |= b
def urls_of(*names):
    return {c["url"] for name in names
            for c in json.load(open(os.path.join(src, "tests/cmd", name), encoding="utf-8"))}
older = urls_of("explain_corpus.json", "explain_heldout.json")
for u in sorted((urls["a"] & urls["b"]) | ((urls["a"] | urls["b"]) & older)):
    print(f"note: {u} is in more than one set")
# each later set against every set before it (B shares five threads with the
# family texts by design: docs/explain.md "Fresh set")
earlier = urls["a"] | urls["b"] | older | urls_of("explain_families.json")
for group in ORDER[2:]:
    mine = set().union(*(urls[part] for part in group))
    within = {u for i, a in enumerate(group) for b in group[i + 1:]
              for u in urls[a] & urls[b]}
    for u in sorted(mine & earlier | within):
        print(f"note: {u} of explain_fresh_{'/'.join(group)}.json is in another set")
    earlier |= mine
for u in sorted(urls["negatives"] & earlier):
    print(f"note: {u} of explain_negatives.json is in another set")
for u in sorted(urls["negatives_s3"] & (earlier | urls["negatives"])):
    print(f"note: {u} of explain_negatives_s3.json is in another set")
for u in sorted(urls["negatives_u3"] & (earlier | urls["negatives"] | urls["negatives_s3"])):
    print(f"note: {u} of explain_negatives_u3.json is in another set")
for u in sorted(urls["negatives_v4"] & (earlier | urls["negatives"] | urls["negatives_s3"]
                                        | urls["negatives_u3"])):
    print(f"note: {u} of explain_negatives_v4.json is in another set")
for u in sorted(urls["negatives_o41"] & (earlier | urls["negatives"] | urls["negatives_s3"]
                                         | urls["negatives_u3"] | urls["negatives_v4"])):
    print(f"note: {u} of explain_negatives_o41.json is in another set")
for u in sorted(urls["negatives_w4"] & (earlier | urls["negatives"] | urls["negatives_s3"]
                                        | urls["negatives_u3"] | urls["negatives_v4"]
                                        | urls["negatives_o41"])):
    print(f"note: {u} of explain_negatives_w4.json is in another set")
for u in sorted(urls["negatives_x4"] & (earlier | urls["negatives"] | urls["negatives_s3"]
                                        | urls["negatives_u3"] | urls["negatives_v4"]
                                        | urls["negatives_o41"] | urls["negatives_w4"])):
    print(f"note: {u} of explain_negatives_x4.json is in another set")
for u in sorted(urls["negatives_y4"] & (earlier | urls["negatives"] | urls["negatives_s3"]
                                        | urls["negatives_u3"] | urls["negatives_v4"]
                                        | urls["negatives_o41"] | urls["negatives_w4"]
                                        | urls["negatives_x4"])):
    print(f"note: {u} of explain_negatives_y4.json is in another set")
for u in sorted(urls["negatives_o55"] & (earlier | urls["negatives"] | urls["negatives_s3"]
                                         | urls["negatives_u3"] | urls["negatives_v4"]
                                         | urls["negatives_o41"] | urls["negatives_w4"]
                                         | urls["negatives_x4"] | urls["negatives_y4"])):
    print(f"note: {u} of explain_negatives_o55.json is in another set")
# Every set together, as printed above and as each user would have got it on
# their own machine: a text with no sign of its platform is read as the
# machine explain runs on (Linux here), the user's (docs/explain.md "On the
# users' machines"). Printed, not held: the floors are explain_corpus.test.sh's.
entries = [c for c, _ in EVERY]
for label, answers in (("as run here", [a for _, a in EVERY]),
                       ("on the users' machines", on_users_machine(td, entries, [a for _, a in EVERY]))):
    right, total = dict.fromkeys(PLATFORMS, 0), dict.fromkeys(PLATFORMS, 0)
    for c, a in zip(entries, answers):
        total[c["platform"]] += 1
        right[c["platform"]] += judge_answer(check, c, a)[1]
    print(f"explain every set, {label}: " +
          ", ".join(f"{p} {right[p]}/{total[p]}" for p in PLATFORMS))
sys.exit(1 if bad else 0)
P
