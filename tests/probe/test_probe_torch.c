/* torch installations over fake roots built by tests/fixtures/torch_layouts.sh
 * (a clean pip layout and copies with one defect each), the Debian
 * python3-torch of this machine, and the companion pairing table. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe/probe.h"
#include "probe/install/torch_internal.h"

struct fx {
    struct td_arena arena;
    struct td_probe_ctx ctx;
    struct td_python *py;
    size_t n_py;
    struct td_torch *t;
    size_t n;
    struct td_findings f;
};

static void probe(struct fx *x, const char *layout, bool verify_all)
{
    memset(x, 0, sizeof *x);
    unsetenv("VIRTUAL_ENV");
    unsetenv("CONDA_PREFIX");
    unsetenv("PYTHONNOUSERSITE");
    static char root[4096];
    snprintf(root, sizeof root, "%s", td_fixture(layout));
    x->ctx.root = root;
    x->ctx.arena = &x->arena;
    x->ctx.home = "/home/u";
    assert_int_equal(td_probe_pythons(&x->ctx, "/usr/bin/python3", &x->py, &x->n_py), 0);
    assert_int_equal(td_probe_torch(&x->ctx, x->py, x->n_py,
                                    verify_all ? UINT64_MAX : (uint64_t)1 << 20, &x->t, &x->n,
                                    &x->f),
                     0);
}

static void done(struct fx *x)
{
    td_findings_free(&x->f);
    td_arena_free(&x->arena);
}

static const char *const PIP_TORCH = "/usr/local/lib/python3.11/dist-packages/torch";

static void pip_clean(void **state)
{
    struct fx x;
    probe(&x, "torch_layouts/pip", false);
    assert_int_equal(x.f.count, 0);
    assert_int_equal(x.n, 1);
    const struct td_torch *t = &x.t[0];
    assert_string_equal(t->dir, PIP_TORCH);
    assert_string_equal(t->site_dir, "/usr/local/lib/python3.11/dist-packages");
    assert_int_equal(t->python, 0);
    assert_string_equal(t->version, "2.1.0+cu121");
    assert_string_equal(t->base_version, "2.1.0");
    assert_string_equal(t->local_tag, "cu121");
    assert_string_equal(t->cuda, "12.1");
    assert_null(t->hip);
    assert_string_equal(t->variant, "cuda");
    assert_string_equal(t->installer, "pip");
    assert_string_equal(t->dist_info,
                        "/usr/local/lib/python3.11/dist-packages/torch-2.1.0+cu121.dist-info");
    /* 10 RECORD rows; RECORD itself and the .pyc have neither hash nor size. */
    assert_int_equal(t->record_files, 8);
    assert_int_equal(t->record_hashed, 8);
    /* Exactly the architectures written into the fixture's .nv_fatbin. */
    assert_int_equal(t->n_cuda_archs, 3);
    assert_string_equal(t->cuda_archs[0], "sm_80");
    assert_string_equal(t->cuda_archs[1], "sm_90");
    assert_string_equal(t->cuda_archs[2], "compute_90");
    assert_string_equal(t->archs_from,
                        "/usr/local/lib/python3.11/dist-packages/torch/lib/libtorch_cuda.so");
    assert_null(t->archs_error);
    assert_int_equal(t->n_companions, 2);
    assert_string_equal(t->companions[0].name, "torchvision");
    assert_string_equal(t->companions[0].version, "0.16.0+cu121");
    assert_string_equal(t->companions[0].installer, "pip");
    assert_string_equal(t->companions[1].name, "nvidia_cudnn_cu12");
    assert_string_equal(t->companions[1].version, "8.9.2.26");
    done(&x);
}

static const struct td_finding *only_finding(struct fx *x, const char *kind)
{
    assert_int_equal(x->f.count, 1);
    assert_string_equal(x->f.items[0].kind, kind);
    return &x->f.items[0];
}

static void pip_flipped_byte(void **state)
{
    struct fx x;
    probe(&x, "torch_layouts/flipped", false);
    const struct td_finding *g = only_finding(&x, "corrupted_file");
    assert_int_equal(g->severity, TD_SEV_ERROR);
    assert_string_equal(g->library, "/usr/local/lib/python3.11/dist-packages/torch/lib/libc10.so");
    assert_string_equal(g->needed_by, PIP_TORCH);
    assert_non_null(strstr(g->detail, "SHA-256 differs from RECORD"));
    assert_string_equal(
        g->fix, "/usr/bin/python3 -m pip install --force-reinstall --no-deps torch==2.1.0+cu121");
    done(&x);
}

/* A Windows interpreter (held as "C:/...") in cmd's form: backslashes,
 * double quotes only when a blank or non-ASCII byte needs them. */
static void windows_install_command(void **state)
{
    char out[512];
    td_install_cmd("pip", "C:/Py311/python.exe", NULL, NULL, TD_REINSTALL, "torch==2.4.0", out,
                   sizeof out);
    assert_string_equal(out, "C:\\Py311\\python.exe -m pip install --force-reinstall --no-deps "
                             "torch==2.4.0");
    td_install_cmd("pip", "C:/Program Files/Python311/python.exe", NULL, NULL, TD_INSTALL, "torch",
                   out, sizeof out);
    assert_string_equal(out, "\"C:\\Program Files\\Python311\\python.exe\" -m pip install torch");
    td_install_cmd("uv", "C:/Users/用户张三/venv/Scripts/python.exe", NULL, NULL, TD_INSTALL,
                   "torch", out, sizeof out);
    assert_string_equal(
        out, "uv pip install --python \"C:\\Users\\用户张三\\venv\\Scripts\\python.exe\" torch");
}

/* A removal is written for the system the path is on: a Windows leftover's
 * fix is del with backslashes (cmd and PowerShell), never sh's rm 'C:/...'. */
static void remove_command(void **state)
{
    char out[512];
    td_remove_cmd("C:/Users/用户张三/torch/lib/cudnn64_8.dll", false, out, sizeof out);
    assert_string_equal(out, "del \"C:\\Users\\用户张三\\torch\\lib\\cudnn64_8.dll\"");
    td_remove_cmd("C:/Py311/Lib/site-packages/torch", true, out, sizeof out);
    assert_string_equal(out, "rmdir /s /q C:\\Py311\\Lib\\site-packages\\torch");
    td_remove_cmd("/venv/lib/torch/lib/libcudnn.so.8", false, out, sizeof out);
    assert_string_equal(out, "rm /venv/lib/torch/lib/libcudnn.so.8");
    td_remove_cmd("/home/a b/torch", true, out, sizeof out);
    assert_string_equal(out, "rm -r '/home/a b/torch'");
}

static void pip_truncated(void **state)
{
    struct fx x;
    probe(&x, "torch_layouts/truncated", false);
    const struct td_finding *g = only_finding(&x, "corrupted_file");
    assert_string_equal(g->library,
                        "/usr/local/lib/python3.11/dist-packages/torch/lib/libtorch_cpu.so");
    assert_non_null(strstr(g->detail, "bytes, RECORD says"));
    assert_int_equal(x.t[0].record_hashed, 7); /* a wrong size is not hashed */
    done(&x);
}

static void pip_missing_file(void **state)
{
    struct fx x;
    probe(&x, "torch_layouts/missing", false);
    const struct td_finding *g = only_finding(&x, "corrupted_file");
    assert_string_equal(g->library,
                        "/usr/local/lib/python3.11/dist-packages/torch/utils/helper.py");
    assert_non_null(strstr(g->detail, "missing (listed in RECORD)"));
    done(&x);
}

static void pip_stray_files(void **state)
{
    struct fx x;
    probe(&x, "torch_layouts/stray", false);
    assert_int_equal(x.f.count, 2);
    bool bak = false, py = false;
    for (size_t i = 0; i < 2; i++) {
        const struct td_finding *g = &x.f.items[i];
        assert_string_equal(g->kind, "stray_file");
        assert_int_equal(g->severity, TD_SEV_WARNING);
        bak |= strcmp(g->library, "/usr/local/lib/python3.11/dist-packages/torch/lib/"
                                  "libtorch_cpu.so.bak") == 0;
        py |= strcmp(g->library,
                     "/usr/local/lib/python3.11/dist-packages/torch/utils/leftover.py") == 0;
        assert_non_null(strstr(g->fix, "rm /usr/local/lib/python3.11/dist-packages/torch/"));
    }
    assert_true(bak);
    assert_true(py);
    done(&x);
}

static void companion_too_old(void **state)
{
    struct fx x;
    probe(&x, "torch_layouts/oldvision", false);
    const struct td_finding *g = only_finding(&x, "companion_mismatch");
    assert_int_equal(g->severity, TD_SEV_ERROR);
    assert_string_equal(g->library, "torchvision");
    assert_string_equal(g->fix, "/usr/bin/python3 -m pip install 'torchvision==0.16.*'");
    assert_non_null(strstr(g->detail, "torchvision 0.15.2+cu121"));
    done(&x);
}

static void user_site_shadows_debian(void **state)
{
    struct fx x;
    probe(&x, "torch_layouts/multi", false);
    assert_int_equal(x.n, 2);
    assert_string_equal(x.t[0].dir, "/home/u/.local/lib/python3.11/site-packages/torch");
    assert_string_equal(x.t[1].dir, "/usr/lib/python3/dist-packages/torch");
    assert_string_equal(x.t[1].installer, "debian");
    assert_string_equal(x.t[1].version, "1.13.0a0");
    assert_string_equal(x.t[1].variant, "cpu");
    assert_int_equal(x.t[1].record_files, 2); /* its md5sums, both intact */
    const struct td_finding *g = only_finding(&x, "multiple_installs");
    assert_int_equal(g->severity, TD_SEV_WARNING);
    assert_string_equal(g->needed_by, "/usr/bin/python3");
    /* The winner is named first. */
    const char *win = strstr(g->detail, "/home/u/.local/lib/python3.11/site-packages/torch");
    const char *lose = strstr(g->detail, "/usr/lib/python3/dist-packages/torch");
    assert_non_null(win);
    assert_non_null(lose);
    assert_true(win < lose);
    assert_string_equal(g->fix, "sudo apt-get remove python3-torch");
    done(&x);
}

static void conda_installer(void **state)
{
    struct fx x;
    memset(&x, 0, sizeof x);
    static char root[4096];
    snprintf(root, sizeof root, "%s", td_fixture("torch_layouts/conda"));
    x.ctx.root = root;
    x.ctx.arena = &x.arena;
    assert_int_equal(
        td_probe_pythons(&x.ctx, "/home/u/miniconda3/envs/ml/bin/python", &x.py, &x.n_py), 0);
    assert_int_equal(td_probe_torch(&x.ctx, x.py, x.n_py, (uint64_t)1 << 20, &x.t, &x.n, &x.f), 0);
    assert_int_equal(x.n, 1);
    assert_string_equal(x.t[0].installer, "conda");
    assert_string_equal(
        x.t[0].dist_info,
        "/home/u/miniconda3/envs/ml/conda-meta/pytorch-2.1.0-py3.11_cuda12.1_cudnn8.9.2_0.json");
    assert_string_equal(x.t[0].version, "2.1.0");
    assert_null(x.t[0].local_tag);
    assert_string_equal(x.t[0].variant, "cuda");
    assert_null(x.t[0].cuda_archs);
    done(&x);
}

/* This machine's Debian python3-torch: read its version.py here, independently. */
static void debian_python3_torch(void **state)
{
    const char *vp = "/usr/lib/python3/dist-packages/torch/version.py";
    FILE *fp = fopen(vp, "r");
    if (!fp || access("/var/lib/dpkg/info/python3-torch.list", R_OK) != 0) {
        if (fp)
            fclose(fp);
        skip();
    }
    char line[256], want[64] = "";
    while (fgets(line, sizeof line, fp))
        if (sscanf(line, "__version__ = '%63[^']'", want) == 1)
            break;
    fclose(fp);
    assert_true(want[0] != '\0');
    struct fx x;
    memset(&x, 0, sizeof x);
    x.ctx.arena = &x.arena;
    x.ctx.home = "/nonexistent";
    assert_int_equal(td_probe_pythons(&x.ctx, "/usr/bin/python3", &x.py, &x.n_py), 0);
    assert_int_equal(td_probe_torch(&x.ctx, x.py, x.n_py, (uint64_t)1 << 20, &x.t, &x.n, &x.f), 0);
    const struct td_torch *t = NULL;
    for (size_t i = 0; i < x.n; i++)
        if (strcmp(x.t[i].dir, "/usr/lib/python3/dist-packages/torch") == 0)
            t = &x.t[i];
    assert_non_null(t);
    assert_string_equal(t->version, want);
    assert_string_equal(t->variant, "cpu");
    assert_string_equal(t->installer, "debian");
    assert_string_equal(t->dist_info, "/var/lib/dpkg/info/python3-torch.list");
    assert_true(t->record_files > 1000);
    assert_int_equal(td_findings_count(&x.f, TD_SEV_ERROR), 0);
    done(&x);
}

/* The pairing rules of data/torch_companions.tsv, one by one. */
static void pairing_table(void **state)
{
    struct td_findings f = {0};
    struct td_package audio = {"torchaudio", "2.0.2", "pip", NULL, 0};
    /* torch 2.0.1 pairs with torchaudio 2.0.2 (the off-by-one rows). */
    assert_true(td_companion_check("2.0.1", &audio, "/py", NULL, &f));
    assert_int_equal(f.count, 0);
    assert_true(td_companion_check("2.1.0+cu121", &audio, "/py", NULL, &f));
    assert_int_equal(f.count, 1);
    assert_string_equal(f.items[0].fix, "/py -m pip install torchaudio==2.1.0");
    /* "min" row: torchaudio 2.11 supports torch 2.11 and later. */
    struct td_package audio11 = {"torchaudio", "2.11.0", "uv", NULL, 0};
    assert_true(td_companion_check("2.12.0", &audio11, "/py", NULL, &f));
    assert_int_equal(f.count, 1);
    struct td_package audio10 = {"torchaudio", "2.10.0", "uv", NULL, 0};
    assert_true(td_companion_check("2.12.0", &audio10, "/py", NULL, &f));
    assert_int_equal(f.count, 2);
    assert_string_equal(f.items[1].fix, "uv pip install --python /py 'torchaudio>=2.11.0'");
    /* Right release, another CUDA build: not a pairing question. */
    struct td_package vision = {"torchvision", "0.16.0+cu118", "conda", NULL, 0};
    assert_true(td_companion_check("2.1.0+cu121", &vision, "/py", "/env", &f));
    assert_int_equal(f.count, 2);
    struct td_torch t = {
        .version = "2.1.0+cu121", .cuda = "12.1", .companions = &vision, .n_companions = 1};
    td_torch_variant_check(&t, "/py", "/env", &f);
    assert_int_equal(f.count, 3);
    assert_non_null(strstr(f.items[2].detail, "the cu118 build"));
    assert_string_equal(f.items[2].fix,
                        "conda install -p /env --force-reinstall torchvision=0.16.0+cu121");
    /* A pip install: torch and the companion from torch's index in one command. */
    struct td_package cpu_vision = {"torchvision", "0.16.0+cpu", "pip", NULL, 0};
    t.companions = &cpu_vision;
    td_torch_variant_check(&t, "/py", NULL, &f);
    assert_int_equal(f.count, 4);
    assert_string_equal(f.items[3].fix,
                        "/py -m pip install torch==2.1.0+cu121 torchvision==0.16.0+cu121 "
                        "--index-url https://download.pytorch.org/whl/cu121");
    /* CUDA 13's unsuffixed wheels: the major read from their RECORD
     * (nvidia/cu13/), not from the version (cufft 12.0 is CUDA 13's). */
    struct td_package cufft = {"nvidia-cufft", "12.0.0.61", "pip", NULL, 13};
    struct td_torch t128 = {
        .version = "2.9.0+cu128", .cuda = "12.8", .companions = &cufft, .n_companions = 1};
    td_torch_variant_check(&t128, "/py", NULL, &f);
    assert_int_equal(f.count, 5);
    assert_string_equal(f.items[4].kind, TD_KIND_CUDA_RUNTIME_MISMATCH);
    assert_non_null(strstr(f.items[4].detail, "built for CUDA 13"));
    struct td_torch t130 = {
        .version = "2.9.0+cu130", .cuda = "13.0", .companions = &cufft, .n_companions = 1};
    td_torch_variant_check(&t130, "/py", NULL, &f);
    assert_int_equal(f.count, 5);
    /* No row for torch 1.9: nothing said. */
    assert_false(td_companion_check("1.9.0", &vision, "/py", NULL, &f));
    assert_int_equal(f.count, 5);
    td_findings_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pip_clean),
        cmocka_unit_test(pip_flipped_byte),
        cmocka_unit_test(windows_install_command),
        cmocka_unit_test(remove_command),
        cmocka_unit_test(pip_truncated),
        cmocka_unit_test(pip_missing_file),
        cmocka_unit_test(pip_stray_files),
        cmocka_unit_test(companion_too_old),
        cmocka_unit_test(user_site_shadows_debian),
        cmocka_unit_test(conda_installer),
        cmocka_unit_test(debian_python3_torch),
        cmocka_unit_test(pairing_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
