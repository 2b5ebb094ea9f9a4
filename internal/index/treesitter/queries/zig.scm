; Zig (definitions). Captures as in python.scm; @comment as in go.scm.
;
; Kinds: a const or var bound to a struct, enum, union or opaque type is
; "class" (pub const Cart = struct { ... }); fn declarations are "function",
; qualified by the innermost container (Cart.add); test "name" blocks are
; "function" named by their string. A definition's doc is the first line of
; the comment block right above it (/// lines count).

(variable_declaration (identifier) @name
  [(struct_declaration) (enum_declaration) (union_declaration) (opaque_declaration)] @body) @def.class
(function_declaration name: (identifier) @name body: (block)? @body) @def.function
(test_declaration (string (string_content) @name) (block) @body) @def.function

(comment) @comment
