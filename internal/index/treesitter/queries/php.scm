; PHP. Captures as in python.scm; @comment as in go.scm.
;
; Kinds: classes, interfaces, traits and enums are "class"; methods are
; "method" (Cart.add), functions "function", class and file constants
; "variable" (Cart.LIMIT). Namespaces are not definitions and not part of
; qualified names. A definition's doc is the first line of the comment block
; right above it (a /** */ docblock).
;
; Imports: use A\B\C gives module A\B, name C (as D: alias D); a group
; use A\B\{C, D} gives module A\B, names C and D; require/include "x.php"
; gives module x.php. Calls: function, method and static method names, and
; constructed classes (new Money(1) gives Money).

(class_declaration name: (name) @name body: (declaration_list) @body) @def.class
(interface_declaration name: (name) @name body: (declaration_list) @body) @def.class
(trait_declaration name: (name) @name body: (declaration_list) @body) @def.class
(enum_declaration name: (name) @name body: (enum_declaration_list) @body) @def.class

(method_declaration name: (name) @name body: (compound_statement)? @body) @def.method
(function_definition name: (name) @name body: (compound_statement) @body) @def.function
(const_declaration (const_element (name) @name)) @def.variable

(comment) @comment

(function_call_expression function: [(name) @call (qualified_name (name) @call)])
(member_call_expression name: (name) @call)
(nullsafe_member_call_expression name: (name) @call)
(scoped_call_expression name: (name) @call)
(object_creation_expression [(name) @call (qualified_name (name) @call)])

(namespace_use_declaration (namespace_use_clause . [
  (qualified_name prefix: (namespace_name) @import.module . (name) @import.name)
  (name) @import.module]
  alias: (name)? @import.alias)) @import
(namespace_use_declaration (namespace_name) @import.module
  body: (namespace_use_group (namespace_use_clause . [(name) (qualified_name)] @import.name alias: (name)? @import.alias))) @import
([(require_expression) (require_once_expression) (include_expression) (include_once_expression)]
  (string (string_content) @import.module)) @import
