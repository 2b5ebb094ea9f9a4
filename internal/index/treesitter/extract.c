// One cgo call per file: parse under a time budget, count error nodes, run the
// language's query (or the generic walk, walk.h) and flatten every capture
// into an array Go reads directly.
#include <malloc.h>
#include <string.h>
#include <time.h>
#include "extract.h"
#include "walk.h"

void grit_use_default_allocator(void) {
  // malloc directly, or the parse's arena (arena.c).
  ts_set_allocator(grit_alloc_malloc, grit_alloc_calloc, grit_alloc_realloc, grit_alloc_free);
  // glibc gives each thread that mallocs its own arena and keeps what is
  // freed there: with parsers on every core that is tens of megabytes of
  // resident memory for no speed gained.
  mallopt(M_ARENA_MAX, 2);
}

// grit_cpu_ns is the CPU time of the calling thread, which runs a file's
// whole parse, walk and query in one call: a file's budget counts the work
// its parse takes, so a loaded machine, a stopped process (SIGSTOP, a
// suspended laptop) or a slow neighbour cannot make a file "exceed" it. A
// skipped file stays skipped until it changes, so a budget measured on the
// wall clock could leave a file out of the index for good by bad luck.
int64_t grit_cpu_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

typedef struct { const char *src; uint32_t len; int64_t deadline; uint32_t calls; } input_t;

// past reports whether in's deadline has passed, reading the clock (a system
// call: the thread CPU clock has no vDSO path) on every 16th call only.
static bool past(input_t *in) {
  if (in->deadline <= 0 || (++in->calls & 15) != 0) return false;
  return grit_cpu_ns() > in->deadline;
}

static const char *read_input(void *payload, uint32_t byte_index, TSPoint pos, uint32_t *bytes_read) {
  (void)pos;
  input_t *in = (input_t *)payload;
  if (byte_index >= in->len) { *bytes_read = 0; return ""; }
  *bytes_read = in->len - byte_index;
  return in->src + byte_index;
}

static bool parse_progress(TSParseState *st) { return past((input_t *)st->payload); }

static bool query_progress(TSQueryCursorState *st) { return past((input_t *)st->payload); }

static uint32_t count_errors(TSNode root) {
  if (!ts_node_has_error(root)) return 0;
  uint32_t n = 0;
  TSTreeCursor c = ts_tree_cursor_new(root);
  for (;;) {
    TSNode node = ts_tree_cursor_current_node(&c);
    if (ts_node_is_error(node) || ts_node_is_missing(node)) n++;
    if (ts_node_has_error(node) && ts_tree_cursor_goto_first_child(&c)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&c)) {
      if (!ts_tree_cursor_goto_parent(&c)) { ts_tree_cursor_delete(&c); return n; }
    }
  }
}

// collect_refs walks the tree once, recording the nodes marked in is_ref.
// It returns false if out of memory.
static bool collect_refs(TSNode root, const uint8_t *is_ref, uint32_t nsyms, grit_result *out) {
  if (nsyms == 0) return true;
  TSTreeCursor c = ts_tree_cursor_new(root);
  bool ok = true;
  for (;;) {
    TSNode node = ts_tree_cursor_current_node(&c);
    TSSymbol s = ts_node_symbol(node);
    if (s < nsyms && is_ref[s]) {
      if (out->nrefs == out->refcap) {
        uint32_t ncap = out->refcap ? out->refcap * 2 : 1024;
        grit_span *nr = realloc(out->refs, (size_t)ncap * sizeof(grit_span));
        if (nr == NULL) { ok = false; break; }
        out->refs = nr;
        out->refcap = ncap;
      }
      grit_span *r = &out->refs[out->nrefs++];
      r->start = ts_node_start_byte(node);
      r->end = ts_node_end_byte(node);
    } else if (ts_tree_cursor_goto_first_child(&c)) {
      continue;
    }
    while (!ts_tree_cursor_goto_next_sibling(&c)) {
      if (!ts_tree_cursor_goto_parent(&c)) goto done;
    }
  }
done:
  ts_tree_cursor_delete(&c);
  return ok;
}

// walk runs the generic walk over root: build the flat tree, then match.
static int walk(const grit_walker *gw, const TSLanguage *lang, TSNode root, const uint8_t *is_ref, uint32_t nsyms,
                int64_t deadline, grit_result *out) {
  if (out->walk == NULL && (out->walk = calloc(1, sizeof(grit_walk_buf))) == NULL) return 3;
  int status = grit_walk_build(gw, lang, root, is_ref, nsyms, deadline, out->walk, out);
  if (status == 0) status = grit_walk_match(gw, deadline, out->walk, out);
  return status;
}

void grit_extract(grit_arena *arena, TSParser *p, const TSLanguage *lang, const TSQuery *q, const grit_walker *gw,
                  const uint8_t *is_ref, uint32_t nsyms, const char *src, uint32_t len, int64_t budget_ns,
                  grit_result *out) {
  // Keep the buffers of the last file: growing them again is malloc churn.
  out->n = out->nrefs = out->errors = 0;
  out->status = 0;
  input_t in = {src, len, budget_ns > 0 ? grit_cpu_ns() + budget_ns : 0, 0};
  if (arena != NULL) {
    // Everything from here to grit_arena_leave lives in the arena, the
    // parser included: one made per file keeps no pointer into it.
    grit_arena_enter(arena);
    p = ts_parser_new();
  }
  ts_parser_set_language(p, lang);
  TSInput input = {&in, read_input, 0, NULL};
  TSParseOptions popts = {&in, parse_progress};
  TSTree *tree = ts_parser_parse_with_options(p, NULL, input, popts);
  TSQueryCursor *qc = NULL;
  if (tree == NULL) {
    if (arena == NULL) ts_parser_reset(p);
    out->status = (in.deadline > 0 && grit_cpu_ns() > in.deadline) ? 1 : 4;
    goto done;
  }
  TSNode root = ts_tree_root_node(tree);
  out->errors = count_errors(root);
  if (gw != NULL) {
    out->status = walk(gw, lang, root, is_ref, nsyms, in.deadline, out);
    goto done;
  }
  qc = ts_query_cursor_new();
  TSQueryCursorOptions qopts = {&in, query_progress};
  ts_query_cursor_exec_with_options(qc, q, root, &qopts);
  TSQueryMatch m;
  uint32_t ord = 0;
  while (ts_query_cursor_next_match(qc, &m)) {
    for (uint16_t i = 0; i < m.capture_count; i++) {
      if (out->n == out->cap) {
        uint32_t ncap = out->cap ? out->cap * 2 : 1024;
        grit_cap *nc = realloc(out->caps, (size_t)ncap * sizeof(grit_cap));
        if (nc == NULL) { out->status = 3; goto done; }
        out->caps = nc;
        out->cap = ncap;
      }
      TSNode node = m.captures[i].node;
      grit_cap *c = &out->caps[out->n++];
      uint32_t ci = m.captures[i].index;
      c->match = ord;
      c->pattern = m.pattern_index;
      c->capture = ci;
      c->start = ts_node_start_byte(node);
      c->end = ts_node_end_byte(node);
    }
    ord++;
  }
  if (in.deadline > 0 && grit_cpu_ns() > in.deadline) { out->status = 2; goto done; }
  if (!collect_refs(root, is_ref, nsyms, out)) out->status = 3;
done:
  if (qc != NULL) ts_query_cursor_delete(qc);
  if (arena == NULL) {
    if (tree != NULL) ts_tree_delete(tree);
    return;
  }
  // The tree dies with the arena; only what spilled to malloc (a file too
  // large for the arena's chunks) needs the walk that frees it.
  if (tree != NULL && arena->spilled) ts_tree_delete(tree);
  ts_parser_delete(p); // runs the external scanner's destroy, which uses libc's free
  grit_arena_leave(arena);
}

bool grit_result_big(const grit_result *r, uint32_t max) {
  const grit_walk_buf *w = r->walk;
  return r->cap > max || r->refcap > max ||
         (w != NULL && (w->nodecap > max * 2 || w->matchcap > max || w->mcapcap > max));
}

void grit_result_free(grit_result *r) {
  if (r->walk != NULL) grit_walk_buf_free(r->walk);
  free(r->walk);
  r->walk = NULL;
  free(r->caps);
  free(r->refs);
  r->caps = NULL;
  r->refs = NULL;
  r->n = r->cap = r->nrefs = r->refcap = 0;
}

int grit_parse_only(TSParser *p, const TSLanguage *lang, const char *src, uint32_t len) {
  ts_parser_set_language(p, lang);
  input_t in = {src, len, 0};
  TSInput input = {&in, read_input, 0, NULL};
  TSParseOptions popts = {&in, parse_progress};
  TSTree *tree = ts_parser_parse_with_options(p, NULL, input, popts);
  if (tree == NULL) return 0;
  ts_tree_delete(tree);
  return 1;
}
