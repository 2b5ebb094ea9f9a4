; OCaml interfaces (.mli): what ocaml.scm gives for types, exceptions,
; classes, modules, module types, external and val specifications, with a
; class's method specifications as its methods (counter.incr). A module's
; signature (module Inner : sig … end) is a namespace, as a module is.
; Imports: open M gives module M. An interface has no calls.

(type_definition . (type_binding name: (type_constructor) @name) .) @def.class
(type_definition (type_binding name: (type_constructor) @name) @def.class)
(exception_definition (constructor_declaration (constructor_name) @name)) @def.class

(class_definition . (class_binding (class_name) @name) .) @def.class
(class_definition (class_binding (class_name) @name) @def.class)
(method_specification (method_name) @name) @def.method

(module_definition . (module_binding (module_name) @name) .) @def.namespace
(module_definition (module_binding (module_name) @name) @def.namespace)
(module_type_definition (module_type_name) @name) @def.namespace

(external [(value_name) @name (parenthesized_operator (_) @name)]) @def.function
(value_specification [(value_name) @name (parenthesized_operator (_) @name)] type: (function_type)) @def.function
(value_specification [(value_name) @name (parenthesized_operator (_) @name)]
  type: [(type_constructor_path) (constructed_type) (tuple_type) (type_variable)]) @def.variable

(comment) @comment

(open_module module: (module_path) @import.module) @import
