/* Slurm's hostlist notation (`gpu[001-063,070]`, scontrol show hostnames):
 * expanding an expression into host names and folding names back into the
 * shortest expression. Pure functions over strings; the rules follow
 * Slurm's src/common/hostlist.c as its man pages describe it: a bracket
 * holds comma-separated numbers and lo-hi ranges, a range keeps the width
 * of its first number (zero padding), commas outside brackets separate
 * names. Text after a bracket (`node[01-16]-ib`) is taken, as ClusterShell
 * does, although Slurm 22.05 refuses it. */
#ifndef TD_BASE_HOSTLIST_H
#define TD_BASE_HOSTLIST_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"

enum { TD_HOSTLIST_NAME_MAX = 256 };

/* Calls EMIT(CTX, name) for every name EXPR denotes, in order; EMIT returns
 * false to stop. Returns NULL, or what was wrong ("unbalanced bracket",
 * "range 9-1 runs backwards", "more than MAX names"), in which case some
 * names may already have been emitted. */
const char *td_hostlist_expand(const char *expr, size_t max,
                               bool (*emit)(void *ctx, const char *name), void *ctx);

/* NAMES[0..N) folded into one expression ("gpu[001-003,007],login1"), in
 * ARENA; duplicates count once. NULL when ARENA is full. */
char *td_hostlist_fold(const char *const *names, size_t n, struct td_arena *arena);

#endif
