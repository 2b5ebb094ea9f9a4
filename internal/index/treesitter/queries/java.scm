; Java. Captures as in python.scm; @comment as in go.scm.
;
; Kinds: class, interface, enum, record and annotation type declarations are
; "class"; methods, constructors (named after their class: Inventory.Inventory),
; interface and annotation members are "method", qualified by the enclosing
; types (Outer.Inner.method). A definition's range starts at its modifiers, so
; annotations (@Override) are inside it; its doc is the first line of the
; comment block right above it (a Javadoc comment).
;
; Imports: import a.b.C gives module a.b, name C; import static a.b.C.m gives
; module a.b.C, name m; import a.b.* is a star import of a.b. Calls: method
; names (x.add(...) gives add) and constructed types (new Foo() gives Foo).

(class_declaration name: (identifier) @name body: (class_body) @body) @def.class
(interface_declaration name: (identifier) @name body: (interface_body) @body) @def.class
(enum_declaration name: (identifier) @name body: (enum_body) @body) @def.class
(record_declaration name: (identifier) @name body: (class_body) @body) @def.class
(annotation_type_declaration name: (identifier) @name body: (annotation_type_body) @body) @def.class

(method_declaration name: (identifier) @name body: (block)? @body) @def.method
(constructor_declaration name: (identifier) @name body: (constructor_body) @body) @def.method
(compact_constructor_declaration name: (identifier) @name body: (block) @body) @def.method
(annotation_type_element_declaration name: (identifier) @name) @def.method

(line_comment) @comment
(block_comment) @comment

(method_invocation name: (identifier) @call)
(object_creation_expression type: [
  (type_identifier) @call
  (generic_type (type_identifier) @call)
  (scoped_type_identifier (type_identifier) @call .)])

(import_declaration (scoped_identifier scope: (_) @import.module name: (identifier) @import.name) .) @import
(import_declaration (scoped_identifier) @import.module (asterisk) @import.star) @import
