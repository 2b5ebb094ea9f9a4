; Scala (2 and 3). Captures as in python.scm; @comment as in go.scm.
;
; Kinds: classes, objects, traits, enums and type aliases are "class";
; functions (def) in a class, object or trait are "method", qualified by the
; innermost type (Cart.add, Line.render; a companion object's are
; Cart.empty too), abstract ones included; other functions are "function";
; top-level val and var are "variable". A definition's range starts at its
; annotations and modifiers; its doc is the first line of the comment block
; right above it (a Scaladoc comment).
;
; Imports: import a.b.C gives module a.b.C; import a.b._ (or a.b.*) is a
; star import of a.b; import a.b.{C, D => E} gives module a.b with name C,
; and name D with alias E. Calls: function and method names (items.map(f)
; gives map) and constructed types (new Cart(x) gives Cart).

(class_definition name: (identifier) @name body: (template_body)? @body) @def.class
(object_definition name: (identifier) @name body: (template_body)? @body) @def.class
(trait_definition name: (identifier) @name body: (template_body)? @body) @def.class
(enum_definition name: (identifier) @name body: (enum_body) @body) @def.class
(type_definition name: (type_identifier) @name) @def.class

(function_definition name: (identifier) @name "=" @body) @def.function
(function_definition name: (identifier) @name body: (_) @body) @def.function
(function_declaration name: (identifier) @name) @def.function

(compilation_unit (val_definition pattern: (identifier) @name) @def.variable)
(compilation_unit (var_definition pattern: (identifier) @name) @def.variable)

(comment) @comment
(block_comment) @comment

(call_expression function: [
  (identifier) @call
  (field_expression field: (identifier) @call)
  (generic_function function: (identifier) @call)
  (generic_function function: (field_expression field: (identifier) @call))])
(instance_expression [
  (type_identifier) @call
  (generic_type type: (type_identifier) @call)])

(import_declaration (identifier) . ) @import.module @import
(import_declaration (namespace_wildcard) @import.star) @import.module @import
(import_declaration (namespace_selectors [(identifier) @import.name (as_renamed_identifier name: (identifier) @import.name alias: (_) @import.alias) (arrow_renamed_identifier name: (identifier) @import.name alias: (_) @import.alias)])) @import.module @import
