// walk.h declares the generic walk (walk_tree.c, walk_match.c): one pass
// over a tree that copies its visible nodes into a flat array and collects
// the references, then a matcher that runs a language's query patterns
// (compiled by walker.go into grit_pat tables) over that array. It yields
// the matches the tree-sitter query cursor yields for the same patterns, in
// the same order, at a fraction of its cost.
#ifndef GRIT_WALK_H
#define GRIT_WALK_H

#include "extract.h"

// One visible node of the tree, in preorder; index 0 is the root, so 0 also
// means "none" for next and child.
typedef struct grit_node {
  uint32_t start, end;
  uint32_t next;  // the next visible sibling
  uint32_t child; // the first visible child
  TSSymbol sym;   // public symbol (ts_node_symbol)
  TSFieldId field; // as ts_tree_cursor_current_field_id gives it
} grit_node;

// GRIT_MAX_PATTERN_CAPS bounds the captures of one pattern (walker.go
// refuses a query with more): one match's fit on the matcher's stack.
#define GRIT_MAX_PATTERN_CAPS 32

enum { GRIT_PAT_NODE, GRIT_PAT_NAMED, GRIT_PAT_ANY, GRIT_PAT_ALT };
enum { GRIT_PAT_OPTIONAL = 1, GRIT_PAT_IMMEDIATE = 2, GRIT_PAT_LAST = 4 };

// One node of a pattern. pats[1+i] is the root of pattern i; 0 means none.
typedef struct grit_pat {
  uint32_t kid;    // first child pattern (for GRIT_PAT_ALT: first alternative)
  uint32_t next;   // next sibling pattern (alternative)
  uint32_t neg;    // offset of a 0-terminated list in negs of fields it must not have; 0 none
  TSSymbol sym;    // GRIT_PAT_NODE: the symbol
  TSFieldId field; // the field it must have in its parent; 0 any
  int16_t cap[2];  // capture ids, -1 none
  uint8_t kind;    // GRIT_PAT_*
  uint8_t flags;   // GRIT_PAT_OPTIONAL | GRIT_PAT_IMMEDIATE | GRIT_PAT_LAST
} grit_pat;

// A language's compiled patterns.
typedef struct grit_walker {
  const grit_pat *pats;
  const TSFieldId *negs;
  const uint32_t *root_at; // patterns rooted at symbol s: roots[root_at[s] .. root_at[s+1])
  const uint32_t *roots;   // pattern indexes
  const uint8_t *named;    // named[s]: a named symbol
  const uint8_t *dedup;    // dedup[i]: pattern i has a child without captures, so two ways of matching can capture the same
  uint32_t nsyms;
  // keep_anon: a pattern has the wildcard _, which matches anonymous nodes;
  // without it the flat tree leaves out anonymous nodes that have no field.
  uint8_t keep_anon;
} grit_walker;

// The walk's scratch buffers, kept from file to file with a grit_result.
typedef struct grit_walk_buf {
  grit_node *nodes;
  uint32_t nnodes, nodecap;
  struct grit_match *matches;
  uint32_t nmatches, matchcap;
  struct grit_mcap *mcaps;
  uint32_t nmcaps, mcapcap;
} grit_walk_buf;

// grit_walk_build copies root's visible tree, as far as w's patterns can
// see it, into buf->nodes and records the references (nodes marked in
// is_ref, not those nested in one) in out. It returns a grit_result status.
int grit_walk_build(const grit_walker *w, const TSLanguage *lang, TSNode root, const uint8_t *is_ref, uint32_t nsyms,
                    int64_t deadline, grit_walk_buf *buf, grit_result *out);
// grit_walk_match runs w's patterns over buf->nodes and writes their
// captures to out, match by match, in the query cursor's order.
int grit_walk_match(const grit_walker *w, int64_t deadline, grit_walk_buf *buf, grit_result *out);
void grit_walk_buf_free(grit_walk_buf *buf);

// grit_walk_raw_tree: 1 (the default) lets grit_walk_build read the tree's
// subtrees directly (tsinternal.h), 0 makes it use the cursor.
extern int grit_walk_raw_tree;
uint64_t grit_raw_trees(void); // how many trees the raw build has taken (tests)

#endif
