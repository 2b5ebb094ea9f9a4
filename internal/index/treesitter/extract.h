// extract.h declares the few tree-sitter C API entry points Grit's one-call
// extraction uses (layouts copied from tree-sitter 0.25's api.h, MIT), and the
// extraction entry point itself. The tree-sitter runtime is linked in by
// github.com/tree-sitter/go-tree-sitter.
#ifndef GRIT_EXTRACT_H
#define GRIT_EXTRACT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "arena.h"

typedef struct TSLanguage TSLanguage;
typedef struct TSParser TSParser;
typedef struct TSTree TSTree;
typedef struct TSQuery TSQuery;
typedef struct TSQueryCursor TSQueryCursor;

typedef uint16_t TSSymbol;
typedef struct TSPoint { uint32_t row; uint32_t column; } TSPoint;
typedef uint32_t (*DecodeFunction)(const uint8_t *string, uint32_t length, int32_t *code_point);
typedef struct TSInput {
  void *payload;
  const char *(*read)(void *payload, uint32_t byte_index, TSPoint position, uint32_t *bytes_read);
  int encoding;
  DecodeFunction decode;
} TSInput;
typedef struct TSParseState { void *payload; uint32_t current_byte_offset; bool has_error; } TSParseState;
typedef struct TSParseOptions { void *payload; bool (*progress_callback)(TSParseState *state); } TSParseOptions;
typedef struct TSNode { uint32_t context[4]; const void *id; const TSTree *tree; } TSNode;
typedef struct TSTreeCursor { const void *tree; const void *id; uint32_t context[3]; } TSTreeCursor;
typedef struct TSQueryCapture { TSNode node; uint32_t index; } TSQueryCapture;
typedef struct TSQueryMatch { uint32_t id; uint16_t pattern_index; uint16_t capture_count; const TSQueryCapture *captures; } TSQueryMatch;
typedef struct TSQueryCursorState { void *payload; uint32_t current_byte_offset; } TSQueryCursorState;
typedef struct TSQueryCursorOptions { void *payload; bool (*progress_callback)(TSQueryCursorState *state); } TSQueryCursorOptions;

void ts_set_allocator(void *(*)(size_t), void *(*)(size_t, size_t), void *(*)(void *, size_t), void (*)(void *));
TSParser *ts_parser_new(void);
void ts_parser_delete(TSParser *self);
void ts_parser_reset(TSParser *self);
bool ts_parser_set_language(TSParser *self, const TSLanguage *language);
TSTree *ts_parser_parse_with_options(TSParser *self, const TSTree *old_tree, TSInput input, TSParseOptions parse_options);
void ts_tree_delete(TSTree *self);
TSNode ts_tree_root_node(const TSTree *self);
uint32_t ts_node_start_byte(TSNode self);
uint32_t ts_node_end_byte(TSNode self);
TSPoint ts_node_start_point(TSNode self);
TSPoint ts_node_end_point(TSNode self);
bool ts_node_has_error(TSNode self);
TSSymbol ts_node_symbol(TSNode self);
uint32_t ts_language_symbol_count(const TSLanguage *self);
const char *ts_language_symbol_name(const TSLanguage *self, TSSymbol symbol);
int ts_language_symbol_type(const TSLanguage *self, TSSymbol symbol); // 0 regular, 1 anonymous, 2 supertype, 3 auxiliary
bool ts_node_is_error(TSNode self);
bool ts_node_is_missing(TSNode self);
bool ts_node_is_null(TSNode self);
bool ts_node_is_named(TSNode self);
typedef uint16_t TSFieldId;
TSNode ts_node_named_child(TSNode self, uint32_t child_index);
uint32_t ts_node_named_child_count(TSNode self);
TSNode ts_node_child_by_field_id(TSNode self, TSFieldId field_id);
TSSymbol ts_language_symbol_for_name(const TSLanguage *self, const char *string, uint32_t length, bool is_named);
TSFieldId ts_language_field_id_for_name(const TSLanguage *self, const char *name, uint32_t name_length);
TSFieldId ts_tree_cursor_current_field_id(const TSTreeCursor *self);
TSTreeCursor ts_tree_cursor_new(TSNode node);
void ts_tree_cursor_delete(TSTreeCursor *self);
TSNode ts_tree_cursor_current_node(const TSTreeCursor *self);
bool ts_tree_cursor_goto_first_child(TSTreeCursor *self);
bool ts_tree_cursor_goto_next_sibling(TSTreeCursor *self);
bool ts_tree_cursor_goto_parent(TSTreeCursor *self);
uint32_t ts_node_child_count(TSNode self);
TSNode ts_node_child(TSNode self, uint32_t child_index);
TSQuery *ts_query_new(const TSLanguage *language, const char *source, uint32_t source_len, uint32_t *error_offset, int *error_type);
void ts_query_delete(TSQuery *self);
uint32_t ts_query_capture_count(const TSQuery *self);
const char *ts_query_capture_name_for_id(const TSQuery *self, uint32_t index, uint32_t *length);
TSQueryCursor *ts_query_cursor_new(void);
void ts_query_cursor_delete(TSQueryCursor *self);
void ts_query_cursor_exec_with_options(TSQueryCursor *self, const TSQuery *query, TSNode node, const TSQueryCursorOptions *query_options);
bool ts_query_cursor_next_match(TSQueryCursor *self, TSQueryMatch *match);
void ts_query_cursor_set_match_limit(TSQueryCursor *self, uint32_t limit);
uint32_t ts_query_pattern_count(const TSQuery *self);
typedef struct TSQueryPredicateStep { int type; uint32_t value_id; } TSQueryPredicateStep; // type: 0 done, 1 capture, 2 string
const TSQueryPredicateStep *ts_query_predicates_for_pattern(const TSQuery *self, uint32_t pattern_index, uint32_t *step_count);
const char *ts_query_string_value_for_id(const TSQuery *self, uint32_t index, uint32_t *length);

// grit_cap is one capture of one match, flattened.
typedef struct grit_cap {
  uint32_t match;   // match ordinal (captures of one match are adjacent)
  uint32_t pattern; // pattern index in the query
  uint32_t capture; // capture index (name via ts_query_capture_name_for_id)
  uint32_t start, end;
} grit_cap;

// grit_span is one reference: the byte range of an identifier leaf.
typedef struct grit_span { uint32_t start, end; } grit_span;

typedef struct grit_result {
  struct grit_walk_buf *walk; // the generic walk's buffers (walk.h), made on first use
  grit_cap *caps;
  uint32_t n, cap;
  grit_span *refs;  // every node whose symbol is marked in is_ref, in tree order
  uint32_t nrefs, refcap;
  uint32_t errors;  // ERROR and MISSING nodes in the tree
  int status;       // 0 ok, 1 budget exceeded while parsing, 2 while querying, 3 out of memory, 4 no tree
} grit_result;

// grit_use_default_allocator installs arena.c's allocator (malloc directly,
// outside a parse with an arena) and caps glibc's malloc arenas.
void grit_use_default_allocator(void);
// grit_extract parses src with p (set to lang), or with a parser of its own
// allocated in arena when that is not NULL, and collects the captures and
// references into out, whose buffers are reused from the last call (zero it
// before the first; grit_result_free releases them). With gw set, the
// generic walk (walk.h) matches the language's patterns and collects the
// references in one pass; else the query q runs and one walk over the tree
// records every node whose symbol s has is_ref[s] set (s < nsyms), without
// descending into it. Positions are byte offsets only: rows and columns are
// cheaper to compute in Go.
struct grit_walker;
void grit_extract(grit_arena *arena, TSParser *p, const TSLanguage *lang, const TSQuery *q, const struct grit_walker *gw,
                  const uint8_t *is_ref, uint32_t nsyms, const char *src, uint32_t len, int64_t budget_ns,
                  grit_result *out);

// grit_cpu_ns is the calling thread's CPU time in nanoseconds: what a file's
// parse budget is measured in (extract.c says why).
int64_t grit_cpu_ns(void);

void grit_result_free(grit_result *r);
// grit_result_big reports whether r's buffers grew past max captures,
// references or matches (2*max walk nodes): a huge file's are not kept.
bool grit_result_big(const grit_result *r, uint32_t max);
// grit_parse_only parses and frees the tree: the bare cost benchmarks compare with.
int grit_parse_only(TSParser *p, const TSLanguage *lang, const char *src, uint32_t len);

#endif
