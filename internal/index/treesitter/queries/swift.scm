; Swift. Captures as in python.scm; @receiver and @comment as in go.scm.
;
; Kinds: classes, structs, enums, actors and protocols are "class"; type
; aliases too; functions and initializers (Cart.init) in a type are "method",
; qualified by the innermost type (Line.render); functions in an extension
; are "method" with the extended type as their scope (extension Cart { func
; total() } gives Cart.total); protocol requirements are "method"; other
; functions are "function"; top-level let and var are "variable". A
; definition's range starts at its attributes and modifiers; its doc is the
; first line of the comment block right above it (/// lines count).
;
; Imports: import Foundation gives module Foundation; import struct
; Shop.Item gives module Shop.Item. Calls: function, method and initializer
; names (items.append(x) gives append, Cart(owner: "x") gives Cart).

(class_declaration declaration_kind: ["class" "struct" "enum" "actor"]
  name: (type_identifier) @name body: (_) @body) @def.class
(protocol_declaration name: (type_identifier) @name body: (protocol_body) @body) @def.class
(typealias_declaration name: (type_identifier) @name) @def.class

(source_file (function_declaration name: (simple_identifier) @name body: (function_body)? @body) @def.function)
(class_declaration declaration_kind: ["class" "struct" "enum" "actor"] body: [
  (class_body (function_declaration name: (simple_identifier) @name body: (function_body)? @body) @def.method)
  (enum_class_body (function_declaration name: (simple_identifier) @name body: (function_body)? @body) @def.method)
  (class_body (init_declaration name: "init" @name body: (function_body)? @body) @def.method)
  (enum_class_body (init_declaration name: "init" @name body: (function_body)? @body) @def.method)])
(class_declaration declaration_kind: "extension" name: (user_type . (type_identifier) @receiver) body: [
  (class_body (function_declaration name: (simple_identifier) @name body: (function_body)? @body) @def.method)
  (class_body (init_declaration name: "init" @name body: (function_body)? @body) @def.method)])
(protocol_body (protocol_function_declaration name: (simple_identifier) @name) @def.method)

(source_file (property_declaration name: (pattern (simple_identifier) @name)) @def.variable)

(comment) @comment
(multiline_comment) @comment

(call_expression . [
  (simple_identifier) @call
  (navigation_expression suffix: (navigation_suffix suffix: (simple_identifier) @call))])

(import_declaration (identifier) @import.module) @import
