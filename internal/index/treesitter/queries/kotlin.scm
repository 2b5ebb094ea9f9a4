; Kotlin. Captures as in python.scm; @receiver and @comment as in go.scm.
;
; Kinds: classes, interfaces, enum classes, data classes and objects are
; "class"; type aliases too; functions in a class, interface or object are
; "method", qualified by the innermost type (Cart.add, Line.render), and
; members of a companion object by the class (Cart.empty); an extension
; function fun Cart.describe() is a "method" with Cart as its scope; other
; functions are "function"; top-level properties are "variable". A
; definition's range starts at its annotations and modifiers; its doc is the
; first line of the comment block right above it (a KDoc comment).
;
; Imports: import a.b.C gives module a.b.C; import a.b.* is a star import of
; a.b; import a.b.C as D gives module a.b.C with alias D. Calls: function and
; method names (items.add(x) gives add, Cart("x") gives Cart).

(class_declaration name: (identifier) @name [(class_body) (enum_class_body)]? @body) @def.class
(object_declaration name: (identifier) @name (class_body)? @body) @def.class
(type_alias type: (identifier) @name) @def.class

(function_declaration (user_type . (identifier) @receiver) . name: (identifier) @name (function_body)? @body) @def.method
(function_declaration (nullable_type (user_type . (identifier) @receiver)) . name: (identifier) @name (function_body)? @body) @def.method
(function_declaration name: (identifier) @name (function_body)? @body) @def.function

(source_file (property_declaration (variable_declaration (identifier) @name)) @def.variable)

(line_comment) @comment
(block_comment) @comment

(call_expression . [
  (identifier) @call
  (navigation_expression (identifier) @call .)])

(import (qualified_identifier) @import.module "*"? @import.star (identifier)? @import.alias) @import
