// A per-file arena for tree-sitter's allocations. An index parses each file
// once, walks the tree and throws it away: every node the parse allocates
// dies at the same moment. With malloc that costs a malloc and a free per
// node, a walk over the whole tree to free it (ts_tree_delete), and page
// faults and madvise calls as glibc grows and trims its heaps: together a
// quarter of a cold index's CPU. With the arena an allocation is a pointer
// bump, a free does nothing, and the tree goes away when the arena is reset.
//
// grit_alloc_* are installed once as tree-sitter's allocator. They use the
// arena of the calling thread while grit_extract runs a parse (arena_enter /
// arena_leave) and libc's malloc otherwise, so parsers, queries and trees
// made outside a parse (go-tree-sitter, `grit ast`) never touch an arena.
// Inside a parse every tree-sitter object is created and abandoned there:
// the parser is made per file (ts_parser_new is a few small allocations),
// so nothing that outlives the parse points into the arena.
#define _DEFAULT_SOURCE // MAP_ANONYMOUS
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include "arena.h"

#define ALIGN 16
#define FIRST_CHUNK ((size_t)1 << 20)
#define MAX_CHUNK ((size_t)16 << 20)

// Pages of a fresh chunk are populated ahead of the allocations, a step at
// a time, with one madvise(MADV_POPULATE_WRITE) each instead of a page fault
// per 4 KB page. A fault costs far more than zeroing the page (10 us each
// where faults are trapped by a hypervisor; on sympy a fresh process indexing
// one 8 KB file took ~90 of them), and a chunk is filled front to back.
#define POPULATE_STEP ((size_t)256 << 10)
#ifdef __linux__
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 // Linux 5.14
#endif
static _Atomic bool can_populate = true; // false once the kernel refuses
#endif

static _Thread_local grit_arena *current;

// idle_bytes is what the arenas not parsing keep mapped.
static _Atomic size_t idle_bytes;
size_t grit_arena_idle_bytes(void) { return idle_bytes; }

int grit_arena_limit = GRIT_ARENA_CHUNKS;
static _Atomic uint64_t spills;
uint64_t grit_arena_spills(void) { return spills; }

static void *xmalloc(size_t n) {
  void *p = malloc(n);
  if (p == NULL && n > 0) {
    fprintf(stderr, "tree-sitter failed to allocate %zu bytes\n", n);
    abort();
  }
  return p;
}

// chunk_for returns the chunk holding p among those in use, or -1.
static int chunk_for(const grit_arena *a, const char *p) {
  for (int i = a->cur; i >= 0; i--) {
    if (p >= a->chunks[i].base && p < a->chunks[i].base + a->chunks[i].size) return i;
  }
  return -1;
}

// next_chunk makes room for n bytes past the current chunk: the next kept
// chunk if it is large enough, else a new one (which replaces the kept
// chunks after the current one). It returns false when none can be had.
static bool next_chunk(grit_arena *a, size_t n) {
  int next = a->cur + 1;
  if (next >= grit_arena_limit || next >= GRIT_ARENA_CHUNKS) return false;
  if (next < a->n && a->chunks[next].size >= n) {
    a->cur = next;
    a->top = a->chunks[next].base;
    a->end = a->top + a->chunks[next].size;
    a->ready = a->chunks[next].ready;
    return true;
  }
  for (int i = next; i < a->n; i++) {
    munmap(a->chunks[i].base, a->chunks[i].size);
    a->total -= a->chunks[i].size;
  }
  a->n = next;
  size_t size = a->cur >= 0 ? a->chunks[a->cur].size * 2 : FIRST_CHUNK;
  if (size > MAX_CHUNK) size = MAX_CHUNK;
  if (size < n) size = (n + FIRST_CHUNK - 1) & ~(FIRST_CHUNK - 1);
  // Past GRIT_ARENA_MAX the file spills to malloc: a parse that recovers
  // from error after error frees most of what it allocates, which malloc
  // reuses and a bump allocator cannot.
  if (a->total + size > GRIT_ARENA_MAX) return false;
  void *base = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED) return false;
  a->chunks[next].base = base;
  a->chunks[next].size = size;
  a->chunks[next].ready = base;
  a->n = next + 1;
  a->cur = next;
  a->total += size;
  a->top = base;
  a->end = a->top + size;
  a->ready = base;
  return true;
}

// populate makes the pages of the current chunk up to a->top, and a step
// beyond, present.
static void populate(grit_arena *a) {
  grit_chunk *c = &a->chunks[a->cur];
  char *end = c->base + c->size;
  char *to = c->ready + POPULATE_STEP;
  if (to < a->top) to = c->base + ((size_t)(a->top - c->base) + POPULATE_STEP - 1) / POPULATE_STEP * POPULATE_STEP;
  if (to > end) to = end;
#ifdef __linux__
  if (can_populate && madvise(c->ready, (size_t)(to - c->ready), MADV_POPULATE_WRITE) != 0) {
    can_populate = false; // an old kernel: pages fault in as they are touched
  }
#endif
  c->ready = a->ready = to;
}

static void *arena_alloc(grit_arena *a, size_t n) {
  size_t need = n ? (n + ALIGN - 1) & ~(size_t)(ALIGN - 1) : ALIGN;
  if (need < n) return xmalloc(n); // n near SIZE_MAX: malloc fails and aborts, as tree-sitter's would
  if ((size_t)(a->end - a->top) < need && !next_chunk(a, need)) {
    if (!a->spilled) spills++;
    a->spilled = true; // out of chunks: the rest of this file uses malloc
    return xmalloc(n);
  }
  void *p = a->top;
  a->top += need;
  a->last = p;
  if (a->top > a->ready) populate(a);
  return p;
}

void *grit_alloc_malloc(size_t n) {
  grit_arena *a = current;
  return a ? arena_alloc(a, n) : xmalloc(n);
}

void *grit_alloc_calloc(size_t count, size_t size) {
  grit_arena *a = current;
  if (a == NULL) {
    void *p = calloc(count, size);
    if (p == NULL && count > 0 && size > 0) {
      fprintf(stderr, "tree-sitter failed to allocate %zu bytes\n", count * size);
      abort();
    }
    return p;
  }
  if (size && count > SIZE_MAX / size) abort();
  void *p = arena_alloc(a, count * size);
  memset(p, 0, count * size);
  return p;
}

void *grit_alloc_realloc(void *p, size_t n) {
  grit_arena *a = current;
  if (a == NULL) {
    void *q = realloc(p, n);
    if (q == NULL && n > 0) {
      fprintf(stderr, "tree-sitter failed to reallocate %zu bytes\n", n);
      abort();
    }
    return q;
  }
  if (p == NULL) return arena_alloc(a, n);
  int c = chunk_for(a, p);
  if (c < 0) {
    void *q = realloc(p, n); // a spilled allocation
    if (q == NULL && n > 0) abort();
    return q;
  }
  // The last allocation grows in place while its chunk has room: arrays
  // pushed to in a loop are the common case.
  size_t need = n ? (n + ALIGN - 1) & ~(size_t)(ALIGN - 1) : ALIGN;
  if (p == a->last && c == a->cur && (size_t)(a->end - (char *)p) >= need) {
    a->top = (char *)p + need;
    if (a->top > a->ready) populate(a);
    return p;
  }
  // The old size is not recorded: copy what the new size asks for, up to
  // the end of p's chunk. Bytes past the old size are whatever follows it
  // in the chunk; realloc leaves those unspecified anyway.
  char *q = arena_alloc(a, n);
  size_t avail = (size_t)(a->chunks[c].base + a->chunks[c].size - (char *)p);
  memcpy(q, p, n < avail ? n : avail);
  return q;
}

void grit_alloc_free(void *p) {
  grit_arena *a = current;
  if (p == NULL) return;
  if (a == NULL) {
    free(p);
    return;
  }
  if (chunk_for(a, p) >= 0) {
    if (p == a->last) { // the last allocation gives its room back
      a->top = p;
      a->last = NULL;
    }
    return;
  }
  free(p); // a spilled allocation
}

void grit_arena_enter(grit_arena *a) {
  atomic_fetch_sub(&idle_bytes, a->total); // its kept chunks are in use again
  a->spilled = false;
  a->last = NULL;
  if (a->n == 0) {
    a->cur = -1;
    a->top = a->end = a->ready = NULL;
  } else {
    a->cur = 0;
    a->top = a->chunks[0].base;
    a->end = a->top + a->chunks[0].size;
    a->ready = a->chunks[0].ready;
  }
  current = a;
}

void grit_arena_leave(grit_arena *a) {
  current = NULL;
  // Keep the first chunks (up to GRIT_ARENA_KEEP) for the next file: mapping
  // them again would fault every page in anew. All idle arenas together
  // keep at most GRIT_ARENA_KEEP_ALL, however many parsers run at once.
  // The chunks kept are reserved in idle_bytes in one compare-and-swap, so
  // arenas leaving at once cannot together pass the bound.
  size_t kept;
  int n;
  size_t idle = atomic_load(&idle_bytes);
  for (;;) {
    size_t room = idle < GRIT_ARENA_KEEP_ALL ? GRIT_ARENA_KEEP_ALL - idle : 0;
    size_t k = GRIT_ARENA_KEEP < room ? GRIT_ARENA_KEEP : room;
    kept = 0;
    n = 0;
    while (n < a->n && kept + a->chunks[n].size <= k) kept += a->chunks[n++].size;
    if (atomic_compare_exchange_weak(&idle_bytes, &idle, idle + kept)) break;
  }
  for (int i = n; i < a->n; i++) munmap(a->chunks[i].base, a->chunks[i].size);
  a->n = n;
  a->total = kept;
  a->cur = -1;
  a->top = a->end = a->ready = NULL;
  a->last = NULL;
}

void grit_arena_free(grit_arena *a) {
  if (a == NULL) return;
  atomic_fetch_sub(&idle_bytes, a->total);
  for (int i = 0; i < a->n; i++) munmap(a->chunks[i].base, a->chunks[i].size);
  free(a);
}
