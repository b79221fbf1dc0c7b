"""Model files written per the published formats, and small independent
readers of them (no torch, numpy, safetensors or gguf package on the test
machine: these follow huggingface/safetensors docs "Format" and ggml's
docs/gguf.md). Used by model_cases.py and bench/model-header.sh."""
import json
import os
import struct

ST_BITS = {"BOOL": 8, "U8": 8, "I8": 8, "F16": 16, "BF16": 16, "I16": 16, "U16": 16,
           "F32": 32, "I32": 32, "U32": 32, "F64": 64, "I64": 64, "U64": 64, "F8_E4M3": 8,
           "F8_E5M2": 8}


def numel(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def st_header(tensors, metadata=None):
    """tensors: [(name, dtype, shape)] laid out in order. Returns (header
    dict, data length)."""
    hdr, off = {}, 0
    if metadata is not None:
        hdr["__metadata__"] = metadata
    for name, dtype, shape in tensors:
        size = numel(shape) * ST_BITS[dtype] // 8
        hdr[name] = {"dtype": dtype, "shape": list(shape), "data_offsets": [off, off + size]}
        off += size
    return hdr, off


def write_safetensors(path, tensors, metadata=None, sparse=False):
    """Writes a safetensors file; the tensor bytes are a counting pattern,
    or (sparse) a hole made by truncate, so a 24 GB file costs nothing."""
    hdr, data_len = st_header(tensors, metadata)
    text = json.dumps(hdr, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)  # the format pads the header to 8 bytes
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text)
        if sparse:
            f.truncate(8 + len(text) + data_len)
        else:
            f.write(bytes(i & 0xFF for i in range(data_len)))
    return 8 + len(text) + data_len


def read_safetensors(path):
    """Independent reader: {name: (dtype, shape, begin, end)}, metadata."""
    with open(path, "rb") as f:
        (n,) = struct.unpack("<Q", f.read(8))
        hdr = json.loads(f.read(n))
    meta = hdr.pop("__metadata__", None)
    return {k: (v["dtype"], v["shape"], *v["data_offsets"]) for k, v in hdr.items()}, meta


# GGUF value types (docs/gguf.md gguf_metadata_value_type) and the ggml
# types used here: (block elements, block bytes).
GGUF_FMT = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<?", 10: "<Q",
            11: "<q", 12: "<d"}
GGML = {0: ("F32", 1, 4), 1: ("F16", 1, 2), 8: ("Q8_0", 32, 34), 30: ("BF16", 1, 2)}


def gguf_str(s):
    b = s.encode()
    return struct.pack("<Q", len(b)) + b


def gguf_value(vtype, v):
    if vtype == 8:
        return gguf_str(v)
    if vtype == 9:
        etype, items = v
        return struct.pack("<IQ", etype, len(items)) + b"".join(gguf_value(etype, x) for x in items)
    return struct.pack(GGUF_FMT[vtype], v)


def write_gguf(path, kvs, tensors, version=3, alignment=32):
    """kvs: [(key, vtype, value)]; tensors: [(name, dims, ggml_type)]."""
    out = b"GGUF" + struct.pack("<IQQ", version, len(tensors), len(kvs))
    for key, vtype, v in kvs:
        out += gguf_str(key) + struct.pack("<I", vtype) + gguf_value(vtype, v)
    off, sizes = 0, []
    for name, dims, t in tensors:
        _, block, size = GGML[t]
        nbytes = -(-numel(dims) // block) * size
        out += gguf_str(name) + struct.pack("<I", len(dims))
        out += b"".join(struct.pack("<Q", d) for d in dims) + struct.pack("<IQ", t, off)
        off += nbytes + (-nbytes % alignment)
        sizes.append(nbytes)
    out += b"\0" * (-len(out) % alignment)
    data = b"".join(bytes(n) + b"\0" * (-n % alignment) for n in sizes)
    with open(path, "wb") as f:
        f.write(out + data)
    return len(out) + len(data)


def read_gguf(path):
    """Independent reader: version, {key: value}, [(name, dims, type, offset)]."""
    with open(path, "rb") as f:
        b = f.read()
    pos = 0

    def take(fmt):
        nonlocal pos
        v = struct.unpack_from(fmt, b, pos)
        pos += struct.calcsize(fmt)
        return v[0] if len(v) == 1 else v

    def string():
        nonlocal pos
        n = take("<Q")
        s = b[pos:pos + n].decode()
        pos += n
        return s

    def value(t):
        if t == 8:
            return string()
        if t == 9:
            et, n = take("<I"), take("<Q")
            return [value(et) for _ in range(n)]
        return take(GGUF_FMT[t])

    assert b[:4] == b"GGUF"
    pos = 4
    version, nt, nkv = take("<I"), take("<Q"), take("<Q")
    kvs = {}
    for _ in range(nkv):
        k = string()
        kvs[k] = value(take("<I"))
    tensors = []
    for _ in range(nt):
        name = string()
        nd = take("<I")
        dims = [take("<Q") for _ in range(nd)]
        tensors.append((name, dims, take("<I"), take("<Q")))
    return version, kvs, tensors


def flux_tensors(dtype="BF16"):
    """The FLUX.1 transformer's tensors as diffusers names them
    (FluxTransformer2DModel: inner dim 3072, 19 double-stream and 38
    single-stream blocks, MLP ratio 4, in_channels 64, joint_attention_dim
    4096, pooled_projection_dim 768, guidance embedding)."""
    h, mlp, t = 3072, 12288, []

    def lin(name, i, o):
        t.append((name + ".weight", dtype, [o, i]))
        t.append((name + ".bias", dtype, [o]))

    lin("x_embedder", 64, h)
    lin("context_embedder", 4096, h)
    for e, i in (("timestep_embedder", 256), ("guidance_embedder", 256), ("text_embedder", 768)):
        lin(f"time_text_embed.{e}.linear_1", i, h)
        lin(f"time_text_embed.{e}.linear_2", h, h)
    for b in range(19):
        p = f"transformer_blocks.{b}."
        lin(p + "norm1.linear", h, 6 * h)
        lin(p + "norm1_context.linear", h, 6 * h)
        for n in ("to_q", "to_k", "to_v", "add_q_proj", "add_k_proj", "add_v_proj", "to_out.0",
                  "to_add_out"):
            lin(p + "attn." + n, h, h)
        for n in ("norm_q", "norm_k", "norm_added_q", "norm_added_k"):
            t.append((p + "attn." + n + ".weight", dtype, [128]))
        for ff in ("ff", "ff_context"):
            lin(p + ff + ".net.0.proj", h, mlp)
            lin(p + ff + ".net.2", mlp, h)
    for b in range(38):
        p = f"single_transformer_blocks.{b}."
        lin(p + "norm.linear", h, 3 * h)
        lin(p + "proj_mlp", h, mlp)
        lin(p + "proj_out", h + mlp, h)
        for n in ("to_q", "to_k", "to_v"):
            lin(p + "attn." + n, h, h)
        for n in ("norm_q", "norm_k"):
            t.append((p + "attn." + n + ".weight", dtype, [128]))
    lin("norm_out.linear", h, 2 * h)
    lin("proj_out", h, 64)
    return t


def flux_params_by_hand():
    """The same count in closed form, block by block (weights + biases)."""
    h, m = 3072, 12288
    lin = lambda i, o: i * o + o  # noqa: E731
    double = 2 * lin(h, 6 * h) + 8 * lin(h, h) + 4 * 128 + 2 * (lin(h, m) + lin(m, h))
    single = lin(h, 3 * h) + lin(h, m) + lin(h + m, h) + 3 * lin(h, h) + 2 * 128
    top = (lin(64, h) + lin(4096, h) + 2 * (lin(256, h) + lin(h, h)) + lin(768, h) + lin(h, h) +
           lin(h, 2 * h) + lin(h, 64))
    return 19 * double + 38 * single + top


if __name__ == "__main__":  # bench/model-header.sh: python3 model_files.py flux OUT
    import sys
    if sys.argv[1] == "flux":
        write_safetensors(sys.argv[2], flux_tensors(), {"format": "pt"}, sparse=True)
        print(os.path.getsize(sys.argv[2]))
