; Rust. Captures as in python.scm; @receiver and @comment as in go.scm.
;
; Kinds: fn items are "function" (at file or module level, or nested in a
; function); fn items in an impl block are "method" with the impl's type as
; @receiver (impl Foo { fn bar } and impl Trait for Foo { fn bar } are both
; Foo.bar); fn items and signatures in a trait are "method" of the trait.
; struct, enum, union, trait, type alias and inline mod (mod m { ... }) are
; "class", but a mod is no scope (mod tests { fn it_works } is it_works, and
; impl dyn Value { fn f } is Value.f); const and static items at file level are "variable"; macro_rules!
; definitions are "function". A definition's range is the item itself, without
; its outer attributes (#[derive(...)]) or doc comments; its doc is the first
; line of the comment block right above it, attributes between them allowed.
;
; Imports: use a::b::C gives module a::b, name C; use a::b::{self, C} one
; import of a::b with names self and C; use a::b as c, module a, name b, alias
; c; use a::b::* is a star import of a::b; mod m; (a module in another file)
; an import of module m. Calls: function, method, associated function
; (Type::new) and macro (println!) names.

(source_file (function_item name: (identifier) @name body: (block) @body) @def.function)
(mod_item body: (declaration_list (function_item name: (identifier) @name body: (block) @body) @def.function))
(block (function_item name: (identifier) @name body: (block) @body) @def.function)
(source_file (function_signature_item name: (identifier) @name) @def.function)

(impl_item
  type: [
    (type_identifier) @receiver
    (generic_type type: (type_identifier) @receiver)
    (scoped_type_identifier name: (type_identifier) @receiver)
    (generic_type type: (scoped_type_identifier name: (type_identifier) @receiver))
    (dynamic_type trait: (type_identifier) @receiver)
    (dynamic_type trait: (scoped_type_identifier name: (type_identifier) @receiver))
    (reference_type type: (type_identifier) @receiver)
    (reference_type type: (generic_type type: (type_identifier) @receiver))]
  body: (declaration_list (function_item name: (identifier) @name body: (block) @body) @def.method))
(trait_item body: (declaration_list (function_item name: (identifier) @name body: (block) @body) @def.method))
(trait_item body: (declaration_list (function_signature_item name: (identifier) @name) @def.method))

(struct_item name: (type_identifier) @name body: (_)? @body) @def.class
(enum_item name: (type_identifier) @name body: (_) @body) @def.class
(union_item name: (type_identifier) @name body: (_) @body) @def.class
(trait_item name: (type_identifier) @name body: (_) @body) @def.class
(type_item name: (type_identifier) @name) @def.class
(mod_item name: (identifier) @name body: (_) @body) @def.namespace
(macro_definition name: (identifier) @name) @def.function

(source_file (const_item name: (identifier) @name) @def.variable)
(source_file (static_item name: (identifier) @name) @def.variable)

(line_comment) @comment
(block_comment) @comment

(call_expression function: (identifier) @call)
(call_expression function: (field_expression field: (field_identifier) @call))
(call_expression function: (scoped_identifier name: (identifier) @call))
(call_expression function: (generic_function function: [
  (identifier) @call
  (field_expression field: (field_identifier) @call)
  (scoped_identifier name: (identifier) @call)]))
(macro_invocation macro: (identifier) @call)

(use_declaration argument: (identifier) @import.module) @import
(use_declaration argument: (scoped_identifier path: (_) @import.module name: (identifier) @import.name)) @import
(use_declaration argument: (use_as_clause path: (identifier) @import.module alias: (identifier) @import.alias)) @import
(use_declaration argument: (use_as_clause path: (scoped_identifier path: (_) @import.module name: (identifier) @import.name) alias: (identifier) @import.alias)) @import
(use_declaration argument: (use_wildcard (_) @import.module) @import.star) @import
(use_declaration argument: (scoped_use_list path: (_) @import.module list: (use_list [(identifier) (self)] @import.name))) @import
(use_declaration argument: (scoped_use_list path: (_) @import.module list: (use_list (use_as_clause path: (identifier) @import.name alias: (identifier) @import.alias)))) @import
(mod_item name: (identifier) @import.module !body) @import
