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
#include <time.h>
#include "extract.h"

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

static int64_t walk_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

// One ancestor on the walk's stack.
typedef struct { TSSymbol sym; TSFieldId field; TSNode node; } frame;

int grit_walk_python(const TSLanguage *lang, TSNode root, const uint32_t *caps, const uint8_t *is_ref, uint32_t nsyms,
                     int64_t deadline, grit_result *out) {
  py_ids id;
  py_ids_init(lang, &id);
  emitter e = {out, caps, 0, false};
  uint32_t depth = 0, stackcap = 64;
  frame *st = malloc(stackcap * sizeof(frame));
  if (st == NULL) return 3;
  TSTreeCursor c = ts_tree_cursor_new(root);
  uint32_t steps = 0;
  int status = 0;
  for (;;) {
    if (++steps == 4096) {
      steps = 0;
      if (deadline > 0 && walk_now_ns() > deadline) { status = 2; break; }
    }
    TSNode node = ts_tree_cursor_current_node(&c);
    TSSymbol s = ts_node_symbol(node);
    frame *parent = depth > 0 ? &st[depth - 1] : NULL;
    TSFieldId f = 0;
    if (s == id.identifier) {
      f = ts_tree_cursor_current_field_id(&c);
      if (parent != NULL) {
        if (f == id.f_function && parent->sym == id.call) {
          push(&e, GRIT_PY_CALL, node);
          e.ord++;
        } else if (f == id.f_attribute && parent->sym == id.attribute && parent->field == id.f_function && depth > 1 &&
                   st[depth - 2].sym == id.call) {
          push(&e, GRIT_PY_CALL, node);
          e.ord++;
        } else if (f == id.f_left && parent->sym == id.assignment && depth > 2 && st[depth - 2].sym == id.expression_statement &&
                   st[depth - 3].sym == id.module) {
          push(&e, GRIT_PY_DEF_VARIABLE, parent->node); push(&e, GRIT_PY_NAME, node);
          e.ord++;
        }
      }
    } else if (s == id.attribute) {
      f = ts_tree_cursor_current_field_id(&c);
    } else if (s == id.function_definition || s == id.class_definition) {
      f = ts_tree_cursor_current_field_id(&c);
      definition(&e, &id, node, s == id.function_definition ? GRIT_PY_DEF_FUNCTION : GRIT_PY_DEF_CLASS,
                 parent ? parent->sym : 0, f, parent ? parent->node : node);
    } else if (s == id.block) {
      docstring(&e, &id, node);
    } else if (s == id.import_statement) {
      imports(&e, &id, node, false);
    } else if (s == id.import_from_statement) {
      imports(&e, &id, node, true);
    }
    if (e.oom) { status = 3; break; }
    if (s < nsyms && is_ref[s]) {
      if (out->nrefs == out->refcap) {
        uint32_t ncap = out->refcap ? out->refcap * 2 : 1024;
        grit_span *nr = realloc(out->refs, (size_t)ncap * sizeof(grit_span));
        if (nr == NULL) { status = 3; break; }
        out->refs = nr;
        out->refcap = ncap;
      }
      grit_span *r = &out->refs[out->nrefs++];
      r->start = ts_node_start_byte(node);
      r->end = ts_node_end_byte(node);
    } else if (ts_tree_cursor_goto_first_child(&c)) {
      if (depth == stackcap) {
        stackcap *= 2;
        frame *ns = realloc(st, stackcap * sizeof(frame));
        if (ns == NULL) { status = 3; break; }
        st = ns;
      }
      st[depth++] = (frame){s, f, node};
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
