// A hand-written walk for Python that yields the captures of
// queries/python.scm, match by match, and the references, in one cursor pass:
// the query cursor costs more than the parse's half, this walk a fraction.
// Go reads the result exactly as it reads the query's (grit_extract).
//
// Order: each match is emitted when the walk reaches the node where the query
// cursor completes it (its last step), so matches of one kind come in the
// query's order. Matches completing on one node (a decorated definition and
// its inner definition) are order-free on the Go side.
#include <string.h>
#include "extract.h"
#include "tsinternal.h"

typedef struct {
  TSSymbol identifier, block, string, call, attribute, function_definition, class_definition,
      decorated_definition, module, expression_statement, assignment, import_statement,
      import_from_statement, dotted_name, aliased_import, wildcard_import, error;
  TSFieldId f_name, f_body, f_definition, f_function, f_attribute, f_left, f_module_name, f_alias;
} py_ids;

static TSSymbol sym(const TSLanguage *l, const char *name) {
  return ts_language_symbol_for_name(l, name, (uint32_t)strlen(name), true);
}

static TSFieldId fld(const TSLanguage *l, const char *name) {
  return ts_language_field_id_for_name(l, name, (uint32_t)strlen(name));
}

static void py_ids_init(const TSLanguage *l, py_ids *id) {
  id->identifier = sym(l, "identifier");
  id->block = sym(l, "block");
  id->string = sym(l, "string");
  id->call = sym(l, "call");
  id->attribute = sym(l, "attribute");
  id->function_definition = sym(l, "function_definition");
  id->class_definition = sym(l, "class_definition");
  id->decorated_definition = sym(l, "decorated_definition");
  id->module = sym(l, "module");
  id->expression_statement = sym(l, "expression_statement");
  id->assignment = sym(l, "assignment");
  id->import_statement = sym(l, "import_statement");
  id->import_from_statement = sym(l, "import_from_statement");
  id->dotted_name = sym(l, "dotted_name");
  id->aliased_import = sym(l, "aliased_import");
  id->wildcard_import = sym(l, "wildcard_import");
  id->error = (TSSymbol)-1; // ts_builtin_sym_error
  id->f_name = fld(l, "name");
  id->f_body = fld(l, "body");
  id->f_definition = fld(l, "definition");
  id->f_function = fld(l, "function");
  id->f_attribute = fld(l, "attribute");
  id->f_left = fld(l, "left");
  id->f_module_name = fld(l, "module_name");
  id->f_alias = fld(l, "alias");
}

typedef struct {
  grit_result *out;
  const uint32_t *cap; // capture ids, indexed by GRIT_PY_*
  uint32_t ord;        // next match ordinal
  bool oom;
} emitter;

static bool push(emitter *e, uint32_t role, TSNode n) {
  grit_result *out = e->out;
  if (out->n == out->cap) {
    uint32_t ncap = out->cap ? out->cap * 2 : 1024;
    grit_cap *nc = realloc(out->caps, (size_t)ncap * sizeof(grit_cap));
    if (nc == NULL) { e->oom = true; return false; }
    out->caps = nc;
    out->cap = ncap;
  }
  grit_cap *c = &out->caps[out->n++];
  c->match = e->ord;
  c->pattern = 0;
  c->capture = e->cap[role];
  c->start = ts_node_start_byte(n);
  c->end = ts_node_end_byte(n);
  return true;
}

static bool is(TSNode n, TSSymbol s) { return !ts_node_is_null(n) && ts_node_symbol(n) == s; }

// definition emits the matches of a function or class definition node:
// itself, and its decorated_definition parent when it is that one's definition.
static void definition(emitter *e, const py_ids *id, TSNode node, uint32_t role, TSSymbol parent, TSFieldId field,
                       TSNode parent_node) {
  TSNode name = ts_node_child_by_field_id(node, id->f_name);
  TSNode body = ts_node_child_by_field_id(node, id->f_body);
  if (!is(name, id->identifier) || !is(body, id->block)) return;
  push(e, role, node); push(e, GRIT_PY_NAME, name); push(e, GRIT_PY_BODY, body);
  e->ord++;
  if (parent == id->decorated_definition && field == id->f_definition) {
    push(e, role, parent_node); push(e, GRIT_PY_NAME, name); push(e, GRIT_PY_BODY, body); push(e, GRIT_PY_SIG, node);
    e->ord++;
  }
}

// imports emits one match per binding of an import statement, in order.
static void imports(emitter *e, const py_ids *id, TSNode stmt, bool from) {
  TSTreeCursor c = ts_tree_cursor_new(stmt);
  TSNode module = {0};
  bool has_module = false;
  if (ts_tree_cursor_goto_first_child(&c)) {
    do {
      TSNode n = ts_tree_cursor_current_node(&c);
      TSFieldId f = ts_tree_cursor_current_field_id(&c);
      TSSymbol s = ts_node_symbol(n);
      if (from && !has_module) {
        if (f == id->f_module_name && ts_node_is_named(n) && s != id->error) { module = n; has_module = true; }
        continue;
      }
      if (f == id->f_name && s == id->dotted_name) {
        push(e, GRIT_PY_IMPORT, stmt);
        if (from) { push(e, GRIT_PY_IMPORT_MODULE, module); push(e, GRIT_PY_IMPORT_NAME, n); }
        else push(e, GRIT_PY_IMPORT_MODULE, n);
        e->ord++;
      } else if (f == id->f_name && s == id->aliased_import) {
        TSNode name = ts_node_child_by_field_id(n, id->f_name);
        TSNode alias = ts_node_child_by_field_id(n, id->f_alias);
        if (is(name, id->dotted_name) && is(alias, id->identifier)) {
          push(e, GRIT_PY_IMPORT, stmt);
          if (from) { push(e, GRIT_PY_IMPORT_MODULE, module); push(e, GRIT_PY_IMPORT_NAME, name); }
          else push(e, GRIT_PY_IMPORT_MODULE, name);
          push(e, GRIT_PY_IMPORT_ALIAS, alias);
          e->ord++;
        }
      } else if (from && s == id->wildcard_import) {
        push(e, GRIT_PY_IMPORT, stmt); push(e, GRIT_PY_IMPORT_MODULE, module); push(e, GRIT_PY_IMPORT_STAR, n);
        e->ord++;
      }
    } while (ts_tree_cursor_goto_next_sibling(&c));
  }
  ts_tree_cursor_delete(&c);
}

// docstring emits a match for each string directly in the block's first
// named child when that is an expression statement.
static void docstring(emitter *e, const py_ids *id, TSNode block) {
  TSNode first = ts_node_named_child(block, 0);
  if (!is(first, id->expression_statement)) return;
  uint32_t n = ts_node_named_child_count(first);
  for (uint32_t i = 0; i < n; i++) {
    TSNode s = ts_node_named_child(first, i);
    if (ts_node_symbol(s) == id->string) { push(e, GRIT_PY_DOC, s); e->ord++; }
  }
}

// One ancestor on the walk's stack.
typedef struct { TSSymbol sym; TSFieldId field; TSNode node; } frame;

// ref records a reference; false if out of memory.
static bool ref(grit_result *out, uint32_t start, uint32_t end) {
  if (out->nrefs == out->refcap) {
    uint32_t ncap = out->refcap ? out->refcap * 2 : 1024;
    grit_span *nr = realloc(out->refs, (size_t)ncap * sizeof(grit_span));
    if (nr == NULL) return false;
    out->refs = nr;
    out->refcap = ncap;
  }
  out->refs[out->nrefs++] = (grit_span){start, end};
  return true;
}

// handle emits the matches that complete on one visible node: s is its
// symbol, f its field in its parent, st[0..depth) its visible ancestors.
static void handle(emitter *e, const py_ids *id, TSNode node, TSSymbol s, TSFieldId f, const frame *st, uint32_t depth) {
  const frame *parent = depth > 0 ? &st[depth - 1] : NULL;
  if (s == id->identifier) {
    if (parent == NULL) return;
    if (f == id->f_function && parent->sym == id->call) {
      push(e, GRIT_PY_CALL, node);
      e->ord++;
    } else if (f == id->f_attribute && parent->sym == id->attribute && parent->field == id->f_function && depth > 1 &&
               st[depth - 2].sym == id->call) {
      push(e, GRIT_PY_CALL, node);
      e->ord++;
    } else if (f == id->f_left && parent->sym == id->assignment && depth > 2 && st[depth - 2].sym == id->expression_statement &&
               st[depth - 3].sym == id->module) {
      push(e, GRIT_PY_DEF_VARIABLE, parent->node); push(e, GRIT_PY_NAME, node);
      e->ord++;
    }
  } else if (s == id->function_definition || s == id->class_definition) {
    definition(e, id, node, s == id->function_definition ? GRIT_PY_DEF_FUNCTION : GRIT_PY_DEF_CLASS,
               parent ? parent->sym : 0, f, parent ? parent->node : node);
  } else if (s == id->block) {
    docstring(e, id, node);
  } else if (s == id->import_statement) {
    imports(e, id, node, false);
  } else if (s == id->import_from_statement) {
    imports(e, id, node, true);
  }
}

// needs_field: the symbols whose field handle (or a child's) reads.
static bool needs_field(const py_ids *id, TSSymbol s) {
  return s == id->identifier || s == id->attribute || s == id->function_definition || s == id->class_definition;
}

// push_frame grows the ancestor stack; false if out of memory.
static bool push_frame(frame **st, uint32_t *depth, uint32_t *cap, frame f) {
  if (*depth == *cap) {
    uint32_t ncap = *cap * 2;
    frame *ns = realloc(*st, ncap * sizeof(frame));
    if (ns == NULL) return false;
    *st = ns;
    *cap = ncap;
  }
  (*st)[(*depth)++] = f;
  return true;
}

// walk_cursor is the walk through the public TSTreeCursor API.
static int walk_cursor(emitter *e, const py_ids *id, TSNode root, const uint8_t *is_ref, uint32_t nsyms, int64_t deadline) {
  uint32_t depth = 0, stackcap = 64;
  frame *st = malloc(stackcap * sizeof(frame));
  if (st == NULL) return 3;
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
    TSFieldId f = needs_field(id, s) ? ts_tree_cursor_current_field_id(&c) : 0;
    handle(e, id, node, s, f, st, depth);
    if (e->oom) { status = 3; break; }
    if (s < nsyms && is_ref[s]) {
      if (!ref(e->out, ts_node_start_byte(node), ts_node_end_byte(node))) { status = 3; break; }
    } else if (ts_tree_cursor_goto_first_child(&c)) {
      if (!push_frame(&st, &depth, &stackcap, (frame){s, f, node})) { status = 3; break; }
      continue;
    }
    while (!ts_tree_cursor_goto_next_sibling(&c)) {
      if (!ts_tree_cursor_goto_parent(&c)) goto done;
      depth--;
    }
  }
done:
  ts_tree_cursor_delete(&c);
  free(st);
  return status;
}

// A subtree whose children the raw walk is going through.
typedef struct {
  const ts_subtree *children;
  uint32_t count, next;       // children, and the index of the next one
  uint32_t structural;        // the next non-extra child's index, for aliases and fields
  uint32_t pos;               // where the next child's padding starts (its start for the first)
  const TSSymbol *aliases;    // the production's alias sequence, or NULL
  const ts_field_map_entry *fields, *fields_end;
  TSFieldId inherited;        // for a hidden subtree: the field its visible descendants get
  bool visible;               // a frame was pushed for it
} rentry;

// next_entry grows the entry stack by one and returns the new top (NULL if
// out of memory); pointers into the stack are stale after it.
static rentry *next_entry(rentry **rs, uint32_t *n, uint32_t *cap) {
  if (*n == *cap) {
    uint32_t ncap = *cap * 2;
    rentry *nr = realloc(*rs, ncap * sizeof(rentry));
    if (nr == NULL) return NULL;
    *rs = nr;
    *cap = ncap;
  }
  return &(*rs)[(*n)++];
}

// raw_node makes a TSNode for a subtree (byte offsets only: rows and
// columns are left 0, and nothing here reads them).
static TSNode raw_node(const TSTree *tree, const ts_subtree *sub, uint32_t start, TSSymbol alias) {
  return (TSNode){{start, 0, 0, alias}, sub, tree};
}

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
// first child: if they disagree the raw walk is not used.
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

// walk_raw is walk_cursor reading the subtrees directly: the same visible
// nodes in the same order, with the same fields (a visible node's field is
// its own in its parent, else the nearest one of the hidden subtrees it
// sits in, as ts_tree_cursor_current_field_id finds it), at a fraction of
// the cursor's cost.
static int walk_raw(emitter *e, const py_ids *id, const TSLanguage *language, TSNode root, const uint8_t *is_ref, uint32_t nsyms,
                    int64_t deadline) {
  const ts_language_front *lang = (const ts_language_front *)language;
  uint32_t depth = 0, stackcap = 64, n = 0, cap = 64;
  frame *st = malloc(stackcap * sizeof(frame));
  rentry *rs = malloc(cap * sizeof(rentry));
  if (st == NULL || rs == NULL) { free(st); free(rs); return 3; }
  int status = 0;
  uint32_t steps = 0;
  TSSymbol s = ts_node_symbol(root);
  handle(e, id, root, s, 0, st, depth);
  if (s < nsyms && is_ref[s]) {
    if (!ref(e->out, ts_node_start_byte(root), ts_node_end_byte(root))) status = 3;
    goto done;
  }
  if (!push_frame(&st, &depth, &stackcap, (frame){s, 0, root})) { status = 3; goto done; }
  raw_open(&rs[n++], lang, *(const ts_subtree *)root.id, ts_node_start_byte(root), 0, true);
  while (n > 0 && !e->oom) {
    rentry *top = &rs[n - 1];
    if (top->next == top->count) {
      if (top->visible) depth--;
      n--;
      continue;
    }
    if (++steps == 4096) {
      steps = 0;
      if (deadline > 0 && grit_cpu_ns() > deadline) { status = 2; break; }
    }
    uint32_t i = top->next++;
    const ts_subtree *child = &top->children[i];
    uint32_t start = i == 0 ? top->pos : top->pos + ts_sub_padding(*child);
    uint32_t end = start + ts_sub_size(*child);
    top->pos = end;
    bool extra = ts_sub_extra(*child);
    TSSymbol alias = 0;
    TSFieldId field = 0;
    if (!extra) {
      if (top->aliases != NULL) alias = top->aliases[top->structural];
      for (const ts_field_map_entry *m = top->fields; m < top->fields_end; m++) {
        if (!m->inherited && m->child_index == top->structural) { field = m->field_id; break; }
      }
      top->structural++;
    }
    // The field ts_tree_cursor_current_field_id gives this child (or, for
    // a hidden one, passes on to its visible descendants).
    TSFieldId f = extra ? 0 : (field ? field : top->inherited);
    bool has_children = ts_sub_child_count(*child) > 0;
    if (!(ts_sub_visible(*child) || alias != 0)) {
      if (has_children) {
        rentry *r = next_entry(&rs, &n, &cap);
        if (r == NULL) { status = 3; break; }
        raw_open(r, lang, *child, start, f, false);
      }
      continue;
    }
    TSSymbol raw = alias ? alias : ts_sub_symbol(*child);
    s = raw == TS_SYM_ERROR ? raw : lang->public_symbol_map[raw];
    TSNode node = raw_node(root.tree, child, start, alias);
    handle(e, id, node, s, f, st, depth);
    if (s < nsyms && is_ref[s]) {
      if (!ref(e->out, start, end)) { status = 3; break; }
      continue;
    }
    if (!has_children) continue;
    if (!push_frame(&st, &depth, &stackcap, (frame){s, f, node})) { status = 3; break; }
    rentry *r = next_entry(&rs, &n, &cap);
    if (r == NULL) { status = 3; break; }
    raw_open(r, lang, *child, start, 0, true);
  }
done:
  if (e->oom) status = 3;
  free(st);
  free(rs);
  return status;
}

// grit_walk_raw says whether grit_walk_python reads subtrees directly (1)
// or goes through the cursor (0); tests compare the two.
int grit_walk_raw = 1;
uint64_t grit_walk_raw_trees = 0;

uint64_t grit_raw_walks(void) { return __atomic_load_n(&grit_walk_raw_trees, __ATOMIC_RELAXED); }

int grit_walk_python(const TSLanguage *lang, TSNode root, const uint32_t *caps, const uint8_t *is_ref, uint32_t nsyms,
                     int64_t deadline, grit_result *out) {
  py_ids id;
  py_ids_init(lang, &id);
  emitter e = {out, caps, 0, false};
  if (grit_walk_raw && raw_layout_ok(lang, root)) {
    __atomic_fetch_add(&grit_walk_raw_trees, 1, __ATOMIC_RELAXED);
    return walk_raw(&e, &id, lang, root, is_ref, nsyms, deadline);
  }
  return walk_cursor(&e, &id, root, is_ref, nsyms, deadline);
}
