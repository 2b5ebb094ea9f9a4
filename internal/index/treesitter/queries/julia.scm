; Julia (definitions). Captures as in python.scm; @comment as in go.scm.
;
; Kinds: a module is a namespace (no scope, as in rust.scm); struct and
; abstract type definitions are "class"; function and macro definitions,
; long form or short (`total(c) = …`), are "function", named by their last
; name part (`Base.show(io, c) = …` is show); each method of a function is
; its own definition, as Julia dispatches on them. `const` bindings are
; "variable". A definition's doc is the first line of the comment block
; right above it (docstrings are not read).

(module_definition name: (identifier) @name) @def.namespace
(struct_definition (type_head [
    (identifier) @name
    (parametrized_type_expression . (identifier) @name)
    (binary_expression . [(identifier) @name (parametrized_type_expression . (identifier) @name)])])) @def.class
(abstract_definition (type_head [
    (identifier) @name
    (parametrized_type_expression . (identifier) @name)
    (binary_expression . [(identifier) @name (parametrized_type_expression . (identifier) @name)])])) @def.class

(function_definition (signature [
    (call_expression . [(identifier) @name (field_expression (identifier) @name .)])
    (where_expression . (call_expression . [(identifier) @name (field_expression (identifier) @name .)]))
    (typed_expression . (call_expression . [(identifier) @name (field_expression (identifier) @name .)]))])) @def.function
(macro_definition (signature (call_expression . (identifier) @name))) @def.function
(assignment . [
    (call_expression . [(identifier) @name (field_expression (identifier) @name .)])
    (where_expression . (call_expression . [(identifier) @name (field_expression (identifier) @name .)]))
    (typed_expression . (call_expression . [(identifier) @name (field_expression (identifier) @name .)]))]) @def.function
(const_statement (assignment . (identifier) @name)) @def.variable

(line_comment) @comment
(block_comment) @comment
