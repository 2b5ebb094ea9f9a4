// The first half of the generic walk: copy a tree's visible nodes, in
// preorder, into a flat array with each node's symbol, field, byte range,
// first child and next sibling, and collect the references on the way.
// walk_match.c then matches patterns on the array without a call into the
// tree-sitter runtime. The raw build reads the subtrees directly
// (tsinternal.h); the cursor build is its fallback and its check.
#include <string.h>
#include "walk.h"
#include "tsinternal.h"

int grit_walk_raw_tree = 1;
static uint64_t raw_trees = 0;

uint64_t grit_raw_trees(void) { return __atomic_load_n(&raw_trees, __ATOMIC_RELAXED); }

// grow makes room for one more element of size sz in *buf; false if out of memory.
static bool grow(void **buf, uint32_t n, uint32_t *cap, size_t sz, uint32_t first) {
  if (n < *cap) return true;
  uint32_t ncap = *cap ? *cap * 2 : first;
  void *nb = realloc(*buf, (size_t)ncap * sz);
  if (nb == NULL) return false;
  *buf = nb;
  *cap = ncap;
  return true;
}

static bool add_ref(grit_result *out, uint32_t start, uint32_t end) {
  if (!grow((void **)&out->refs, out->nrefs, &out->refcap, sizeof(grit_span), 1024)) return false;
  out->refs[out->nrefs++] = (grit_span){start, end};
  return true;
}

// An open visible node: its index, its last child so far, and whether it
// is a reference.
typedef struct { uint32_t node, last; bool ref; } vframe;

typedef struct {
  grit_walk_buf *buf;
  vframe *vs;
  uint32_t nvs, vcap;
  uint32_t in_ref; // open references: what is nested in one is no reference
  const grit_walker *w;
} builder;

// seen: does a node with symbol s and field f go into the flat tree? An
// anonymous node without a field is invisible to patterns without _.
static inline bool seen(const builder *b, TSSymbol s, TSFieldId f) {
  const grit_walker *w = b->w;
  return w->keep_anon || f != 0 || s >= w->nsyms || w->named[s];
}

// add appends a visible node as the last child of the open one; it returns
// its index, or UINT32_MAX if out of memory.
static uint32_t add(builder *b, TSSymbol s, TSFieldId f, uint32_t start, uint32_t end) {
  grit_walk_buf *buf = b->buf;
  if (!grow((void **)&buf->nodes, buf->nnodes, &buf->nodecap, sizeof(grit_node), 1024)) return UINT32_MAX;
  uint32_t i = buf->nnodes++;
  buf->nodes[i] = (grit_node){start, end, 0, 0, s, f};
  if (b->nvs > 0) {
    vframe *top = &b->vs[b->nvs - 1];
    if (top->last != 0) buf->nodes[top->last].next = i;
    else buf->nodes[top->node].child = i;
    top->last = i;
  }
  return i;
}

static bool open_node(builder *b, uint32_t i, bool ref) {
  if (!grow((void **)&b->vs, b->nvs, &b->vcap, sizeof(vframe), 64)) return false;
  b->vs[b->nvs++] = (vframe){i, 0, ref};
  b->in_ref += ref;
  return true;
}

static void close_node(builder *b) {
  b->in_ref -= b->vs[--b->nvs].ref;
}

// note_ref records node [start, end) if it is a reference not nested in
// another; false if out of memory.
static bool note_ref(builder *b, bool ref, uint32_t start, uint32_t end, grit_result *out) {
  return !ref || b->in_ref > 0 || add_ref(out, start, end);
}

// build_cursor is the build through the public TSTreeCursor API.
static int build_cursor(builder *b, TSNode root, const uint8_t *is_ref, uint32_t nsyms, int64_t deadline, grit_result *out) {
  TSTreeCursor c = ts_tree_cursor_new(root);
  uint32_t steps = 0;
  int status = 0;
  for (;;) {
    if (++steps == 4096) {
      steps = 0;
      if (deadline > 0 && grit_cpu_ns() > deadline) { status = 2; break; }
    }
    TSNode node = ts_tree_cursor_current_node(&c);
    TSSymbol s = ts_node_symbol(node);
    uint32_t start = ts_node_start_byte(node), end = ts_node_end_byte(node);
    TSFieldId f = ts_tree_cursor_current_field_id(&c);
    uint32_t i = 0;
    if (!seen(b, s, f) && ts_node_child_count(node) == 0) goto next;
    if ((i = add(b, s, f, start, end)) == UINT32_MAX) { status = 3; break; }
    bool ref = s < nsyms && is_ref[s];
    if (!note_ref(b, ref, start, end, out)) { status = 3; break; }
    if (ts_tree_cursor_goto_first_child(&c)) {
      if (!open_node(b, i, ref)) { status = 3; break; }
      continue;
    }
  next:
    while (!ts_tree_cursor_goto_next_sibling(&c)) {
      if (!ts_tree_cursor_goto_parent(&c)) goto done;
      close_node(b);
    }
  }
done:
  ts_tree_cursor_delete(&c);
  return status;
}

// A subtree whose children the raw build is going through.
typedef struct {
  const ts_subtree *children;
  uint32_t count, next;    // children, and the index of the next one
  uint32_t structural;     // the next non-extra child's index, for aliases and fields
  uint32_t pos;            // where the next child's padding starts (its start for the first)
  const TSSymbol *aliases; // the production's alias sequence, or NULL
  const ts_field_map_entry *fields, *fields_end;
  TSFieldId inherited;     // for a hidden subtree: the field its visible descendants get
  bool visible;            // a visible node was opened for it
} rentry;

static void raw_open(rentry *r, const ts_language_front *lang, ts_subtree sub, uint32_t start, TSFieldId inherited, bool visible) {
  r->children = ts_sub_children(sub);
  r->count = ts_sub_child_count(sub);
  r->next = r->structural = 0;
  r->pos = start;
  r->aliases = NULL;
  r->fields = r->fields_end = NULL;
  r->inherited = inherited;
  r->visible = visible;
  if (r->count > 0) {
    uint16_t prod = sub.ptr->production_id;
    if (prod != 0 && lang->alias_sequences != NULL) r->aliases = &lang->alias_sequences[prod * lang->max_alias_sequence_length];
    if (lang->field_count > 0) {
      ts_map_slice sl = lang->field_map_slices[prod];
      r->fields = &lang->field_map_entries[sl.index];
      r->fields_end = r->fields + sl.length;
    }
  }
}

// raw_layout_ok checks tsinternal.h against the public API on root and its
// first child: if they disagree the raw build is not used.
static bool raw_layout_ok(const TSLanguage *lang, TSNode root) {
  const ts_subtree *sub = (const ts_subtree *)root.id;
  const ts_language_front *lf = (const ts_language_front *)lang;
  if (sub == NULL || sub->data.is_inline) return false;
  TSSymbol s = ts_sub_symbol(*sub);
  TSSymbol pub = s == TS_SYM_ERROR ? s : lf->public_symbol_map[s];
  if (pub != ts_node_symbol(root) || ts_node_start_byte(root) + ts_sub_size(*sub) != ts_node_end_byte(root)) return false;
  if (ts_sub_child_count(*sub) != ts_node_child_count(root)) return true; // hidden children: nothing more to compare simply
  if (ts_sub_child_count(*sub) == 0) return true;
  TSNode c0 = ts_node_child(root, 0);
  ts_subtree first = ts_sub_children(*sub)[0];
  return ts_node_start_byte(c0) == ts_node_start_byte(root) && ts_node_end_byte(c0) == ts_node_start_byte(root) + ts_sub_size(first);
}

// child_field is the field the cursor gives a child at top's structural
// index, or 0.
static TSFieldId child_field(const rentry *top) {
  for (const ts_field_map_entry *m = top->fields; m < top->fields_end; m++) {
    if (!m->inherited && m->child_index == top->structural) return m->field_id;
  }
  return 0;
}

// build_raw is build_cursor reading the subtrees directly: the same visible
// nodes in the same order with the same fields (a visible node's own field
// in its parent, else the nearest one of the hidden subtrees it sits in).
static int build_raw(builder *b, const TSLanguage *language, TSNode root, const uint8_t *is_ref, uint32_t nsyms,
                     int64_t deadline, grit_result *out) {
  const ts_language_front *lang = (const ts_language_front *)language;
  uint32_t n = 0, cap = 64, steps = 0;
  rentry *rs = malloc(cap * sizeof(rentry));
  if (rs == NULL) return 3;
  int status = 0;
  TSSymbol s = ts_node_symbol(root);
  uint32_t start = ts_node_start_byte(root), end = ts_node_end_byte(root);
  uint32_t i = add(b, s, 0, start, end);
  if (i == UINT32_MAX) { status = 3; goto done; }
  bool ref = s < nsyms && is_ref[s];
  if (!note_ref(b, ref, start, end, out) || !open_node(b, i, ref)) { status = 3; goto done; }
  raw_open(&rs[n++], lang, *(const ts_subtree *)root.id, start, 0, true);
  while (n > 0) {
    rentry *top = &rs[n - 1];
    if (top->next == top->count) {
      if (top->visible) close_node(b);
      n--;
      continue;
    }
    if (++steps == 4096) {
      steps = 0;
      if (deadline > 0 && grit_cpu_ns() > deadline) { status = 2; break; }
    }
    uint32_t k = top->next++;
    const ts_subtree *child = &top->children[k];
    start = k == 0 ? top->pos : top->pos + ts_sub_padding(*child);
    end = start + ts_sub_size(*child);
    top->pos = end;
    bool extra = ts_sub_extra(*child);
    TSSymbol alias = 0;
    TSFieldId field = 0;
    if (!extra) {
      if (top->aliases != NULL) alias = top->aliases[top->structural];
      field = child_field(top);
      top->structural++;
    }
    TSFieldId f = extra ? 0 : (field ? field : top->inherited);
    bool has_children = ts_sub_child_count(*child) > 0;
    bool visible = ts_sub_visible(*child) || alias != 0;
    if (visible) {
      TSSymbol raw = alias ? alias : ts_sub_symbol(*child);
      s = raw == TS_SYM_ERROR ? raw : lang->public_symbol_map[raw];
      if (!has_children && !seen(b, s, f)) continue;
      i = add(b, s, f, start, end);
      if (i == UINT32_MAX) { status = 3; break; }
      ref = s < nsyms && is_ref[s];
      if (!note_ref(b, ref, start, end, out)) { status = 3; break; }
      if (has_children && !open_node(b, i, ref)) { status = 3; break; }
    }
    if (!has_children) continue;
    if (n == cap) {
      rentry *nr = realloc(rs, (size_t)cap * 2 * sizeof(rentry));
      if (nr == NULL) { status = 3; break; }
      rs = nr;
      cap *= 2;
    }
    raw_open(&rs[n++], lang, *child, start, visible ? 0 : f, visible);
  }
done:
  free(rs);
  return status;
}

int grit_walk_build(const grit_walker *w, const TSLanguage *lang, TSNode root, const uint8_t *is_ref, uint32_t nsyms,
                    int64_t deadline, grit_walk_buf *buf, grit_result *out) {
  buf->nnodes = 0;
  builder b = {buf, NULL, 0, 0, 0, w};
  int status;
  if (grit_walk_raw_tree && raw_layout_ok(lang, root)) {
    __atomic_fetch_add(&raw_trees, 1, __ATOMIC_RELAXED);
    status = build_raw(&b, lang, root, is_ref, nsyms, deadline, out);
  } else {
    status = build_cursor(&b, root, is_ref, nsyms, deadline, out);
  }
  free(b.vs);
  return status;
}

void grit_walk_buf_free(grit_walk_buf *buf) {
  free(buf->nodes);
  free(buf->matches);
  free(buf->mcaps);
  memset(buf, 0, sizeof *buf);
}
