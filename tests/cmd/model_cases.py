#!/usr/bin/python3
"""inspect MODEL and check --workload's memory estimate on model files the
test writes (model_files.py): tiny safetensors, sharded and diffusers
layouts and GGUF files read back by an independent reader, the FLUX-shaped
12B header (a sparse file), malformed headers (each a clear error, exit 2),
and the memory formula against a hand computation."""
import json
import os
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import model_files as mf  # noqa: E402

TD = os.environ["TD_BIN"]
FAILS = []


def run(*args):
    p = subprocess.run([TD, *args], capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        FAILS.append(what)


def validate(doc, what):
    """Against schema/report.schema.json, where jsonschema is installed."""
    try:
        import jsonschema
    except ImportError:
        print(f"skipped: schema validation of {what} (no python3-jsonschema)")
        return
    schema = json.load(open(os.path.join(os.environ["TD_SRC"], "schema", "report.schema.json")))
    schema.pop("$id", None)  # relative: without it, "#/$defs/..." resolves in place
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(doc))
    check(not errors, f"{what} validates against the schema {[e.message for e in errors][:2]}")


def inspect(path):
    rc, out, err = run("inspect", "--format", "json", path)
    doc = json.loads(out) if out.strip() else None
    if doc and rc == 0:
        validate(doc, "inspect " + os.path.basename(path))
    return rc, (doc["files"][0] if doc else None), err


def tiny(d):
    p = os.path.join(d, "tiny.safetensors")
    tensors = [("a.weight", "F32", [2, 3]), ("b", "BF16", [4]), ("c", "I64", [2])]
    size = mf.write_safetensors(p, tensors, {"format": "pt"})
    ref, meta = mf.read_safetensors(p)
    check(meta == {"format": "pt"} and ref["b"] == ("BF16", [4], 24, 32), "oracle reads tiny back")
    rc, f, err = inspect(p)
    want = sum(mf.numel(s) for _, s, *_ in ref.values())
    check(rc == 0 and f["params"] == want == 12, f"tiny: params 12 (rc {rc}, {err.strip()})")
    c = f["components"][0]
    dt = {x["dtype"]: (x["params"], x["bytes"]) for x in c["dtypes"]}
    check(dt == {"F32": (6, 24), "BF16": (4, 8), "I64": (2, 16)}, f"tiny: dtypes {dt}")
    check(f["bytes_on_disk"] == size and c["tensors"] == 3, "tiny: bytes on disk, tensors")
    mem = {m["precision"]: m["bytes"] for m in f["memory"]}
    check(mem.get("bf16") == 24 and mem.get("fp8") == 12 and mem.get("fp32") == 48,
          f"tiny: memory per precision {mem}")


def sharded(d):
    s = os.path.join(d, "sharded")
    os.mkdir(s)
    a = [("x.weight", "BF16", [8, 8])]
    b = [("y.weight", "F16", [4, 4]), ("y.bias", "F16", [4])]
    mf.write_safetensors(os.path.join(s, "model-00001-of-00002.safetensors"), a)
    mf.write_safetensors(os.path.join(s, "model-00002-of-00002.safetensors"), b)
    wm = {"x.weight": "model-00001-of-00002.safetensors",
          "y.weight": "model-00002-of-00002.safetensors", "y.bias": "model-00002-of-00002.safetensors"}
    idx = os.path.join(s, "model.safetensors.index.json")
    with open(idx, "w") as f:
        json.dump({"metadata": {"total_size": 168}, "weight_map": wm}, f)
    with open(os.path.join(s, "config.json"), "w") as f:
        json.dump({"architectures": ["TinyForCausalLM"]}, f)
    rc, f, err = inspect(idx)
    check(rc == 0 and f["params"] == 84 and f["components"][0]["files"] == 2,
          f"sharded index: 84 params in 2 shards ({err.strip()})")
    rc, f, err = inspect(s)
    check(rc == 0 and f["params"] == 84 and f["components"][0]["class"] == "TinyForCausalLM",
          f"transformers folder: config.json's class, the index's shards ({err.strip()})")
    return s


def diffusers(d):
    root = os.path.join(d, "pipe")
    comps = {"transformer": ("FluxTransformer2DModel", [("t.w", "BF16", [16, 16])]),
             "text_encoder": ("CLIPTextModel", [("e.w", "F16", [10, 4])]),
             "vae": ("AutoencoderKL", [("v.w", "F32", [3, 3])])}
    index = {"_class_name": "FluxPipeline", "_diffusers_version": "0.30.0",
             "scheduler": ["diffusers", "FlowMatchEulerDiscreteScheduler"]}
    for name, (cls, tensors) in comps.items():
        os.makedirs(os.path.join(root, name))
        index[name] = ["diffusers", cls]
        with open(os.path.join(root, name, "config.json"), "w") as f:
            json.dump({"_class_name": cls}, f)
        fn = "model.safetensors" if name == "text_encoder" else "diffusion_pytorch_model.safetensors"
        mf.write_safetensors(os.path.join(root, name, fn), tensors)
    # a variant file repeats the weights: not counted when the main one is there
    mf.write_safetensors(os.path.join(root, "vae", "diffusion_pytorch_model.fp16.safetensors"),
                         [("v.w", "F16", [3, 3])])
    os.makedirs(os.path.join(root, "scheduler"))
    with open(os.path.join(root, "scheduler", "scheduler_config.json"), "w") as f:
        f.write("{}")
    with open(os.path.join(root, "model_index.json"), "w") as f:
        json.dump(index, f)
    rc, f, err = inspect(root)
    got = {c["name"]: (c["class"], c["params"]) for c in f["components"]} if f else {}
    check(rc == 0 and got == {"transformer": ("FluxTransformer2DModel", 256),
                              "text_encoder": ("CLIPTextModel", 40),
                              "vae": ("AutoencoderKL", 9)} and f["params"] == 305,
          f"diffusers folder: components {got} ({err.strip()})")


def gguf(d):
    p = os.path.join(d, "tiny.gguf")
    kvs = [("general.architecture", 8, "llama"), ("general.alignment", 4, 32),
           ("llama.context_length", 10, 4096), ("general.file_type", 4, 7),
           ("tokenizer.ggml.tokens", 9, (8, ["a", "b", "<s>"])), ("x.f", 6, 0.5),
           ("x.flag", 7, True), ("x.scores", 9, (6, [0.1, 0.2]))]
    tensors = [("tok_embd.weight", [4, 2], 0), ("blk.0.attn_q.weight", [32, 2], 8),
               ("output_norm.weight", [3], 1)]
    mf.write_gguf(p, kvs, tensors)
    version, rkv, rt = mf.read_gguf(p)
    check(version == 3 and rkv["general.architecture"] == "llama" and len(rt) == 3,
          "oracle reads tiny.gguf back")
    rc, f, err = inspect(p)
    c = f["components"][0] if f and f.get("components") else {}
    dt = {x["dtype"]: (x["params"], x["bytes"]) for x in c.get("dtypes", [])}
    check(rc == 0 and f["params"] == 8 + 64 + 3 and c["class"] == "llama",
          f"gguf: 75 params, architecture llama ({err.strip()})")
    check(dt == {"F32": (8, 32), "Q8_0": (64, 68), "F16": (3, 6)}, f"gguf: types {dt}")
    p2 = os.path.join(d, "v2.gguf")
    mf.write_gguf(p2, kvs[:1], tensors[:1], version=2)
    rc, f, err = inspect(p2)
    check(rc == 0 and f["params"] == 8, "gguf version 2")
    return p


def flux(d):
    p = os.path.join(d, "flux1-dev.safetensors")
    size = mf.write_safetensors(p, mf.flux_tensors(), {"format": "pt"}, sparse=True)
    hand = mf.flux_params_by_hand()
    rc, f, err = inspect(p)
    mem = {m["precision"]: m["bytes"] for m in f["memory"]} if f else {}
    check(rc == 0 and f["params"] == hand == 11901408320,
          f"FLUX-shaped header: {f and f['params']} parameters, by hand {hand}")
    check(f["components"][0]["dtypes"][0]["bytes"] == 2 * hand and mem["bf16"] == 2 * hand,
          "FLUX-shaped header: bf16 size 2 x 11901408320 = 23802816640 bytes")
    check(f["bytes_on_disk"] == size, f"FLUX-shaped header: {size} bytes on disk (sparse)")
    return p


def malformed(d):
    def st(name, text, data=0, length=None):
        p = os.path.join(d, name)
        with open(p, "wb") as f:
            f.write(struct.pack("<Q", len(text) if length is None else length) + text)
            f.truncate(8 + len(text) + data)
        return p

    def hdr(entries):
        return json.dumps(entries).encode()

    ok = {"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}}
    cases = [
        ("empty.safetensors", st("empty.safetensors", b"", length=0)[:0] or
         open(os.path.join(d, "empty.safetensors"), "wb").close() or
         os.path.join(d, "empty.safetensors"), "too short"),
        ("length past the file", st("past.safetensors", hdr(ok), 8, length=1 << 20),
         "past the end of the file"),
        ("length over 100 MiB", st("huge.safetensors", hdr(ok), 8, length=1 << 40),
         "100 MiB"),
        ("invalid JSON", st("json.safetensors", b'{"a": {"dtype": "F32",,}}'), "invalid JSON at byte"),
        ("overlap", st("overlap.safetensors", hdr({
            "a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
            "b": {"dtype": "F32", "shape": [2], "data_offsets": [4, 12]}}), 12), "overlap"),
        ("out of range", st("range.safetensors", hdr({
            "a": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]}}), 8), "lie outside"),
        ("dtype x shape", st("size.safetensors", hdr({
            "a": {"dtype": "BF16", "shape": [3], "data_offsets": [0, 8]}}), 8), "need 6"),
        ("huge shape", st("overflow.safetensors", hdr({
            "a": {"dtype": "F32", "shape": [1 << 40, 1 << 40], "data_offsets": [0, 8]}}), 8),
         "overflows"),
        ("unknown dtype", st("dtype.safetensors", hdr({
            "a": {"dtype": "F33", "shape": [2], "data_offsets": [0, 8]}}), 8), "unknown dtype"),
        ("not an object", st("array.safetensors", b"[1, 2]"), "expected an object"),
    ]
    g = os.path.join(d, "g")
    os.mkdir(g)

    def raw(name, data):
        p = os.path.join(g, name)
        with open(p, "wb") as f:
            f.write(data)
        return p

    good = os.path.join(g, "good.gguf")
    mf.write_gguf(good, [("general.architecture", 8, "llama")], [("w", [4], 0)])
    gb = open(good, "rb").read()
    cases += [
        ("gguf magic", raw("magic.gguf", b"GGUX" + gb[4:]), "no GGUF magic"),
        ("gguf version", raw("version.gguf", gb[:4] + struct.pack("<I", 9) + gb[8:]), "version 9"),
        ("gguf kv count", raw("count.gguf", gb[:16] + struct.pack("<Q", 1 << 60) + gb[24:]),
         "metadata count"),
        ("gguf string", raw("string.gguf", gb[:24] + struct.pack("<Q", 1 << 50) + gb[32:]),
         "past the end"),
        ("gguf truncated", raw("short.gguf", gb[:40]), "past the end"),
        # header 24 bytes, the key/value 45, then "w": name 9, n_dims 4, dim 8, type 4, offset
        ("gguf tensor offset", raw("offset.gguf", gb[:94] + struct.pack("<Q", 1 << 40) + gb[102:]),
         "lies past the end of the file"),
    ]
    for what, path, words in cases:
        rc, out, err = run("inspect", path)
        check(rc == 2 and words in err and "Traceback" not in err,
              f"malformed {what}: exit {rc}, says '{words}' ({err.strip()[:150]})")
    rc, out, err = run("check", "--no-gpu", "--workload", "flux-lora", "--model",
                       os.path.join(d, "overlap.safetensors"))
    check(rc == 2 and "overlap" in err, f"check --model of a malformed header: exit {rc}")


def estimate(model):
    """The formula of kb/memory.c, by hand, with the data rows' constants."""
    GIB = 1 << 30
    rc, out, err = run("check", "--no-gpu", "--format", "json", "--workload", "sdxl-lora",
                       "--batch", "2", "--resolution", "768", "--precision", "fp16",
                       "--optimizer", "adamw", "--lora-rank", "8", "--no-gradient-checkpointing")
    validate(json.loads(out), "check --workload's JSON")
    m = json.loads(out)["workload"]["memory"]
    P, h, r, B = 2.567e9, 1280, 8, 2
    T = P * 2 * r / h
    tok640, tok1280 = (768 // 16) ** 2, (768 // 32) ** 2
    act = B * (10 * 34 * tok640 * 640 + 60 * 34 * tok1280 * 1280)
    parts = {"weights": P * 2, "trainable": T * 4, "gradients": T * 4, "optimizer": T * 8,
             "activations": act}
    total = sum(parts.values())
    check(all(abs(m["parts"][k] - v) <= 1 for k, v in parts.items()),
          f"sdxl-lora estimate parts by hand {parts} vs {m['parts']}")
    check(abs(m["total_bytes"] - total) <= 1 and m["fits"] == (total <= m["capacity_bytes"]),
          f"sdxl-lora total {total / GIB:.2f} GB by hand, verdict '{m['verdict']}'")
    # with checkpointing: 2 bytes x tokens x h per block + one block recomputed
    rc, out, err = run("check", "--no-gpu", "--format", "json", "--workload", "sdxl-lora",
                       "--batch", "2", "--resolution", "768", "--gradient-checkpointing")
    m = json.loads(out)["workload"]["memory"]
    ck = B * (10 * 2 * tok640 * 640 + 60 * 2 * tok1280 * 1280) + B * 34 * tok640 * 640
    check(abs(m["parts"]["activations"] - ck) <= 1, "checkpointed activations by hand")
    # Adafactor, full fine-tuning: 4 x (rows + cols) per h x h matrix
    rc, out, err = run("check", "--no-gpu", "--format", "json", "--workload", "sdxl-full")
    m = json.loads(out)["workload"]["memory"]
    check(abs(m["parts"]["optimizer"] - P * 4 * (2 / h)) <= 1 and m["job"]["lora_rank"] == 0,
          "sdxl-full: Adafactor's factored state by hand")
    # the FLUX header as --model: its parameter count is the one used
    rc, out, err = run("check", "--no-gpu", "--format", "json", "--workload", "flux-lora",
                       "--model", model, "--batch", "64", "--resolution", "2048", "--lora-rank",
                       "0", "--optimizer", "adamw", "--precision", "bf16",
                       "--no-gradient-checkpointing")
    m = json.loads(out)["workload"]["memory"]
    check(m["job"]["params"] == 11901408320, "check --model takes the header's parameter count")
    v = m["verdict"]
    check(not m["fits"] and v.startswith("will not fit: needs ") and m["fix"],
          f"an oversized job: '{v}'")
    if m["fix_total_bytes"] > 0:
        check(m["fix_total_bytes"] <= m["capacity_bytes"], "the suggested change fits")
    rc, out, err = run("check", "--no-gpu", "--workload", "flux-lora", "--batch", "1")
    check("formula:" in out and "assumes:" in out and "cross-check:" in out,
          "text: the formula, assumptions and the toolkit's figure are printed")
    rc, out, err = run("check", "--no-gpu", "--batch", "2")
    check(rc == 2 and "need --workload" in err, "--batch without --workload: usage, exit 2")


def gpu_verdicts():
    """The verdict against a GPU: the fake driver of tests/fixtures/fake_cuda.sh
    answers for a 24 GB RTX 3090 (25447170048 bytes, 23.7 GiB)."""
    lib = os.path.join(os.environ.get("TD_FIXTURES", "/nonexistent"), "fake_cuda", "lib")
    if not os.path.isdir(lib):
        print(f"skipped: verdicts against a GPU (no fake driver at {lib}: run the fixtures test)")
        return
    env = {**os.environ, "LD_LIBRARY_PATH": lib, "TD_FAKE_CUDA_VERSION": "12040",
           "TD_FAKE_NVML_DRIVER": "550.54.14",
           "TD_FAKE_GPUS": "NVIDIA GeForce RTX 3090:8.6:25447170048"}

    def job(*args):
        p = subprocess.run([TD, "check", "--no-symbols", "--python", "/usr/bin/python3",
                            "--format", "json", "--workload", "flux-lora", *args],
                           capture_output=True, text=True, env=env, timeout=300)
        doc = json.loads(p.stdout)
        return p.returncode, doc["workload"]["memory"], doc["findings"]

    rc, m, f = job("--precision", "bf16")  # ai-toolkit's default is 8-bit base weights
    GIB = 1 << 30
    want = (f"will not fit: needs {m['total_bytes'] / GIB:.1f} GB, NVIDIA GeForce RTX 3090 has "
            f"23.7 GB; with --precision fp8 (fp8 base weights) {m['fix_total_bytes'] / GIB:.1f} GB")
    check(m["device"] == "NVIDIA GeForce RTX 3090" and m["verdict"] == want and rc == 1 and
          any(x["kind"] == "insufficient_memory" and "will not fit" in x["detail"] and
              "--precision fp8" in x["fix"] for x in f),
          f"flux-lora in bf16 on a 24 GB GPU: '{m['verdict']}'")
    rc, m2, f = job("--precision", "fp8")
    check(m2["fits"] and m2["verdict"].startswith("fits with ") and
          abs(m2["total_bytes"] - m["fix_total_bytes"]) <= 1,
          f"with the suggested --precision fp8: '{m2['verdict']}'")
    rc, m3, f = job("--no-gradient-checkpointing", "--precision", "fp8", "--batch", "4")
    check(not m3["fits"] and "--gradient-checkpointing" in m3["fix"],
          f"fp8, batch 4, no checkpointing: '{m3['verdict']}'")


PEAK = r"""
import resource, sys, torch
torch.set_num_threads(1)
def rss():
    return int(open("/proc/self/statm").read().split()[1]) * 4096
layers, width = int(sys.argv[1]), int(sys.argv[2])
base = rss()  # torch imported, no model yet
m = torch.nn.Sequential(*[torch.nn.Linear(width, width) for _ in range(layers)])
opt = torch.optim.AdamW(m.parameters(), lr=1e-3)
x = torch.randn(1, width)
for _ in range(2):
    opt.zero_grad()
    m(x).square().mean().backward()
    opt.step()
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(sum(p.numel() for p in m.parameters()), peak - base)
"""


def torch_peak(d):
    """The estimate for a small model on CPU against torch's own peak: an
    MLP of 8 fp32 2048 x 2048 layers trained with AdamW (full fine-tuning;
    at batch 1 and 64 px the activations are negligible), its weights
    written as safetensors for --model; the child's peak RSS over what
    `import torch` left, within 25%."""
    py = "/usr/bin/python3"
    probe = subprocess.run([py, "-c", "import torch"], capture_output=True)
    if probe.returncode != 0:
        print("skipped: estimate vs torch's peak (no torch for /usr/bin/python3: python3-torch)")
        return
    layers, width = 8, 2048
    p = os.path.join(d, "mlp.safetensors")
    tensors = []
    for i in range(layers):
        tensors += [(f"{i}.weight", "F32", [width, width]), (f"{i}.bias", "F32", [width])]
    mf.write_safetensors(p, tensors, sparse=True)
    out = subprocess.run([py, "-c", PEAK, str(layers), str(width)], capture_output=True,
                         text=True, timeout=300, check=True).stdout.split()
    params, measured = int(out[0]), int(out[1])
    rc, js, err = run("check", "--no-gpu", "--format", "json", "--workload", "sdxl-full",
                      "--model", p, "--precision", "fp32", "--optimizer", "adamw",
                      "--lora-rank", "0", "--batch", "1", "--resolution", "64")
    m = json.loads(js)["workload"]["memory"]
    est = m["total_bytes"]
    check(m["job"]["params"] == params, f"the MLP's {params} parameters read from its header")
    check(abs(est - measured) <= 0.25 * measured,
          f"estimate {est / 1e6:.0f} MB vs torch's measured peak {measured / 1e6:.0f} MB "
          f"({(est - measured) / measured:+.0%}, within 25%)")


def main():
    with tempfile.TemporaryDirectory() as d:
        tiny(d)
        sharded(d)
        diffusers(d)
        gguf(d)
        model = flux(d)
        malformed(d)
        estimate(model)
        torch_peak(d)
    gpu_verdicts()
    print(f"{len(FAILS)} failed" if FAILS else "all passed")
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
