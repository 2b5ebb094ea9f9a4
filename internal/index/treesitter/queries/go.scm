; Go. Captures as in python.scm; @receiver is a method's receiver type,
; @comment a comment (a definition's doc is the comment block right above it).

(function_declaration name: (identifier) @name body: (block)? @body) @def.function
(method_declaration
  receiver: (parameter_list (parameter_declaration type: [
    (type_identifier) @receiver
    (pointer_type (type_identifier) @receiver)
    (generic_type type: (type_identifier) @receiver)
    (pointer_type (generic_type type: (type_identifier) @receiver))]))
  name: (field_identifier) @name body: (block)? @body) @def.method

(type_declaration . (type_spec name: (type_identifier) @name) . ) @def.class
(type_declaration (type_spec name: (type_identifier) @name) @def.class)
(type_declaration . (type_alias name: (type_identifier) @name) . ) @def.class
(type_declaration (type_alias name: (type_identifier) @name) @def.class)
(method_elem name: (field_identifier) @name) @def.method

(source_file (const_declaration . (const_spec name: (identifier) @name) .) @def.variable)
(source_file (const_declaration (const_spec name: (identifier) @name) @def.variable))
(source_file (var_declaration . (var_spec name: (identifier) @name) .) @def.variable)
(source_file (var_declaration (var_spec name: (identifier) @name) @def.variable))
(source_file (var_declaration (var_spec_list (var_spec name: (identifier) @name) @def.variable)))

(comment) @comment

(call_expression function: (identifier) @call)
(call_expression function: (selector_expression field: (field_identifier) @call))

(import_spec name: (_)? @import.alias path: (_) @import.module) @import
