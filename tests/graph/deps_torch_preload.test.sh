#!/usr/bin/env bash
# torch-import's CUDA fallback (_preload_cuda_deps) on real ELF files.
exec /usr/bin/python3 "$TD_SRC/tests/graph/deps_torch_preload.py"
