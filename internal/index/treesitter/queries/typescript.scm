; TypeScript and TSX: javascript.scm plus types. Captures as in python.scm; @comment as in go.scm.

(function_declaration name: (identifier) @name body: (statement_block) @body) @def.function
(generator_function_declaration name: (identifier) @name body: (statement_block) @body) @def.function
(class_declaration name: (type_identifier) @name body: (class_body) @body) @def.class
(method_definition name: (_) @name body: (statement_block) @body) @def.method
(variable_declarator name: (identifier) @name value: [
  (arrow_function body: (_) @body)
  (function_expression body: (_) @body)]) @def.function
(assignment_expression left: [
    (identifier) @name
    (member_expression property: (property_identifier) @name)]
  right: [(function_expression !name body: (_) @body) (arrow_function body: (_) @body)]) @def.function
(pair key: (property_identifier) @name value: [(function_expression !name body: (_) @body) (arrow_function body: (_) @body)]) @def.function
(function_expression name: (identifier) @name body: (_) @body) @def.function
(public_field_definition name: (property_identifier) @name value: [(function_expression !name body: (_) @body) (arrow_function body: (_) @body)]) @def.method

(comment) @comment

(call_expression function: (identifier) @call)
(call_expression function: (member_expression property: (property_identifier) @call))
(new_expression constructor: (identifier) @call)

(import_statement (import_clause (identifier) @import.alias) source: (string (string_fragment) @import.module)) @import
(import_statement (import_clause (namespace_import (identifier) @import.alias)) source: (string (string_fragment) @import.module)) @import
(import_statement (import_clause (named_imports (import_specifier name: (_) @import.name !alias))) source: (string (string_fragment) @import.module)) @import
(import_statement (import_clause (named_imports (import_specifier name: (_) @import.name alias: (_) @import.alias))) source: (string (string_fragment) @import.module)) @import

(abstract_class_declaration name: (type_identifier) @name body: (class_body) @body) @def.class
(interface_declaration name: (type_identifier) @name body: (_) @body) @def.class
(type_alias_declaration name: (type_identifier) @name) @def.class
(enum_declaration name: (identifier) @name body: (_) @body) @def.class
(method_signature name: (_) @name) @def.method
(abstract_method_signature name: (_) @name) @def.method
(function_signature name: (identifier) @name) @def.function
(import_statement . source: (string (string_fragment) @import.module)) @import
;; CommonJS: const x = require("./y"), const {a} = require("./y"), require("./y");
(variable_declarator name: (identifier) @import.alias value: (call_expression function: (identifier) @_ arguments: (arguments . (string (string_fragment) @import.module) .)) (#eq? @_ "require")) @import
(variable_declarator name: (object_pattern) value: (call_expression function: (identifier) @_ arguments: (arguments . (string (string_fragment) @import.module) .)) (#eq? @_ "require")) @import
(expression_statement (call_expression function: (identifier) @_ arguments: (arguments . (string (string_fragment) @import.module) .)) (#eq? @_ "require")) @import
