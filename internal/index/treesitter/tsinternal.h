// tsinternal.h mirrors the few internal layouts of the tree-sitter runtime
// that walk_tree.c reads to walk a tree without a TSTreeCursor: a
// subtree (subtree.h), a length (length.h) and the front of a language
// (parser.h), as they are in tree-sitter 0.25 (MIT), the version
// go-tree-sitter v0.25.0 compiles, on a little-endian 64-bit machine.
// raw_layout_ok checks them against the public API on every tree and the
// walk falls back to the cursor if they ever disagree (another version).
#ifndef GRIT_TSINTERNAL_H
#define GRIT_TSINTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include "extract.h"

typedef struct { uint32_t bytes; TSPoint extent; } ts_length;

typedef struct {
  bool is_inline : 1;
  bool visible : 1;
  bool named : 1;
  bool extra : 1;
  bool has_changes : 1;
  bool is_missing : 1;
  bool is_keyword : 1;
  uint8_t symbol;
  uint16_t parse_state;
  uint8_t padding_columns;
  uint8_t padding_rows : 4;
  uint8_t lookahead_bytes : 4;
  uint8_t padding_bytes;
  uint8_t size_bytes;
} ts_inline_data;

typedef struct {
  volatile uint32_t ref_count;
  ts_length padding;
  ts_length size;
  uint32_t lookahead_bytes;
  uint32_t error_cost;
  uint32_t child_count;
  TSSymbol symbol;
  uint16_t parse_state;
  bool visible : 1;
  bool named : 1;
  bool extra : 1;
  bool fragile_left : 1;
  bool fragile_right : 1;
  bool has_changes : 1;
  bool has_external_tokens : 1;
  bool has_external_scanner_state_change : 1;
  bool depends_on_column : 1;
  bool is_missing : 1;
  bool is_keyword : 1;
  union {
    struct {
      uint32_t visible_child_count;
      uint32_t named_child_count;
      uint32_t visible_descendant_count;
      int32_t dynamic_precedence;
      uint16_t repeat_depth;
      uint16_t production_id;
      struct { TSSymbol symbol; uint16_t parse_state; } first_leaf;
    };
    struct { union { char *long_data; char short_data[24]; }; uint32_t length; } external_scanner_state;
    int32_t lookahead_char;
  };
} ts_heap_data;

typedef union { ts_inline_data data; const ts_heap_data *ptr; } ts_subtree;

typedef struct { TSFieldId field_id; uint8_t child_index; bool inherited; } ts_field_map_entry;
typedef struct { uint16_t index; uint16_t length; } ts_map_slice;

// The front of struct TSLanguage, as far as the alias sequences.
typedef struct {
  uint32_t abi_version;
  uint32_t symbol_count;
  uint32_t alias_count;
  uint32_t token_count;
  uint32_t external_token_count;
  uint32_t state_count;
  uint32_t large_state_count;
  uint32_t production_id_count;
  uint32_t field_count;
  uint16_t max_alias_sequence_length;
  const uint16_t *parse_table;
  const uint16_t *small_parse_table;
  const uint32_t *small_parse_table_map;
  const void *parse_actions;
  const char *const *symbol_names;
  const char *const *field_names;
  const ts_map_slice *field_map_slices;
  const ts_field_map_entry *field_map_entries;
  const void *symbol_metadata;
  const TSSymbol *public_symbol_map;
  const uint16_t *alias_map;
  const TSSymbol *alias_sequences;
} ts_language_front;

#define TS_SYM_ERROR ((TSSymbol)-1)

static inline bool ts_sub_visible(ts_subtree s) { return s.data.is_inline ? s.data.visible : s.ptr->visible; }
static inline bool ts_sub_extra(ts_subtree s) { return s.data.is_inline ? s.data.extra : s.ptr->extra; }
static inline TSSymbol ts_sub_symbol(ts_subtree s) { return s.data.is_inline ? s.data.symbol : s.ptr->symbol; }
static inline uint32_t ts_sub_child_count(ts_subtree s) { return s.data.is_inline ? 0 : s.ptr->child_count; }
static inline uint32_t ts_sub_padding(ts_subtree s) { return s.data.is_inline ? s.data.padding_bytes : s.ptr->padding.bytes; }
static inline uint32_t ts_sub_size(ts_subtree s) { return s.data.is_inline ? s.data.size_bytes : s.ptr->size.bytes; }
static inline const ts_subtree *ts_sub_children(ts_subtree s) {
  return s.data.is_inline ? NULL : (const ts_subtree *)(s.ptr) - s.ptr->child_count;
}

#endif
