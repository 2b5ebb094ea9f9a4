; OCaml (.ml) and OCaml interfaces (.mli). Captures as in python.scm;
; @comment as in go.scm.
;
; Kinds: a let binding at module level (in the file or a struct … end) is
; "function" when it takes parameters (let add c i = …) or is bound to fun
; or function; other values and local let … in bindings are not indexed.
; Each binding of let rec f … and g … is its own definition, as is each of
; type a … and b …; a lone binding's range is the whole let or type item.
; Type and exception definitions and classes are "class", a class's
; methods "method" (counter.incr). Modules, functors and module types are
; namespaces: listed, but no scope (Cart.add is add, as in rust.scm).
; external and val specifications are "function", a val of a non-function
; type "variable". An operator (let ( +! ) a b = …) is named by its symbol.
; A definition's doc is the first line of the comment block right above it
; ((** … *) or (* … *)).
;
; Calls: applied function names (List.map f l gives map) and method names
; (obj#add x gives add). Imports: open M gives module M.

(compilation_unit (value_definition . [
    (let_binding pattern: [(value_name) @name (parenthesized_operator (_) @name)] . (parameter))
    (let_binding pattern: [(value_name) @name (parenthesized_operator (_) @name)] body: [(fun_expression) (function_expression)])] .) @def.function)
(compilation_unit (value_definition [
    (let_binding pattern: [(value_name) @name (parenthesized_operator (_) @name)] . (parameter))
    (let_binding pattern: [(value_name) @name (parenthesized_operator (_) @name)] body: [(fun_expression) (function_expression)])] @def.function))
(structure (value_definition . [
    (let_binding pattern: [(value_name) @name (parenthesized_operator (_) @name)] . (parameter))
    (let_binding pattern: [(value_name) @name (parenthesized_operator (_) @name)] body: [(fun_expression) (function_expression)])] .) @def.function)
(structure (value_definition [
    (let_binding pattern: [(value_name) @name (parenthesized_operator (_) @name)] . (parameter))
    (let_binding pattern: [(value_name) @name (parenthesized_operator (_) @name)] body: [(fun_expression) (function_expression)])] @def.function))

(type_definition . (type_binding name: (type_constructor) @name) .) @def.class
(type_definition (type_binding name: (type_constructor) @name) @def.class)
(exception_definition (constructor_declaration (constructor_name) @name)) @def.class

(class_definition . (class_binding (class_name) @name) .) @def.class
(class_definition (class_binding (class_name) @name) @def.class)
(method_definition (method_name) @name) @def.method

(module_definition . (module_binding (module_name) @name) .) @def.namespace
(module_definition (module_binding (module_name) @name) @def.namespace)
(module_type_definition (module_type_name) @name) @def.namespace

(external [(value_name) @name (parenthesized_operator (_) @name)]) @def.function
(value_specification [(value_name) @name (parenthesized_operator (_) @name)] type: (function_type)) @def.function
(value_specification [(value_name) @name (parenthesized_operator (_) @name)]
  type: [(type_constructor_path) (constructed_type) (tuple_type) (type_variable)]) @def.variable

(comment) @comment

(application_expression function: (value_path (value_name) @call))
(method_invocation method: (method_name) @call)

(open_module module: (module_path) @import.module) @import
