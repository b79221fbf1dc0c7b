/* Model checkpoints on disk, read statically: a .safetensors file, a
 * sharded checkpoint (*.safetensors.index.json), a .gguf file, or a
 * diffusers/transformers folder (model_index.json naming components, each
 * a folder with config.json and weights). Only headers are read; the
 * result is per component: parameters, dtypes, bytes on disk. */
#ifndef TD_LOADER_MODEL_H
#define TD_LOADER_MODEL_H

#include <stdint.h>

#include "base/arena.h"
#include "base/err.h"

enum { TD_MODEL_MAX_COMPONENTS = 16, TD_MODEL_MAX_DTYPES = 8 };

struct td_model_dtype {
    char name[16]; /* "BF16", "Q4_K" */
    unsigned bits; /* per element; 0 when the format does not say simply */
    uint64_t params, bytes;
};

struct td_model_component {
    char name[64];   /* "transformer", "text_encoder_2", or the file's base name */
    char class[64];  /* config.json's _class_name / architectures[0], or "" */
    char format[16]; /* "safetensors", "gguf" */
    unsigned files, tensors;
    uint64_t params;
    uint64_t bytes_on_disk; /* the weight files' sizes */
    struct td_model_dtype dtypes[TD_MODEL_MAX_DTYPES];
    unsigned ndtypes;
};

struct td_model {
    const char *path;
    const char *kind; /* "safetensors", "safetensors-sharded", "gguf", "diffusers", "folder" */
    struct td_model_component comps[TD_MODEL_MAX_COMPONENTS];
    unsigned ncomps;
    uint64_t params, bytes_on_disk;
};

/* Is PATH a model this reader takes (by name or, for a folder, by what it
 * holds)? inspect asks before treating PATH as a binary. */
bool td_model_is_model(const char *path);

/* Reads PATH's headers. 0, or -1 with ERR naming the file and offset. */
int td_model_read(const char *path, struct td_model *out, struct td_arena *arena,
                  struct td_err *err);

#endif
