// arena.h: the per-file arena tree-sitter allocates from while Grit parses
// a file for the index (arena.c says why).
#ifndef GRIT_ARENA_H
#define GRIT_ARENA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#define GRIT_ARENA_CHUNKS 48
// GRIT_ARENA_MAX is the most an arena maps; a file needing more (a tree of
// several hundred kilobytes of source, or a pathological file) spills to
// malloc for the rest.
#define GRIT_ARENA_MAX ((size_t)32 << 20)
// GRIT_ARENA_KEEP is how much of its chunks an arena keeps between files,
// GRIT_ARENA_KEEP_ALL how much all idle arenas together keep.
#define GRIT_ARENA_KEEP ((size_t)8 << 20)
#define GRIT_ARENA_KEEP_ALL ((size_t)32 << 20)

typedef struct grit_chunk {
  char *base;
  size_t size;
  char *ready; // pages below are populated (grit_arena.ready says why)
} grit_chunk;

typedef struct grit_arena {
  grit_chunk chunks[GRIT_ARENA_CHUNKS]; // mapped chunks, oldest first; sizes double
  int n;                                // chunks mapped
  int cur;                              // chunk allocations come from (-1: none yet)
  char *top, *end;                      // free room in chunks[cur]
  char *ready;                          // chunks[cur].ready, checked on every allocation
  void *last;                           // the newest allocation (grows or frees in place)
  size_t total;                         // bytes mapped
  bool spilled;                         // chunks ran out and malloc took over
} grit_arena;

// The allocator installed with ts_set_allocator: the calling thread's
// arena between grit_arena_enter and grit_arena_leave, malloc otherwise.
void *grit_alloc_malloc(size_t n);
void *grit_alloc_calloc(size_t count, size_t size);
void *grit_alloc_realloc(void *p, size_t n);
void grit_alloc_free(void *p);

// grit_arena_enter makes a (zeroed before first use) the calling thread's
// arena and empties it; grit_arena_leave stops using it and unmaps its
// chunks past the first GRIT_ARENA_KEEP bytes. Nothing allocated in between
// may be used after leave.
void grit_arena_enter(grit_arena *a);
void grit_arena_leave(grit_arena *a);
void grit_arena_free(grit_arena *a);

// Tests: grit_arena_limit caps the chunks an arena may map (GRIT_ARENA_CHUNKS
// at most), so a small file spills; grit_arena_spills counts the files that did.
extern int grit_arena_limit;
uint64_t grit_arena_spills(void);
size_t grit_arena_idle_bytes(void); // what idle arenas keep mapped

#endif
