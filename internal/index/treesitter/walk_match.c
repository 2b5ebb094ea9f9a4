// The second half of the generic walk: match a language's patterns (the
// ones of its queries/<lang>.scm, compiled by walker.go) on the flat tree of
// walk_tree.c, with the query cursor's semantics for what the queries use:
// child patterns in sibling order (each way of matching is a match), fields,
// negated fields, alternations, optional children (taken when present, as
// the cursor's longest-match rule does), the anchor "." (first, next or
// last named child) and the wildcards (_) and _.
//
// Order: a match is placed where the cursor completes it, at its last
// matched node; matches completing on one node come outer root first, then
// by pattern index, as the cursor's states are kept.
#include <string.h>
#include "walk.h"

typedef struct grit_match { uint32_t last, root, pattern, cap, ncap, seq; } grit_match;
typedef struct grit_mcap { uint32_t capture, node; } grit_mcap;

// The rest of a match: the sibling patterns from pc on, against the tree
// siblings from from on, then the rest of up.
typedef struct kont { const struct kont *up; uint32_t pc, from; } kont;

typedef struct {
  const grit_walker *w;
  grit_walk_buf *buf;
  grit_mcap stack[GRIT_MAX_PATTERN_CAPS]; // the captures of the match in progress
  uint32_t nstack;
  uint32_t root, pattern, last;
  uint32_t root_first; // the first match of this root and pattern in buf->matches
  uint32_t emitted;    // matches completed so far (duplicates included)
  bool oom;
} matcher;

static bool is_named(const grit_walker *w, TSSymbol s) {
  if (s == (TSSymbol)-1) return true; // ERROR
  return s < w->nsyms && w->named[s];
}

static bool grow(void **buf, uint32_t n, uint32_t *cap, size_t sz, uint32_t first) {
  if (n < *cap) return true;
  uint32_t ncap = *cap ? *cap * 2 : first;
  void *nb = realloc(*buf, (size_t)ncap * sz);
  if (nb == NULL) return false;
  *buf = nb;
  *cap = ncap;
  return true;
}

// same_caps reports whether match m holds exactly the captures on the stack.
static bool same_caps(const matcher *m, const grit_match *g) {
  if (g->ncap != m->nstack) return false;
  return memcmp(&m->buf->mcaps[g->cap], m->stack, m->nstack * sizeof(grit_mcap)) == 0;
}

// emit records the match in progress, unless the same root and pattern
// already gave one with the same captures (the cursor keeps one of them):
// only patterns with an uncaptured child can (w->dedup).
static void emit(matcher *m) {
  m->emitted++;
  grit_walk_buf *b = m->buf;
  if (m->w->dedup[m->pattern]) {
    for (uint32_t i = m->root_first; i < b->nmatches; i++) {
      if (same_caps(m, &b->matches[i])) return;
    }
  }
  if (!grow((void **)&b->matches, b->nmatches, &b->matchcap, sizeof(grit_match), 256)) { m->oom = true; return; }
  while (b->nmcaps + m->nstack > b->mcapcap) {
    if (!grow((void **)&b->mcaps, b->mcapcap, &b->mcapcap, sizeof(grit_mcap), 1024)) { m->oom = true; return; }
  }
  memcpy(&b->mcaps[b->nmcaps], m->stack, m->nstack * sizeof(grit_mcap));
  b->matches[b->nmatches] = (grit_match){m->last, m->root, m->pattern, b->nmcaps, m->nstack, b->nmatches};
  b->nmatches++;
  b->nmcaps += m->nstack;
}

// push_caps puts p's captures of node t on the stack; it returns how many.
// The stack holds a whole match: walker.go caps a pattern's captures.
static uint32_t push_caps(matcher *m, const grit_pat *p, uint32_t t) {
  uint32_t n = 0;
  for (int i = 0; i < 2 && p->cap[i] >= 0; i++) {
    m->stack[m->nstack++] = (grit_mcap){(uint32_t)p->cap[i], t};
    n++;
  }
  return n;
}

static bool has_field(const grit_node *nodes, uint32_t t, TSFieldId f) {
  for (uint32_t c = nodes[t].child; c != 0; c = nodes[c].next) {
    if (nodes[c].field == f) return true;
  }
  return false;
}

// head_ok: does node t have pattern p's type and none of its negated fields?
static bool head_ok(const matcher *m, const grit_pat *p, uint32_t t) {
  const grit_node *n = &m->buf->nodes[t];
  switch (p->kind) {
  case GRIT_PAT_NODE: if (n->sym != p->sym) return false; break;
  case GRIT_PAT_NAMED: if (n->sym == (TSSymbol)-1 || !is_named(m->w, n->sym)) return false; break;
  default: break;
  }
  for (uint32_t k = p->neg; k != 0 && m->w->negs[k] != 0; k++) {
    if (has_field(m->buf->nodes, t, m->w->negs[k])) return false;
  }
  return true;
}

static void match_seq(matcher *m, uint32_t pc, uint32_t from, const kont *k);

// match_node goes on after pattern p matched node t: its children, then nk.
static void match_node(matcher *m, uint32_t p, uint32_t t, const kont *nk) {
  uint32_t pushed = push_caps(m, &m->w->pats[p], t);
  uint32_t last = m->last;
  m->last = t;
  match_seq(m, m->w->pats[p].kid, m->buf->nodes[t].child, nk);
  m->last = last;
  m->nstack -= pushed;
}

static bool has_later_named(const matcher *m, uint32_t t) {
  const grit_node *nodes = m->buf->nodes;
  for (uint32_t s = nodes[t].next; s != 0; s = nodes[s].next) {
    if (is_named(m->w, nodes[s].sym)) return true;
  }
  return false;
}

// try_child matches child pattern pc (an alternation's alternatives each)
// on node t, then the rest.
static void try_child(matcher *m, uint32_t pc, uint32_t t, const kont *k) {
  const grit_pat *p = &m->w->pats[pc];
  const grit_node *n = &m->buf->nodes[t];
  if (p->field != 0 && n->field != p->field) return;
  if ((p->flags & GRIT_PAT_LAST) && has_later_named(m, t)) return;
  kont nk = {k, p->next, n->next};
  if (p->kind != GRIT_PAT_ALT) {
    if (head_ok(m, p, t)) match_node(m, pc, t, &nk);
    return;
  }
  for (uint32_t a = p->kid; a != 0 && !m->oom; a = m->w->pats[a].next) {
    if (!head_ok(m, &m->w->pats[a], t)) continue;
    uint32_t pushed = push_caps(m, p, t);
    match_node(m, a, t, &nk);
    m->nstack -= pushed;
  }
}

// match_seq matches the sibling patterns from pc on against the tree
// siblings from from on, every way they match, then goes on with k.
static void match_seq(matcher *m, uint32_t pc, uint32_t from, const kont *k) {
  if (m->oom) return;
  if (pc == 0) {
    if (k == NULL) emit(m);
    else match_seq(m, k->pc, k->from, k->up);
    return;
  }
  const grit_pat *p = &m->w->pats[pc];
  const grit_node *nodes = m->buf->nodes;
  bool immediate = (p->flags & GRIT_PAT_IMMEDIATE) != 0;
  uint32_t before = m->emitted;
  for (uint32_t t = from; t != 0 && !m->oom; t = nodes[t].next) {
    bool named = is_named(m->w, nodes[t].sym);
    if (immediate && !named && p->kind != GRIT_PAT_ANY) continue; // anchors skip anonymous nodes
    try_child(m, pc, t, k);
    if (immediate && named) break;
  }
  if ((p->flags & GRIT_PAT_OPTIONAL) && m->emitted == before) match_seq(m, p->next, from, k);
}

static int by_position(const void *a, const void *b) {
  const grit_match *x = a, *y = b;
  if (x->last != y->last) return x->last < y->last ? -1 : 1;
  if (x->root != y->root) return x->root < y->root ? -1 : 1;
  if (x->pattern != y->pattern) return x->pattern < y->pattern ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

// flush writes the matches, in order, to out as the query path's captures.
static int flush(grit_walk_buf *b, grit_result *out) {
  qsort(b->matches, b->nmatches, sizeof(grit_match), by_position);
  for (uint32_t i = 0; i < b->nmatches; i++) {
    const grit_match *g = &b->matches[i];
    for (uint32_t j = 0; j < g->ncap; j++) {
      if (!grow((void **)&out->caps, out->n, &out->cap, sizeof(grit_cap), 1024)) return 3;
      const grit_mcap *c = &b->mcaps[g->cap + j];
      const grit_node *n = &b->nodes[c->node];
      out->caps[out->n++] = (grit_cap){i, g->pattern, c->capture, n->start, n->end};
    }
  }
  return 0;
}

int grit_walk_match(const grit_walker *w, int64_t deadline, grit_walk_buf *buf, grit_result *out) {
  buf->nmatches = buf->nmcaps = 0;
  matcher m = {.w = w, .buf = buf};
  for (uint32_t t = 0; t < buf->nnodes; t++) {
    if ((t & 4095) == 4095 && deadline > 0 && grit_cpu_ns() > deadline) return 2;
    TSSymbol s = buf->nodes[t].sym;
    if (s >= w->nsyms) continue;
    for (uint32_t r = w->root_at[s]; r < w->root_at[s + 1]; r++) {
      uint32_t pat = w->roots[r];
      const grit_pat *p = &w->pats[1 + pat];
      if (!head_ok(&m, p, t)) continue;
      m.root = t;
      m.pattern = pat;
      m.root_first = buf->nmatches;
      m.nstack = 0;
      match_node(&m, 1 + pat, t, NULL);
      if (m.oom) return 3;
    }
  }
  return flush(buf, out);
}
