/* The structural reading (kb/errors_read.c): files with either slash, a
 * drive, blanks inside quotes and a shortened path; symbols Itanium, MSVC
 * and plain with their version, owner and the ABI a torch symbol betrays;
 * version tokens; codes by number, name and message; the raiser and the
 * kind that follows from its operation and code. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kb/errors.h"
#include "kb/explain/errors_internal.h"

static void explain(const char *text, struct td_explain *x)
{
    struct td_err err = {0};
    assert_int_equal(td_explain_text(text, strlen(text), x, &err), 0);
}

static const struct td_part_file *file_named(const struct td_explain_parts *p, const char *name)
{
    for (size_t i = 0; i < p->n_files; i++)
        if (strcmp(p->files[i].name, name) == 0)
            return &p->files[i];
    return NULL;
}

static const char *version_of(const struct td_explain_parts *p, const char *what)
{
    for (size_t i = 0; i < p->n_versions; i++)
        if (strcmp(p->versions[i].what, what) == 0)
            return p->versions[i].value;
    return NULL;
}

static const struct td_part_code *code_in(const struct td_explain_parts *p, const char *space)
{
    for (size_t i = 0; i < p->n_codes; i++)
        if (strcmp(p->codes[i].space, space) == 0)
            return &p->codes[i];
    return NULL;
}

static void files(void **state)
{
    (void)state;
    struct td_explain x;
    explain("OSError: [WinError 126] Error loading \"C:\\Program Files\\Py 3.11\\Lib\\site-packages"
            "\\torch\\lib\\fbgemm.dll\" or one of its dependencies.\n"
            "Unable to load any of {libcudnn_ops.so.9.1.0, libcudnn_ops.so.9}\n"
            "dlopen(/Users/a/x/_C.cpython-310-darwin.so, 0x0002) and E:/venv/lib/cublas64_12.dll",
            &x);
    const struct td_part_file *f = file_named(&x.parts, "fbgemm.dll");
    assert_non_null(f);
    assert_string_equal(f->path,
                        "C:\\Program Files\\Py 3.11\\Lib\\site-packages\\torch\\lib\\fbgemm.dll");
    assert_non_null(file_named(&x.parts, "libcudnn_ops.so.9.1.0"));
    assert_non_null(file_named(&x.parts, "libcudnn_ops.so.9"));
    assert_non_null(file_named(&x.parts, "_C.cpython-310-darwin.so"));
    f = file_named(&x.parts, "cublas64_12.dll");
    assert_non_null(f);
    assert_string_equal(f->path, "E:/venv/lib/cublas64_12.dll");
    assert_string_equal(x.parts.platform, "windows");
    assert_string_equal(version_of(&x.parts, "python"), "3.10");
    assert_string_equal(version_of(&x.parts, "cuda"), "12");
    td_explain_free(&x);
}

static void symbols(void **state)
{
    (void)state;
    struct td_explain x;
    explain("ImportError: /x/_C.abi3.so: undefined symbol: _ZN5torch3jit17parseSchemaOrNameERKSsb",
            &x);
    assert_int_equal(x.parts.n_symbols, 1);
    const struct td_part_symbol *y = &x.parts.symbols[0];
    assert_string_equal(y->scheme, "itanium");
    assert_string_equal(y->demangled, "torch::jit::parseSchemaOrName(std::string const&, bool)");
    assert_string_equal(y->owner, "libtorch_cpu");
    assert_non_null(strstr(y->torch, "<= 2.6"));
    assert_string_equal(x.load.library, "_C.abi3.so");
    assert_string_equal(x.load.defined_by, "libtorch_cpu");
    td_explain_free(&x);

    explain("undefined symbol: _ZN3c104cuda9SetDeviceEi", &x);
    assert_string_equal(x.parts.symbols[0].owner, "libc10_cuda");
    td_explain_free(&x);
    explain(
        "libcusparse.so.12: undefined symbol: __nvJitLinkAddData_12_1, version libnvJitLink.so.12",
        &x);
    assert_string_equal(x.parts.symbols[0].version, "libnvJitLink.so.12");
    assert_string_equal(x.parts.symbols[0].owner, "libnvJitLink");
    td_explain_free(&x);
    explain("The procedure entry point ?SetDevice@cuda@c10@@YAXH@Z could not be located in the "
            "dynamic link library C:\\x\\xformers\\_C.pyd",
            &x);
    assert_string_equal(x.parts.symbols[0].scheme, "msvc");
    assert_string_equal(x.parts.symbols[0].demangled, "c10::cuda::SetDevice");
    assert_string_equal(x.parts.symbols[0].owner, "libc10_cuda");
    td_explain_free(&x);
    /* a name cut short (a title, a paste): the demangler refuses it, its
     * leading scope still says whose it is */
    explain("x.so: undefined symbol: _ZNK3c1010TensorImpl36is_congituous_nond", &x);
    assert_null(x.parts.symbols[0].demangled);
    assert_string_equal(x.parts.symbols[0].owner, "libc10");
    td_explain_free(&x);
    explain("x.so: undefined symbol: _ZNKSt7_cxx1112basic_stringlcSt11char_tr", &x);
    assert_string_equal(x.parts.symbols[0].owner, "libstdc++.so.6");
    td_explain_free(&x);
    explain("x.so: undefined symbol: _ZN5Error", &x); /* one name is no scope */
    assert_null(x.parts.symbols[0].owner);
    td_explain_free(&x);
    /* the message retold without its colon: a linker's name follows */
    explain("flash_attn_2_cuda ImportError: undefined symbol _ZN3c105ErrorC2", &x);
    assert_string_equal(x.load.kind, "missing_symbol");
    assert_string_equal(x.load.symbol, "_ZN3c105ErrorC2");
    assert_string_equal(x.parts.symbols[0].owner, "libc10");
    td_explain_free(&x);
    explain("we hit an undefined symbol error when importing", &x);
    assert_null(x.load.form);
    td_explain_free(&x);
    /* review 24: the words elsewhere in a text make no ld.so of dyld's
     * message (its library was then the one the symbol was expected in) */
    explain("dyld[123]: Symbol not found: _PyFoo_Bar\n  Referenced from: /x/lib/a.so\n"
            "  Expected in: /usr/lib/libpython3.dylib\nnote: undefined symbols are resolved lazily",
            &x);
    assert_string_equal(x.load.form, "dyld");
    assert_string_equal(x.load.library, "a.so");
    td_explain_free(&x);
}

/* TEXT read as a load error of KIND naming LIBRARY, raised by RAISER
 * (NULL: any). */
static void expect_raised(const char *text, const char *raiser, const char *kind,
                          const char *library)
{
    struct td_explain x;
    explain(text, &x);
    if (raiser)
        assert_string_equal(x.parts.raiser, raiser);
    assert_string_equal(x.load.kind, kind);
    assert_string_equal(x.load.library, library);
    td_explain_free(&x);
}

/* NVML's driver/library mismatch printed by a client inside a container
 * (a Docker prompt's 12-hex hostname, a docker run or exec before it) with
 * no word of the host's runtime hook: the image's own driver libraries
 * shadow the host's; on the host, or from the runtime's hook, the kernel
 * module and the libraries differ. */
static void nvml_mismatch_inside_a_container(void **state)
{
    (void)state;
    expect_raised("root@3f9c2a1b7d4e:/workspace# nvidia-smi\n"
                  "Failed to initialize NVML: Driver/library version mismatch\n"
                  "NVML library version: 575.51",
                  "nvml-image", "shadowed_library", "libnvidia-ml.so.1");
    expect_raised("$ docker run --rm --gpus all myorg/trainer:2.1 nvidia-smi\n"
                  "Failed to initialize NVML: Driver/library version mismatch",
                  "nvml-image", "shadowed_library", "libnvidia-ml.so.1");
    /* the host itself, and the runtime's hook on the host */
    expect_raised("user@gpubox:~$ nvidia-smi\n"
                  "Failed to initialize NVML: Driver/library version mismatch\n"
                  "NVML library version: 575.51",
                  "nvml", "gpu_not_visible", "libnvidia-ml.so.1");
    expect_raised("$ docker run --rm --gpus all ubuntu nvidia-smi\n"
                  "docker: Error response from daemon: failed to create task for container: "
                  "error running hook #0: exit status 1, stdout: , stderr: nvidia-container-cli: "
                  "initialization error: nvml error: driver/library version mismatch: unknown.\n"
                  "$ nvidia-smi\nFailed to initialize NVML: Driver/library version mismatch",
                  "nvml", "gpu_not_visible", "libnvidia-ml.so.1");
    /* NVML_ERROR_FUNCTION_NOT_FOUND at init: the nvidia-smi run is newer
     * than the libnvidia-ml it loaded, an older copy found first; it says
     * more than a runtime's mismatch beside it */
    expect_raised(
        "$ nvidia-smi\nFailed to initialize NVML: Function Not Found\n"
        "$ sudo nvidia-docker run --rm nvidia/cuda nvidia-smi\n"
        "nvidia-docker | 2018/01/02 10:00:00 Error: nvml: Driver/library version mismatch",
        "nvml", "shadowed_library", "libnvidia-ml.so.1");
}

static void codes_and_raisers(void **state)
{
    (void)state;
    struct td_explain x;
    /* cuDNN's loader: the Win32 code decides the kind */
    explain("Could not load library zlibwapi.dll. Error code 193. Please verify that the library "
            "is built correctly for your processor architecture (32-bit, 64-bit)",
            &x);
    assert_string_equal(x.parts.raiser, "cudnn");
    assert_string_equal(code_in(&x.parts, "win32")->value, "193");
    assert_string_equal(x.load.kind, "wrong_architecture");
    assert_string_equal(x.load.library, "zlibwapi.dll");
    td_explain_free(&x);
    /* a CUDA error by its message, and the driver library of the platform */
    explain(
        "RuntimeError: CUDA error: CUDA driver version is insufficient for CUDA runtime version",
        &x);
    assert_string_equal(code_in(&x.parts, "cudaError")->value, "35");
    assert_string_equal(x.load.kind, "cuda_driver_too_old");
    assert_string_equal(x.load.library, "libcuda.so.1");
    td_explain_free(&x);
    /* Rust's io::Error on Windows: the paging file, no library */
    explain("OSError: The paging file is too small for this operation to complete. (os error 1455)",
            &x);
    assert_string_equal(code_in(&x.parts, "win32")->value, "1455");
    assert_string_equal(x.load.kind, "insufficient_memory");
    assert_null(x.load.library);
    td_explain_free(&x);
    /* CTranslate2 names the CUDA major it wants */
    explain("RuntimeError: Library cublas64_12.dll is not found or cannot be loaded", &x);
    assert_string_equal(x.parts.raiser, "ctranslate2");
    assert_string_equal(x.load.library, "cublas64_12.dll");
    assert_string_equal(version_of(&x.parts, "cuda"), "12");
    td_explain_free(&x);
    /* a name: CUresult */
    explain("cuInit failed: CUDA_ERROR_NO_DEVICE", &x);
    assert_string_equal(code_in(&x.parts, "CUresult")->value, "100");
    assert_string_equal(x.load.kind, "gpu_not_visible");
    td_explain_free(&x);
    /* cuFFT's internal error, by name or by number (Paddle): CUDA 11's
     * cuFFT on a GPU it does not know; none on macOS */
    expect_raised("RuntimeError: cuFFT error: CUFFT_INTERNAL_ERROR", "cufft",
                  "gpu_arch_unsupported", "libcufft.so.10");
    expect_raised("OSError: (External) CUFFT error(5). [Hint: Driver or internal cuFFT library "
                  "error] (at C:\\paddle\\phi\\kernels\\funcs\\cufft_util.h:127)",
                  NULL, "gpu_arch_unsupported", "cufft64_10.dll");
    /* ODPI-C found an Oracle Client whose version it cannot use: the one
     * first on the search path, per platform */
    expect_raised("cx_Oracle.DatabaseError: DPI-1072: the Oracle Client library version is "
                  "unsupported\nC:\\oracle\\instantclient_19_3",
                  "odpi", "shadowed_library", "oci.dll");
}

static void timestamps_and_one_wrap(void **state)
{
    (void)state;
    struct td_explain x;
    explain(
        "2025-03-14 09:26:53,589 - ERROR - Could not locate cudnn_ops64_9.dll. Please make sure "
        "it is in your library path!",
        &x);
    assert_string_equal(x.load.library, "cudnn_ops64_9.dll");
    td_explain_free(&x);
    /* one line broken once at 80 columns, inside a word */
    explain("ImportError: /usr/lib/x86_64-linux-gnu/libstdc++.so.6: version `GLIBCXX_3.4.30' \n"
            "not found (required by /x/libtorch_python.so)",
            &x);
    assert_non_null(x.load.kind);
    assert_string_equal(x.load.kind, "missing_symbol_version");
    assert_non_null(x.load.library);
    assert_string_equal(x.load.library, "libstdc++.so.6");
    td_explain_free(&x);
}

/* Explains TEXT and checks the load error's kind, library and first cause
 * (each when not NULL). */
static void expect(const char *text, const char *kind, const char *library, const char *cause)
{
    struct td_explain x;
    explain(text, &x);
    if (kind) {
        assert_non_null(x.load.kind);
        assert_string_equal(x.load.kind, kind);
    }
    if (library) {
        assert_non_null(x.load.library);
        assert_string_equal(x.load.library, library);
    }
    if (cause) {
        assert_true(x.load.n_causes > 0);
        assert_string_equal(x.load.causes[0].kind, cause);
    }
    td_explain_free(&x);
}

/* TEXT read as a load error of KIND that names no library, NEEDED_BY the
 * file that needed it. */
static void expect_needer(const char *text, const char *kind, const char *needed_by)
{
    struct td_explain x;
    explain(text, &x);
    assert_string_equal(x.load.kind, kind);
    assert_null(x.load.library);
    assert_non_null(x.load.needed_by);
    assert_string_equal(x.load.needed_by, needed_by);
    td_explain_free(&x);
}

/* TEXT read as a missing symbol: KIND, LIBRARY and SYMBOL all as given. */
static void expect_symbol(const char *text, const char *kind, const char *library,
                          const char *symbol)
{
    struct td_explain x;
    explain(text, &x);
    assert_string_equal(x.load.kind, kind);
    assert_string_equal(x.load.library, library);
    assert_string_equal(x.load.symbol, symbol);
    td_explain_free(&x);
}

/* TEXT read as KIND (NULL: as no load error) with no library named. */
static void expect_unnamed(const char *text, const char *kind)
{
    struct td_explain x;
    explain(text, &x);
    if (kind) {
        assert_non_null(x.load.kind);
        assert_string_equal(x.load.kind, kind);
    } else {
        assert_null(x.load.kind);
    }
    assert_null(x.load.library);
    td_explain_free(&x);
}

/* An undefined symbol whose message names no file: the module is the
 * traceback's last import ("import X as Y", "from P import X"). */
static void symbol_module_from_imports(void **state)
{
    (void)state;
    expect("  File \"/opt/venv/lib/python3.10/site-packages/flash_attn/flash_attn_interface.py\", "
           "line 10, in <module>\n"
           "    import flash_attn_2_cuda as flash_attn_cuda\n"
           "ImportError: undefined symbol: _ZN3c104cuda9SetDeviceEi",
           "missing_symbol", "flash_attn_2_cuda", "companion_mismatch");
    expect(
        "    from torchvision import _C\n"
        "ImportError: undefined symbol: _ZN2at4_ops10select_int4callERKNS_6TensorElN3c106SymIntE",
        "missing_symbol", "_C", NULL);
}

/* A pre-3.8 "DLL load failed:" names no module: after a dotted module a
 * list of names, or a class's capitalised name, are its attributes and the
 * module is what loads; a package's submodule ("from PyQt5 import QtCore")
 * and a lower-case name after a dotted package stay the name. With no
 * traceback the imports are the user's script, and the one DLL the text
 * names is the library. */
static void dll_load_failed_module(void **state)
{
    (void)state;
    expect("from PyQt5.QtCore import Qt, pyqtSignal\n"
           "ImportError: DLL load failed: The specified procedure could not be found.",
           "missing_symbol", "QtCore", NULL);
    expect("    from PyQt5.QtWidgets import QApplication\n"
           "ImportError: DLL load failed: The specified module could not be found.",
           "missing_library", "QtWidgets", NULL);
    expect("    from PyQt5 import QtCore\n"
           "ImportError: DLL load failed: The specified module could not be found.",
           "missing_library", "QtCore", NULL);
    expect("    from tensorflow.python import pywrap_tensorflow\n"
           "ImportError: DLL load failed: The specified module could not be found.",
           "missing_library", "pywrap_tensorflow", NULL);
    expect("from pg import DB\nfrom dotenv import load_dotenv\n"
           "DLL load failed: The specified module could not be found.\n"
           "PHP has its own version of \"libpq.dll\" earlier on my PATH.",
           "missing_library", "libpq.dll", NULL);
    /* a traceback shows which import failed: its module, not a DLL of the
     * prose */
    expect("Traceback (most recent call last):\n"
           "  File \"C:\\app\\main.py\", line 1, in <module>\n"
           "    import _pg\n"
           "ImportError: DLL load failed: The specified module could not be found.\n"
           "I copied libpq.dll next to it.",
           "missing_library", "_pg", NULL);
}

/* dyld: the file at fault is the one that needed the symbol ("Referenced
 * from"), "Expected in" the library that should define it; a symbol torch's
 * own library lacks, whatever its name, makes the requirer a companion; a
 * system library that needs it points at the copy it found instead. */
static void dyld_requirer_and_definer(void **state)
{
    (void)state;
    struct td_explain x;
    explain("ImportError: dlopen(/Users/a/env/lib/python3.9/site-packages/coremltools/"
            "libcoremlpython.so, 2): Symbol not found: _OBJC_CLASS_$_MLModelConfiguration\n"
            "  Referenced from: /Users/a/env/lib/python3.9/site-packages/coremltools/"
            "libcoremlpython.so\n"
            "  Expected in: /System/Library/Frameworks/CoreML.framework/Versions/A/CoreML\n",
            &x);
    assert_string_equal(x.load.library, "libcoremlpython.so");
    assert_string_equal(x.load.defined_by, "CoreML");
    td_explain_free(&x);
    expect("OSError: dlopen(/Users/a/v/lib/python3.11/site-packages/torchaudio/lib/"
           "_torchaudio.abi3.so, 0x0006): Symbol not found: _torch_library_impl\n"
           "  Referenced from: <98> /Users/a/v/lib/python3.11/site-packages/torchaudio/lib/"
           "_torchaudio.abi3.so\n"
           "  Expected in:     <8A> /Users/a/v/lib/python3.11/site-packages/torch/lib/"
           "libtorch_cpu.dylib\n",
           "missing_symbol", "_torchaudio.abi3.so", "companion_mismatch");
    expect("ImportError: dlopen(/usr/local/lib/python3.9/site-packages/x/_x.so, 2): Symbol not "
           "found: ___addtf3\n"
           "  Referenced from: /usr/lib/libarchive.2.dylib\n"
           "  Expected in: /opt/conda/lib/libgcc_s.1.dylib\n",
           "missing_symbol", "libgcc_s.1.dylib", NULL);
}

/* dyld's reasons decide the kind over "Library not loaded" and over a
 * catalogue row that knows only a missing library. */
static void dyld_reasons(void **state)
{
    (void)state;
    expect("ImportError: dlopen(/Users/me/v/lib/python3.11/site-packages/torch/"
           "_C.cpython-311-darwin.so, 0x0002): Library not loaded: @rpath/libtorch_cpu.dylib\n"
           "  Referenced from: <5B> /Users/me/v/lib/python3.11/site-packages/torch/"
           "_C.cpython-311-darwin.so\n"
           "  Reason: tried: '/Users/me/v/lib/python3.11/site-packages/torch/lib/"
           "libtorch_cpu.dylib' (mach-o file, but is an incompatible architecture (have 'x86_64', "
           "need 'arm64e' or 'arm64')), '/usr/lib/libtorch_cpu.dylib' (no such file)",
           "wrong_architecture", "libtorch_cpu.dylib", "wrong_architecture");
    expect("ImportError: dlopen(/Users/x/s/cv2.so, 2): Library not loaded: @rpath/"
           "libpng16.16.dylib\n  Referenced from: /Users/x/s/cv2.so\n"
           "  Reason: Incompatible library version: cv2.so requires version 54.0.0 or later, but "
           "libpng16.16.dylib provides version 38.0.0",
           "missing_symbol_version", "libpng16.16.dylib", NULL);
    expect("OSError: dlopen(/Users/x/lib/libomp.dylib, 0x0006): tried: '/Users/x/lib/libomp.dylib' "
           "(code signature in <CC> '/Users/x/lib/libomp.dylib' not valid for use in process: "
           "library load disallowed by system policy)",
           "unreadable_file", "libomp.dylib", NULL);
    expect("ImportError: dlopen(.../envs/e/lib/python3.9/site-packages/coremltools/"
           "libmodelpackage.so, 2): no suitable image found.  Did find:\n"
           "\t.../envs/e/lib/python3.9/site-packages/coremltools/libmodelpackage.so: mach-o, but "
           "wrong architecture",
           "wrong_architecture", "libmodelpackage.so", NULL);
}

/* A failed file operation on a Windows path longer than MAX_PATH, quoted in
 * Python's repr (doubled backslashes) and wrapped by an 80-column terminal. */
static void path_past_max_path(void **state)
{
    (void)state;
    struct td_explain x;
    const char *line =
        "ERROR: Could not install packages due to an OSError: [Errno 2] No such file or "
        "directory: "
        "'C:\\\\Users\\\\someone\\\\AppData\\\\Local\\\\Packages\\\\PythonSoftwareFoundation."
        "Python.3.10_qbz5n2kfra8p0\\\\LocalCache\\\\local-packages\\\\Python310\\\\site-"
        "packages\\\\"
        "torch\\\\include\\\\ATen\\\\native\\\\transformers\\\\cuda\\\\mem_eff_"
        "attention\\\\kernels\\\\"
        "cutlassB_f32_aligned_k65536_dropout_sm80_generated_kernel.cu'";
    char wrapped[1024];
    size_t o = 0;
    for (size_t i = 0; line[i] && o + 2 < sizeof wrapped; i++) {
        if (i && i % 80 == 0)
            wrapped[o++] = '\n';
        wrapped[o++] = line[i];
    }
    wrapped[o] = '\0';
    explain(wrapped, &x);
    assert_non_null(x.load.kind);
    assert_string_equal(x.load.kind, "path_too_long");
    td_explain_free(&x);
    /* the same operation on a short path is no such finding */
    explain("OSError: [Errno 2] No such file or directory: 'C:\\\\Users\\\\a\\\\x.cu'", &x);
    assert_true(!x.load.kind || strcmp(x.load.kind, "path_too_long") != 0);
    td_explain_free(&x);
}

/* The platform from a text that names no file: cmd's "pause" says Windows. */
static void platform_without_files(void **state)
{
    (void)state;
    expect("RuntimeError: The NVIDIA driver on your system is too old (found version 11070).\n"
           "Press any key to continue . . .",
           "cuda_driver_too_old", "nvcuda.dll", NULL);
}

/* The platform TEXT is read as (explain --platform GIVEN, or NULL), where
 * that came from and, when from the text, the sign that decided. */
static void expect_platform(const char *text, const char *given, const char *platform,
                            const char *from, const char *sign)
{
    struct td_explain x;
    struct td_err err = {0};
    assert_int_equal(td_explain_text_on(text, strlen(text), given, &x, &err), 0);
    assert_non_null(x.parts.platform);
    assert_string_equal(x.parts.platform, platform);
    assert_string_equal(x.parts.platform_from, from);
    if (sign) {
        assert_non_null(x.parts.platform_sign);
        assert_non_null(strstr(x.parts.platform_sign, sign));
    }
    td_explain_free(&x);
}

/* Session 19, the platform signs (data/platform_signs.tsv): every sign the
 * text carries is weighed and the heaviest decides, not the first found. */
static void platform_signs(void **state)
{
    (void)state;
    const char *bad[8];
    size_t n = td_explain_platform_bad_signs(bad, 8);
    for (size_t i = 0; i < n; i++)
        fprintf(stderr, "platform sign row that cannot be used: /%s/\n", bad[i]);
    assert_int_equal(n, 0);
    /* a macOS build log: the extension it links is a .so, but ld64's own
     * words and distutils' macosx- build tag outweigh it */
    const char *mac_link =
        "clang++ -bundle build/temp.macosx-10.9-x86_64-2.7/a.o -o build/lib/a.so -fopenmp\n"
        "ld: library not found for -lgomp\n"
        "clang: error: linker command failed with exit code 1 (use -v to see invocation)";
    expect_platform(mac_link, NULL, "macos", "text", "ld64");
    expect(mac_link, "missing_library", "libgomp.dylib", NULL);
    expect_platform("ld: library not found for -liomp5", NULL, "macos", "text", "ld64");
    expect_platform("build/lib.macosx-10.9-x86_64-2.7/x.so: error", NULL, "macos", "text",
                    "build tag");
    /* macOS folders, with a .so of a Python extension in them */
    expect_platform("File \"/Users/a/venv/lib/python3.9/site-packages/x/_x.so\"", NULL, "macos",
                    "text", "macOS folder");
    expect_platform("java.library.path: /Library/Java/Extensions:/Network/Library", NULL, "macos",
                    "text", "macOS folder");
    /* macOS's per-user temporary folder as $TMPDIR spells it, without
     * /private (a Jupyter cell's traceback), and dyld 4's flat-namespace
     * lookup, beside a Unix layout that alone would say Linux (set O49) */
    expect_platform("File /var/folders/w1/l_0t/T/ipykernel_1/1.py in <module>\n"
                    "File ~/opt/anaconda3/lib/python3.9/site-packages/p/b.py",
                    NULL, "macos", "text", "macOS folder");
    expect_platform("File \"/opt/e/lib/python3.10/site-packages/x.py\"\nImportError: "
                    "symbol not found in flat namespace '_cutest_cdh_'",
                    NULL, "macos", "text", "flat namespace");
    /* not a macOS folder: Git Bash's /c/Users/ is a Windows drive */
    expect_platform("$ /c/Users/a/venv/Scripts/python.exe x.py", NULL, "windows", "text", NULL);
    /* macOS's strsignal ("Abort trap: 6"), macOS in words */
    expect_platform("Abort trap: 6", NULL, "macos", "text", "strsignal");
    expect_platform("UnsatisfiedLinkError: no t2k in java.library.path on Mac 10.11.2", NULL,
                    "macos", "text", "words");
    /* Windows: a drive with forward slashes, Python's Windows layout either
     * way round, a Windows build's package name */
    expect_platform("File \"D:/ai/venv/x.py\", line 3", NULL, "windows", "text", "drive path");
    expect_platform("venv\\Scripts\\activate\nCUDA error: no kernel image is available", NULL,
                    "windows", "text", "Windows layout");
    expect("venv\\Scripts\\activate\nCUDA error: no kernel image is available for execution on "
           "the device",
           "gpu_arch_unsupported", "torch_cuda.dll", NULL);
    expect_platform("The given version [13] is not supported, only version 1 to 10 is supported "
                    "in this build.\nI am using: onnxruntime-win-x64-1.13.1",
                    NULL, "windows", "text", "package name");
    expect("The given version [13] is not supported, only version 1 to 10 is supported in this "
           "build.\nI am using: onnxruntime-win-x64-1.13.1",
           "shadowed_library", "onnxruntime.dll", NULL);
    /* xnu's and dyld's own words outweigh the .so they name; a path through
     * node_modules with backslashes; a macOS release by its name */
    expect_platform("'/v/qwrap.so.1.6' not valid for use in process: mapping process and mapped "
                    "file (non-platform) have different Team IDs",
                    NULL, "macos", "text", "xnu's and dyld's");
    expect_platform("arch: posix_spawnp: /usr/local/bin/x: Bad CPU type in executable", NULL,
                    "macos", "text", "xnu's and dyld's");
    expect_platform("node_modules\\usb\\build\\Release\\usb_bindings.node' was compiled "
                    "against a different Node.js version",
                    NULL, "windows", "text", "backslash");
    expect_platform("after the update to Sonoma the import fails", NULL, "macos", "text",
                    "release");
    /* Windows in a poster's lower case or misspelt; a window's size is none */
    expect_platform("I run it on gpu in windows os\nCUDA error: no kernel image is available", NULL,
                    "windows", "text", "lower case");
    expect_platform("- Window 10\nCUDA error: no kernel image is available", NULL, "windows",
                    "text", "misspelt");
    expect_platform("on windows, with CUDA 12\nCUDA error: no kernel image is available", NULL,
                    "windows", "text", "lower case");
    expect_platform("a sliding window 100 wide\nlibfoo.so: cannot open shared object file", NULL,
                    "linux", "text", NULL);
    /* WSL is Linux, though it says Windows */
    expect_platform("Ubuntu on WSL2 (Windows Subsystem for Linux)\nCUDA error: no kernel image",
                    NULL, "linux", "text", "WSL");
    /* a sign of Unix alone (Python's Unix layout) leaves Linux; a heavier
     * sign of macOS decides between the two */
    expect_platform("File \"/opt/e/lib/python3.10/site-packages/x.py\"", NULL, "linux", "text",
                    "Unix layout");
    expect_platform("File \"/opt/e/lib/python3.10/site-packages/x.py\"\nAbort trap: 6", NULL,
                    "macos", "text", "strsignal");
    /* the heaviest decides: a .dll outweighs a Linux path */
    expect_platform("/home/a/wine/x.dll: not found", NULL, "windows", "text", "DLL");
    /* no sign at all: this machine's, and the answer says so */
    expect_platform("CUDA error: no kernel image is available for execution on the device", NULL,
#if defined(_WIN32)
                    "windows",
#elif defined(__APPLE__)
                    "macos",
#else
                    "linux",
#endif
                    "host", NULL);
    /* --platform over everything, the text's signs included */
    expect_platform("CUDA error: no kernel image is available for execution on the device",
                    "windows", "windows", "option", NULL);
    expect_platform("OSError: libfoo.so: cannot open shared object file", "macos", "macos",
                    "option", NULL);
    struct td_explain x;
    struct td_err err = {0};
    const char *arch = "CUDA error: no kernel image is available for execution on the device";
    assert_int_equal(td_explain_text_on(arch, strlen(arch), "windows", &x, &err), 0);
    assert_string_equal(x.load.library, "torch_cuda.dll");
    td_explain_free(&x);
    assert_int_equal(td_explain_text_on(arch, strlen(arch), "linux", &x, &err), 0);
    assert_string_equal(x.load.library, "libtorch_cuda.so");
    td_explain_free(&x);
}

/* A copy that kept the blank where the window broke a line, sometimes with
 * an empty line after it; Python's repr of a message list ("\n  Referenced
 * from:") read as its lines. */
static void soft_wraps_and_repr_newlines(void **state)
{
    (void)state;
    expect("ImportError: /usr/lib/x86_64-linux-gnu/libstdc++.so.6: version `GLIBCXX_3.4.30' \n"
           "not found (required by /opt/e/lib/python3.11/site-packages/torch/lib/"
           "libtorch_cpu.so)",
           "missing_symbol_version", "libstdc++.so.6", NULL);
    expect(
        "OSError: dlopen(/Users/a/e/lib/python3.11/site-packages/ext/_x.so, 0x0006): tried: "
        "'/Users/a/e/lib/python3.11/site-packages/ext/_x.so' (mach-o file, but is an "
        "incompatible   \n\narchitecture (have 'x86_64', need 'arm64')), '/usr/lib/_x.so' (no   \n"
        "\nsuch file)",
        "wrong_architecture", "_x.so", NULL);
    expect("FooError: Foo library could not be loaded.\nError message(s): ['dlopen(/Users/r/e/lib/"
           "libfoo.dylib, 6): Library not loaded: /opt/homebrew/opt/libomp/lib/libomp.dylib\\n  "
           "Referenced from: /Users/r/e/lib/libfoo.dylib\\n  Reason: image not found']",
           "missing_library", "libomp.dylib", NULL);
    /* the same break with every line behind a log timestamp, the empty one too */
    expect("2025-03-14 09:26:53,589 - ERROR - OSError: dlopen(/Users/a/e/lib/python3.11/"
           "site-packages/ext/_x.so, 0x0006): tried: '/Users/a/e/lib/python3.11/site-packages/"
           "ext/_x.so' (mach-o file, but is an incompatible   \n"
           "2025-03-14 09:26:53,589 - ERROR - \n"
           "2025-03-14 09:26:53,589 - ERROR - architecture (have 'x86_64', need 'arm64'))",
           "wrong_architecture", "_x.so", NULL);
}

/* Python packages that load their native libraries themselves, each in the
 * format its source prints; the code in cffi's message decides the kind. */
static void package_loaders(void **state)
{
    (void)state;
    expect("FileNotFoundError: Could not find: nvinfer_plugin_10.dll. Is it on your PATH?",
           "missing_library", "nvinfer_plugin_10.dll", NULL);
    expect("OSError: ctypes.util.find_library() did not manage to locate a library called "
           "'portaudio'",
           "missing_library", "portaudio", NULL);
    expect("OSError: cannot load library 'C:\\tools\\libfoo.dll': error 0xc1", "wrong_architecture",
           "libfoo.dll", NULL);
    expect("OSError: cannot load library 'C:\\tools\\libfoo.dll': error 0x7e", "missing_library",
           "libfoo.dll", NULL);
    /* a wrapper's list of every name it tried (cairocffi): the other
     * platforms' names fail with 0x7e on Windows whatever is wrong, so the
     * DLL's own code decides, and the DLL is the file, not the bare name */
    expect("OSError: no library called \"foo-2\" was found\n"
           "cannot load library 'libfoo.so.2': error 0x7e\n"
           "cannot load library 'libfoo.2.dylib': error 0x7e\n"
           "cannot load library 'libfoo-2.dll': error 0xc1",
           "wrong_architecture", "libfoo-2.dll", NULL);
    /* ODPI-C's DPI-1047: the file it names, else Windows' oci.dll */
    expect("DPI-1047: Cannot locate a 64-bit Oracle Client library: \"C:\\ora\\oci.dll is not "
           "the correct architecture\"",
           "wrong_architecture", "oci.dll", NULL);
    expect("DPI-1047: Cannot locate a 32-bit Oracle Client library: \"The specified module could "
           "not be found\"",
           "missing_library", "oci.dll", NULL);
    expect("FooError: Foo Library (libfoo.so) could not be loaded.", "missing_library", "libfoo.so",
           NULL);
    expect("  File \"/home/u/e/site-packages/numba/cuda/cudadrv/libs.py\", line 60\n"
           "OSError: library cudadevrt not found",
           "missing_library", "libcudadevrt.so", NULL);
    expect(">>> torch.backends.mps.is_available()\nFalse", "gpu_not_visible", "MPS", NULL);
    /* the name before "library not found" (python-soundfile's format), made a file */
    expect("    raise OSError('sndfile library not found')\nOSError: sndfile library not found",
           "missing_library", "libsndfile.so", NULL);
    /* NVIDIA's CUDA driver on a Mac is libcuda.dylib; only MPS's rows name MPS */
    expect("Error: CUDA driver version is insufficient for CUDA runtime version\n"
           "I use CUDA 10.1 under macOS 10.13.6",
           "cuda_driver_too_old", "libcuda.dylib", NULL);
    /* a Python extension missing a third library's symbol (a C name, a C++
     * namespace that is not torch's) was linked wrongly, not for another torch;
     * Python's own C API says another Python (python_abi_mismatch), whatever
     * package the module belongs to */
    expect("ImportError: dlopen(/Users/u/e/site-packages/foo/_foo.cpython-311-darwin.so, 0x0002): "
           "symbol not found in flat namespace '_bar_open'",
           "missing_symbol", "_foo.cpython-311-darwin.so", "missing_symbol");
    expect("ImportError: /home/u/e/site-packages/foo/_foo.cpython-311-x86_64-linux-gnu.so: "
           "undefined symbol: _ZN3bar6Reader4readEv",
           "missing_symbol", "_foo.cpython-311-x86_64-linux-gnu.so", "missing_symbol");
    expect("ImportError: dlopen(/Users/u/e/site-packages/foo/_foo.cpython-311-darwin.so, 0x0002): "
           "symbol not found in flat namespace '_PyUnicode_AsUTF8'",
           "missing_symbol", "_foo.cpython-311-darwin.so", "python_abi_mismatch");
    /* torch's C entry point (the same name in every torch): torch not loaded
     * yet; a torch template on long under dyld: the module's own source */
    expect("ImportError: /home/u/proj/box_cuda.so: undefined symbol: THPVariableClass",
           "missing_symbol", "box_cuda.so", "missing_symbol");
    expect("ImportError: dlopen(/Users/u/p/ext.cpython-38-darwin.so, 0x0002): symbol not found "
           "in flat namespace (__ZNK2at10TensorBase8data_ptrIlEEPT_v)",
           "missing_symbol", "ext.cpython-38-darwin.so", "missing_symbol");
    /* ldd's trace of a file whose need the loader cannot find */
    expect("$ ldd _ext.cpython-311-x86_64-linux-gnu.so\n"
           "        linux-vdso.so.1 (0x00007ffd5a1f2000)\n"
           "        libfoo.so.3 => not found\n"
           "        libc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f0e1c200000)",
           "missing_library", "libfoo.so.3", NULL);
    struct td_explain x;
    explain("OSError: cannot load library 'libbar.dll': error 0x7e", &x);
    const struct td_part_code *c = code_in(&x.parts, "win32");
    assert_non_null(c);
    assert_string_equal(c->value, "126");
    td_explain_free(&x);
    explain("FileNotFoundError: Could not find module 'C:\\e\\Lib\\site-packages\\pkg\\lib\\x.pyd' "
            "(or one of its dependencies). Try using the full path with constructor syntax.",
            &x);
    c = code_in(&x.parts, "win32");
    assert_non_null(c);
    assert_string_equal(c->value, "126");
    td_explain_free(&x);
}

/* A loader form that read no file gives way to the raiser ("error loading
 * module" is Lua's, not torch's "Error loading"). */
static void empty_form_gives_way(void **state)
{
    (void)state;
    expect("/home/u/torch/install/bin/luajit: error loading module 'cunn' from file "
           "'/home/u/torch/install/lib/lua/5.1/cunn.lua'\n"
           "THCudaCheck FAIL file=/home/u/THC/THCGeneral.c line=70 error=35 : CUDA driver version "
           "is insufficient for CUDA runtime version",
           "cuda_driver_too_old", "libcuda.so.1", NULL);
}

/* Which undefined symbol says another torch: one of torch's namespaces in a
 * wheel's extension does; in an extension setup.py built here (an .egg) the
 * torch libraries not loaded yet come first; a C++ runtime symbol (std::)
 * never does. A companion's missing DLL is a missing library first. */
static void symbol_roles(void **state)
{
    (void)state;
    const char *sym = ": undefined symbol: _ZN3c106detail14torchCheckFailEPKcS2_jRKSs";
    char text[512];
    snprintf(text, sizeof text,
             "ImportError: /home/u/e/lib/python3.10/site-packages/foo/_C.cpython-310-x86_64-linux-"
             "gnu.so%s",
             sym);
    expect(text, "missing_symbol", "_C.cpython-310-x86_64-linux-gnu.so", "companion_mismatch");
    snprintf(text, sizeof text,
             "ImportError: /home/u/e/lib/python3.10/site-packages/foo-0.1-py3.10-linux-x86_64.egg/"
             "foo/_C.cpython-310-x86_64-linux-gnu.so%s",
             sym);
    expect(text, "missing_symbol", "_C.cpython-310-x86_64-linux-gnu.so", "missing_symbol");
    expect("ImportError: /home/u/e/lib/python3.10/site-packages/bar/_ext.cpython-310-x86_64-linux-"
           "gnu.so: undefined symbol: _ZNSt15__exception_ptr13exception_ptr10_M_releaseEv",
           "missing_symbol", "_ext.cpython-310-x86_64-linux-gnu.so", "missing_symbol");
    expect("FileNotFoundError: Could not find module 'C:\\e\\Lib\\site-packages\\torchaudio\\lib\\"
           "libtorchaudio.pyd' (or one of its dependencies). Try using the full path with "
           "constructor syntax.",
           "missing_library", "libtorchaudio.pyd", "missing_library");
    /* the English message retyped in the present tense is still 127 */
    expect("  File \"D:\\e\\site-packages\\pkg\\__init__.py\", line 3, in <module>\n"
           "    from . import _C\n"
           "ImportError: DLL load failed while importing _C: The specified procedure cannot be "
           "found.",
           "missing_symbol", "_C.pyd", NULL);
    /* a CJK message retyped with one character left out is still its code:
     * 127 without its 定, 1114 without its 程 */
    expect("ImportError:DLL load failed while importing _C: 找不到指的程序.", "missing_symbol",
           "_C.pyd", NULL);
    expect("ImportError: DLL load failed while importing _ext: 动态链接库(DLL)初始化例失败。",
           "init_failure", "_ext.pyd", NULL);
    /* the Chinese entry-point dialog retyped without the DLL it names */
    expect("无法定位程序输入点GetFooSymbol于动态链接库", "missing_symbol", NULL, NULL);
}

/* Session 13 (set K, Windows): each rule about a message's structure that
 * K's misses showed, on composed texts of its shape. */
/* Session 13, set M: native loads of other runtimes on macOS (a JVM, Ruby) --
 * dyld's reasons for a fat file without the process's slice, a path a
 * word-wrapper broke after a hyphen, a message carried in a search link. */
static void macos_loaders_of_other_runtimes(void **state)
{
    (void)state;
    expect("java.lang.UnsatisfiedLinkError: /Users/me/app/Natives/libgl.dylib: "
           "dlopen(/Users/me/app/Natives/libgl.dylib, 0x0001): tried: "
           "'/Users/me/app/Natives/libgl.dylib' (fat file, but missing compatible architecture "
           "(have 'x86_64', need 'arm64e' or 'arm64'))",
           "wrong_architecture", "libgl.dylib", NULL);
    expect("LoadError (dlopen(/Library/Ruby/Gems/2.6.0/gems/foo-1.4.2/lib/foo/foo.bundle, "
           "0x0009): missing compatible arch in "
           "/Library/Ruby/Gems/2.6.0/gems/foo-1.4.2/lib/foo/foo.bundle)",
           "wrong_architecture", "foo.bundle", NULL);
    expect(
        "`require_relative': dlopen(/Users/me/.gem/ruby/gems/foo-\n1.2.3/lib/foo/foo_ext.bundle, "
        "0x0009): tried: '/Users/me/.gem/ruby/gems/foo-\n1.2.3/lib/foo/foo_ext.bundle' (mach-o "
        "file, but is an incompatible architecture (have 'x86_64', need 'arm64e'))",
        "wrong_architecture", "foo_ext.bundle", NULL);
    expect("Search for existing GitHub issues similar to yours:\n"
           "https://github.com/x/y/search?q=dlopen%28%2FLibrary%2FRuby%2Fgems%2Fffi_c.bundle%2C+"
           "0x0009%29%3A+tried%3A+%27%2FLibrary%2FRuby%2Fgems%2Fffi_c.bundle%27+%28mach-o+file%2C+"
           "but+is+an+incompatible+architecture+%28have+%27x86_64%27%2C+need+%27arm64%27%29%29"
           "&type=Issues",
           "wrong_architecture", "ffi_c.bundle", NULL);
    /* a Mach-O bundle is a library file, named alone on a line too (the end
     * of a path a wrapper broke); a bundle folder is not */
    expect("1.13.8-x86_64-darwin/lib/nokogiri/3.1/nokogiri.bundle' (mach-o file, but is an "
           "incompatible architecture (have 'x86_64', need 'arm64')) (LoadError)",
           "wrong_architecture", "nokogiri.bundle", NULL);
    expect("java.lang.UnsatisfiedLinkError: /opt/app/lib/libjawt_x.jnilib: dlopen(/opt/app/lib/"
           "libjawt_x.jnilib, 1): no suitable image found.  Did find:\n\t/opt/app/lib/"
           "libjawt_x.jnilib: mach-o, but wrong architecture",
           "wrong_architecture", "libjawt_x.jnilib", NULL);
    /* a line that ends in a folder without a hyphen is not a broken path, and
     * a Windows message's "%1" is no encoded URL */
    expect("ImportError: /opt/app/lib\nfoo/libbar.so: cannot open shared object file: No such file "
           "or directory",
           "missing_library", "libbar.so", NULL);
    expect("OSError: [WinError 193] %1 is not a valid Win32 application: 'C:\\a\\b%2Fc%28d.dll'",
           "wrong_architecture", NULL, NULL);
}

/* Set O1's readings (docs/explain.md "Set O1"): TensorFlow's self-check names
 * its DLLs after "the DLL(s)", Nim's dynlib loader prints its pattern of
 * names, the entry-point dialog in French (broken after "procédure"), and an
 * illegal instruction in the frames of a package that loads its own native
 * library with ctypes is that library's. */
static void o1_opened(void **state)
{
    (void)state;
    expect("ImportError: Could not find the DLL(s) 'vcruntime140_1.dll'. TensorFlow requires that "
           "these DLLs be installed in a directory that is named in your %PATH% environment "
           "variable.",
           "missing_library", "vcruntime140_1.dll", NULL);
    expect("could not load: (libssl-1_1-x64|ssleay64|libssl64).dll", "missing_library",
           "libssl-1_1-x64.dll", NULL);
    /* the name already carries its prefix: not "liblibssl.dylib" */
    expect("dyld: could not load: (libssl|libssl.1.1).dylib", "missing_library", "libssl.dylib",
           NULL);
    expect("\"Le point d'entrée de procédure\ncublasLtCreate est introuvable dans la "
           "bibliothèque de liens dynamiques C:\\app\\cublasLt64_12.dll.\"",
           "missing_symbol", "cublasLt64_12.dll", NULL);
    expect("  File \"C:\\env\\lib\\site-packages\\llama_cpp\\llama.py\", line 338, in __init__\n"
           "    self._model = _LlamaModel(\nOSError: [WinError -1073741795] Windows Error "
           "0xc000001d",
           "cpu_feature_missing", "llama.dll", NULL);
    /* a dialog's sentence in a language no table has names one DLL, under
     * the message box's caption or inside its Ctrl+C rules: the missing-DLL
     * dialog, or the entry-point dialog when it names a function too; a file
     * inside a list, a path or a log line is no such sentence, nor a
     * sentence with no message box around it */
    expect("python.exe - Systemfehler\nDie Ausführung des Codes kann nicht fortgesetzt werden, "
           "da MSVCP140.dll nicht gefunden wurde.",
           "missing_library", "MSVCP140.dll", NULL);
    expect("---------------------------\nEl punto de entrada de procedimiento cudnnCreate no se "
           "pudo localizar en la biblioteca de vínculos dinámicos cudnn64_8.dll.\n"
           "---------------------------",
           "missing_symbol", "cudnn64_8.dll", NULL);
    struct td_explain x;
    explain("SDL2.dll, SDL2_image.dll, libpng16-16.dll and zlib1.dll are all in the game folder.",
            &x);
    assert_null(x.load.kind);
    td_explain_free(&x);
    /* an import shown still names the module, as before */
    expect(">>> import xgboost\nIllegal instruction (core dumped)", "cpu_feature_missing",
           "xgboost", NULL);
}

/* Session 14, set O2: loads by programs of other languages on Windows (Nim,
 * Qt, OBS, Node, games' dialogs) -- a Nim library pattern, Qt's platform
 * plugin, a code after the system message, ERROR_PROC_NOT_FOUND over the
 * module's path, retyped dialogs and codes, a console's code page. */
static void windows_loaders_of_other_programs(void **state)
{
    (void)state;
    /* Nim's "(a|b)" alternatives: the first name it tried */
    expect("could not load: (libcrypto-3-x64|libcrypto-1_1-x64).dll", "missing_library",
           "libcrypto-3-x64.dll", NULL);
    expect("could not load: pcre(64|).dll", "missing_library", "pcre64.dll", NULL);
    /* Qt's platform plugin "X" is the file qX.dll / libqX.so, its name
     * telling the platform */
    expect("qt.qpa.plugin: Could not load the Qt platform plugin \"windows\" in \"\" even though "
           "it was found.",
           "missing_library", "qwindows.dll", NULL);
    expect("qt.qpa.plugin: Could not find the Qt platform plugin \"wayland\" in \"\"",
           "missing_library", "libqwayland.so", NULL);
    /* Qt's plugin-version check (qlibrary.cpp, updatePluginState): a plugin
     * of another Qt found first -- the platform plugin the text names after
     * it, else the plugin file of either format */
    expect("qt.core.plugin.loader: In D:/anaconda/Library/plugins/platforms/qminimal.dll:\n"
           "  Plugin uses incompatible Qt library (5.15.0) [release]\n"
           "qt.core.plugin.loader: In D:/anaconda/Library/plugins/platforms/qwindows.dll:\n"
           "  Plugin uses incompatible Qt library (5.15.0) [release]\n"
           "qt.qpa.plugin: Could not find the Qt platform plugin \"windows\" in \"\"\n"
           "This application failed to start because no Qt platform plugin could be initialized.",
           "companion_mismatch", "qwindows.dll", NULL);
    expect("In /opt/qt5/plugins/platforms/libqeglfs.so:\n"
           "  Plugin uses incompatible Qt library (5.5.1) [release]",
           "companion_mismatch", "libqeglfs.so", NULL);
    expect("\"The plugin '/opt/qt5/plugins/imageformats/libqjpeg.so' uses incompatible Qt "
           "library. (5.5.1) [release]\"",
           "companion_mismatch", "libqjpeg.so", NULL);
    /* the loader's dialogs retyped: a misspelt verb (and extension: no
     * other reading knows a .dill), a misspelt tail */
    expect("the code execution cannot procced because vulkan-1.dill was not found",
           "missing_library", "vulkan-1.dill", NULL);
    expect("llama-server.exe reporting an error \"...libomp.dll is either not designed to run "
           "on Windows or ti contains as error....\"",
           "not_a_library", "libomp.dll", NULL);
    /* OBS's log puts LoadLibrary's code after the system message */
    expect("LoadLibrary failed for '../../obs-plugins/64bit/x.dll': (null) (193)\n"
           "Module '../../obs-plugins/64bit/x.dll' not loaded",
           "wrong_architecture", "x.dll", NULL);
    /* ERROR_PROC_NOT_FOUND over one module's path: that module needs the symbol */
    struct td_explain x;
    explain("Error: The specified procedure could not be found.\n\\\\?\\C:\\a\\build\\Release\\"
            "y.node",
            &x);
    assert_string_equal(x.load.kind, "missing_symbol");
    assert_non_null(x.load.needed_by);
    assert_string_equal(td_explain_base_name(x.load.needed_by), "y.node");
    td_explain_free(&x);
    /* the ordinal and entry-point dialogs retyped: "not found in", no DLL, in French */
    expect("The ordinal 12 not found in dynamic link library z.dll.", "missing_ordinal", "z.dll",
           NULL);
    expect("\"Ordinal number 7 could not be located in the dynamic link library.\"",
           "missing_ordinal", NULL, NULL);
    expect("Le point d'entrée de procédure foo est introuvable dans la bibliothèque de liens "
           "dynamiques w.dll.",
           "missing_symbol", "w.dll", NULL);
    /* an NTSTATUS with its zeros miscounted is still the status */
    expect("The application was unable to start correctly (0xc00007b).", "wrong_architecture", NULL,
           NULL);
    expect("error 0xc000135 when I start it", "missing_library", NULL, NULL);
    /* UTF-8 shown by a console in code page 850: the message again */
    expect("126: No se puede encontrar el m\xe2\x94\x9c\xe2\x94\x82"
           "dulo especificado.   - "
           "C:/r/lib/q.so (LoadError)",
           "missing_library", "q.so", NULL);
    /* box drawing is no such text */
    explain("\xe2\x94\x9c\xe2\x94\x80\xe2\x94\x80 lib\n\xe2\x94\x82   \xe2\x94\x94\xe2\x94\x80 "
            "v.dll was not found",
            &x);
    assert_non_null(strstr(x.text, "\xe2\x94\x9c\xe2\x94\x80"));
    td_explain_free(&x);
    expect("The program can't start because u.dll does not exist.", "missing_library", "u.dll",
           NULL);
    /* one file named twice, its path spelled two ways, is still the one file */
    expect("Error: The specified module could not be found.\n//?/C:/x/b/a.node\n"
           "I checked, C:/x/b/a.node is there.",
           "missing_library", "a.node", NULL);
    /* a program that could not start and names no DLL: no library, and the
     * program is what `torchdoctor deps` reads */
    explain("     Running `target\\debug\\app.exe`\nerror: process didn't exit successfully: "
            "`target\\debug\\app.exe` (exit code: 0xc0000135, STATUS_DLL_NOT_FOUND)",
            &x);
    assert_string_equal(x.load.kind, "missing_library");
    assert_null(x.load.library);
    assert_string_equal(x.load.causes[0].confirm, "torchdoctor deps \"target\\debug\\app.exe\"");
    td_explain_free(&x);
    /* Julia's launcher loads libjulia's dependencies itself */
    expect("ERROR: Unable to load dependent library /opt/julia/bin/../lib/julia/libgcc_s.so.1\n"
           "Message:libgcc_s.so.1: cannot open shared object file: No such file or directory",
           "missing_library", "libgcc_s.so.1", NULL);
}

static void windows_loaders_of_other_languages(void **state)
{
    (void)state;
    /* the JVM checks a DLL's machine before loading it, both ways round */
    expect("Exception in thread \"main\" java.lang.UnsatisfiedLinkError: C:\\app\\lib\\jni.dll: "
           "Can't load IA 32-bit .dll on a AMD 64-bit platform",
           "wrong_architecture", "jni.dll", NULL);
    expect("java.lang.UnsatisfiedLinkError: C:\\app\\lib\\jni.dll: Can't load AMD 64-bit .dll "
           "on a IA 32-bit platform",
           "wrong_architecture", "jni.dll", NULL);
    /* Julia's dlopen and WinDbg's .load name a bare library: the platform's file */
    expect(
        "julia> init(backend)\nERROR: could not load module libfoo\n: The specified module could "
        "not be found.",
        "missing_library", "libfoo.dll", NULL);
    expect("ERROR: could not load library \"libfoo\"\nThe specified module could not be found.",
           "missing_library", "libfoo.dll", NULL);
    expect("0:000> .load ext\nThe call to LoadLibrary(ext) failed, Win32 error 0n127\n    \"The "
           "specified procedure could not be found.\"",
           "missing_symbol", "ext.dll", NULL);
    /* a loader's "?" for a name it could not tell is no file: the one DLL
     * the text names is */
    expect("I put foo.dll next to the program.\nerror: process didn't exit successfully: "
           "`target\\debug\\app.exe` (exit code: 0xc0000135, STATUS_DLL_NOT_FOUND)\n"
           "cargo.exe: error while loading shared libraries: ?: cannot open shared object file: "
           "No such file or directory",
           "missing_library", "foo.dll", NULL);
    /* .NET's BadImageFormatException: Win32 11 (ERROR_BAD_FORMAT) */
    expect("System.BadImageFormatException: An attempt was made to load a program with an "
           "incorrect format. (0x8007000B)\n   at Native.Create()\nfoo.dll in the output folder "
           "is 0 KB.",
           "wrong_architecture", "foo.dll", NULL);
    /* a Py-named entry point a dialog looked for in a DLL that is not
     * Python's is that DLL's own, not Python's C API */
    expect(
        "The procedure entry point PyWinObject_AsWriteBuffer could not be located in the dynamic "
        "link library C:\\Windows\\SYSTEM32\\pythoncom39.dll.",
        "missing_symbol", "pythoncom39.dll", "missing_symbol");
    expect("The procedure entry point PyUnicode_AsUTF8 could not be located in the dynamic link "
           "library C:\\env\\Lib\\site-packages\\foo\\_foo.pyd.",
           "missing_symbol", "_foo.pyd", "python_abi_mismatch");
    /* a dialog pasted into a markdown quote, its names in backticks */
    expect("> python.exe — Det går inte att hitta procedurstartadressen\n"
           "> `?foo@@YAXXZ` i DLL-filen\n> `D:\\e\\Lib\\site-packages\\bar\\bar_core.dll`",
           "missing_symbol", "bar_core.dll", NULL);
}

/* Session 12 (E opened): each rule about a message's structure that E's
 * misses showed, on composed texts of its shape. */
static void words_of_a_failed_load(void **state)
{
    (void)state;
    /* the window's break carried its blank to the start of the next line */
    struct td_explain x;
    explain("ImportError: /opt/venv/lib/python3.11/site-packages/ext/_ext.so: undefined\n"
            " symbol: _ZN3c106detail14torchCheckFailEPKcS2_jRKSs",
            &x);
    assert_non_null(x.load.kind);
    assert_string_equal(x.load.kind, "missing_symbol");
    assert_non_null(x.load.library); /* the companion that needs it */
    assert_string_equal(x.load.library, "_ext.so");
    td_explain_free(&x);
    /* a traceback's indentation is not such a break */
    explain("  File \"/opt/venv/lib/python3.11/site-packages/ext/__init__.py\", line 3\n"
            "    from ._ext import *\n"
            "ImportError: libcudart.so.12: cannot open shared object file: No such file",
            &x);
    assert_string_equal(x.load.library, "libcudart.so.12");
    td_explain_free(&x);
    /* any failure verb of a search or a load, a path before the file */
    expect("error: can not find libcudart.so.12", "missing_library", "libcudart.so.12", NULL);
    expect("Exception: Unable to load /usr/local/opt/libomp/lib/libomp.dylib", "missing_library",
           "libomp.dylib", NULL);
    expect("'Could not load \"nvrtc64_120_0.dll\":", "missing_library", "nvrtc64_120_0.dll", NULL);
    expect("failed to open [C:\\Program Files\\App\\bin\\libfoo.dll]", "missing_library",
           "libfoo.dll", NULL);
    /* LoadLibrary's failure as a program reports it */
    expect("System.DllNotFoundException: LoadLibrary failed for: [onnxruntime.dll]",
           "missing_library", "onnxruntime.dll", NULL);
    expect("LoadLibraryExW() failed on \"C:\\x\\y\\cudnn_ops64_9.dll\"", "missing_library",
           "cudnn_ops64_9.dll", NULL);
    /* said to be missing in words, or named alone on a line */
    expect("When I start it cudnn_ops_infer64_8.dll is missing", "missing_library",
           "cudnn_ops_infer64_8.dll", NULL);
    expect("[ERROR] Missing DLL: cublas64_12.dll", "missing_library", "cublas64_12.dll", NULL);
    expect("cudart64_12.dll\n\nThe app closes right after it starts.", "missing_library",
           "cudart64_12.dll", NULL);
    /* the missing-DLL dialog in a language no table has: the DLL is the
     * only word in Latin letters on its line */
    expect("VCRUNTIME140_1.dll \xe3\x81\x8c\xe8\xa6\x8b\xe3\x81\xa4\xe3\x81\x8b\xe3\x82\x89"
           "\xe3\x81\xaa\xe3\x81\x84\xe3\x81\x9f\xe3\x82\x81\xe3\x80\x82",
           "missing_library", "VCRUNTIME140_1.dll", NULL);
    /* a file named inside a sentence is not a missing one */
    explain("I copied cudart64_12.dll next to the program and it works now.", &x);
    assert_null(x.load.kind);
    td_explain_free(&x);
    /* a name followed by a colon heads a listing (otool -L, ldd on several
     * files), not a quoted dialog: nothing failed to load */
    explain("libfoo.2.3.1.dylib:\n\t@rpath/libfoo.2.dylib (compatibility version 2.0.0, current "
            "version 2.3.1)\n\t/usr/lib/libSystem.B.dylib (compatibility version 1.0.0, current "
            "version 1213.0.0)",
            &x);
    assert_null(x.load.kind);
    td_explain_free(&x);
    explain("/opt/app/lib/libbar.so.1:\n\tlinux-vdso.so.1 (0x00007ffd5a1f2000)\n\tlibc.so.6 => "
            "/lib/x86_64-linux-gnu/libc.so.6 (0x00007f1c29800000)",
            &x);
    assert_null(x.load.kind);
    td_explain_free(&x);
    /* a Windows ctypes FileNotFoundError cut off before its file: the
     * loading call's literal names the library */
    expect("  File \"C:\\app\\audio.py\", line 12, in <module>\n"
           "    _lib = _load_lib(\"libfoo\")\n"
           "  File \"C:\\Python311\\Lib\\ctypes\\__init__.py\", line 376, in __init__\n"
           "    self._handle = _dlopen(self._name, mode)\n"
           "FileNotFoundError: Could not fi",
           "missing_library", "libfoo", NULL);
}

/* A Windows load failure told in a program's or a poster's own words (set O22):
 * a library file and a failure word or code on one line, in either order; a
 * code after LoadLibrary's name or GetLastError; the word DLL with a failure;
 * SQLite's .load of a bare name; 193's message with its %1 retyped. A DLL
 * named without a failure is no finding. */
static void own_words_of_a_load(void **state)
{
    (void)state;
    expect("foo.dll failed to load", "missing_library", "foo.dll", NULL);
    expect("foo.dll load failed", "missing_library", "foo.dll", NULL);
    expect("Error 126 loading C:\\app\\plugins\\foo.dll", "missing_library", "foo.dll", NULL);
    expect("Error while loading foo.dll", "missing_library", "foo.dll", NULL);
    expect("can't load foo.dll", "missing_library", "foo.dll", NULL);
    expect("foo.dll failed to initialize (Error code 193)", "wrong_architecture", "foo.dll", NULL);
    /* an .asi plug-in is a DLL its loader loads with LoadLibrary */
    expect("Unable to load FooPlugin.asi. Error 193", "wrong_architecture", "FooPlugin.asi", NULL);
    /* the gap before the failure word ate the file's first letters */
    expect("LoadLibraryEx failed for foo.dll, GetLastError = 126", "missing_library", "foo.dll",
           NULL);
    expect("LoadLibrary(\"foo.dll\") failed: 193", "wrong_architecture", "foo.dll", NULL);
    expect("Failed to load 'E:/UE/Plugins/lib/bar_hl.dll' (GetLastError=126)", "missing_library",
           "bar_hl.dll", NULL);
    expect_unnamed("LoadLibrary() returned error code 126", "missing_library");
    expect_unnamed("LoadLibrary returned NULL. Make sure the DLL is 64 bit. Error code 193",
                   "wrong_architecture");
    expect_unnamed("The plugin dll could not be loaded: 126", "missing_library");
    expect_unnamed("DLL load error 193", "wrong_architecture");
    expect_unnamed("Failed to load launcher DLL", "missing_library");
    /* the verb first, the failure after the file */
    expect("Loading foo.dll failed", "missing_library", "foo.dll", NULL);
    expect("Load of foo.dll failed with error 193", "wrong_architecture", "foo.dll", NULL);
    expect("Failed loading C:\\x\\foo.dll", "missing_library", "foo.dll", NULL);
    /* the same words about an ELF or Mach-O library: a lib*.so[.N], a .dylib, a
     * framework's X.framework/X (set O23) */
    expect("error opening libfoo.3.10.dylib", "missing_library", "libfoo.3.10.dylib", NULL);
    expect("FFI\\Exception(code: 0): Failed loading 'libbar.42.dylib' after upgrade",
           "missing_library", "libbar.42.dylib", NULL);
    expect("could not load library \"Cocoa.framework/Cocoa\"", "missing_library", "Cocoa", NULL);
    expect("Loading libfoo.so.2 failed", "missing_library", "libfoo.so.2", NULL);
    expect("can't find libfoo.so.1", "missing_library", "libfoo.so.1", NULL);
    expect("libfoo.so.2 wasn't found", "missing_library", "libfoo.so.2", NULL);
    /* a crash record of a load status names the loader's own module as the
     * faulting one, not the file at fault */
    expect_unnamed("Faulting application name: app.exe, version: 1.0.0.0\n"
                   "Faulting module name: ntdll.dll, version: 10.0.19041.1\n"
                   "Exception code: 0xc0000135",
                   "missing_library");
    /* an NTSTATUS by its symbol alone */
    expect_unnamed("thread 'main' exited: STATUS_DLL_NOT_FOUND", "missing_library");
    expect_unnamed("The process ended with STATUS_INVALID_IMAGE_FORMAT", "wrong_architecture");
    /* SQLite completes a bare name with the platform's suffix */
    expect("sqlite> .load ./vec0\nError: The specified module could not be found.",
           "missing_library", "vec0.dll", NULL);
    expect("sqlite> .load foo\nError: %1 is not a valid Win32 application.", "wrong_architecture",
           "foo.dll", NULL);
    expect("sqlite> .load re\nthe error message '%1 is not a win32 app valid' is displayed",
           "wrong_architecture", "re.dll", NULL);
    /* a row's required text (its needle) is no bound's digits: "{0,24}" is not "0,24", which
     * no text holds, so the row would never be tried */
    char needle[64];
    td_ere_needle("foo[^x]{0,24}ba", needle, sizeof needle);
    assert_string_equal(needle, "foo");
    /* a DLL named without a failure, or a failure about another thing */
    static const char *const none[] = {
        "I copied foo.dll next to the exe and now it works",
        "foo.dll version 1.2 loaded",
        "foo.dll loaded without error",
        "Loading foo.dll without error",
        "foo.dll present, bar missing",
        "The DLL was found and loaded",
        "Please download foo.dll from the release page",
        "We ship foo.dll and bar.dll; both load fine",
        "'app.exe' (Win32): Loaded 'C:\\Windows\\System32\\ntdll.dll'. Cannot find or open the "
        "PDB file.",
        "Faulting application name: app.exe\nFaulting module name: ntdll.dll, version: 10.0\n"
        "Exception code: 0xc0000005",
        "I copied libfoo.so.1 next to the binary and now it works",
        "libfoo.so.1 loaded without error",
        "Loading libfoo.dylib without error",
        "Please download libfoo.dylib from the release page",
        "libfoo.so.1 => /usr/lib/x86_64-linux-gnu/libfoo.so.1 (0x00007f0000000000)",
        "ldconfig -p | grep libfoo.so",
        "We ship libfoo.so.1 and libbar.dylib; both load fine",
        "Cocoa.framework/Cocoa loaded",
    };
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++) {
        struct td_explain x;
        explain(none[i], &x);
        if (x.load.kind)
            fail_msg("\"%s\": %s %s", none[i], x.load.kind,
                     x.load.library ? x.load.library : "(no file)");
        td_explain_free(&x);
    }
}

/* `import torch` failing on an undefined symbol, no file named: torch's own
 * library needs it, by the symbol's family. */
static void torch_import_symbol(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"importing pytorch raises an `undefined symbol: iJIT_NotifyEvent` error",
         "libtorch_cpu.so"},
        {">>> import torch\nImportError: undefined symbol: PyCode_GetCode", "libtorch_python.so"},
        {">>> import torch\nImportError: undefined symbol: cudaGraphDebugDotPrint",
         "libtorch_cuda.so"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct td_explain x;
        explain(cases[i][0], &x);
        assert_non_null(x.load.kind);
        assert_string_equal(x.load.kind, "missing_symbol");
        assert_non_null(x.load.needed_by);
        assert_string_equal(x.load.needed_by, cases[i][1]);
        td_explain_free(&x);
    }
}

/* Session 13 (set I): a GPU architecture error raised at a CUDA source
 * location is about the binary built from it (data/cuda_source_modules.tsv). */
static void cuda_source_location(void **state)
{
    (void)state;
    expect("ggml_cuda_compute_forward: SCALE failed\n"
           "CUDA error: no kernel image is available for execution on the device\n"
           "  current device: 0, in function ggml_cuda_compute_forward at "
           "C:\\a\\ollama\\ml\\backend\\ggml\\ggml\\src\\ggml-cuda\\ggml-cuda.cu:2568\n",
           "gpu_arch_unsupported", "ggml-cuda.dll", "gpu_arch_unsupported");
    expect("/home/x/llama.cpp/ggml/src/ggml-cuda/ggml-cuda.cu:75: CUDA error\n"
           "CUDA error: no kernel image is available for execution on the device",
           "gpu_arch_unsupported", "libggml-cuda.so", NULL);
    /* a program's own source: no library, and not torch's */
    expect_unnamed(
        "ERROR /data/HashDAG/src/dag_tracer.cu:135: cuda error \"no kernel image is available "
        "for execution on the device\"",
        "gpu_arch_unsupported");
    /* torch's own text keeps torch's library, a source location or not */
    expect("RuntimeError: CUDA error: no kernel image is available for execution on the device\n"
           "  File \"/opt/venv/lib/python3.10/site-packages/torch/nn/modules/conv.py\", line 1\n"
           "/opt/src/myext/kernels.cu:12",
           "gpu_arch_unsupported", "libtorch_cuda.so", NULL);
}

/* Session 24 (O52): messages as users paste them into tracker and forum
 * markdown, or retell them: the structure read through the noise. */
static void o52_markdown_and_retold(void **state)
{
    (void)state;
    /* strong emphasis around the file or a word of the message */
    expect("prog: error while loading shared libraries: **libfoo.so.3**: cannot open shared "
           "object file: No such file or directory",
           "missing_library", "libfoo.so.3", NULL);
    /* a word glued to the file by a semicolon is not part of its name */
    expect("Import error;libbar_cuda.so: cannot open shared object file: No such file or "
           "directory",
           "missing_library", "libbar_cuda.so", NULL);
    /* dyld's list of the paths it tried, pasted without "Library not loaded":
     * the file every path ends in */
    expect("  Referenced from: /opt/x/bin/prog\n  Reason: tried: '$ORIGIN/libqux.dylib' (no such "
           "file), '/tmp/build/bin/libqux.dylib' (no such file), '/usr/lib/libqux.dylib' (no "
           "such file)",
           "missing_library", "libqux.dylib", NULL);
    /* the ordinal dialog retold in the user's words: an ordinal's number and
     * the DLL on one line */
    expect("cannot locate ordinal number 77 on the dinamic bond library "
           "C:\\Apps\\Lib\\bin\\foo_thread.dll",
           "missing_ordinal", "foo_thread.dll", NULL);
    expect("python.exe: Can't find the ordinal 12 in DLL-file(s) - App\\bin\\bar_core.dll",
           "missing_ordinal", "bar_core.dll", NULL);
    {
        /* review 24: the retelling looks for the ordinal ("locate", "find"):
         * an ordinal's number and a DLL in a sentence about neither are none */
        struct td_explain x;
        explain("I sorted the table by ordinal 3 and then copied it to my.dll folder.", &x);
        assert_null(x.load.form);
        td_explain_free(&x);
    }
    /* the entry-point dialog retold without "entry point", "library" misspelt */
    expect("\"the procedure _frob could not be located in the dynamic link libary\n"
           "c:\\windows\\system32\\quux_47.dll\"",
           "missing_symbol", "quux_47.dll", NULL);
    /* an apostrophe inside a word opens no quoted path */
    struct td_explain x;
    explain("python claims it can't find the function frob in the pkg/_ext.cpython-310-darwin.so "
            "library",
            &x);
    assert_non_null(file_named(&x.parts, "_ext.cpython-310-darwin.so"));
    assert_string_equal(file_named(&x.parts, "_ext.cpython-310-darwin.so")->path,
                        "pkg/_ext.cpython-310-darwin.so");
    td_explain_free(&x);
    /* a path from a drive in a quoted sentence starts at the drive */
    explain("\"The ordinal 9 could not be located in the dynamic link library "
            "C:\\AB\\bin\\m_thread.dll.\"",
            &x);
    assert_non_null(file_named(&x.parts, "m_thread.dll"));
    assert_string_equal(file_named(&x.parts, "m_thread.dll")->path, "C:\\AB\\bin\\m_thread.dll");
    td_explain_free(&x);
    /* a placeholder the user typed before the DLL's bare name is no part of it */
    expect("The procedure entry point Frob could not be located in the dynamic link library "
           "[filepath] Plug64.dll",
           "missing_symbol", "Plug64.dll", NULL);
}

/* O51 (session 23): GPU stack failures. HIP's "invalid device function" is
 * the HIP runtime's no-code-object class (data/error_raisers.tsv, hip), and a
 * "no kernel image" on a GPU whose architecture the named torch build was
 * compiled for (data/torch_cuda_arch_list.tsv) is not torch's library. */
static void o51_gpu_stack(void **state)
{
    (void)state;
    expect_unnamed("RuntimeError: HIP error: invalid device function\n"
                   "For debugging consider passing AMD_SERIALIZE_KERNEL=3",
                   "gpu_arch_unsupported");
    /* torch's CUDA spelling keeps torch's library */
    expect("RuntimeError: CUDA error: invalid device function", "gpu_arch_unsupported",
           "libtorch_cuda.so", NULL);
    /* torch 2.9's CUDA 12.8 build has sm_120 SASS: the kernels missing are
     * another binary's */
    expect_unnamed("GPU sm_120, torch 2.9.0+cu128\n"
                   "/opt/ext/launch.cu:10: no kernel image is available for execution on "
                   "the device",
                   "gpu_arch_unsupported");
    expect_unnamed("sm120 with torch2.9 + cu128: no kernel image is available for execution on "
                   "the device",
                   "gpu_arch_unsupported");
    /* a build without the GPU's architecture (CUDA 12.4) keeps torch's */
    expect("GPU sm_120, torch 2.6.0+cu124\n"
           "RuntimeError: CUDA error: no kernel image is available for execution on the device",
           "gpu_arch_unsupported", "libtorch_cuda.so", NULL);
    /* torch's own check of the GPU outweighs the version the text names */
    expect("torch 2.9.0+cu128\nNVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not "
           "compatible with the current PyTorch installation.\n"
           "RuntimeError: CUDA error: no kernel image is available for execution on the device",
           "gpu_arch_unsupported", "libtorch_cuda.so", NULL);
}

/* Session 13: where the reading lost a file or a symbol to the text's layout. */
static void layout_of_a_copy(void **state)
{
    (void)state;
    struct td_explain x;
    /* a label's value broken onto the next line, every line double-spaced */
    explain("ImportError: dlopen(/Users/c/anaconda3/lib/python3.6/_pyo.so, 2): Symbol not found: "
            "\n\n__Py_ZeroStruct\n\n  Referenced from: /Users/c/anaconda3/lib/python3.6/_pyo.so\n\n"
            "  Expected in: flat namespace\n\n in /Users/c/anaconda3/lib/python3.6/_pyo.so\n",
            &x);
    assert_non_null(x.load.symbol);
    assert_string_equal(x.load.symbol, "__Py_ZeroStruct");
    assert_true(x.load.n_causes > 0);
    assert_string_equal(x.load.causes[0].kind, "python_abi_mismatch");
    td_explain_free(&x);
    /* dyld's " in IMAGE" line stays a line: "Expected in:" is the copy */
    explain("dyld: Symbol not found: __object_getExternalHash\n"
            "  Referenced from: /System/Library/Frameworks/CoreFoundation.framework/Versions/A/"
            "CoreFoundation\n"
            "  Expected in: /Users/c/Build/Products/Debug/libobjc.A.dylib\n"
            " in /System/Library/Frameworks/CoreFoundation.framework/Versions/A/CoreFoundation "
            "\xe3\x80\x82",
            &x);
    assert_non_null(x.fields.expected_in);
    assert_string_equal(x.fields.expected_in, "/Users/c/Build/Products/Debug/libobjc.A.dylib");
    assert_non_null(x.load.library);
    assert_string_equal(x.load.library, "libobjc.A.dylib");
    td_explain_free(&x);
}

/* Session 13: raiser rows that named no file, and the file a raiser names. */
static void raiser_files(void **state)
{
    (void)state;
    const char *bad[8];
    size_t n = td_explain_raiser_bad_groups(bad, 8);
    for (size_t i = 0; i < n; i++)
        fprintf(stderr, "raiser row without its group, or a table cut short: /%s/\n", bad[i]);
    assert_int_equal(n, 0);
    expect("\"Reason: Incompatible library version: libvips-cpp.42.dylib requires version 38.0.0 "
           "or later, but libpng16.16.dylib provides version 35.0.0\"",
           "missing_symbol_version", "libpng16.16.dylib", NULL);
    /* dyld's "not a mach-o file" is deps' not_a_library, retold or listed */
    expect("OSError: my-languages.so is not a mach-o file", "not_a_library", "my-languages.so",
           NULL);
    expect("ImportError: dlopen(/Users/x/lib/libfoo.so, 2): no suitable image found.  Did find:\n"
           "\t/Users/x/lib/libfoo.so: not a mach-o file",
           "not_a_library", "libfoo.so", NULL);
    /* the raiser's own line names its file; a warning after it names others */
    expect("CUDA SETUP: Required library version not found: libbitsandbytes_cuda116.so. Maybe you "
           "need to compile it from source?\n"
           "main.py:166: UserWarning: Found duplicate ['libcudart.so', 'libcudart.so.11.0'] files",
           "missing_library", "libbitsandbytes_cuda116.so", NULL);
}

/* Session 13: cuDNN's version check names the major the program was built
 * for, read from CUDNN_VERSION numbers too (5105 is 5.1.5). */
static void cudnn_built_for(void **state)
{
    (void)state;
    struct td_explain x;
    explain("[...cuda_dnn.cc:352] Loaded runtime CuDNN library: 6021 (compatibility version 6000) "
            "but source was compiled with 5105 (compatibility version 5100).  C:\\tf\\x.dll",
            &x);
    assert_non_null(version_of(&x.parts, "cudnn_built"));
    assert_string_equal(version_of(&x.parts, "cudnn_built"), "5");
    assert_non_null(version_of(&x.parts, "cudnn_runtime"));
    assert_string_equal(version_of(&x.parts, "cudnn_runtime"), "6");
    assert_non_null(x.load.library);
    assert_string_equal(x.load.library, "cudnn64_5.dll");
    assert_string_equal(x.load.kind, "cuda_runtime_mismatch");
    td_explain_free(&x);
    explain("Loaded runtime CuDNN library: 90100 but source was compiled with: 8.9.4.", &x);
    assert_string_equal(version_of(&x.parts, "cudnn_runtime"), "9");
    assert_string_equal(version_of(&x.parts, "cudnn_built"), "8");
    assert_string_equal(x.load.library, "libcudnn.so.8");
    td_explain_free(&x);
}

/* Session 13: files listed three or more together single none out. */
static void listed_files(void **state)
{
    (void)state;
    struct td_explain x;
    explain("The application was unable to start correctly (0xc000007b).\n"
            "- SDL2.dll, SDL2_mixer.dll, SDL2_ttf.dll, libfreetype-6.dll, and zlib1.dll are "
            "present in the folder.",
            &x);
    assert_non_null(x.load.kind);
    assert_string_equal(x.load.kind, "wrong_architecture");
    assert_null(x.load.library);
    assert_non_null(file_named(&x.parts, "zlib1.dll"));
    assert_true(file_named(&x.parts, "zlib1.dll")->listed);
    td_explain_free(&x);
    explain("SDL2.dll and zlib1.dll are present", &x);
    assert_false(file_named(&x.parts, "zlib1.dll")->listed); /* two are not a list */
    td_explain_free(&x);
    /* one file named after a list is still the one at fault */
    expect("SDL2.dll, SDL2_mixer.dll and zlib1.dll load, but copying libwinpthreads-1.dll gives "
           "\"The application was unable to start correctly (0xc000007b).\"",
           "wrong_architecture", "libwinpthreads-1.dll", NULL);
}

/* Session 13, set J's misses: a raiser that names a library by its short name
 * (Paddle's dynamic loader), a missing symbol no requirer is named for (the
 * library that should define it), a crash after an import (the module), a
 * package that loads its own native library with ctypes, and a dialog retyped
 * inside quotes. */
static void j_opened(void **state)
{
    (void)state;
    expect("RuntimeError: (PreconditionNotMet) Cannot load cudnn shared library. Cannot invoke "
           "method cudnnGetVersion.\n  [Hint: cudnn_dso_handle should not be null.] (at "
           "/paddle/paddle/phi/backends/dynload/cudnn.cc:76)",
           "missing_library", "libcudnn.so", NULL);
    expect("dyld[4411]: Symbol not found: ____chkstk_darwin", "missing_symbol", "libSystem.B.dylib",
           NULL);
    /* dyld's underscore, and one more a copy added, down to the row's own */
    expect("dyld: Symbol not found: ___kmpc_fork_call", "missing_symbol", "libiomp5", NULL);
    /* torch's and Python's symbols say the unnamed requirer was built for
     * another torch or Python: their definer is not the file at fault */
    struct td_explain x;
    explain("ImportError: undefined symbol: _ZN3c106detail14torchCheckFailEPKcS2_jRKSs", &x);
    assert_string_equal(x.load.kind, "missing_symbol");
    assert_true(x.load.library == NULL || strncmp(x.load.library, "libc10", 6) != 0);
    td_explain_free(&x);
    explain("dyld: Symbol not found: _PyUnicode_AsUTF8", &x);
    assert_true(x.load.library == NULL || strncmp(x.load.library, "libpython", 9) != 0);
    td_explain_free(&x);
    expect(">>> import tensorflow as tf\n[1]    3760 illegal hardware instruction  python3",
           "cpu_feature_missing", "tensorflow", NULL);
    explain("zsh: illegal hardware instruction  python train.py", &x); /* no import: no file */
    assert_string_equal(x.load.kind, "cpu_feature_missing");
    assert_null(x.load.library);
    td_explain_free(&x);
    expect(
        "When I install `mxnet-cu92` and import it `import mxnet as mx`\nOSError: [WinError 126] "
        "The specified module could not be found",
        "missing_library", "libmxnet.dll", NULL);
    expect("  File \"D:\\Python\\lib\\site-packages\\mxnet\\base.py\", line 35, in _load_lib\n"
           "    lib = ctypes.cdll.LoadLibrary(lib_path[0])\nOSError: [WinError 193] %1 is not a "
           "valid Win32 application.",
           "wrong_architecture", "libmxnet.dll", NULL);
    /* a package of the table named in prose only ("mxnetwork") is not used */
    explain("mxnetwork failed: OSError: [WinError 126] The specified module could not be found",
            &x);
    assert_true(x.load.library == NULL || strcmp(x.load.library, "libmxnet.dll") != 0);
    td_explain_free(&x);
    expect("\"The procedure entry point ?run@@YAXXZ could not be located in the dynamic link "
           "library D:\\app\\plugin.dll\"",
           "missing_symbol", "plugin.dll", NULL);
}

/* O3 (docs/explain.md): a mangled name that lost its "_Z", dyld's refusals of a
 * Mach-O's load commands, the kernel's ENOEXEC as shells and container
 * runtimes print it, musl's load error before the relocations it causes */
static void o3_load_commands_exec_lost_mangling(void **state)
{
    (void)state;
    struct td_explain x;
    explain("ImportError: dlopen(/Users/me/env/lib/python3.10/site-packages/ops/_ext.cpython-310-"
            "darwin.so, 0x0002): symbol not found in flat namespace N2at3mps9MPSStream6commitEb)",
            &x);
    assert_true(x.parts.n_symbols > 0);
    assert_string_equal(x.parts.symbols[0].name, "N2at3mps9MPSStream6commitEb");
    assert_non_null(x.parts.symbols[0].demangled);
    assert_string_equal(x.parts.symbols[0].demangled, "at::mps::MPSStream::commit(bool)");
    td_explain_free(&x);
    expect("ImportError: dlopen(/Users/me/env/lib/python3.10/site-packages/ops/_ext.cpython-310-"
           "darwin.so, 0x0002): symbol not found in flat namespace N2at3mps9MPSStream6commitEb)",
           "missing_symbol", "_ext.cpython-310-darwin.so", "companion_mismatch");
    /* a C name that only starts like one stays a C name */
    explain("ImportError: dlopen(/opt/m/x.so, 0x0002): symbol not found in flat namespace "
            "'_N2O_init'",
            &x);
    assert_true(x.parts.n_symbols > 0);
    assert_null(x.parts.symbols[0].demangled);
    td_explain_free(&x);
    expect("OSError: dlopen(/opt/env/lib/libgfortran.5.dylib, 0x0006): tried: "
           "'/opt/env/lib/libgfortran.5.dylib' (duplicate LC_RPATH '@loader_path'), "
           "'/usr/lib/libgfortran.5.dylib' (no such file)",
           "not_a_library", "libgfortran.5.dylib", NULL);
    expect("dyld[4242]: missing LC_UUID load command in /Users/me/go/bin/tool\nAbort trap: 6",
           "not_a_library", "tool", NULL);
    expect("-bash: ./node_exporter: cannot execute binary file: Exec format error",
           "wrong_architecture", "node_exporter", NULL);
    expect("Error loading shared library libgcc_s.so.1: No such file or directory (needed by "
           "/usr/local/bin/app)\nError relocating /usr/local/bin/app: _Unwind_Resume: symbol not "
           "found",
           "missing_library", "libgcc_s.so.1", NULL);
    expect(
        "dyld: warning: could not load inserted library '/usr/local/lib/x/libx.dylib' into "
        "library validated process because no suitable image found.  Did find:\n\t"
        "/usr/local/lib/x/libx.dylib: code signing blocked mmap() of '/usr/local/lib/x/libx.dylib'",
        "unreadable_file", "libx.dylib", NULL);
    /* a program whose interpreter is missing names it; the JVM's System.load
     * of a path that does not exist */
    expect("-bash: ./adb: /lib/ld-linux.so.2: bad ELF interpreter: No such file or directory",
           "missing_library", "ld-linux.so.2", NULL);
    expect("java.lang.UnsatisfiedLinkError: Can't load library: /tmp/hid-1/libhidapi.dylib",
           "missing_library", "libhidapi.dylib", NULL);
    /* macOS's EBADARCH as zsh prints it; Gatekeeper's refusal of a file */
    expect("zsh: bad CPU type in executable: ./tool", "wrong_architecture", "tool", NULL);
    expect("\xe2\x80\x9clibx.dylib\xe2\x80\x9d cannot be opened because the developer cannot be "
           "verified.",
           "unreadable_file", "libx.dylib", NULL);
}

/* Set O4 (open, Linux): a symbol quoted inside a sentence ends before the
 * quote; Qt names its platform plugin by its key, the file is the platform's
 * of "q" + key; an illegal instruction with no import shown is about the
 * package the report's install command installed. */
static void linux_messages_of_o4(void **state)
{
    (void)state;
    expect("But I still met the problem that \"undefined symbol: _ZNSt13runtime_errorC2EPKc\"",
           "missing_symbol", "libstdc++.so.6", NULL);
    expect("qt.qpa.plugin: Could not load the Qt platform plugin \"xcb\" in \"\" even though it "
           "was found.\nThis application failed to start because no Qt platform plugin could be "
           "initialized.",
           "missing_library", "libqxcb.so", NULL);
    expect("qt.qpa.plugin: From 6.5.0, xcb-cursor0 or libxcb-cursor0 is needed to load the Qt xcb "
           "platform plugin.",
           "missing_library", "libqxcb.so", NULL);
    expect("qt.qpa.xcb: could not connect to display \nqt.qpa.plugin: Could not load the Qt "
           "platform plugin \"xcb\" in \"\" even though it was found.",
           "init_failure", "libqxcb.so", NULL);
    expect("C:\\app>app.exe\nqt.qpa.plugin: Could not find the Qt platform plugin \"windows\" in "
           "\"\"",
           "missing_library", "qwindows.dll", NULL);
    expect("$ conda install -c conda-forge tensorflow=2.4\nIllegal instruction (core dumped)",
           "cpu_feature_missing", "tensorflow", NULL);
    /* an import shown still wins over the install command */
    expect(
        "$ pip install --upgrade jax jaxlib\n>>> import jaxlib\nIllegal instruction (core dumped)",
        "cpu_feature_missing", "jaxlib", NULL);
}

/* Set N opened (docs/explain.md "Session 14: N opened"): retyped and
 * cut-off forms of messages whose source prints them whole. */
static void n1_retyped_and_cut_forms(void **state)
{
    (void)state;
    /* the JDK's machine check retyped: lower case, no colons, no hyphens */
    expect("java.lang.unsatisfiedlinkerror d:\\app\\lib\\native.dll  Can't load AMD 64 bit .dll "
           "on an IA 32 bit platform",
           "wrong_architecture", "native.dll", NULL);
    /* Node's ABI message with its opening words cut off: the .node file before the quote */
    expect("C:\\app\\node_modules\\serialport\\build\\Release\\serialport.node'\nwas compiled "
           "against a different Node.js version using\nNODE_MODULE_VERSION 93. This version of "
           "Node.js requires\nNODE_MODULE_VERSION 106.",
           "python_abi_mismatch", "serialport.node", NULL);
    /* .NET's EntryPointNotFoundException: "in DLL" is Windows' wording, the name mapped */
    expect("System.EntryPointNotFoundException: Unable to find an entry point named 'sqlite3_open' "
           "in DLL 'e_sqlite3'.",
           "missing_symbol", "e_sqlite3.dll", NULL);
    /* the entry-point dialog retyped: a misspelt opening, or "the X.dll" */
    expect(
        "The procedure entery point ?qt_version_tag@@3HA could not be located in the dynamic link "
        "library Qt5Gui.dll.",
        "missing_symbol", "Qt5Gui.dll", NULL);
    expect("inflateValidate could not be located in the zlib1.dll", "missing_symbol", "zlib1.dll",
           NULL);
    /* a title-case verb, LoadLibrary's code in hex after the DLL */
    expect("Cannot Load C:\\Windows\\System32\\d3dx9_43.dll error:0x7e", "missing_library",
           "d3dx9_43.dll", NULL);
    expect("Failed to Load C:\\game\\bin\\physx.dll, error 0xC1", "wrong_architecture", "physx.dll",
           NULL);
    /* a plugin of its host's own extension before "Error Code = N" */
    expect("plugins/Foo/64/win.xpl : Error Code = 193 : %1 is not a valid Win32 application.",
           "wrong_architecture", "win.xpl", NULL);
    /* an English system message retyped without "is" or "the", in other case */
    expect("ImportError: DLL load failed: %1 not a valid win32 application", "wrong_architecture",
           NULL, NULL);
    expect("OSError: specified module could not be found. Error loading \"C:\\x\\y.dll\"",
           "missing_library", "y.dll", NULL);
    /* SWIG's helper names the extension module the package statement loads */
    expect("    from osgeo import ogr\n  File \"C:\\py\\lib\\site-packages\\osgeo\\ogr.py\", line "
           "17, in swig_import_helper\n    _mod = imp.load_module('_ogr', fp, pathname, "
           "description)\nImportError: DLL load failed: The specified module could not be found.",
           "missing_library", "_ogr", NULL);
    /* a CUDA toolkit folder that is not there: CUDA_PATH names an uninstalled toolkit */
    expect("FileNotFoundError: [WinError 3] The system cannot find the path specified: "
           "'C:\\\\Program Files\\\\NVIDIA GPU Computing Toolkit\\\\CUDA\\\\v11.8\\\\bin'",
           "env_var_invalid", NULL, NULL);
}

/* Session 15, P1 opened (docs/explain.md "Session 15: P1 opened (Windows) and
 * set O5"): a system message whose "%1" the caller filled in with the file
 * (libuv's uv_dlopen for ERROR_BAD_EXE_FORMAT, in any language the table
 * has); OpenMP's duplicate-runtime message quoted without its "OMP: Error
 * #15:" prefix; a loader's list of candidates in which a folder was tried
 * (mpi4py); the Japanese entry-point dialog, with and without its blanks;
 * the English one retyped without its DLL; an NTSTATUS printed unsigned;
 * pywin32's error tuple. */
static void p1_opened(void **state)
{
    (void)state;
    expect("Error: \\\\?\\C:\\app\\node_modules\\sharp\\build\\Release\\sharp.node is not a valid "
           "Win32 application.\n\\\\?\\C:\\app\\node_modules\\sharp\\build\\Release\\sharp.node",
           "wrong_architecture", "sharp.node", NULL);
    expect("Error: C:\\app\\node_modules\\canvas\\build\\Release\\canvas.node ist keine zulässige "
           "Win32-Anwendung.",
           "wrong_architecture", "canvas.node", NULL);
    /* the message with its insert unfilled is read as before */
    expect("OSError: [WinError 193] %1 is not a valid Win32 application", "wrong_architecture",
           NULL, NULL);
    expect("Error: Initializing libomp.dll, but found libiomp5md.dll already initialized.",
           "duplicate_runtime", "libomp.dll", NULL);
    expect("RuntimeError: cannot load MPI library\nCould not find module "
           "'C:\\Users\\me\\venv\\DLLs' (or one of its dependencies). Try using the full path "
           "with constructor syntax.\nCould not find module 'msmpi.dll' (or one of its "
           "dependencies). Try using the full path with constructor syntax.",
           "missing_library", "msmpi.dll", NULL);
    /* a bare name (ctypes adds ".dll") is still a file */
    expect("FileNotFoundError: Could not find module 'shcore' (or one of its dependencies). Try "
           "using the full path with constructor syntax.",
           "missing_library", "shcore", NULL);
    expect("プロシージャ エントリ ポイント ?Qt_6@QtCore がダイナミック リンク ライブラリ "
           "C:\\Program Files\\App\\app.exe から見つかりませんでした。",
           "missing_symbol", "app.exe", NULL);
    expect("プロシージャエントリポイント GetDpiForWindow がダイナミック リンク\nライブラリ "
           "USER32.dll から見つかりませんでした。",
           "missing_symbol", "USER32.dll", NULL);
    /* no DLL named: GetDpiForWindow's own, user32.dll (data/windows_api_homes.tsv, session 16) */
    expect("The procedure entry point `GetDpiForWindow` could not be located in the dynamic link "
           "library",
           "missing_symbol", "user32.dll", "missing_symbol");
    expect("dll load failed with errorcode 3221225501", "cpu_feature_missing", NULL, NULL);
    expect("Process finished with exit code 3221225781", "missing_library", NULL, NULL);
    /* pywin32's error tuple: the code first, the system message retyped or cut */
    expect("    h = win32api.LoadLibraryEx(dll_name, 0, flags)\npywintypes.error: (126, "
           "'LoadLibraryEx', 'cannot find module.')",
           "missing_library", NULL, NULL);
}

/* A finding whose kind is KIND and that names no library file. */
/* Session 15, P2 opened and set O6 (docs/explain.md "Session 15: P2 opened
 * (Linux, macOS) and set O6"): dyld's line-long install names, a repeated
 * line that is no terminal width, and findings that name no file because
 * none is at fault. */
/* Set O10 (docs/explain.md "Session 15: set O10 (open, macOS)"). */
static void o10_dyld_fields(void **state)
{
    (void)state;
    /* dyld's three lines all 41 columns by chance, the block after a fence:
     * the indented "Referenced from:" and "Expected in:" are the message's
     * fields, no terminal's continuation (a terminal goes on at the margin) */
    expect("~~~~\n$ ./example-tool\ndyld: Symbol not found: ____chkstk_darwin\n"
           "  Referenced from: /Users/me/./example-to\n"
           "  Expected in: /usr/lib/libSystem.B.dylib\n\n"
           "dyld: Symbol not found: ____chkstk_darwin\n"
           "  Referenced from: /Users/me/./example-to\n"
           "  Expected in: /usr/lib/libSystem.B.dylib\n~~~~",
           "missing_symbol", "example-to", NULL);
    /* "Referenced from:" with the blank after the colon lost in the paste */
    expect("dyld: Symbol not found: _VTExampleFunction\nReferenced from:dist/example-cli (which "
           "was built for Mac OS X 15.0)\nExpected in: /System/Library/Frameworks/"
           "VideoToolbox.framework/Versions/A/VideoToolbox",
           "missing_symbol", "example-cli", NULL);
}

/* Set O14 (docs/explain.md "Session 16: set O14 (open, forum texts)"): a
 * dialog's DLL ends at its extension, whatever a paste puts after it. */
static void o14_dialog_name_ends(void **state)
{
    (void)state;
    /* a message box retyped between "<<" and ">>" */
    expect("<< Message box appears:  The procedure entry point example_close could not be \n"
           "located in the dynamic link library example.dll >>",
           "missing_symbol", "example.dll", NULL);
    /* the poster's words after the name, on the same line */
    expect("The procedure entry point ExampleInit could not be located in the dynamic link "
           "library C:\\Program Files\\Example App\\example64.dll (x64 build)",
           "missing_symbol", "example64.dll", NULL);
    /* a blank inside a directory's name is still part of the path */
    expect("The procedure entry point ExampleInit could not be located in the dynamic link "
           "library C:\\tools v1.2 beta\\example.dll",
           "missing_symbol", "example.dll", NULL);
    /* the entry-point dialog told in the user's words: a verb of failure,
     * "locate", the entry point (one word), the symbol, "in" and the DLL */
    expect(
        "the tool says \"Cannot locate entrypoint ExampleFuncW in Example32.dll\" on the old box",
        "missing_symbol", "Example32.dll", NULL);
    expect("Failed to locate the procedure entry point ExampleInit in the dynamic link library "
           "example-1.dll.",
           "missing_symbol", "example-1.dll", NULL);
}

static void p2_o6_names_and_no_file(void **state)
{
    (void)state;
    /* a framework's binary is named after its bundle, blanks and all */
    expect("dyld[3352]: Library not loaded: @rpath/Electron Framework.framework/Electron "
           "Framework\n  Referenced from: <4C4C44F1-5555-3144-A109-371CAA64827A> /x/A.app/"
           "Contents/MacOS/A\n  Reason: tried: '/x/A.app/Contents/Frameworks/Electron "
           "Framework.framework/Electron Framework' (no such file)",
           "missing_library", "Electron Framework", NULL);
    /* a one-line paste: the path still ends before "Referenced from:" */
    expect("dyld: Library not loaded: /usr/local/opt/icu4c/lib/libicui18n.59.dylib Referenced "
           "from: /usr/local/bin/node Reason: image not found",
           "missing_library", "libicui18n.59.dylib", NULL);
    /* dyld's lazy-binding failure and the same block again: two equal lines
     * are not a terminal's width, "Referenced from:" keeps its own line */
    expect("    dyld: lazy symbol binding failed: Symbol not found: _uv_dlopen\n"
           "    Referenced from: /usr/local/bin/example-server\n"
           "    Expected in: /usr/local/lib/libexample.3.11.dylib\n\n"
           "    dyld: Symbol not found: _uv_dlopen\n"
           "    Referenced from: /usr/local/bin/example-server\n"
           "    Expected in: /usr/local/lib/libexample.3.11.dylib",
           "missing_symbol", "example-server", NULL);
    /* jaxlib's AVX check on macOS: Rosetta's x86-64 interpreter, no file at
     * fault; on Linux the jaxlib build */
    expect_unnamed("  File \"/Users/me/venv/lib/python3.9/site-packages/jax/_src/lib/"
                   "__init__.py\", line 85, in <module>\nRuntimeError: This version of jaxlib "
                   "was built using AVX instructions, which your CPU and/or operating system "
                   "do not support.",
                   "cpu_feature_missing");
    expect("  File \"/home/me/venv/lib/python3.9/site-packages/jax/_src/lib/__init__.py\", line "
           "85, in <module>\nRuntimeError: This version of jaxlib was built using AVX "
           "instructions, which your CPU and/or operating system do not support.",
           "cpu_feature_missing", "jaxlib", NULL);
    /* MKL's start-up check: the CPU falls short, not a file */
    expect_unnamed("Intel MKL FATAL ERROR: This system does not meet the minimum requirements "
                   "for use of the Intel(R) Math Kernel Library.",
                   "cpu_feature_missing");
    /* torch's MPS feature checks against the macOS it sees */
    expect("TypeError: MPS BFloat16 is only supported on MacOS 14 or newer", "gpu_not_visible",
           "MPS", NULL);
    /* "no kernel image" after a program's own check macro, torch never named:
     * the program's kernels; torch's own "CUDA error: " form stays torch's */
    expect_unnamed("cudaCheckError() failed : no kernel image is available for execution on "
                   "the device",
                   "gpu_arch_unsupported");
    expect("RuntimeError: CUDA error: no kernel image is available for execution on the device",
           "gpu_arch_unsupported", "libtorch_cuda.so", NULL);
}

/* O8 (Linux beyond the ML stack): the loader's refusals to map a file it
 * found (an executable stack, a segment's protection, musl's RELRO) are not
 * a missing library, whichever form carries them; a reason without a
 * library is about the program itself (glibc leaves its empty name out);
 * rtld's LD_PRELOAD warning names the object in quotes, not "ld.so" */
static void o8_loader_refusals(void **state)
{
    (void)state;
    expect("./test: error while loading shared libraries: libcriterion.so.3: cannot enable "
           "executable stack as shared object requires: Invalid argument",
           "unreadable_file", "libcriterion.so.3", NULL);
    expect("error, dlerror is /home/u/.config/app/plugins/libnet.so: "
           "\xe6\x97\xa0\xe6\xb3\x95\xe5\x90\xaf\xe7\x94\xa8\xe5\x85\xb1\xe4\xba\xab"
           "\xe7\x9b\xae\xe6\xa0\x87\xe9\x9c\x80\xe8\xa6\x81\xe7\x9a\x84\xe5\x8f\xaf"
           "\xe6\x89\xa7\xe8\xa1\x8c\xe6\xa0\x88: x",
           "unreadable_file", "libnet.so", NULL);
    expect("/usr/sbin/squid3: error while loading shared libraries: cannot restore segment prot "
           "after reloc: Permission denied",
           "unreadable_file", "squid3", NULL);
    expect("rest | Error relocating /lib/ld-musl-x86_64.so.1: RELRO protection failed: "
           "Permission denied",
           "unreadable_file", "ld-musl-x86_64.so.1", NULL);
    expect("ERROR: ld.so: object '/home/u/.steam/ubuntu12_64/gameoverlayrenderer.so' from "
           "LD_PRELOAD cannot be preloaded (wrong ELF class: ELFCLASS64): ignored.",
           "wrong_architecture", "gameoverlayrenderer.so", NULL);
    expect("prog: error while loading shared libraries: libfoo.so.1: cannot allocate memory in "
           "static TLS block",
           "init_failure", "libfoo.so.1", NULL);
    /* glibc < 2.26's other static-TLS refusal: "dlopen" is its object name, not a file */
    expect("ImportError: /opt/env/lib/python3.6/site-packages/cv2/cv2.so: dlopen: cannot load any "
           "more object with static TLS",
           "init_failure", "cv2.so", NULL);
    expect_unnamed("hipErrorNoBinaryForGpu: Unable to find code object for all current devices!",
                   "gpu_arch_unsupported");
}

/* Set O7 (docs/explain.md "Session 15: set O7"): texts as users paste them. */
static void o7_opened(void **state)
{
    (void)state;
    /* Go's syscall DLL.FindProc: the DLL as the program named it */
    expect("panic: Failed to find GetDpiForMonitor procedure in shcore: The specified procedure "
           "could not be found.",
           "missing_symbol", "shcore", NULL);
    /* the delay-load helper's exception: the thunk names the DLL (link.exe's and lld's
       spellings); WER's faulting module is never it */
    expect("Failure.Bucket: E_DELAYLOAD_MOD_NOT_FOUND_c06d007e_app.exe!_tailMerge_nvcuda_dll\n"
           "Failure.Exception.Code: 0xc06d007e",
           "missing_library", "nvcuda.dll", NULL);
    expect("ExceptionCode: c06d007e\nExceptionCode 0xc06d007e in __tailMerge_wpcap.dll",
           "missing_library", "wpcap.dll", NULL);
    expect_unnamed("Fault Module Name:\tKERNELBASE.dll\nException Code:\tc06d007e",
                   "missing_library");
    expect_unnamed("Faulting module name: KERNELBASE.dll\nException code: 0xc06d007f",
                   "missing_symbol");
    /* a loader's own "error N: message" with a module or procedure after it */
    expect_unnamed("plugin loader failed with error 126: the module was not found",
                   "missing_library");
    expect_unnamed("make: *** [Makefile:12: all] Error 127", NULL);
    /* winerror.h's name for the code */
    expect_unnamed("Unable to load the DLL: ERROR_MOD_NOT_FOUND", "missing_library");
    /* the insert filled with a program's name (an .exe, not only an addon) */
    expect("\"C:\\Tools\\setup64.exe is not a valid Win32 application\"", "wrong_architecture",
           "setup64.exe", NULL);
    /* a blank inside a CJK message */
    expect_unnamed("java.lang.UnsatisfiedLinkError: 找不到指定的 程序。", "missing_symbol");
    /* the entry-point dialog retyped as far as "located": GetTickCount64 is kernel32.dll's
       (data/windows_api_homes.tsv, session 16) */
    expect("The Procedure entry point GetTickCount64 could no be located.", "missing_symbol",
           "kernel32.dll", "missing_symbol");
    /* the side-by-side dialog (ERROR_SXS_CANT_GEN_ACTCTX) and a retyped module message */
    expect_unnamed("it shows\n\n*The application has failed to start because its side-by-side "
                   "configuration\nis incorrect. Please see the application event log or use the "
                   "command-line\nsxstrace.exe tool for more detail.*",
                   "missing_library");
    expect_unnamed("DLL Error: The Specified Module Cannot Be Found", "missing_library");
}

static void o9_opened(void **state)
{
    (void)state;
    /* TensorFlow's dso_loader quotes the name; cuDNN's unquoted name has an extension; an
       unquoted word without a dot after the same words is prose, not a file */
    expect("W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load "
           "dynamic library 'cudart64_110.dll'; dlerror: cudart64_110.dll not found",
           "missing_library", "cudart64_110.dll", NULL);
    expect("Could not load library cudnn_ops_infer64_8.dll. Error code 126\nPlease make sure "
           "cudnn_ops_infer64_8.dll is in your library path!",
           "missing_library", "cudnn_ops_infer64_8.dll", NULL);
    expect_unnamed("Could not load dynamic library error\n\nHi there, seem to be getting the "
                   "following error message.",
                   "missing_library");
}

static void q2_loader_reasons(void **state)
{
    (void)state;
    /* R's wrapper, then dyld's own reason (older dyld: no Mach-O magic at
     * all): the reason's kind, and dyld's "dlopen(PATH, MODE): " alone says
     * macOS, though the file is a .so and no dyld word is there */
    expect("Error: package or namespace load failed for 'examplepkg' in dyn.load(file, DLLpath = "
           "DLLpath, ...):\n unable to load shared object '/Library/Frameworks/R.framework/"
           "Resources/library/examplepkg/libs/examplepkg.so':\n  dlopen(/Library/Frameworks/"
           "R.framework/Resources/library/examplepkg/libs/examplepkg.so, 6): no suitable image "
           "found.  Did find:\n\t/Library/Frameworks/R.framework/Resources/library/examplepkg/"
           "libs/examplepkg.so: unknown file type, first eight bytes: 0x7F 0x45 0x4C 0x46 0x02 "
           "0x01 0x01 0x00",
           "not_a_library", "examplepkg.so", NULL);
    struct td_explain x;
    explain("OSError: dlopen(/opt/example/libexample.so, 0x0006): tried: "
            "'/opt/example/libexample.so' (no such file)",
            &x);
    assert_non_null(x.parts.platform);
    assert_string_equal(x.parts.platform, "macos");
    td_explain_free(&x);
    /* torch's own library lacks a CUDA library's versioned symbol: that
     * library is of another CUDA release than torch's build */
    expect("ImportError: /venv/lib/python3.11/site-packages/torch/lib/libtorch_cuda.so: undefined "
           "symbol: cublasLtExampleFunction, version libcublasLt.so.12",
           "cuda_runtime_mismatch", "libcublasLt.so.12", NULL);
    /* one CUDA library needing another's: as before */
    expect("ImportError: /venv/lib/python3.11/site-packages/nvidia/cusparse/lib/libcusparse.so.12: "
           "undefined symbol: __nvJitLinkExample_12_4, version libnvJitLink.so.12",
           "missing_symbol_version", "libnvJitLink.so.12", NULL);
    /* Node names the temporary copy Electron made of an addon in app.asar */
    expect("Error: The module '/var/folders/ab/cd/T/.com.example.app.Ab12Cd'\nwas compiled against "
           "a different Node.js version using\nNODE_MODULE_VERSION 93. This version of Node.js "
           "requires\nNODE_MODULE_VERSION 110.",
           "python_abi_mismatch", ".com.example.app.Ab12Cd", NULL);
    /* one line per version the program lacks: the first, glibc's, leads; a
     * catalogue row about libstdc++ matched the second */
    expect("./bin/solver: /lib64/libc.so.6: version `GLIBC_2.34' not found (required by "
           "./bin/solver)\n./bin/solver: /lib64/libstdc++.so.6: version `GLIBCXX_3.4.29' not found "
           "(required by ./bin/solver)",
           "missing_symbol_version", "libc.so.6", "glibc_too_old");
    /* Lightning's accelerator check names no file */
    expect_unnamed("lightning_fabric.utilities.exceptions.MisconfigurationException: "
                   "CUDAAccelerator can not run on your system since the accelerator is not "
                   "available.",
                   "gpu_not_visible");
}

static void r2_loader_reasons(void **state)
{
    (void)state;
    /* dyld 4's tried list: a file that exists and fails dyld's Mach-O checks
     * (a fat slice that is no Mach-O, LINKEDIT or load commands against the
     * rules) is not a library, though another path of the list is missing */
    expect("OSError: dlopen(/srv/env/lib/python3.12/site-packages/pkg/libpkg.so, 0x0006): tried: "
           "'/srv/env/lib/python3.12/site-packages/pkg/libpkg.so' (slice is not valid mach-o "
           "file), '/System/Volumes/Preboot/Cryptexes/OS/srv/env/lib/python3.12/site-packages/pkg/"
           "libpkg.so' (no such file)",
           "not_a_library", "libpkg.so", NULL);
    expect(
        "ERROR: Unable to load dependent library /opt/app/lib/libdep.1.dylib\nMessage:dlopen(/opt/"
        "app/lib/libdep.1.dylib, 0x000A): tried: '/opt/app/lib/libdep.1.dylib' (mis-aligned "
        "LINKEDIT string pool, fileOffset=0x00001F00), '/usr/lib/libdep.1.dylib' (no such file, "
        "not in dyld cache)",
        "not_a_library", "libdep.1.dylib", NULL);
    /* a path with no file at all stays missing, and a segment past the end
     * of the file is the truncated reason, not a Mach-O rule */
    expect("OSError: dlopen(/opt/app/lib/libdep.1.dylib, 0x0006): tried: '/opt/app/lib/"
           "libdep.1.dylib' (no such file), '/usr/lib/libdep.1.dylib' (no such file, not in dyld "
           "cache)",
           "missing_library", "libdep.1.dylib", NULL);
    expect("OSError: dlopen(/opt/app/lib/libdep.1.dylib, 0x0006): truncated mach-o error: segment "
           "__LINKEDIT extends to 212992 which is past end of file 204800",
           "corrupted_file", "libdep.1.dylib", NULL);
    /* tensorpipe's driver check could not even name the driver's error: the
     * stub libcuda.so answers every call with CUDA_ERROR_STUB_LIBRARY */
    expect("In create at /src/tensorpipe/tensorpipe/common/cuda_lib.h:105 \"res != CUDA_SUCCESS\"",
           "stub_library", "libcuda.so", NULL);
    /* an assertion on another result is not the driver's */
    expect_unnamed(
        "In create at /src/tensorpipe/tensorpipe/common/cuda_lib.h:98 \"ptr == nullptr\"", NULL);
}

static void q1_o11_opened(void **state)
{
    (void)state;
    /* the JVM's "PATH: reason" without the exception before it; a UUID an
       extractor put before the library's own name is no part of it */
    expect("D:\\svc\\lib\\jni_codec.dll: Can't find dependent libraries", "missing_library",
           "jni_codec.dll", NULL);
    expect("C:\\Temp\\0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9-whisper-jni.dll: Can't find "
           "dependent libraries",
           "missing_library", "whisper-jni.dll", NULL);
    /* Ruby's dln on Windows: "%d: %s - %s" of LoadLibrary's code, the message, the file */
    expect("kernel_require.rb:85:in `require': 126: The specified module could not be found.   - "
           "C:/Ruby30/gems/ffi-1.15.5/lib/ffi_c.so (LoadError)",
           "missing_library", "ffi_c.so", NULL);
    /* the ordinal dialog with its number retyped as a placeholder */
    expect("The ordinal XXX could not be located in the dynamic link library SSLEAY32.dll.",
           "missing_ordinal", "SSLEAY32.dll", NULL);
    /* an entry-point dialog whose long name the message box broke over lines */
    expect_symbol(
        "The procedure entry point\n_ZN5boost6system15system_categoryEvXYZ\nAbc could not "
        "be located in the dynamic link library\nC:\\app\\libboost_system.dll",
        "missing_symbol", "libboost_system.dll", "_ZN5boost6system15system_categoryEvXYZAbc");
    /* "from pkg._ext import name": the private module loads */
    expect("from pkg.native._core import Engine\nImportError: DLL load failed: The specified "
           "module could not be found.",
           "missing_library", "_core", NULL);
    /* 126 told in the past tense; .NET's message in lower case; CJK quotes; "DLL X" */
    expect("Error: The specified module was not found.\n\\\\?\\C:\\a\\node_modules\\x\\addon.node",
           "missing_library", "addon.node", NULL);
    expect("unable to load dll 'tesseract50': the specified module could not be found.",
           "missing_library", "tesseract50.dll", NULL);
    expect("cannot find \xe3\x80\x8c"
           "nvcuda.dll\xe3\x80\x8d",
           "missing_library", "nvcuda.dll", NULL);
    expect("it says DLL MSVCR120 is missing", "missing_library", "MSVCR120.dll", NULL);
    /* ONNX Runtime's GetApi; node-ffi's Win32 code */
    expect("C:\\x>run.exe\nThe requested API version [18] is not available, only API versions "
           "[1, 14] are supported in this build.",
           "shadowed_library", "onnxruntime.dll", NULL);
    expect_unnamed("Error: Dynamic Linking Error: Win32 error 126", "missing_library");
}

static void r1_o17_opened(void **state)
{
    (void)state;
    /* the entry-point dialog: its fixed parts and the DLL last, whatever the
       words for the library between "in" and the DLL, in English and French */
    expect_symbol("_The procedure entry point IsWow64Process2 could not be located in the dynamic "
                  "library KERNEL32.dll._",
                  "missing_symbol", "KERNEL32.dll", "IsWow64Process2");
    expect("The procedure entry point CreateEventW could not be located in dynamic link library "
           "api-ms-win-core-synch-l1-2-0.dll",
           "missing_symbol", "api-ms-win-core-synch-l1-2-0.dll", NULL);
    expect("Le point d'entr\xc3\xa9"
           "e de proc\xc3\xa9"
           "dure _vscwprintf est introuvable dans la biblioth\xc3\xa8"
           "que de liaisons dynamiques msvcrt.dll",
           "missing_symbol", "msvcrt.dll", NULL);
    /* a catalogue message copied without its closing full stop */
    struct td_explain x;
    explain("ImportError: Module use of python27.dll conflicts with this version of Python", &x);
    assert_true(x.n_matches > 0);
    assert_string_equal(x.matches[0].id, "py-pythonxy-dll-conflict");
    td_explain_free(&x);
    /* .NET: an assembly's display name is the file Name.dll (inside extra
       quotes too); its own text for 0x8007000B is ERROR_BAD_FORMAT's */
    expect("System.BadImageFormatException: Could not load file or assembly '\"Memory, "
           "Version=1.2.21.0, Culture=neutral, PublicKeyToken=null\"  or one of its dependencies. "
           "An attempt was made to load a program with an incorrect format.",
           "wrong_architecture", "Memory.dll", NULL);
    expect("System.BadImageFormatException: Could not load file or assembly 'C:\\Program Files "
           "(x86)\\dotnet\\shared\\X\\8.0.0\\System.Windows.Forms.dll'. Format of the executable "
           "(.exe) or library (.dll) is invalid.",
           "wrong_architecture", "System.Windows.Forms.dll", NULL);
    /* "lib<name>(<project>) not found": a bare library name, the platform's file of it */
    expect("2017-03-18 16:33:26 ERROR    libcrypto(OpenSSL) not found", "missing_library",
           "libcrypto.so", NULL);
    /* a path shortened with an ellipsis; a stack frame's "at" glued to the
       name by a lost line break */
    expect("Uncaught Exception:Error: The specified module could not be found.?\\E:\\Program "
           "Files(x86)\\vdi\\resourceslapp,asar.un...vdisdk.nodeat process,func [as dlopen] (node:",
           "missing_library", "vdisdk.node", NULL);
    expect("Error: The specified module could not be found.\n\\\\?\\C:\\w\\addon.nodeat "
           "Object.Module._extensions..node (node:internal/modules/cjs/loader:1340:18)",
           "missing_library", "addon.node", NULL);
    /* a stand-in name (xxx.dll) beside the file the code loads */
    expect("get \"failed to load xxx.dll: the specified module could not be found\" error\n"
           "canDll, err := syscall.LoadDLL(\"./sdk/VCI_CAN.dll\")",
           "missing_library", "VCI_CAN.dll", NULL);
    /* the JVM's sentence alone: the kind, no file */
    expect_unnamed("\"Can't load IA 32-bit .dll on a AMD 64-bit platform\"", "wrong_architecture");
}

/* Set O19: .NET's DllNotFoundException in any display language names the DLL in quotes right
 * after the word "DLL", the Win32 code as an HRESULT on the same line; Chinese may drop the
 * space before "DLL". The name is the DllImport's: its file adds ".dll" (set O54). */
static void o19_dotnet_dll_in_any_language(void **state)
{
    (void)state;
    expect("System.DllNotFoundException: No se puede cargar el archivo DLL 'foo_native': No se "
           "puede encontrar el m\xc3\xb3"
           "dulo especificado. (Excepci\xc3\xb3n de HRESULT: "
           "0x8007007E)",
           "missing_library", "foo_native.dll", NULL);
    expect("System.DllNotFoundException: DLL \"foo_native\": Die angegebene Prozedur wurde "
           "nicht gefunden. (Ausnahme von HRESULT: 0x8007007F) kann nicht geladen werden.",
           "missing_symbol", "foo_native.dll", NULL);
    expect("System.DllNotFoundException: \xd0\x9d\xd0\xb5 \xd1\x83\xd0\xb4\xd0\xb0\xd0"
           "\xb5\xd1\x82\xd1\x81\xd1\x8f \xd0\xb7\xd0\xb0\xd0\xb3\xd1\x80\xd1\x83\xd0"
           "\xb7\xd0\xb8\xd1\x82\xd1\x8c DLL \"foo_native.dll\": \xd0\x9d\xd0\xb5 "
           "\xd0\xbd\xd0\xb0\xd0\xb9\xd0\xb4\xd0\xb5\xd0\xbd \xd1\x83\xd0\xba\xd0\xb0\xd0"
           "\xb7\xd0\xb0\xd0\xbd\xd0\xbd\xd1\x8b\xd0\xb9 \xd0\xbc\xd0\xbe\xd0\xb4\xd1\x83"
           "\xd0\xbb\xd1\x8c. (0x8007007E)",
           "missing_library", "foo_native.dll", NULL);
    expect("\xe6\x97\xa0\xe6\xb3\x95\xe5\x8a\xa0\xe8\xbd\xbd"
           "DLL\"Runtime\":"
           "\xe6\x89\xbe\xe4\xb8\x8d\xe5\x88\xb0\xe6\x8c\x87\xe5\xae\x9a\xe7\x9a\x84"
           "\xe6\xa8\xa1\xe5\x9d\x97\xe3\x80\x82\n\xe5\xbc\x82\xe5\xb8\xb8\xe6\x9d\xa5"
           "\xe8\x87\xaaHRESULT:0x8007007E",
           "missing_library", "Runtime.dll", NULL);
    /* Python's "DLL load failed while importing X:" prints no code: the Italian 127 gives it */
    expect("ImportError: DLL load failed while importing _C: Impossibile trovare la procedura "
           "specificata.",
           "missing_symbol", "_C.pyd", NULL);
}

/* Set O20 (docs/explain.md "Session 17: set O20"): the newest releases'
 * raisers. Composed texts, each in the raiser's own format. */
static void o20_newest_raisers(void **state)
{
    (void)state;
    /* NumPy's C-API check names no file: a Cython module's own init frame is
     * the module; else the module of the last import (not its names) */
    expect(
        "A module that was compiled using NumPy 1.x cannot be run in\n"
        "NumPy 2.1.0 as it may crash.\n"
        "  File \"/srv/venv/lib/python3.12/site-packages/pkg/__init__.py\", line 3, in <module>\n"
        "    from pkg.fastcore import helper, other\n"
        "ImportError: numpy.core.multiarray failed to import",
        "companion_mismatch", "fastcore", NULL);
    expect(">>> import mymod\n\nA module that was compiled using NumPy 1.x cannot be run in\n"
           "NumPy 2.0.1 as it may crash.\n"
           "  File \"mymod.pyx\", line 1, in init mymod\n",
           "companion_mismatch", "mymod", NULL);
    expect("RuntimeError: module compiled against ABI version 0x2000000 but this version of numpy "
           "is 0x1000009\n  File \"x.py\", line 1, in <module>\n    import geo_ext\n",
           "companion_mismatch", "geo_ext", NULL);
    expect("RuntimeError: module compiled against ABI version 0x2000000 but this version of numpy "
           "is 0x1000009\n    from imgkit import _imaging\n",
           "companion_mismatch", "_imaging", NULL);
    /* one line of 36,000 "import " (252 KB, under the 256 KiB a text is
     * read whole, docs/explain.md "Long texts"): each is looked up on its
     * line in one pass; a walk back to the line's start per "import " was
     * quadratic (1.1 MB took over a minute) */
    {
        static const char head[] = "A module that was compiled using NumPy 1.x cannot be run in "
                                   "NumPy 2.0\n";
        size_t n = 36000, k = strlen(head);
        char *text = malloc(k + n * 7 + 1);
        assert_non_null(text);
        memcpy(text, head, k);
        for (size_t i = 0; i < n; i++)
            memcpy(text + k + i * 7, "import ", 7);
        text[k + n * 7] = '\0';
        expect(text, "companion_mismatch", "import", NULL);
        /* Python <= 3.7's "DLL load failed:" reads the last import too, with
         * the line's "from " found once a line */
        static const char dll[] = "ImportError: DLL load failed: The specified module could "
                                  "not be found.\n";
        char *dll_text = malloc(sizeof dll + n * 7);
        assert_non_null(dll_text);
        memcpy(dll_text, dll, sizeof dll - 1);
        memcpy(dll_text + sizeof dll - 1, text + k, n * 7 + 1);
        expect(dll_text, "missing_library", "import", NULL);
        free(dll_text);
        free(text);
    }
    /* bitsandbytes >= 0.43 names the binary it wanted for torch's CUDA */
    expect("RuntimeError: Configured CUDA binary not found at "
           "/opt/env/lib/python3.12/site-packages/bitsandbytes/libbitsandbytes_cuda131.so",
           "missing_library", "libbitsandbytes_cuda131.so", NULL);
    expect("Library not found: C:\\ai\\venv\\lib\\site-packages\\bitsandbytes\\"
           "libbitsandbytes_cuda132.dll. Maybe you need to compile it from source?",
           "missing_library", "libbitsandbytes_cuda132.dll", NULL);
    /* torch.ops.load_library's own line, without the loader's reason */
    expect("    raise OSError(f\"Could not load this library: {path}\") from e\n"
           "OSError: Could not load this library: "
           "D:\\env\\Lib\\site-packages\\torchaudio\\lib\\libtorchaudio.pyd",
           "missing_library", "libtorchaudio.pyd", NULL);
    /* torchcodec's list: lines of one length (they differ in a digit) that
     * end with a file's name are no terminal's wrap */
    expect("FFmpeg version 7: Could not load this library: "
           "/Users/kai/.venv/lib/python3.13/site-packages/torchcodec/libtorchcodec_core7.dylib\n"
           "FFmpeg version 6: Could not load this library: "
           "/Users/kai/.venv/lib/python3.13/site-packages/torchcodec/libtorchcodec_core6.dylib\n"
           "[end of libtorchcodec loading traceback]",
           "missing_library", "libtorchcodec_core7.dylib", NULL);
    /* the extension imported before torch (its libc10.so not found), then
     * after torch: the undefined symbol is the later attempt, past the
     * missing library, and its cause ranks first */
    expect("$ python -c 'import rope_ext'\n"
           "ImportError: libc10.so: cannot open shared object file: No such file or directory\n"
           "$ python -c 'import torch, rope_ext'\n"
           "ImportError: "
           "/srv/env/lib/python3.12/site-packages/rope_ext.cpython-312-x86_64-linux-gnu.so: "
           "undefined symbol: _ZN3c104cuda9SetDeviceEi",
           "missing_symbol", NULL, "companion_mismatch");
    /* the other order: the missing library is the current state */
    expect("ImportError: "
           "/srv/env/lib/python3.12/site-packages/rope_ext.cpython-312-x86_64-linux-gnu.so: "
           "undefined symbol: _ZN3c104cuda9SetDeviceEi\n"
           "ImportError: libc10.so: cannot open shared object file: No such file or directory",
           NULL, NULL, "missing_library");
    /* no kernel image while an extension's function runs: its kernels */
    expect("  File \"/w/ops.py\", line 9, in forward\n"
           "    out = selective_scan_cuda.fwd(u, delta)\n"
           "torch.AcceleratorError: CUDA error: no kernel image is available for execution on the "
           "device",
           "gpu_arch_unsupported", "selective_scan_cuda", NULL);
    /* torch's own warning says torch lacks the architecture: torch's file */
    expect("NVIDIA B200 with CUDA capability sm_100 is not compatible with the current PyTorch "
           "installation.\n    out = selective_scan_cuda.fwd(u, delta)\n"
           "RuntimeError: CUDA error: no kernel image is available for execution on the device",
           "gpu_arch_unsupported", "libtorch_cuda.so", NULL);
    /* torch's own library is not an extension call */
    expect("RuntimeError: CUDA error: no kernel image is available for execution on the device\n"
           "C:\\env\\Lib\\site-packages\\torch\\lib\\torch_cuda.dll",
           "gpu_arch_unsupported", "torch_cuda.dll", NULL);
}

/* O21 (Linux native software): a shell's ENOENT for a program that is there
 * is its missing ELF interpreter (bash 5.1's "required file not found", ash
 * and dash's "not found" for a program run by its path): the interpreter the
 * text names, else the program; glibc's page-size refusal is a build for
 * another page size, a segment misaligned against its own alignment a file
 * no linker wrote */
static void o21_interpreter_and_page_size(void **state)
{
    (void)state;
    expect("$ file ./tool\n./tool: ELF 64-bit LSB executable, x86-64, dynamically linked, "
           "interpreter /lib64/ld-linux-x86-64.so.2, for GNU/Linux 3.2.0\n$ ./tool\n"
           "bash: ./tool: cannot execute: required file not found",
           "missing_library", "ld-linux-x86-64.so.2", NULL);
    expect("bash: ./tool: cannot execute: required file not found", "missing_library", "tool",
           NULL);
    expect("/app # ./server --help\nsh: ./server: not found", "missing_library", "server", NULL);
    expect("sh: 1: /opt/app/bin/run: not found", "missing_library", "run", NULL);
    /* a command looked up on PATH is not a program the shell was given */
    expect_unnamed("sh: 1: cmake: not found", NULL);
    expect("player: error while loading shared libraries: libsystemd.so.0: ELF load command "
           "alignment not page-aligned",
           "wrong_architecture", "libsystemd.so.0", NULL);
    expect("ImportError: /opt/venv/lib/python3.11/site-packages/orjson/orjson.so: ELF load "
           "command address/offset not page-aligned",
           "wrong_architecture", "orjson.so", NULL);
    expect("OSError: /opt/lib/libpatched.so: ELF load command address/offset not properly aligned",
           "corrupted_file", "libpatched.so", NULL);
}

/* Session 18, S1 opened and set O24: raisers whose message names the file in
 * their own format (DuckDB's extension loader, Windows Installer's error 1723),
 * ONNX Runtime's older GetApi sentence, cffi's per-name lines where the Windows
 * code says which name was this platform's, and .NET's own text for 193. */
static void s1_o24_opened(void **state)
{
    (void)state;
    expect("The given version [16] is not supported, only version 1 to 10 is supported in this "
           "build.\nerror: process didn't exit successfully: `target\\debug\\demo.exe` (exit "
           "code: 101)",
           "shadowed_library", "onnxruntime.dll", NULL);
    expect("Error: IO Error: Extension \"C:\\Users\\ana\\.duckdb\\extensions\\v1.0.0\\windows_amd64"
           "\\spatial.duckdb_extension\" could not be loaded: The specified module could not be "
           "found.",
           "missing_library", "spatial.duckdb_extension", NULL);
    /* DuckDB's unsigned-extension refusal is no load failure of the file */
    expect_unnamed("Error: IO Error: Extension \"C:\\x\\my.duckdb_extension\" could not be loaded "
                   "because its signature is either missing or invalid and unsigned extensions "
                   "are disabled by configuration (allow_unsigned_extensions)",
                   NULL);
    expect("Error 1723. There is a problem with this Windows Installer package. A DLL required for "
           "this install to complete could not be run. Contact your support personnel or package "
           "vendor.  Action CWBInitialSetup2, entry: InitialSetup2, library: "
           "C:\\Windows\\Installer\\MSI76D3.tmp",
           "missing_library", "MSI76D3.tmp", NULL);
    expect("OSError: no library called \"pango-1.0\" was found\nno library called "
           "\"libpango-1.0-0\" was found\ncannot load library 'libpango-1.0.so.0': error 0x7e\n"
           "cannot load library 'libpango-1.0-0.dll': error 0x7e",
           "missing_library", "libpango-1.0-0.dll", NULL);
    expect_unnamed("System.ComponentModel.Win32Exception (0x80004005): The specified executable is "
                   "not a valid application for this OS platform.",
                   "wrong_architecture");
    /* a launcher's own words for a failed process start with error 193; a
       number that only begins with 193 is no code */
    expect_unnamed("Failed to launch game. Error: 193", "wrong_architecture");
    expect_unnamed("Failed to start server. Error: 1934 connections", NULL);
}

static void o26_several_files(void **state)
{
    (void)state;
    /* an entry-point dialog names the importer (Windows 8 and later): a line
     * that pairs the same name with another DLL names the exporter, and a
     * name of the C++ standard library (Itanium std::, GCC's __emutls_v.
     * before it) is the MinGW C++ runtime's */
    expect("The procedure entry point ?Init@Core@@QEAAXXZ could not be located in the dynamic "
           "link library C:\\app\\plugin.dll.\nDependencies: ?Init@Core@@QEAAXXZ in core.dll is "
           "missing",
           "missing_symbol", "core.dll", NULL);
    /* two dialogs in another language name two importers: neither is the
     * other's exporter (no joining word between the name and the DLL) */
    expect("Le point d'entr\xc3\xa9"
           "e de proc\xc3\xa9"
           "dure ?Run@Eng@@QEAAXXZ est introuvable "
           "dans la biblioth\xc3\xa8que de liens dynamiques C:\\x\\a.dll.\nLe point d'entr\xc3\xa9"
           "e de proc\xc3\xa9"
           "dure ?Run@Eng@@QEAAXXZ est introuvable dans la biblioth\xc3\xa8que de "
           "liens dynamiques C:\\x\\b.dll.",
           "missing_symbol", "a.dll", NULL);
    expect("The procedure entry point __emutls_v._ZSt11__once_call could not be located in the "
           "dynamic link library C:\\app\\Qt6Network.dll.",
           "missing_symbol", "libstdc++-6.dll", NULL);
    expect("The procedure entry point _ZNSt3__14cout could not be located in the dynamic link "
           "library C:\\app\\tool.exe.",
           "missing_symbol", "libc++.dll", NULL);
    /* the runtime named itself is read as before; a name outside std:: too */
    expect("The procedure entry point _ZSt28__throw_bad_array_new_lengthv could not be located in "
           "the dynamic link library libstdc++-6.dll",
           "missing_symbol", "libstdc++-6.dll", NULL);
    expect("The procedure entry point _ZN5boost6system6detail10system_cat could not be located in "
           "the dynamic link library C:\\app\\app.exe.",
           "missing_symbol", "app.exe", NULL);
    /* Wine's loader: the first name is the DLL that failed, the parenthesis its importer; the
     * NTSTATUS decides the kind, 0xC000012F (no PE image) over the 193 it maps to */
    expect("0024:err:module:import_dll Loading library hid.dll (which is needed by "
           "L\"C:\\\\tool\\\\tool.exe\") failed (error c000012f).",
           "not_a_library", "hid.dll", NULL);
    expect("0024:err:module:import_dll Library VCRUNTIME140.dll (which is needed by "
           "L\"C:\\\\tool\\\\tool.exe\") not found",
           "missing_library", "VCRUNTIME140.dll", NULL);
    /* dyld's tried list without "Library not loaded": the refused path, not the
     * image in "Referenced from" */
    expect("  Referenced from: <0000> /opt/x/_cffi.cpython-312-darwin.so\n  Reason: tried: "
           "'/opt/x/libffi.8.dylib' (mach-o file, but is an incompatible architecture (have "
           "'arm64', need 'x86_64')), '/usr/lib/libffi.8.dylib' (no such file, not in dyld cache)",
           "wrong_architecture", "libffi.8.dylib", NULL);
    /* a dependency checker's verdict after a load error: the dependency it names */
    expect("OSError: [WinError 126] Error loading \"C:\\env\\x\\ops.dll\" or one of its "
           "dependencies.\nDependencies shows two dependencies are missing: `mkl_core.2.dll`, "
           "`tbb12.dll`",
           "missing_library", "mkl_core.2.dll", NULL);
}

static void s2_o25_opened(void **state)
{
    (void)state;
    /* the JVM's reading of the ELF header after dlopen failed (os_linux.cpp):
     * glibc passes over a file of another machine as if it were not there, so
     * its ENOENT does not undo the JVM's diagnosis; JDK 8's "-bit" form too */
    expect("Exception in thread \"main\" java.lang.UnsatisfiedLinkError: /tmp/jni-77/libserial.so: "
           "/tmp/jni-77/libserial.so: cannot open shared object file: No such file or directory "
           "(Possible cause: can't load AMD 64-bit .so on a AARCH64-bit platform)",
           "wrong_architecture", "libserial.so", NULL);
    expect("java.lang.UnsatisfiedLinkError: /opt/app/natives/libjcodec.so: /opt/app/natives/"
           "libjcodec.so: cannot open shared object file: No such file or directory (Possible "
           "cause: can't load AARCH64 .so on a AMD 64 platform)",
           "wrong_architecture", "libjcodec.so", NULL);
    /* without the JVM's hint the file is missing */
    expect("java.lang.UnsatisfiedLinkError: /tmp/jni-77/libserial.so: /tmp/jni-77/libserial.so: "
           "cannot open shared object file: No such file or directory",
           "missing_library", "libserial.so", NULL);
    /* a host's log that re-wrapped the loader's message between two words */
    expect("[plugin-host] failed to load /opt/synth/plugins/libreverb.so: /opt/synth/plugins/"
           "libreverb.so: cannot enable executable\n    stack as shared object requires: "
           "Invalid argument",
           "unreadable_file", "libreverb.so", NULL);
    /* the container runtimes' checks of the image's CUDA against the driver */
    expect("nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.4, please "
           "update your driver to a newer version, or use an earlier cuda container: unknown.",
           "cuda_driver_too_old", "libcuda.so.1", NULL);
    expect("nvidia-docker | 2017/03/02 09:11:45 Error: unsupported CUDA version: driver 8.0 < "
           "image 9.0",
           "cuda_driver_too_old", "libcuda.so.1", NULL);
    /* 803: the CUDA driver in use (a forward-compatibility libcuda, an
     * image's own) is newer than the kernel-mode driver under it */
    expect("CUDA error at helper_cuda.h:816 code=803(cudaErrorSystemDriverMismatch) "
           "\"cudaGetDeviceCount(&device_count)\"",
           "cuda_driver_too_old", "libcuda.so.1", NULL);
    expect("RuntimeError: Unexpected error from cudaGetDeviceCount(). Error 803: system has "
           "unsupported display driver / cuda driver combination",
           "cuda_driver_too_old", "libcuda.so.1", NULL);
    /* a driver error whose name printed as (null): only the stub leaves it unset */
    expect("CUDA Error: (null) /src/plugin/fmha/fused_multihead_attention_v2.h 641", "stub_library",
           "libcuda.so", NULL);
    /* .NET's probing put "lib" before a name that had it: the name asked
     * for, made the platform's file (LD_DEBUG: Linux's suffix); a dependency
     * the loader names is the file missing */
    expect("System.DllNotFoundException: Unable to load shared library 'libgdiplus' or one of its "
           "dependencies. In order to help diagnose loading problems, consider setting the "
           "LD_DEBUG environment variable: liblibgdiplus: cannot open shared object file: No "
           "such file or directory",
           "missing_library", "libgdiplus.so", NULL);
    expect("Unhandled exception. System.DllNotFoundException: Unable to load shared library "
           "'libdl' or one of its dependencies. In order to help diagnose loading problems, "
           "consider setting the DYLD_PRINT_LIBRARIES environment variable: dlopen(liblibdl, "
           "0x0001): tried: 'liblibdl' (no such file)",
           "missing_library", "libdl.dylib", NULL);
    expect("System.DllNotFoundException: Unable to load shared library 'libSkiaSharp' or one of "
           "its dependencies. In order to help diagnose loading problems, consider setting the "
           "LD_DEBUG environment variable: libfontconfig.so.1: cannot open shared object file: "
           "No such file or directory",
           "missing_library", "libfontconfig.so.1", NULL);
    /* a logical name .NET made the platform's file of ("gdiplus" -> libgdiplus,
     * libgdiplus.so): the name the loader itself printed is the file, not
     * the runtime's logical name */
    expect("System.DllNotFoundException: Unable to load shared library 'gdiplus' or one of its "
           "dependencies. In order to help diagnose loading problems, consider setting the "
           "LD_DEBUG environment variable: libgdiplus: cannot open shared object file: No such "
           "file or directory",
           "missing_library", "libgdiplus", NULL);
    expect("System.DllNotFoundException: Unable to load shared library 'SkiaSharp' or one of its "
           "dependencies. In order to help diagnose loading problems, consider setting the "
           "LD_DEBUG environment variable: libSkiaSharp.so: cannot open shared object file: No "
           "such file or directory",
           "missing_library", "libSkiaSharp.so", NULL);
    /* a versioned name the probing gave the suffix again: the name asked for */
    expect("System.DllNotFoundException: Unable to load shared library 'libtdjson.so.1' or one of "
           "its dependencies. In order to help diagnose loading problems, consider setting the "
           "LD_DEBUG environment variable: liblibtdjson.so.1.so: cannot open shared object file: "
           "No such file or directory",
           "missing_library", "libtdjson.so.1", NULL);
    expect("System.DllNotFoundException: Unable to load shared library 'tdjson.so.1' or one of "
           "its dependencies. In order to help diagnose loading problems, consider setting the "
           "LD_DEBUG environment variable: libtdjson.so.1.so: cannot open shared object file: "
           "No such file or directory",
           "missing_library", "tdjson.so.1", NULL);
    /* a runtime that hands dlopen the bare name first, then the platform's
     * file of it (Ruby FFI: X, then libX.so): the loader's first line names
     * the bare name as passed, a later one the file looked for */
    expect("Could not open library 'zstd': zstd: cannot open shared object file: No such file or "
           "directory. (LoadError)\nCould not open library 'libzstd.so': libzstd.so: cannot open "
           "shared object file: No such file or directory",
           "missing_library", "libzstd.so", NULL);
    /* .NET 6+ lists every name its probing tried, X.so before libX.so: the
     * try in the form of the platform's file is the file */
    expect("System.DllNotFoundException: Unable to load shared library 'SkiaSharp' or one of its "
           "dependencies. In order to help diagnose loading problems, consider setting the "
           "LD_DEBUG environment variable: \n/app/SkiaSharp.so: cannot open shared object file: "
           "No such file or directory\n/app/libSkiaSharp.so: cannot open shared object file: No "
           "such file or directory\n/app/SkiaSharp: cannot open shared object file: No such file "
           "or directory",
           "missing_library", "libSkiaSharp.so", NULL);
    /* the same on macOS, dyld's "dlopen(NAME, MODE)" for each try */
    expect("Could not open library 'vips.42': dlopen(vips.42, 0x0005): tried: 'vips.42' (no such "
           "file). (LoadError)\nCould not open library 'libvips.42.dylib': "
           "dlopen(libvips.42.dylib, 0x0005): tried: 'libvips.42.dylib' (no such file)",
           "missing_library", "libvips.42.dylib", NULL);
    /* dyld's list of the paths it tried for one library, its "Library not
     * loaded:" line cut from the paste: the file is the one it looked for
     * (a dependency), not the library the runtime asked for */
    expect("System.DllNotFoundException: Unable to load shared library 'libSDL2_ttf.dylib' or one "
           "of its dependencies.\n...\n  Reason: tried: '/opt/homebrew/opt/freetype/lib/"
           "libfreetype.6.dylib' (no such file), '/usr/local/lib/libfreetype.6.dylib' (no such "
           "file)",
           "missing_library", "libfreetype.6.dylib", NULL);
    /* JNA's own words when its resource path has no file of the library
     * (Native.extractFromResourcePath): the path names the platform's file */
    expect("Unable to load library \n'MyScanner': Can't obtain InputStream for "
           "win32-x86-64/MyScanner.dll",
           "missing_library", "MyScanner.dll", NULL);
    {
        /* review 24: JNA's resource path is always its platform's folder and
         * the file (RESOURCE_PREFIX + "/" + mapLibraryName): the same words
         * before a word of prose name no library */
        struct td_explain x;
        explain("Can't obtain InputStream for the config file", &x);
        assert_null(x.load.library);
        td_explain_free(&x);
    }
    /* ctypes.util.find_library found no file of the name and returned None,
     * which the load then refused: the file is the platform's file of the
     * name find_library looked for (X.dll on Windows) */
    expect("  File \"C:\\py\\lib\\site-packages\\pyzbar\\zbar_library.py\", line 20, in "
           "load\n    lib = ctypes.cdll.LoadLibrary(find_library('zbar'))\n  File "
           "\"C:\\py\\lib\\ctypes\\__init__.py\", line 452, in LoadLibrary\n    return "
           "self._dlltype(name)\nTypeError: LoadLibrary() argument 1 must be str, not None",
           "missing_library", "zbar.dll", NULL);
    /* Mono's DllNotFoundException (Unity's player) carries the DllImport's
     * name alone */
    expect(
        "DllNotFoundException: e_sqlite3\n  at SQLitePCL.SQLite3Provider_e_sqlite3.NativeMethods."
        "sqlite3_libversion_number () [0x00000] in <00000000000000000000000000000000>:0",
        "missing_library", "e_sqlite3", NULL);
    /* ... which a text that shows its platform makes that platform's file */
    expect("DllNotFoundException: e_sqlite3\n  at Game.Db.Open () [0x00000] in "
           "C:\\Users\\me\\Game\\Assets\\Scripts\\Db.cs:12",
           "missing_library", "e_sqlite3.dll", NULL);
    /* .NET's Windows message names the DllImport's name, to which the
     * probing and LoadLibrary add ".dll": that is the file */
    expect(
        "System.DllNotFoundException: Unable to load DLL 'blosc' or one of its dependencies: The "
        "specified module could not be found. (0x8007007E)",
        "missing_library", "blosc.dll", NULL);
    expect("System.DllNotFoundException: 无法加载 DLL“Runtime.Native”: 找不到指定的模块。 "
           "(异常来自 HRESULT:0x8007007E)。",
           "missing_library", "Runtime.Native.dll", NULL);
    /* the rendezvous server's port held by another process: no kind of explain's */
    expect_unnamed("torch.distributed.DistNetworkError: The server socket has failed to listen on "
                   "any local network address. port: 29500, useIpv6: 0, code: -98, name: "
                   "EADDRINUSE, message: address already in use",
                   NULL);
    expect_unnamed("  File \"/env/lib/python3.8/site-packages/torch/distributed/rendezvous.py\", "
                   "line 142, in _tcp_rendezvous_handler\n    store = TCPStore(result.hostname, "
                   "result.port, world_size, start_daemon, timeout)\nRuntimeError: Address "
                   "already in use",
                   NULL);
    /* pip failing to replace a file of the package it installs is no load;
     * a path too long for its file operation still is path_too_long */
    expect_unnamed("ERROR: Could not install packages due to an OSError: [WinError 32] The process "
                   "cannot access the file because it is being used by another process: "
                   "'C:\\\\venv\\\\Lib\\\\site-packages\\\\torch\\\\lib\\\\torch_cpu.dll'",
                   NULL);
    expect_unnamed("ERROR: Could not install packages due to an EnvironmentError: [WinError 5] "
                   "Access is denied: 'C:\\\\Python38\\\\Lib\\\\site-packages\\\\~umpy\\\\core\\\\"
                   "_multiarray_umath.cp38-win_amd64.pyd'",
                   NULL);
    expect("OSError: [WinError 5] Access is denied. Error loading \"C:\\\\app\\\\venv\\\\lib\\\\"
           "site-packages\\\\torch\\\\lib\\\\c10.dll\" or one of its dependencies.",
           "unreadable_file", "c10.dll", NULL);
}

/* Windows texts of set O28 that name their file in words a user retyped:
 * CPython's "DLL load failed" in another case or without its blank, a module
 * name followed by the sentence's full stop, and "can not" in two words. */
static void o28_retyped_windows_forms(void **state)
{
    (void)state;
    expect("Import Error: Dll load failed while importing QtGui: The specified procedure was not "
           "found",
           "missing_symbol", "QtGui.pyd", NULL);
    expect("DLLLoad failed while importing QtCore.", "missing_library", "QtCore.pyd", NULL);
    expect("dll load failed while importing cv2: The specified module could not be found.",
           "missing_library", "cv2.pyd", NULL);
    /* the format's own words are left as they are; a dotted name keeps its dots */
    expect("ImportError: DLL load failed while importing scipy.linalg._fblas.", "missing_library",
           "_fblas.pyd", NULL);
    expect("a system-error message is showing stating that libcrypto-1_1-x64.dll can not be found.",
           "missing_library", "libcrypto-1_1-x64.dll", NULL);
    /* an issue's title in title case is read again in sentence case */
    expect("Could Not Find Module 'C:\\x\\llama.dll' (Or One Of Its Dependencies)",
           "missing_library", "llama.dll", NULL);
    expect("Dll Load Failed While Importing _C: The Specified Procedure Could Not Be Found",
           "missing_symbol", "_C.pyd", NULL);
    expect("Could Not Locate zlibwapi.dll", "missing_library", "zlibwapi.dll", NULL);
    {
        struct td_explain y;
        explain("How To Install The Visual C++ Redistributable For Foo.dll", &y);
        assert_null(y.load.kind);
        td_explain_free(&y);
    }
    /* the format without "while importing": the name before the colon, never
     * a word of prose */
    expect("ImportError: DLL load failed _iec61850 : %1 is not a valid Win32 application",
           "wrong_architecture", "_iec61850", NULL);
    /* prose that only says a DLL load failed is not the format: the code
     * decides, and nothing is named a module */
    static const char *const prose[] = {
        "dll load failed with errorcode 3221225501",
        "DLL load failed again: The specified module could not be found.",
    };
    for (size_t i = 0; i < sizeof prose / sizeof prose[0]; i++) {
        struct td_explain x;
        explain(prose[i], &x);
        assert_null(x.fields.module);
        td_explain_free(&x);
    }
}

/* Set O30: failures told in the words of the framework that hit them. JAX's
 * CUDA version checks name a component by its product name and its version
 * number (the library is that component's, of the installed major); a PJRT
 * plugin of another API version; vLLM finding no platform; ggml's Metal
 * loader missing its shader library. */
static void o30_framework_words(void **state)
{
    (void)state;
    expect("CUDA backend failed to initialize: Found cuSOLVER version 11002, but JAX was built "
           "against version 11401, which is newer. The copy of cuSOLVER that is installed must "
           "be at least as new as the version against which JAX was built.",
           "cuda_runtime_mismatch", "libcusolver.so.11", NULL);
    expect("Found CUDA version 12010, but JAX was built against version 12020, which is newer.",
           "cuda_runtime_mismatch", "libcudart.so.12", NULL);
    expect("Found cuBLAS version 120100, but JAX was built against version 120300, which is newer.",
           "cuda_runtime_mismatch", "libcublas.so.12", NULL);
    /* the later form: the installed version is the "Installed version" line */
    expect(
        "RuntimeError: Unable to use CUDA because of the following issues with CUDA components:\n"
        "Outdated cuDNN installation found.\nVersion JAX was built against: 90100\n"
        "Minimum supported: 90100\nInstalled version: 8907\n"
        "The local installation version must be no lower than 90100.",
        "cuda_runtime_mismatch", "libcudnn.so.8", NULL);
    expect("Outdated cuSPARSE installation found.\nVersion JAX was built against: 12200\n"
           "Minimum supported: 12100\nInstalled version: 11700",
           "cuda_runtime_mismatch", "libcusparse.so.11", NULL);
    expect_unnamed("jaxlib.xla_extension.XlaRuntimeError: INVALID_ARGUMENT: Mismatched PJRT plugin "
                   "PJRT API version (0.47) and framework PJRT API version 0.54).",
                   "companion_mismatch");
    expect_unnamed("    raise RuntimeError(\"Failed to infer device type\")\n"
                   "RuntimeError: Failed to infer device type",
                   "gpu_not_visible");
    /* JAX running on the CPU: a jaxlib without CUDA (both its phrasings);
     * DJL finding no engine build for the CUDA it detected, its OS token
     * the platform */
    expect_unnamed("WARNING:jax._src.xla_bridge:No GPU/TPU found, falling back to CPU. (Set "
                   "TF_CPP_MIN_LOG_LEVEL=0 and rerun for more info.)",
                   "torch_variant_mismatch");
    expect_unnamed("An NVIDIA GPU may be present on this machine, but a CUDA-enabled jaxlib is not "
                   "installed. Falling back to cpu.",
                   "torch_variant_mismatch");
    expect_unnamed(
        "[main] WARN ai.djl.mxnet.jna.LibUtils -- No matching cuda flavor for win found: "
        "cu112mkl/sm_86.",
        "cuda_runtime_mismatch");
    expect_platform("No matching cuda flavor for win found: cu112mkl/sm_86.", NULL, "windows",
                    "text", "DJL");
    expect_platform("No matching cuda flavor for linux-x86_64 found: cu065.", NULL, "linux", "text",
                    "DJL");
    expect("ggml_metal_init: loading 'ggml-metal.metal'\nggml_metal_init: error: Error "
           "Domain=NSCocoaErrorDomain Code=260 \"The file could not be opened.\" "
           "UserInfo={NSFilePath=ggml-metal.metal, NSUnderlyingError=0x600001c4af40}",
           "missing_library", "ggml-metal.metal", NULL);
    /* Foundation's 260 for another file is not the Metal loader's */
    expect_unnamed("Error Domain=NSCocoaErrorDomain Code=260 \"The file could not be opened.\" "
                   "UserInfo={NSFilePath=/Users/x/model.gguf}",
                   NULL);
}

/* Set O31: a load failure told in the program's own words. JNA names the
 * library as the program asked for it, a bare name it maps to the
 * platform's file (X.dll on Windows) or a path, and after it the reasons,
 * one per place tried, in the system's language. */
static void o31_own_words(void **state)
{
    (void)state;
    expect("java.lang.UnsatisfiedLinkError: Unable to load library 'libvlc':\n"
           "\xe6\x89\xbe\xe4\xb8\x8d\xe5\x88\xb0\xe6\x8c\x87\xe5\xae\x9a\xe7\x9a\x84\xe6\xa8\xa1"
           "\xe5\x9d\x97\xe3\x80\x82\n\n"
           "Native library (win32-x86-64/libvlc.dll) not found in resource path ()\n"
           "\tat com.sun.jna.NativeLibrary.loadLibrary(Unknown Source)",
           "missing_library", "libvlc.dll", NULL);
    expect("Exception in thread \"main\" java.lang.UnsatisfiedLinkError: Unable to load library "
           "'C:\\Users\\me\\AppData\\Local\\Temp\\libMCS.dll': Native library "
           "(win32-x86-64/C:\\Users\\me\\AppData\\Local\\Temp\\libMCS.dll) not found in "
           "resource path",
           "missing_library", "libMCS.dll", NULL);
    expect("Exception in thread \"main\" java.lang.UnsatisfiedLinkError: Unable to load library "
           "'C_Part':\nThe specified module could not be found.\n\n"
           "\tat com.sun.jna.Native.open(Native Method)\n"
           "\tat C:\\work\\app\\Hello.java",
           "missing_library", "C_Part.dll", NULL);
}

/* Set O32: GPU-stack failures told by a CUDA library or tool. Under WSL 2
 * the driver library is the Windows driver's, mapped in from /usr/lib/wsl/lib,
 * so a no-device error there is a Linux driver's libcuda.so.1 found first
 * (NVIDIA's CUDA on WSL guide); elsewhere it stays a GPU not visible. WSL is
 * also named in lower case ("wsl2") and by its library folder. */
static void o32_no_device_under_wsl(void **state)
{
    (void)state;
    expect("I have the same issue with my cuda 12.1 run under wsl2\n"
           "[E 12/20/24 08:45:40.689 2984] [cuda_driver.h:operator()@92] CUDA Error "
           "CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected while calling init (cuInit)",
           "shadowed_library", "libcuda.so.1", NULL);
    expect("Ubuntu 22.04 on WSL2\nnumba.cuda.cudadrv.error.CudaSupportError: Error at driver "
           "init:\n[100] Call to cuInit results in CUDA_ERROR_NO_DEVICE:",
           "shadowed_library", "libcuda.so.1", NULL);
    /* the same error on a Linux machine is a GPU the driver does not show */
    expect("Ubuntu 22.04\n[E 12/20/24 08:45:40.689 2984] [cuda_driver.h:operator()@92] CUDA "
           "Error CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected while calling init "
           "(cuInit)",
           "gpu_not_visible", "libcuda.so.1", NULL);
    expect_platform("my cuda 12.1 run under wsl2 with python 3.10", NULL, "linux", "text", "WSL");
    expect_platform("export LD_LIBRARY_PATH=/usr/lib/wsl/lib:$LD_LIBRARY_PATH", NULL, "linux",
                    "text", "WSL");
}

/* O35: the module a loader's error stands next to, whatever its suffix (a
 * MATLAB MEX file, a host's plug-in); a program whose start failed with a
 * load status, the needer; a message's word that is no file; the extension
 * a Cython init frame or torchvision's warning names. */
static void o35_files_at_loader_errors(void **state)
{
    (void)state;
    expect("Invalid MEX-file 'C:\\work\\toolbox\\solver.mexw64': The specified module could not "
           "be found.",
           "missing_library", "solver.mexw64", NULL);
    /* the path closes its own line with a colon; the message in Japanese */
    expect("Invalid MEX-file\n'D:\\a b\\mex\\fit.mexw64':\n"
           "\xe6\x8c\x87\xe5\xae\x9a\xe3\x81\x95\xe3\x82\x8c\xe3\x81\x9f\xe3\x83\xa2\xe3\x82\xb8"
           "\xe3\x83\xa5\xe3\x83\xbc\xe3\x83\xab\xe3\x81\x8c\xe8\xa6\x8b\xe3\x81\xa4\xe3\x81\x8b"
           "\xe3\x82\x8a\xe3\x81\xbe\xe3\x81\x9b\xe3\x82\x93\xe3\x80\x82",
           "missing_library", "fit.mexw64", NULL);
    /* words between the path and the message (MATLAB's Chinese form) */
    expect("MEX \xe6\x96\x87\xe4\xbb\xb6 'E:\\m\\seg.mexw64' \xe6\x97\xa0\xe6\x95\x88: "
           "\xe6\x89\xbe\xe4\xb8\x8d\xe5\x88\xb0\xe6\x8c\x87\xe5\xae\x9a\xe7\x9a\x84\xe6\xa8\xa1"
           "\xe5\x9d\x97\xe3\x80\x82",
           "missing_library", "seg.mexw64", NULL);
    expect("Cannot load library C:/app/addins/sheet.xll: The specified module could not be found.",
           "missing_library", "sheet.xll", NULL);
    /* a quoted script before the message is no module, nor a source file
     * or a command line (blanks, no root) before a status */
    static const char *const not_modules[][2] = {
        {"File \"C:\\x\\run.py\": The specified module could not be found.", "run.py"},
        {"running `cmd\\version\\main.go` returns `exit status 0xc0000139`", "main.go"},
        {"`cmd /c tools\\helper.exe` is giving me `exit status 3221225794`", "helper.exe"},
    };
    struct td_explain x;
    for (size_t i = 0; i < sizeof not_modules / sizeof not_modules[0]; i++) {
        explain(not_modules[i][0], &x);
        assert_null(file_named(&x.parts, not_modules[i][1]));
        td_explain_free(&x);
    }
    /* cargo's failed start: the program (a quoted command line's first word)
     * whose imports failed is the needer; no library is named */
    expect_needer("error: process didn't exit successfully: `target\\release\\tool.exe --in "
                  "D:/data/x.bin` (exit code: 0xc0000135, STATUS_DLL_NOT_FOUND)",
                  "missing_library", "target\\release\\tool.exe");
    /* quoted with the apostrophe's mark, after "didn't" */
    expect_needer("error: process didn't exit successfully: 'target\\debug\\run.exe D:/m/w.bin' "
                  "(exit code: 0xc0000135, STATUS_DLL_NOT_FOUND)",
                  "missing_library", "target\\debug\\run.exe");
    /* the same status as a signed exit code; an entry point not found */
    expect_needer("'C:\\x\\app.exe' exited with code -1073741511", "missing_symbol",
                  "C:\\x\\app.exe");
    /* a status with no path before it names no file */
    explain("Process finished with exit code -1073741515 (0xC0000135)", &x);
    assert_int_equal(x.parts.n_files, 0);
    td_explain_free(&x);
    /* "dynamic" of "dynamic library not found" is a word of the message */
    expect("GDExtension dynamic library not found: C:/g/addons/ext.windows.x86_64.dll",
           "missing_library", "ext.windows.x86_64.dll", NULL);
    /* a Cython init frame deeper than the import statement */
    expect("----> 1 import pkg\npkg\\core.pyx in init pkg.core()\n\nImportError: DLL load failed:",
           "missing_library", "core", NULL);
    /* torchvision's warning names its extension module by name */
    expect("C:\\env\\Lib\\site-packages\\torchvision\\io\\image.py:13: UserWarning: Failed to load "
           "image Python extension: '[WinError 126] The specified module could not be found.'",
           "missing_library", "image.pyd", NULL);
    expect("UserWarning: Failed to load image Python extension: '[WinError 127] The specified "
           "procedure could not be found.'",
           "missing_symbol", "image.pyd", NULL);
}

/* HEAD, UNIT repeated to some 240 KB on one line, then TAIL: a pasted text
 * as long as explain reads whole. Freed by the caller. */
static char *long_line(const char *head, const char *unit, const char *tail)
{
    size_t h = strlen(head), u = strlen(unit), t = strlen(tail), n = 240000 / u;
    char *text = malloc(h + n * u + t + 1);
    assert_non_null(text);
    memcpy(text, head, h);
    for (size_t i = 0; i < n; i++)
        memcpy(text + h + i * u, unit, u);
    memcpy(text + h + n * u, tail, t + 1);
    return text;
}

/* TEXT explained into X, with a hang guard, not a speed check: 5 s of CPU
 * time, 30-100 times what the one-pass readings take here even under the
 * sanitizers on a loaded machine (0.04-0.15 s plain), while the walks back
 * over a long line for every point took 11-16 s (no test asserts a time). */
static void explain_quickly(const char *text, struct td_explain *x)
{
    clock_t start = clock();
    explain(text, x);
    assert_true((double)(clock() - start) / CLOCKS_PER_SEC < 5.0);
}

/* The paths of b.dll and e.so read from HEAD, "a.so " repeated over a
 * line of 240 KB, and TAIL. */
static void long_line_paths(const char *head, const char *tail, const char *b_path,
                            const char *e_path)
{
    struct td_explain x;
    char *text = long_line(head, "a.so ", tail);
    explain_quickly(text, &x);
    assert_string_equal(file_named(&x.parts, "b.dll")->path, b_path);
    assert_string_equal(file_named(&x.parts, "e.so")->path, e_path);
    td_explain_free(&x);
    free(text);
}

/* A pattern whose match may span lines (a [[:space:]] between its parts,
 * "FILE:[[:space:]]*undefined symbol: S") was given the whole rest of the
 * text after its needle's window start: glibc's regexec tried every start
 * to the text's end, its opening class running from each to the end of a
 * long token, so "undefined symbol: _ZN" and 240 KB of "1a" took minutes.
 * Each needle's place is now tried in a window of its own. */
static void spanning_patterns_read_in_windows(void **state)
{
    (void)state;
    struct td_explain x;
    char *text = long_line("undefined symbol: _ZN", "1a", "");
    explain_quickly(text, &x);
    assert_string_equal(x.load.kind, "missing_symbol");
    td_explain_free(&x);
    free(text);
    /* a message wrapped after its file is still read across the line
     * break, in the window of its needle, with a long text after it */
    text = long_line("/a/libx.so:\n  undefined symbol: foo_bar\n", "x", "");
    explain_quickly(text, &x);
    assert_string_equal(x.load.kind, "missing_symbol");
    assert_string_equal(x.load.symbol, "foo_bar");
    assert_string_equal(x.load.library, "libx.so");
    td_explain_free(&x);
    free(text);
}

/* Readings of the points of a text (a loader's error, an assembly's
 * identity) carry the line's start along, so a line of 240 KB with such a
 * point every few words is read in one pass: looking back from each point
 * to its line's start took 11 s (a status every 40 bytes), 1.1 s (an
 * identity every 9) and 16 s ("error" every 6, a DLL looked for before it),
 * and still reads the path before each error and the DLL before a code;
 * the look back from a file name for a quote that opens its path is read
 * along with the names, and the directories before a name from where the
 * last name's were (3.3 s to 14 s before). */
static void long_lines_read_in_one_pass(void **state)
{
    (void)state;
    struct td_explain x;
    explain("'C:\\m\\a.mexw64': The specified module could not be found. 'C:\\m\\b.mexw64': "
            "The specified module could not be found.",
            &x);
    assert_non_null(file_named(&x.parts, "a.mexw64"));
    assert_non_null(file_named(&x.parts, "b.mexw64"));
    td_explain_free(&x);
    char *text = long_line("", "'C:\\x\\a.mexw64' exited with code 0xc0000135 ", "");
    explain_quickly(text, &x);
    assert_non_null(file_named(&x.parts, "a.mexw64"));
    td_explain_free(&x);
    free(text);
    text = long_line("sxstrace\nINFO: Parsing Manifest File ", "a.b,type=",
                     "\nERROR: Cannot resolve reference Microsoft.VC90.CRT,"
                     "processorArchitecture=\"x86\"\n");
    explain_quickly(text, &x);
    assert_string_equal(x.load.library, "msvcr90.dll");
    td_explain_free(&x);
    free(text);
    /* "error" every six bytes, each looked back for a DLL on its line: 16 s */
    text = long_line("", "error ", "");
    explain_quickly(text, &x);
    td_explain_free(&x);
    free(text);
    /* "Error:" every six bytes, each next one looked for by strstr, which
     * under the sanitizers measures the rest of the text at every call:
     * 11 s there (0.1 s plain) */
    text = long_line("", "Error:", "");
    explain_quickly(text, &x);
    td_explain_free(&x);
    free(text);
    /* a file name after a blank looked back along its line for a quote
     * that opens a path with blanks in it, from every name: 3.3 s for
     * "x.so: Exec format error", 1.7 s for GDExtension's message, 1.2 s
     * for glibc's Chinese one, 14 s for "a.so " (each repeated over 240 KB);
     * and the directories before a name, back to the line's start from each
     * name where no blank parts the paths: 13 s for "/a.so" */
    static const char *const named[][2] = {
        {"x.so: Exec format error ", "x.so"},
        {"GDExtension dynamic library not found: C:/x/a.dll ", "a.dll"},
        {"libfoo.so: \xe6\x97\xa0\xe6\xb3\x95\xe6\x89\x93\xe5\xbc\x80\xe5\x85\xb1\xe4\xba\xab"
         "\xe5\xaf\xb9\xe8\xb1\xa1\xe6\x96\x87\xe4\xbb\xb6: \xe6\xb2\xa1\xe6\x9c\x89\xe9\x82\xa3"
         "\xe4\xb8\xaa\xe6\x96\x87\xe4\xbb\xb6\xe6\x88\x96\xe7\x9b\xae\xe5\xbd\x95 ",
         "libfoo.so"},
        {"a.so ", "a.so"},
        {"/a.so", "a.so"},
        /* no blank, no separator: every dot's name ran back to the line's
         * start (22 s); a file's name is looked for at most 1 KiB back */
        {"-a.so", "a.so"},
    };
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++) {
        text = long_line("", named[i][0], "");
        explain_quickly(text, &x);
        assert_non_null(file_named(&x.parts, named[i][1]));
        td_explain_free(&x);
        free(text);
    }
    /* and a quoted path with blanks is still read whole, from its quote */
    long_line_paths("", "\"C:\\Program Files\\x\\b.dll\" 'c d/e.so'", "C:\\Program Files\\x\\b.dll",
                    "c d/e.so");
    /* a quote with an odd count of its kind before it on its line closes
     * one, opening no path; on the next line the count starts again */
    long_line_paths("it's Bob's C:\\x y\\b.dll\n'", "'c d/e.so", "y\\b.dll", "d/e.so");
    long_line_paths("it's Bob's C:\\x y\\b.dll\nit's\nsaid 'c d/e.so'\n", "", "y\\b.dll",
                    "c d/e.so");
    /* the code after "error" still needs a DLL before it on its line */
    explain("the tool ended with error 55\nthe host said x.dll error 58", &x);
    bool read_55 = false, read_58 = false;
    for (size_t i = 0; i < x.parts.n_codes; i++) {
        read_55 = read_55 || strcmp(x.parts.codes[i].value, "55") == 0;
        read_58 = read_58 || strcmp(x.parts.codes[i].value, "58") == 0;
    }
    assert_false(read_55);
    assert_true(read_58);
    td_explain_free(&x);
}

/* Set O37: Windows start failures that no code or file name announces. The
 * side-by-side loader's event and sxstrace name an assembly (NAME,attribute=
 * ...), in whatever display language the rest is: the finding names the
 * assembly's DLL, the one of sxstrace's ERROR line before any other. Its
 * dialog names the sxstrace tool in every language. Qt's "no Qt platform
 * plugin could be initialized" names no plugin: the platform's default one;
 * Unreal's plugin message names the module; the Dependencies tool's "is not
 * a valid PE-COFF file" a file that is no DLL; "I don't have X.dll" retells
 * the missing-DLL dialog. */
static void o37_windows_start_failures(void **state)
{
    (void)state;
    expect("Activation context generation failed for \"C:\\Program Files (x86)\\Graphviz "
           "2.28\\bin\\smyrna.exe\". Dependent Assembly Microsoft.VC90.DebugCRT,"
           "processorArchitecture=\"x86\",publicKeyToken=\"1fc8b3b9a1e18e3b\",type=\"win32\","
           "version=\"9.0.21022.8\" could not be found. Please use sxstrace.exe for detailed "
           "diagnosis.",
           "missing_library", "msvcr90d.dll", NULL);
    expect("Fehler beim Generieren des Aktivierungskontextes f\xc3\xbcr "
           "\"D:\\programme\\graphviz\\bin\\edgepaint.exe\". Die abh\xc3\xa4ngige Assemblierung "
           "\"Microsoft.VC90.CRT,processorArchitecture=\"x86\",publicKeyToken=\"1fc8b3b9a1e18e3b\","
           "type=\"win32\",version=\"9.0.21022.8\"\" konnte nicht gefunden werden. Verwenden Sie "
           "f\xc3\xbcr eine detaillierte Diagnose das Programm \"sxstrace.exe\".",
           "missing_library", "msvcr90.dll", NULL);
    /* the reference sxstrace gave up on, not the last one the manifest lists */
    expect("INFO: Reference: Microsoft.VC90.MFC,processorArchitecture=\"x86\","
           "publicKeyToken=\"1fc8b3b9a1e18e3b\",type=\"win32\",version=\"9.0.21022.8\"\n"
           "ERROR: Cannot resolve reference Microsoft.VC90.MFC,processorArchitecture=\"x86\","
           "publicKeyToken=\"1fc8b3b9a1e18e3b\",type=\"win32\",version=\"9.0.21022.8\".\n"
           "INFO: Reference: Microsoft.Windows.Common-Controls,language=\"*\","
           "processorArchitecture=\"x86\",publicKeyToken=\"6595b64144ccf1df\",type=\"win32\","
           "version=\"6.0.0.0\"\nERROR: Activation Context generation failed.",
           "missing_library", "mfc90.dll", NULL);
    expect("\xe5\xba\x94\xe7\x94\xa8\xe7\xa8\x8b\xe5\xba\x8f\xe6\x97\xa0\xe6\xb3\x95\xe5\x90\xaf"
           "\xe5\x8a\xa8\xef\xbc\x8c\xe5\x9b\xa0\xe4\xb8\xba\xe5\xba\x94\xe7\x94\xa8\xe7\xa8\x8b"
           "\xe5\xba\x8f\xe7\x9a\x84\xe5\xb9\xb6\xe8\xa1\x8c\xe9\x85\x8d\xe7\xbd\xae\xe4\xb8\x8d"
           "\xe6\xad\xa3\xe7\xa1\xae\xe3\x80\x82\xe6\x9c\x89\xe5\x85\xb3\xe8\xaf\xa6\xe7\xbb\x86"
           "\xe4\xbf\xa1\xe6\x81\xaf\xef\xbc\x8c\xe8\xaf\xb7\xe5\x8f\x82\xe9\x98\x85\xe5\xba\x94"
           "\xe7\x94\xa8\xe7\xa8\x8b\xe5\xba\x8f\xe4\xba\x8b\xe4\xbb\xb6\xe6\x97\xa5\xe5\xbf\x97"
           "\xef\xbc\x8c\xe6\x88\x96\xe4\xbd\xbf\xe7\x94\xa8\xe5\x91\xbd\xe4\xbb\xa4\xe8\xa1\x8c "
           "sxstrace.exe \xe5\xb7\xa5\xe5\x85\xb7\xe3\x80\x82",
           "missing_library", NULL, NULL);
    /* the dialog cut before sxstrace, and Windows XP's wording of it */
    expect("Error: The application has failed to start because its side-by-side configuration is "
           "incorrect.",
           "missing_library", NULL, NULL);
    expect("This application has failed to start because the application configuration is "
           "incorrect. Reinstalling the application may fix this problem.",
           "missing_library", NULL, NULL);
    expect("After building, when I run RpcView.exe I get this error:\n\n\"The application "
           "failed to start because no Qt platform plugin could be initialized\"",
           "missing_library", "qwindows.dll", NULL);
    expect("Then I tried to analyze the missing dependencies with \"DependenciesGui\" - Tool.\n"
           "This one says: SDRunoPlugin_fax.dll is not a valid PE-COFF file.",
           "not_a_library", "SDRunoPlugin_fax.dll", NULL);
    expect("everytime i double click on the steam version, it says that i dont have "
           "unityplayer.dll, need now!!!",
           "missing_library", "unityplayer.dll", NULL);
    expect("Plugin 'Llama' failed to load because module 'LlamaCore' could not be loaded.  There "
           "may be an operating system error or the module may not be properly set up.",
           "missing_library", "LlamaCore", NULL);
    expect("Plugin 'Llama' failed to load because module 'LlamaCore' could not be initialized "
           "successfully after it was loaded.",
           "init_failure", "LlamaCore", NULL);
}

/* A loader dialog escaped in a JSON log record or a Python repr: the DLL
 * ends before the quote and the brackets that closed the record, and the
 * dialog's full stop (the perturbation test's json_log and repr pastings). */
static void escaped_dialog_names(void **state)
{
    (void)state;
    expect("{\"level\": \"error\", \"msg\": \"The procedure entry point could not be located "
           "in the dynamic link library KERNEL32.dll\"}",
           "missing_symbol", "KERNEL32.dll", NULL);
    expect("Exception('it says: The procedure entry point CancelIoEx could not be located in the "
           "dynamic link library KERNEL32.dll.')",
           "missing_symbol", "KERNEL32.dll", NULL);
}

/* O36: a Windows status however a program prints it -- hex with "0x", Pascal's
 * "$" or none, signed or unsigned decimal, an HRESULT made of a Win32 error --
 * is read where the words before it say it is an exit code, a status, an
 * HRESULT or an error, never as a bare number in prose; an errno a loader
 * prints after a library's file says why the load failed when it alone can
 * (data/load_error_codes.tsv's alone column). */
static void o36_codes_in_any_spelling(void **state)
{
    (void)state;
    uint32_t c[8];
    assert_int_equal(td_explain_statuses("Exited with code 3221225781.", c, 8), 1);
    assert_int_equal(c[0], 0xC0000135u);
    assert_int_equal(td_explain_statuses("exit-code -1073741701 ($C000007B)", c, 8), 2);
    assert_int_equal(c[0], 0xC000007Bu);
    assert_int_equal(c[1], 0xC000007Bu);
    assert_int_equal(td_explain_statuses("Exception from HRESULT: 0x8007007E", c, 8), 1);
    assert_int_equal(c[0], 0x8007007Eu);
    assert_int_equal(td_explain_statuses("HRESULT -2147024770", c, 8), 1);
    assert_int_equal(c[0], 0x8007007Eu);
    assert_int_equal(td_explain_statuses("failed due to the following error: 800700c1", c, 8), 1);
    assert_int_equal(c[0], 0x800700C1u);
    assert_int_equal(td_explain_statuses("\xe9\x80\x80\xe5\x87\xba\xe4\xbb\xa3\xe7\xa0\x81"
                                         "\xe4\xb8\xba -1073741515",
                                         c, 8),
                     1);
    /* no status word before it, a version's part, too few digits, no status */
    assert_int_equal(td_explain_statuses("I have 3221225781 bytes free", c, 8), 0);
    assert_int_equal(td_explain_statuses("exit code 3221225781.5", c, 8), 0);
    assert_int_equal(td_explain_statuses("exit code 0xC00007B", c, 8), 0);
    assert_int_equal(td_explain_statuses("exit status 1", c, 8), 0);

    expect("Error: Exited with code 3221225781. Check console output for more information.",
           "missing_library", NULL, NULL);
    expect("exited with status 3221225785.", "missing_symbol", NULL, NULL);
    expect("execution stopped with exit code 1073741701, ($C000007B).", "wrong_architecture", NULL,
           NULL);
    expect("Exception from HRESULT: 0x8007007E", "missing_library", NULL, NULL);
    expect("FAILURE HR=0x8007007E", "missing_library", NULL, NULL);
    expect("error -2147024770", "missing_library", NULL, NULL);
    expect("System.BadImageFormatException (Exception from HRESULT: 0x8007000B)",
           "wrong_architecture", NULL, NULL);
    expect("OSError: /usr/lib/libfoo.so: Exec format error", "wrong_architecture", "libfoo.so",
           NULL);
    expect("Error loading shared library/x/libcryptoauth.so: Exec format error",
           "wrong_architecture", "libcryptoauth.so", NULL);
    /* a status that is no load failure, an HRESULT of an error that alone is none, a bare
       number */
    static const char *const none[] = {
        "Process finished with exit code -1073741819 (0xC0000005)",
        "Exception from HRESULT: 0x80070005 (E_ACCESSDENIED)",
        "Exception from HRESULT: 0x80070002",
        "I have 3221225781 bytes free.",
        "-1073741515",
        "cp: cannot stat 'libfoo.so': No such file or directory",
    };
    for (size_t i = 0; i < sizeof none / sizeof *none; i++) {
        struct td_explain x;
        explain(none[i], &x);
        assert_null(x.load.kind);
        td_explain_free(&x);
    }
}

/* A library a program's own sentence names bare, not as a file (set O33):
 * the verb (find, locate, load, open) failed on "NAME shared library", "lib
 * NAME", "library NAME", "libNAME", 'Library "NAME"', a tried list; the name
 * is made the platform's file, unless the text names the file it tried. */
static void bare_library_names(void **state)
{
    (void)state;
    /* each text, the file its bare name reads as */
    static const char *const named[][2] = {
        {"ImportError: Unable to find dmtx2 shared library", "libdmtx2.so"},
        {"  File \"C:\\Py\\lib\\site-packages\\tool\\loader.py\", line 49, in load_lib\n"
         "ImportError: failed to find libfoo.  Check your installation",
         "libfoo.dll"},
        {"OSError: Could not find library geos_c or load any of its variants", "libgeos_c.so"},
        {"RuntimeError: could not find any library for SDL3 (SDL3_DLL_PATH: unset)", "libSDL3.so"},
        {"OSError: PortMidi library not found", "libportmidi.so"},
        /* a sentence of a package's (PySDL2's) about another library than its row's */
        {"ImportError: could not find any library for SDL2_image (PYSDL2_DLL_PATH: unset)",
         "libSDL2_image.so"},
        /* the variants shapely tried name the file: the text's file, not the name made one */
        {"OSError: Could not find lib geos_c or load any of its variants ['libgeos_c.so.1', "
         "'libgeos_c.so'].",
         "libgeos_c.so.1"},
        {"ImportError: Library \"GLU\" not found.", "libGLU.so"},
        /* a product's name in prose is lower case in its file; "dylib" says macOS */
        {"ImportError: Couldn't locate OpenSlide dylib.  Is OpenSlide installed?",
         "libopenslide.dylib"},
        /* a name with lib is a file's stem, its case kept; a version stays in it */
        {"RuntimeError: Failed to load libGL", "libGL.so"},
        {"ERROR: could not load library libusb-1.0", "libusb-1.0.so"},
        /* Django's tried list: the first name, per the platform the text shows */
        {"  File \"C:\\v\\lib\\site-packages\\django\\contrib\\gis\\gdal\\libgdal.py\", line 46\n"
         "django.core.exceptions.ImproperlyConfigured: Could not find the GDAL library (tried "
         "\"gdal302\", \"gdal301\"). Is GDAL installed?",
         "gdal302.dll"},
        /* the file the text names for the name (PHP's tried list) */
        {"PHP Warning:  PHP Startup: Unable to load dynamic library 'pdo_mysql' (tried: "
         "C:\\php\\ext\\pdo_mysql (The specified module could not be found), "
         "C:\\php\\ext\\php_pdo_mysql.dll (The specified module could not be found))",
         "php_pdo_mysql.dll"},
    };
    for (size_t i = 0; i < sizeof named / sizeof *named; i++)
        expect(named[i][0], "missing_library", named[i][1], NULL);
    /* words of the sentence name nothing; prose about a library is no failure */
    static const char *const none[] = {
        "Could not load the required library.",
        "I could not find the library docs",
        "Failed to load native library.",
        "Failed to load the model library.",
        "Could not load dynamic library error",
        "Could not load library anymore, the app closes right after start",
        "the library is loaded",
        "check the library docs",
        "pyzbar library was installed, but nothing works",
    };
    for (size_t i = 0; i < sizeof none / sizeof *none; i++) {
        struct td_explain x;
        explain(none[i], &x);
        assert_null(x.load.library);
        td_explain_free(&x);
    }
}

/* A Python package that loads its own native library (ctypes, cffi) is
 * found by the text's structure -- its own not-found sentence, its module
 * file or folder in the frames, its module in the exception's type -- and
 * the load is about the file its search code names, on the text's platform
 * (data/python_native_libraries.tsv, errors_package.c). */
static void python_package_libraries(void **state)
{
    (void)state;
    static const char *const named[][2] = {
        /* its own sentence alone: no frame, no import */
        {"RuntimeError: espeak not installed on your system", "libespeak-ng.so.1"},
        {"ImportError: Unable to find zbar shared library", "libzbar.so.0"},
        {"OSError: PortAudio library not found", "libportaudio.so.2"},
        /* its sentence on a Windows path: the Windows file */
        {"  File \"C:\\Py\\lib\\site-packages\\magic\\loader.py\", line 49, in load_lib\n"
         "ImportError: failed to find libmagic.  Check your installation",
         "libmagic.dll"},
        {"  File \"C:\\P\\lib\\site-packages\\usb\\core.py\", line 1263, in find\n"
         "usb.core.NoBackendError: No backend available",
         "libusb-1.0.dll"},
        /* a bare name read from its sentence gives way to the file its code names */
        {"  File \"d:\\m\\fluidsynth.py\", line 42, in <module>\n"
         "ImportError: Couldn't find the FluidSynth library.",
         "libfluidsynth-3.dll"},
        /* a ctypes code in the frames of its module file, no import shown */
        {"  File \"C:\\P\\lib\\site-packages\\vlc.py\", line 166, in find_lib\n"
         "    dll = ctypes.CDLL(libname)\n"
         "OSError: [WinError 126] The specified module could not be found",
         "libvlc.dll"},
        /* a Python file of its folder */
        {"  File \"C:\\P\\lib\\site-packages\\openslide\\lowlevel.py\", line 41\n"
         "OSError: [WinError 193] %1 is not a valid Win32 application",
         "libopenslide-0.dll"},
        /* an exception of its modules at the start of a line */
        {"pyvips.error.Error: unable to init\n"
         "OSError: [WinError 126] The specified module could not be found",
         "libvips-42.dll"},
    };
    for (size_t i = 0; i < sizeof named / sizeof *named; i++)
        expect(named[i][0], NULL, named[i][1], NULL);
    /* the sentence alone makes the finding: a missing library */
    expect("LookupError: Couldn't find path to unrar library.", "missing_library", "libunrar.so",
           "missing_library");
    /* a folder of the same name that runs no Python file, a word in prose,
     * a module only mentioned: no package */
    static const char *const none[] = {
        ("libusb: error [open] /dev/bus/usb/001/002: [WinError 126] The specified module could "
         "not be found"),
        "I play it with vlc and get [WinError 126] The specified module could not be found",
        "OSError: [WinError 126] The specified module could not be found\nsee vlc.pyc",
    };
    for (size_t i = 0; i < sizeof none / sizeof *none; i++) {
        struct td_explain x;
        explain(none[i], &x);
        assert_null(x.parts.package);
        td_explain_free(&x);
    }
}

/* glibc's loader messages in the user's language (errors_l10n.c,
 * data/glibc_message_translations.tsv) are read as their English: the
 * message anywhere, the errno text only right after it and its ": ", a
 * full-width colon as dlerror()'s ": "; a text with none is the same
 * pointer. */
static void glibc_translations_read_as_english(void **state)
{
    (void)state;
    struct td_arena a = {0};
    char zh[] =
        "ImportError: libfoo.so.1: \u65e0\u6cd5\u6253\u5f00\u5171\u4eab\u5bf9\u8c61\u6587\u4ef6: "
        "\u6ca1\u6709\u90a3\u4e2a\u6587\u4ef6\u6216\u76ee\u5f55";
    assert_string_equal(td_explain_glibc_english(zh, &a),
                        "ImportError: libfoo.so.1: cannot open shared object file: No such file or "
                        "directory");
    char de[] =
        "UnsatisfiedLinkError: /x/libglass.so: Kann die Shared-Object-Datei nicht \u00f6ffnen: "
        "Datei oder Verzeichnis nicht gefunden (Possible cause: ...)";
    assert_string_equal(
        td_explain_glibc_english(de, &a),
        "UnsatisfiedLinkError: /x/libglass.so: cannot open shared object file: No such "
        "file or directory (Possible cause: ...)");
    /* a full-width colon on either side, the class kept in the message */
    char cjk[] =
        "OSError: libbar.so\uff1a\u65e0\u6cd5\u6253\u5f00\u5171\u4eab\u5bf9\u8c61\u6587\u4ef6\uff1a"
        "\u6743\u9650\u4e0d\u591f";
    assert_string_equal(td_explain_glibc_english(cjk, &a),
                        "OSError: libbar.so: cannot open shared object file: Permission denied");
    char cls[] = "ImportError: /a/b.so: \u9519\u8bef\u7684 ELF \u7c7b\uff1aELFCLASS32";
    assert_string_equal(td_explain_glibc_english(cls, &a),
                        "ImportError: /a/b.so: wrong ELF class: ELFCLASS32");
    /* strerror's text alone is another program's message: left as it is */
    char alone[] = "cp: cannot stat 'x': \u6ca1\u6709\u90a3\u4e2a\u6587\u4ef6\u6216\u76ee\u5f55";
    assert_ptr_equal(td_explain_glibc_english(alone, &a), alone);
    char english[] =
        "ImportError: libfoo.so.1: cannot open shared object file: No such file or directory";
    assert_ptr_equal(td_explain_glibc_english(english, &a), english);
    td_arena_free(&a);

    /* and explain answers the Chinese line as the English one */
    struct td_explain x;
    explain("SqliteError: ../../resources/libsimple.so: "
            "\u65e0\u6cd5\u6253\u5f00\u5171\u4eab\u5bf9\u8c61"
            "\u6587\u4ef6: \u6ca1\u6709\u90a3\u4e2a\u6587\u4ef6\u6216\u76ee\u5f55\n",
            &x);
    assert_non_null(x.load.kind);
    assert_string_equal(x.load.kind, "missing_library");
    assert_non_null(x.load.library);
    assert_non_null(strstr(x.load.library, "libsimple.so"));
    td_explain_free(&x);
}

/* CPython's own ImportError for an extension module Windows would not load
 * (Python/dynload_win.c): "DLL load failed while importing X: <system
 * message>" from 3.8, "DLL load failed: <system message>" before. CPython is
 * the raiser, not a program's own words about some DLL; the module's file
 * X.pyd is the library, the message's code the kind, and the module of a
 * pre-3.8 text the traceback's import. */
static void expect_cpython(const char *text, const char *kind, const char *library,
                           const char *role)
{
    struct td_explain x;
    explain(text, &x);
    assert_non_null(x.parts.raiser);
    assert_string_equal(x.parts.raiser, "cpython");
    assert_non_null(x.load.kind);
    assert_string_equal(x.load.kind, kind);
    assert_non_null(x.load.library);
    assert_string_equal(x.load.library, library);
    if (role) {
        assert_non_null(x.load.role);
        assert_string_equal(x.load.role, role);
    }
    /* the first cause is CPython's own, unless the catalogue knows the text */
    bool catalogued = x.load.n_causes && x.load.causes[0].id;
    const struct td_explain_cause *c = &x.load.causes[catalogued ? 1 : 0];
    assert_true(x.load.n_causes > (size_t)catalogued);
    assert_non_null(strstr(c->source, "Python/dynload_win.c"));
    td_explain_free(&x);
}

/* O41: glibc's read and stat failures of a library it opened, a library
 * extracted under a UUID behind its loader's own prefix, TensorFlow's probes
 * for TensorRT it calls harmless itself, and a rank's wait for rank 0's NCCL
 * id (the store reached: no rendezvous setting is wrong). */
static void o41_posix_readings(void **state)
{
    (void)state;
    expect("ERROR: couldn't load file \"/sw/Modules/5.4.0/lib/libtclenvmodules.so\": "
           "/sw/Modules/5.4.0/lib/libtclenvmodules.so: cannot read file data: Input/output error",
           "unreadable_file", "libtclenvmodules.so", NULL);
    expect("ImportError: /nfs/env/lib/libfoo.so.2: cannot stat shared object: Stale file handle",
           "unreadable_file", "libfoo.so.2", NULL);
    expect("java.lang.UnsatisfiedLinkError: /tmp/snappy-1.1.4-6321baa3-1a72-41b6-bbbc-"
           "2b1a642bc8c8-libsnappyjava.so: /tmp/snappy-1.1.4-6321baa3-1a72-41b6-bbbc-"
           "2b1a642bc8c8-libsnappyjava.so: failed to map segment from shared object: Operation "
           "not permitted",
           "unreadable_file", "libsnappyjava.so", NULL);
    assert_string_equal(td_explain_base_name("/tmp/sqlite-3.45.0-0a1b2c3d-1111-2222-3333-"
                                             "444455556666-libsqlitejdbc.so"),
                        "libsqlitejdbc.so");
    assert_string_equal(td_explain_base_name("/tmp/0a1b2c3d-1111-2222-3333-444455556666-"
                                             "1.so"),
                        "0a1b2c3d-1111-2222-3333-444455556666-1.so");
    const char *trt =
        "2023-02-12 02:34:13.661125: W tensorflow/compiler/xla/stream_executor/platform/default/"
        "dso_loader.cc:64] Could not load dynamic library 'libnvinfer.so.7'; dlerror: "
        "libnvinfer.so.7: cannot open shared object file: No such file or directory\n"
        "2023-02-12 02:34:13.661201: W tensorflow/compiler/xla/stream_executor/platform/default/"
        "dso_loader.cc:64] Could not load dynamic library 'libnvinfer_plugin.so.7'; dlerror: "
        "libnvinfer_plugin.so.7: cannot open shared object file: No such file or directory\n"
        "2023-02-12 02:34:13.661220: W tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38] "
        "TF-TRT Warning: Cannot dlopen some TensorRT libraries. If you would like to use Nvidia "
        "GPU with TensorRT, please make sure the missing libraries mentioned above are installed "
        "properly.\n";
    expect_unnamed(trt, NULL);
    /* without TensorFlow's verdict the same probe is a failure */
    expect("W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load "
           "dynamic library 'libnvinfer.so.7'; dlerror: libnvinfer.so.7: cannot open shared "
           "object file: No such file or directory",
           "missing_library", "libnvinfer.so.7", NULL);
    /* a real failure after the probes still reads */
    char both[2048];
    snprintf(both, sizeof both,
             "%sTraceback (most recent call last):\n  File \"t.py\", line 1, in <module>\n"
             "ImportError: libcudart.so.11.0: cannot open shared object file: No such file or "
             "directory",
             trt);
    expect(both, "missing_library", "libcudart.so.11.0", NULL);
    expect_unnamed("RuntimeError: [6] is setting up NCCL communicator and retrieving ncclUniqueId "
                   "from [0] via c10d key-value store by key '0', but store->get('0') got error: "
                   "Socket Timeout\nException raised from recvBytes at "
                   "../torch/csrc/distributed/c10d/Utils.hpp:604 (most recent call first):",
                   NULL);
}

static void cpython_dll_load_failed(void **state)
{
    (void)state;
    expect_cpython("ImportError: DLL load failed while importing cv2: The specified module could "
                   "not be found.",
                   "missing_library", "cv2.pyd", "python_extension");
    expect_cpython("ImportError: DLL load failed while importing _pywrap_tensorflow_internal: The "
                   "specified module could not be found.",
                   "missing_library", "_pywrap_tensorflow_internal.pyd", "python_extension");
    /* the code decides the kind: 127, 193, 1114, in the user's language too */
    expect_cpython("ImportError: DLL load failed while importing _ext: The specified procedure "
                   "could not be found.",
                   "missing_symbol", "_ext.pyd", NULL);
    expect_cpython("ImportError: DLL load failed while importing cv2: %1 is not a valid Win32 "
                   "application.",
                   "wrong_architecture", "cv2.pyd", NULL);
    expect_cpython("ImportError: DLL load failed while importing cv2: Le module sp\u00e9cifi\u00e9 "
                   "est introuvable.",
                   "missing_library", "cv2.pyd", NULL);
    /* Windows had no text for the code: CPython prints the number */
    expect_cpython("ImportError: DLL load failed with error code 126 while importing foo",
                   "missing_library", "foo.pyd", NULL);
    /* torch._C in the traceback: torch's own extension */
    expect_cpython("  File \"C:\\py\\lib\\site-packages\\torch\\__init__.py\", line 139, in "
                   "<module>\n    from torch._C import *\nImportError: DLL load failed while "
                   "importing _C: A dynamic link library (DLL) initialization routine failed.",
                   "init_failure", "_C.pyd", "torch");
    /* the catalogue's row for torch's _C still ranks first */
    struct td_explain x;
    explain("ImportError: DLL load failed while importing _C: The specified procedure could not "
            "be found.",
            &x);
    assert_true(x.load.n_causes > 1);
    assert_non_null(x.load.causes[0].id);
    assert_string_equal(x.load.causes[0].id, "win-dllload-c-procedure");
    assert_string_equal(x.load.library, "_C.pyd");
    td_explain_free(&x);
    /* before 3.8 the message names no module: the traceback's import does */
    expect_cpython("  File \"x.py\", line 1, in <module>\n    from tensorflow.python import "
                   "pywrap_tensorflow\nImportError: DLL load failed: %1 is not a valid Win32 "
                   "application.",
                   "wrong_architecture", "pywrap_tensorflow", NULL);
    /* another program's "DLL load failed: " with a number or a path is not CPython's */
    explain("DLL load failed: C:\\x\\foo.dll | The specified module could not be found.", &x);
    assert_true(!x.parts.raiser || strcmp(x.parts.raiser, "cpython") != 0);
    td_explain_free(&x);
    explain("plugin: DLL load failed: 126", &x);
    assert_true(!x.parts.raiser || strcmp(x.parts.raiser, "cpython") != 0);
    td_explain_free(&x);
}

/* Set O40: a program's or framework's own sentence that it could not load
 * or start the library it depends on names no file; the raiser's row gives
 * the file its source loads on each platform (library "platform:W|L|M"),
 * and the text's platform picks one: a Windows path, a macOS home, or none
 * (read as Linux). */
static void o40_program_sentences(void **state)
{
    (void)state;
    /* GLFW's loader lookup: the same sentence, three files */
    expect("GLFW error 65542: Vulkan: Loader not found\n"
           "at C:\\Users\\me\\AppData\\Roaming\\.minecraft",
           "missing_library", "vulkan-1.dll", NULL);
    expect("panic: APIUnavailable: Vulkan: Loader not found\n"
           "/Users/me/go/pkg/mod/github.com/go-gl/glfw/v3.3/glfw/error.go:181",
           "missing_library", "libvulkan.1.dylib", NULL);
    expect("hashcat (v5.1.0) starting...\n\nCannot find an OpenCL ICD loader library.",
           "missing_library", "libOpenCL.so.1", NULL);
    expect("D:\\enc>x264.exe -o out.mp4 in.avs\navs [error]: failed to load avisynth\n"
           "x264 [error]: could not open input file `in.avs'",
           "missing_library", "avisynth.dll", NULL);
    /* loaded, then its start failed: the library the host loaded */
    expect("$ vspipe --version\nFailed to initialize VapourSynth environment", "init_failure",
           "libvapoursynth-script.so.0", NULL);
    expect("[vapoursynth] Could not initialize VapourSynth scripting.\n"
           "C:\\Users\\me\\AppData\\Roaming\\mpv\\scripts",
           "init_failure", "vsscript.dll", NULL);
    expect("/Users/me/ncnn/build/examples/squeezenet cat.jpg\nvkCreateInstance failed -9",
           "init_failure", "libvulkan.1.dylib", NULL);
    /* Qt's sentence retyped with its name in capitals */
    expect("Application failed to start because it could not find or load the QT platform "
           "plugin \"windows\"",
           "missing_library", "qwindows.dll", NULL);
}

/* Native programs' texts (set O48): a DLL name a user retyped from the
 * dialog with a blank inside is one name; a Control Panel item (.cpl) or an
 * ActiveX control (.ocx) is a module like a DLL; a sentence's own small
 * word before a number is not part of the name. */
static void o48_retyped_module_names(void **state)
{
    (void)state;
    expect("The code execution cannot proceed because MSVCP 140.dll was not found. "
           "Reinstalling the program may fix this problem.",
           "missing_library", "MSVCP140.dll", NULL);
    expect("The program can't start because VCRUNTIME 140_1.dll is missing from your computer.",
           "missing_library", "VCRUNTIME140_1.dll", NULL);
    expect("panic: Failed to load 12.dll: The specified module could not be found.",
           "missing_library", "12.dll", NULL);
    expect("error: process didn't exit successfully: `target\\debug\\app.exe` "
           "(exit code: 0xc0000135, STATUS_DLL_NOT_FOUND)\n"
           "the import is from irprops.cpl, which is not in the program's folder",
           "missing_library", "irprops.cpl", NULL);
    /* a documented Windows API function's home, the dialog naming the program */
    expect("The procedure entry point DCompositionWaitForCompositorClock could not be located "
           "in the dynamic link library C:\\apps\\viewer.exe.",
           "missing_symbol", "dcomp.dll", NULL);
}

/* A library that says in its own words that its native library did not
 * load and names no file (set O45): the raiser's sentence read as the file
 * its own source loads on the text's platform (data/error_raisers.tsv); a
 * ctypes call failing in a package's own frames blames that package's
 * library (data/python_native_libraries.tsv). */
static void o45_own_words(void **state)
{
    (void)state;
    /* urllib3's and pip's sentences: the ssl module's OpenSSL, per platform */
    expect("/Users/me/venv/bin/pip install numpy\nWARNING: pip is configured with locations "
           "that require TLS/SSL, however the ssl module in Python is not available.",
           "missing_library", "libssl.3.dylib", NULL);
    expect("File \"/home/me/app.py\", line 3\nrequests.exceptions.SSLError: "
           "HTTPSConnectionPool(host='pypi.org', port=443): Max retries exceeded (Caused by "
           "SSLError(\"Can't connect to HTTPS URL because the SSL module is not available.\"))",
           "missing_library", "libssl.so.3", NULL);
    expect("(base) C:\\Users\\me>conda search conda\nCan't connect to HTTPS URL because the SSL "
           "module is not available.",
           "missing_library", "libssl-1_1.dll", NULL);
    /* Anaconda's own prompt is a Windows sign */
    expect("Start Anaconda Prompt\nCan't connect to HTTPS URL because the SSL module is not "
           "available.",
           "missing_library", "libssl-1_1.dll", NULL);
    /* PyOpenGL's null GLUT function: the GLUT library it wraps */
    expect("  File \"/home/me/.local/lib/python3.10/site-packages/OpenGL/platform/"
           "baseplatform.py\", line 425, in __call__\nOpenGL.error.NullFunctionError: Attempt to "
           "call an undefined function glutInit, check for bool(glutInit) before calling",
           "missing_library", "libglut.so.3", NULL);
    expect("  File \"C:\\Python38\\lib\\site-packages\\OpenGL\\GLUT\\special.py\", line 333\n"
           "OpenGL.error.NullFunctionError: Attempt to call an undefined function "
           "glutInitDisplayMode, check for bool(glutInitDisplayMode) before calling",
           "missing_library", "freeglut64.dll", NULL);
    /* cudarc's bare names, the old and the new sentence, made files per platform */
    expect("thread 'main' panicked at /home/me/.cargo/registry/src/cudarc-0.11.5/src/driver/"
           "sys/mod.rs:61:9:\nUnable to find cuda lib under the names [\"cuda\", \"nvcuda\"]. "
           "Please open GitHub issue.",
           "missing_library", "libcuda.so", NULL);
    expect("Unable to dynamically load the \"cublas\" shared library - searched for library "
           "names: [\"cublas\", \"cublas64\", \"cublas64_12\"]. Ensure that `LD_LIBRARY_PATH` "
           "has the correct path to the installed library.",
           "missing_library", "libcublas.so", NULL);
    /* CPython without _ctypes: built without libffi */
    expect("  File \"/usr/local/lib/python3.10/ctypes/__init__.py\", line 8, in <module>\n"
           "    from _ctypes import Union, Structure, Array\n"
           "ModuleNotFoundError: No module named '_ctypes'",
           "missing_library", "libffi.so.8", NULL);
    /* pypyodbc's own sentence, on macOS: the iODBC it looks for there */
    expect("  File \"/Users/me/venv/lib/python3.11/site-packages/pypyodbc.py\", line 440\n"
           "pypyodbc.OdbcNoLibrary: 'ODBC Library is not found. Is LD_LIBRARY_PATH set?'",
           "missing_library", "libiodbc.dylib", NULL);
    /* a ctypes call into the package's library, in the package's own frames
     * (a renamed copy of llama_cpp), before an illegal instruction: its
     * library, not the module of an init frame on the way (Markdown ate
     * __init__'s underscores: "in init self.model") */
    expect("  File \"D:\\ui\\modules\\llamacpp_model.py\", line 63, in from_pretrained\n"
           "    result.model = Llama(**params)\n"
           "  File \"D:\\env\\lib\\site-packages\\llama_cpp_cuda\\llama.py\", line 302, in "
           "init self.model = llama_cpp.llama_load_model_from_file(\n"
           "  File \"D:\\env\\lib\\site-packages\\llama_cpp_cuda\\llama_cpp.py\", line 360, in "
           "llama_load_model_from_file\n"
           "    return _lib.llama_load_model_from_file(path_model, params)\n"
           "OSError: [WinError -1073741795] Windows Error 0xc000001d",
           "cpu_feature_missing", "llama.dll", NULL);
    /* the same frames after the user's script imports the package: its
     * frames still ran it, whatever line named it first */
    expect("import llama_cpp\nllm = llama_cpp.Llama(\"m.gguf\")\n"
           "  File \"D:\\ui\\modules\\llamacpp_model.py\", line 63, in from_pretrained\n"
           "    result.model = Llama(**params)\n"
           "  File \"D:\\env\\lib\\site-packages\\llama_cpp\\llama.py\", line 302, in "
           "init self.model = llama_cpp.llama_load_model_from_file(\n"
           "  File \"D:\\env\\lib\\site-packages\\llama_cpp\\llama_cpp.py\", line 360, in "
           "llama_load_model_from_file\n"
           "    return _lib.llama_load_model_from_file(path_model, params)\n"
           "OSError: [WinError -1073741795] Windows Error 0xc000001d",
           "cpu_feature_missing", "llama.dll", NULL);
}

/* A managed binding whose native library failed to load, the file unnamed
 * (set O39): the binding's type or class, read by structure, gives the file
 * its own DllImport or System.loadLibrary names (data/managed_bindings.tsv);
 * the exception's type the kind. */
static void o39_managed_bindings(void **state)
{
    (void)state;
    /* .NET's type initializer over "Dll was not found.", on Windows */
    expect("System.TypeInitializationException: The type initializer for "
           "'Foster.Framework.Platform' threw an exception.\n"
           " ---> System.DllNotFoundException: Dll was not found.\n"
           "   at Foster.Framework.Platform.FosterRegisterLogMethods(FosterLogFn, FosterLogFn)\n"
           "   at Foster.Framework.Platform..cctor()\n"
           "Platform: Microsoft Windows 10.0.22000 (X64)",
           "missing_library", "FosterPlatform.dll", NULL);
    /* retyped in lower case, unquoted */
    expect("C:\\Games\\FModel> the type initializer for skiasharp.skimageinfo caused an exception",
           "missing_library", "libSkiaSharp.dll", NULL);
    /* in Chinese, a BadImageFormatException's HRESULT deciding the kind */
    expect("System.TypeInitializationException: \xe2\x80\x9c"
           "DlibDotNet.NativeMethods"
           "\xe2\x80\x9d\xe7\x9a\x84\xe7\xb1\xbb\xe5\x9e\x8b\xe5\x88\x9d\xe5\xa7\x8b\xe5\x80\xbc"
           "\xe8\xae\xbe\xe5\xae\x9a\xe9\xa1\xb9\xe5\xbc\x95\xe5\x8f\x91\xe5\xbc\x82\xe5\xb8\xb8"
           "\xe3\x80\x82 ---> System.BadImageFormatException: (HRESULT: 0x8007000B)\n"
           "   at C:\\app\\Program.cs:line 3",
           "wrong_architecture", "DlibDotNetNative.dll", NULL);
    /* no type initializer: the exception and a frame of the binding's code */
    expect("System.BadImageFormatException: An attempt was made to load a program with an "
           "incorrect format.\n   at PDFtoImage.PdfiumViewer.NativeMethods.FPDF_InitLibrary()\n"
           "Windows 10",
           "wrong_architecture", "pdfium.dll", NULL);
    /* Mono's EntryPointNotFoundException names the function only: a library of
     * another version than the binding's assembly */
    expect("System.EntryPointNotFoundException: sk_colortype_get_default_8888\n"
           "  at (wrapper managed-to-native) SkiaSharp.SkiaApi.sk_colortype_get_default_8888()\n"
           "  at SkiaSharp.SKImageInfo..cctor () in C:\\build\\SKImageInfo.cs:12",
           "missing_symbol", "libSkiaSharp.dll", NULL);
    /* the JVM's unlinked native method, a shaded copy of the binding */
    expect("java.lang.UnsatisfiedLinkError: 'long com.example.shaded.org.rocksdb.Options."
           "newOptions()'\n\tat com.example.shaded.org.rocksdb.Options.newOptions(Native Method)\n"
           "/home/user/server",
           "missing_library", "librocksdbjni-linux64.so", NULL);
    /* a method that returns an array: the class is the group after its "[]",
     * not the "[]" itself (no binding's) */
    expect("java.lang.UnsatisfiedLinkError: 'byte[] org.rocksdb.RocksDB.get(long, byte[])'\n"
           "/home/user/server",
           "missing_library", "librocksdbjni-linux64.so", NULL);
    /* a binding's own "no native library" under its loader's frame; os.name says macOS */
    expect("Caused by: java.lang.Exception: No native library found for os.name=Mac, "
           "os.arch=aarch64, paths=[/usr/lib/java:.]\n"
           "\tat org.sqlite.SQLiteJDBCLoader.loadSQLiteNativeLibrary(SQLiteJDBCLoader.java:367)",
           "missing_library", "libsqlitejdbc.dylib", NULL);
    /* a type of no binding: its initializer's failure is no load */
    expect_unnamed("System.TypeInitializationException: The type initializer for "
                   "'Microsoft.Extensions.DependencyModel.CompilationLibrary' threw an exception.\n"
                   " ---> System.Globalization.CultureNotFoundException: Culture is not supported.",
                   NULL);
    /* a binding's name inside a longer word is not it */
    assert_null(td_explain_binding_library("at MySkiaSharpX.Y.Z()", NULL, 0, 0));
    assert_string_equal(td_explain_binding_library(NULL, "Gdip", 4, 2), "libgdiplus.dylib");
    assert_null(td_explain_binding_library(NULL, "My.Gdip", 7, 2));
    /* a name is its N bytes: "Gd" followed by "ip.x" is no Gdip */
    assert_null(td_explain_binding_library(NULL, "Gdip.x", 2, 2));
    assert_null(td_explain_binding_library(NULL, "Tensorflow.x", 4, 2));
}

/* Review 24: the fields' reading of a runtime's tries (platform_try) looked
 * for both loader messages from each try on, so a first try then a line of
 * "dlopen(" with no glibc message after it walked the rest of the text at
 * every try (7 s plain on 250 KB); the file is still the first try. */
static void runtime_tries_read_in_one_pass(void **state)
{
    (void)state;
    struct td_explain x;
    char *text = long_line("zstd: cannot open shared object file\n", "dlopen(", "");
    explain_quickly(text, &x);
    assert_non_null(x.fields.file);
    assert_string_equal(x.fields.file, "zstd");
    td_explain_free(&x);
    free(text);
}

/* Review 24: ctypes' row (find_library's None passed on to the load) let
 * any number of lines stand between the call and the error, so a text of
 * many find_library calls and no such error was tried from each call to its
 * end (14,000 lines: 8 s plain); the row now reads the error within 16 lines
 * of the call, as a traceback from the call to the load's TypeError is. */
static void ctypes_calls_read_in_one_pass(void **state)
{
    (void)state;
    static const char unit[] = "find_library(\"x\")\n";
    size_t u = strlen(unit), lines = 14000;
    char *text = malloc(u * lines + 1);
    assert_non_null(text);
    for (size_t i = 0; i < lines; i++)
        memcpy(text + i * u, unit, u);
    text[u * lines] = '\0';
    struct td_explain x;
    explain_quickly(text, &x);
    assert_null(x.load.form);
    td_explain_free(&x);
    free(text);
}

/* Review 24: HTML's <br> beside a line break went by a walk back over the
 * text already cleaned, to the line's start, at every tag: 128 KB of
 * blanks then 32,000 tags took 2.5 s plain. A tighter guard than
 * explain_quickly's (1 s; the one pass takes 0.05 s plain), as no text
 * under the long-text window makes the walk reach 5 s; the tags still go. */
static void html_breaks_read_in_one_pass(void **state)
{
    (void)state;
    static const char head[] = "libfoo.so: cannot open shared object file\n";
    size_t h = strlen(head), blanks = 128000, tags = 32000;
    char *text = malloc(h + blanks + 4 * tags + 1), *o = text;
    assert_non_null(text);
    memcpy(o, head, h);
    memset(o += h, ' ', blanks);
    for (o += blanks; tags--; o += 4)
        memcpy(o, "<br>", 4);
    *o = '\0';
    struct td_explain x;
    clock_t start = clock();
    explain(text, &x);
    assert_true((double)(clock() - start) / CLOCKS_PER_SEC < 1.0);
    assert_null(strstr(x.text, "<br>"));
    td_explain_free(&x);
    free(text);
}

/* A package's folder named again and again in one path token: each name
 * was walked to the token's end for a ".py" (3 s for "usb/" repeated over
 * 240 KB), and each next name was looked for with strstr, which under the
 * sanitizers measures the rest of the text at every call (3 s again). The
 * four texts together get one hang guard of 5 s of CPU time, not a speed
 * check: read in one pass they take 0.2 s plain and 1.4 s under the
 * sanitizers, either walk 11 s or more; the package is still read where the
 * token ends in one of its Python files. */
static void package_folders_read_in_one_pass(void **state)
{
    (void)state;
    static const char *const units[] = {"usb/", "vlc\\", "mpv/", "zmq\\"};
    struct td_explain x;
    clock_t start = clock();
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        char *text = long_line("", units[i], "");
        explain(text, &x);
        assert_null(x.parts.package);
        td_explain_free(&x);
        free(text);
    }
    assert_true((double)(clock() - start) / CLOCKS_PER_SEC < 5.0);
    char *text = long_line("", "usb/", "core.py");
    explain_quickly(text, &x);
    assert_non_null(x.parts.package);
    assert_string_equal(x.parts.package, "usb");
    td_explain_free(&x);
    free(text);
    /* a folder of the name with no Python file in its path, then the
     * package's own file in another path: only the first path is passed by */
    explain("ls /dev/bus/usb/001\n  File \"/x/site-packages/usb/core.py\", line 1, in find", &x);
    assert_non_null(x.parts.package);
    assert_string_equal(x.parts.package, "usb");
    td_explain_free(&x);
}

/* Set O55: which operation failed. A file operation on a library file
 * (deleting, writing, copying, extracting it) that Windows or POSIX refuses
 * is no load of it, whether the traceback's last code line, a frozen
 * traceback's last frame, Python's OSError format with its file name or the
 * program's own words say so; and an interpreter that cannot start because
 * its standard library is not where the environment says is CPython's own
 * start-up failure (env_var_invalid, no file), whatever load failed after. */
static void o55_operation_and_startup(void **state)
{
    (void)state;
    expect_unnamed("Traceback (most recent call last):\n  File \"C:\\\\x\\\\main.py\", line 4, in "
                   "<module>\n    os.remove('venv/Lib/site-packages/pvectorc.cp310-win_amd64.pyd')"
                   "\nPermissionError: [WinError 5] Access is denied: "
                   "'venv/Lib/site-packages/pvectorc.cp310-win_amd64.pyd'",
                   NULL);
    expect_unnamed("Traceback (most recent call last):\n  File \"threads\\\\remover.py\", line 17, "
                   "in run\n  File \"shutil.py\", line 759, in rmtree\n  File \"shutil.py\", line "
                   "627, in _rmtree_unsafe\nPermissionError: [WinError 5] Access is denied: "
                   "'E:/Apps/blender/4.1/python/DLLs/libcrypto-3.dll'",
                   NULL);
    expect_unnamed("PermissionError: [WinError 5] Access is denied: 'c:\\\\tools\\\\lib\\\\"
                   "site-packages\\\\~mmutables\\\\_map.cp36-win_amd64.pyd'",
                   NULL);
    expect_unnamed("Patching... Error while writing file : [WinError 5] Access is denied: "
                   "'C:/Program Files/Tool/ToolX64.dll'\nFailed",
                   NULL);
    expect_unnamed("  File \"/opt/app/update.py\", line 12, in install\n    with open(target, "
                   "'wb') as out:\nPermissionError: [Errno 13] Permission denied: "
                   "'/opt/app/lib/libtool.so.1'",
                   NULL);
    /* the operation alone decides when the exception names no library file:
     * the code line's copy of a DLL, a frozen frame of shutil's delete */
    expect_unnamed("  File \"C:\\\\app\\\\setup.py\", line 9, in install\n    shutil.copy("
                   "'C:\\\\app\\\\bin\\\\tool.dll', target)\nPermissionError: [WinError 5] "
                   "Access is denied: 'C:\\\\Windows\\\\System32'",
                   NULL);
    expect_unnamed("ERROR: could not remove E:/app/DLLs/libcrypto-3.dll\nTraceback (most recent "
                   "call last):\n  File \"shutil.py\", line 627, in _rmtree_unsafe\n"
                   "PermissionError: [WinError 5] Access is denied: 'E:/app/DLLs'",
                   NULL);
    /* a load that Windows refuses is still one: ctypes names no file */
    expect(
        "  File \"C:\\\\app\\\\run.py\", line 3, in <module>\n    lib = ctypes.CDLL(r\"C:\\\\app"
        "\\\\tool.dll\")\n  File \"C:\\\\Python38\\\\lib\\\\ctypes\\\\__init__.py\", line 373, in "
        "__init__\n    self._handle = _dlopen(self._name, mode)\nPermissionError: [WinError 5] "
        "Access is denied",
        "unreadable_file", NULL, NULL);
    /* glibc's preload refusal, before 2.16 without its reason, and retyped
     * without a blank and wrapped: the file LD_PRELOAD names */
    expect("ERROR: ld.so: object 'libproxychains.so.4' from LD_PRELOAD cannot be preloaded: "
           "ignored.",
           "missing_library", "libproxychains.so.4", NULL);
    expect("ERROR:ld.so:object 'usr/lib/libproxychains4.so'from LD_PRELOAD cannot\nbe preloaded.",
           "missing_library", "libproxychains4.so", NULL);
    expect_unnamed("Fatal Python error: init_fs_encoding: failed to get the Python codec of the "
                   "filesystem encoding\nPython runtime state: core initialized\n"
                   "ModuleNotFoundError: No module named 'encodings'",
                   "env_var_invalid");
    expect_unnamed("Fatal Python error: initfsencoding: unable to load the file system codec\n"
                   "ModuleNotFoundError: No module named 'encodings'",
                   "env_var_invalid");
    /* the interpreter's first import, or its codec registry left empty, said
     * alone (a pasted last line) */
    expect_unnamed("ModuleNotFoundError: No module named 'encodings'", "env_var_invalid");
    expect_unnamed("LookupError: no codec search functions registered: can't find encoding",
                   "env_var_invalid");
    expect_unnamed("ModuleNotFoundError: No module named 'encodings.idna'", NULL);
    expect_unnamed("Python path configuration:\n  PYTHONHOME = 'venv/bin/python'\n  PYTHONPATH = "
                   "(not set)\n  program name = '/usr/bin/python3'\n  sys.path = [\n    "
                   "'venv/bin/python/lib/python312.zip',",
                   "env_var_invalid");
    expect_unnamed("Could not find platform independent libraries <prefix>\nConsider setting "
                   "$PYTHONHOME to <prefix>[:<exec_prefix>]\nImportError: No module named site",
                   "env_var_invalid");
    expect_unnamed("pip_system_certs: ERROR: could not register module: DLL load failed while "
                   "importing _ssl: The specified module could not be found.\nTraceback (most "
                   "recent call last):\n  File \"C:\\\\Program Files\\\\Python312\\\\Lib\\\\re\\\\"
                   "_compiler.py\", line 18, in <module>\n    assert _sre.MAGIC == MAGIC, \"SRE "
                   "module mismatch\"\nAssertionError: SRE module mismatch",
                   "env_var_invalid");
}

/* Review of O55's operation reading. A file operation's failure earlier in
 * the text does not silence a load that failed after it with a code of its
 * own (a copy refused with Errno 13, then ctypes' 193); the OSError format's
 * ERE stops at the next code or quote, where its ".*" ran from every code to
 * the line's end (20 s for a line of 250 KB); a frame line's search for
 * ", in " stays on its line. */
static void o55_file_operation_is_the_last_failure(void **state)
{
    (void)state;
    expect("Traceback (most recent call last):\n  File \"C:\\\\app\\\\fix.py\", line 4, in "
           "<module>\n    shutil.copy(r\"C:\\\\app\\\\vendor\\\\engine.dll\", dst)\n"
           "PermissionError: [Errno 13] Permission denied: 'C:\\\\Windows\\\\System32\\\\"
           "engine.dll'\nPS C:\\app> python run.py\nTraceback (most recent call last):\n"
           "  File \"C:\\\\app\\\\run.py\", line 3, in <module>\n    lib = ctypes.CDLL(r\"C:"
           "\\\\app\\\\vendor\\\\engine.dll\")\n  File \"C:\\\\Python311\\\\Lib\\\\ctypes\\\\"
           "__init__.py\", line 376, in __init__\n    self._handle = _dlopen(self._name, mode)\n"
           "OSError: [WinError 193] %1 is not a valid Win32 application",
           "wrong_architecture", "engine.dll", NULL);
    /* the same code again after (a chained re-raise) is still the operation's */
    expect_unnamed("  File \"C:\\\\app\\\\main.py\", line 4, in <module>\n    os.remove(p)\n"
                   "PermissionError: [WinError 5] Access is denied: 'C:\\\\x\\\\a.pyd'\n\nDuring "
                   "handling of the above exception, another exception occurred:\n\n"
                   "PermissionError: [WinError 5] Access is denied: 'C:\\\\x\\\\a.pyd'",
                   NULL);
    struct td_explain x;
    char *text = long_line("", "WinError 5]: '", "");
    explain_quickly(text, &x);
    td_explain_free(&x);
    free(text);
    text = long_line("", "  File \"a.py\"\n", "");
    explain_quickly(text, &x);
    td_explain_free(&x);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(files),
        cmocka_unit_test(symbols),
        cmocka_unit_test(codes_and_raisers),
        cmocka_unit_test(nvml_mismatch_inside_a_container),
        cmocka_unit_test(timestamps_and_one_wrap),
        cmocka_unit_test(symbol_module_from_imports),
        cmocka_unit_test(dll_load_failed_module),
        cmocka_unit_test(dyld_requirer_and_definer),
        cmocka_unit_test(dyld_reasons),
        cmocka_unit_test(path_past_max_path),
        cmocka_unit_test(platform_without_files),
        cmocka_unit_test(platform_signs),
        cmocka_unit_test(soft_wraps_and_repr_newlines),
        cmocka_unit_test(package_loaders),
        cmocka_unit_test(empty_form_gives_way),
        cmocka_unit_test(symbol_roles),
        cmocka_unit_test(words_of_a_failed_load),
        cmocka_unit_test(own_words_of_a_load),
        cmocka_unit_test(torch_import_symbol),
        cmocka_unit_test(cuda_source_location),
        cmocka_unit_test(layout_of_a_copy),
        cmocka_unit_test(raiser_files),
        cmocka_unit_test(cudnn_built_for),
        cmocka_unit_test(listed_files),
        cmocka_unit_test(j_opened),
        cmocka_unit_test(windows_loaders_of_other_languages),
        cmocka_unit_test(o1_opened),
        cmocka_unit_test(macos_loaders_of_other_runtimes),
        cmocka_unit_test(o3_load_commands_exec_lost_mangling),
        cmocka_unit_test(linux_messages_of_o4),
        cmocka_unit_test(windows_loaders_of_other_programs),
        cmocka_unit_test(n1_retyped_and_cut_forms),
        cmocka_unit_test(p1_opened),
        cmocka_unit_test(p2_o6_names_and_no_file),
        cmocka_unit_test(o8_loader_refusals),
        cmocka_unit_test(o7_opened),
        cmocka_unit_test(o9_opened),
        cmocka_unit_test(o10_dyld_fields),
        cmocka_unit_test(o14_dialog_name_ends),
        cmocka_unit_test(q1_o11_opened),
        cmocka_unit_test(q2_loader_reasons),
        cmocka_unit_test(r2_loader_reasons),
        cmocka_unit_test(o19_dotnet_dll_in_any_language),
        cmocka_unit_test(o20_newest_raisers),
        cmocka_unit_test(o21_interpreter_and_page_size),
        cmocka_unit_test(r1_o17_opened),
        cmocka_unit_test(s1_o24_opened),
        cmocka_unit_test(s2_o25_opened),
        cmocka_unit_test(o26_several_files),
        cmocka_unit_test(o28_retyped_windows_forms),
        cmocka_unit_test(o30_framework_words),
        cmocka_unit_test(o31_own_words),
        cmocka_unit_test(o32_no_device_under_wsl),
        cmocka_unit_test(o37_windows_start_failures),
        cmocka_unit_test(o40_program_sentences),
        cmocka_unit_test(o45_own_words),
        cmocka_unit_test(o48_retyped_module_names),
        cmocka_unit_test(escaped_dialog_names),
        cmocka_unit_test(o36_codes_in_any_spelling),
        cmocka_unit_test(bare_library_names),
        cmocka_unit_test(python_package_libraries),
        cmocka_unit_test(o35_files_at_loader_errors),
        cmocka_unit_test(long_lines_read_in_one_pass),
        cmocka_unit_test(spanning_patterns_read_in_windows),
        cmocka_unit_test(package_folders_read_in_one_pass),
        cmocka_unit_test(runtime_tries_read_in_one_pass),
        cmocka_unit_test(html_breaks_read_in_one_pass),
        cmocka_unit_test(ctypes_calls_read_in_one_pass),
        cmocka_unit_test(glibc_translations_read_as_english),
        cmocka_unit_test(cpython_dll_load_failed),
        cmocka_unit_test(o39_managed_bindings),
        cmocka_unit_test(o41_posix_readings),
        cmocka_unit_test(o51_gpu_stack),
        cmocka_unit_test(o52_markdown_and_retold),
        cmocka_unit_test(o55_operation_and_startup),
        cmocka_unit_test(o55_file_operation_is_the_last_failure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
