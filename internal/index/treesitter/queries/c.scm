; C. Captures as in python.scm; @comment as in go.scm.
;
; Kinds: function definitions (with a body; prototypes are not definitions)
; are "function". struct, union and enum specifiers with a body are "class",
; named by their tag; a typedef is "class" named by its new name, and when it
; defines an anonymous or tagged struct, union or enum the typedef as a whole
; is the definition (typedef struct buffer {...} buffer; is one class buffer).
; Macros and global variables are not definitions. A definition's doc is the
; first line of the comment block right above it.
;
; Imports: #include "x.h" gives module x.h (resolved relative to the including
; file, else by path suffix); #include <x.h> gives module <x.h>, brackets kept
; (resolved by path suffix only). Calls: function names, and field names called
; through a function pointer (ops->read(...) gives read).

(function_definition declarator: (function_declarator declarator: (identifier) @name) body: (compound_statement) @body) @def.function
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)) body: (compound_statement) @body) @def.function
(function_definition declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) body: (compound_statement) @body) @def.function

(type_definition type: (_ body: (_) @body) declarator: (type_identifier) @name) @def.class
(type_definition type: [
  (primitive_type) (type_identifier) (sized_type_specifier)
  (struct_specifier !body) (union_specifier !body) (enum_specifier !body)]
  declarator: (type_identifier) @name) @def.class

(translation_unit
  [(struct_specifier name: (type_identifier) @name body: (_) @body)
   (union_specifier name: (type_identifier) @name body: (_) @body)
   (enum_specifier name: (type_identifier) @name body: (_) @body)] @def.class)
(preproc_ifdef
  [(struct_specifier name: (type_identifier) @name body: (_) @body)
   (union_specifier name: (type_identifier) @name body: (_) @body)
   (enum_specifier name: (type_identifier) @name body: (_) @body)] @def.class)
(preproc_if
  [(struct_specifier name: (type_identifier) @name body: (_) @body)
   (union_specifier name: (type_identifier) @name body: (_) @body)
   (enum_specifier name: (type_identifier) @name body: (_) @body)] @def.class)
(preproc_else
  [(struct_specifier name: (type_identifier) @name body: (_) @body)
   (union_specifier name: (type_identifier) @name body: (_) @body)
   (enum_specifier name: (type_identifier) @name body: (_) @body)] @def.class)
(preproc_elif
  [(struct_specifier name: (type_identifier) @name body: (_) @body)
   (union_specifier name: (type_identifier) @name body: (_) @body)
   (enum_specifier name: (type_identifier) @name body: (_) @body)] @def.class)
(declaration type:
  [(struct_specifier name: (type_identifier) @name body: (_) @body)
   (union_specifier name: (type_identifier) @name body: (_) @body)
   (enum_specifier name: (type_identifier) @name body: (_) @body)] @def.class)
(field_declaration type:
  [(struct_specifier name: (type_identifier) @name body: (_) @body)
   (union_specifier name: (type_identifier) @name body: (_) @body)
   (enum_specifier name: (type_identifier) @name body: (_) @body)] @def.class)

(comment) @comment

(call_expression function: (identifier) @call)
(call_expression function: (field_expression field: (field_identifier) @call))

(preproc_include path: (string_literal (string_content) @import.module)) @import
(preproc_include path: (system_lib_string) @import.module) @import
