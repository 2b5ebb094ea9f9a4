; Python: the reference extraction.
; Captures: @def.<kind> the definition node, @name its name, @body its body,
; @sig where the signature starts when not at the definition's start,
; @call a callee name, @doc a docstring,
; @import a statement with @import.module, @import.name, @import.alias, @import.star.

(function_definition name: (identifier) @name body: (block) @body) @def.function
(class_definition name: (identifier) @name body: (block) @body) @def.class

(decorated_definition
  definition: (function_definition name: (identifier) @name body: (block) @body) @sig) @def.function
(decorated_definition
  definition: (class_definition name: (identifier) @name body: (block) @body) @sig) @def.class

(module (expression_statement (assignment left: (identifier) @name) @def.variable))

(block . (expression_statement (string) @doc))

(call function: (identifier) @call)
(call function: (attribute attribute: (identifier) @call))

(import_statement name: (dotted_name) @import.module) @import
(import_statement name: (aliased_import name: (dotted_name) @import.module alias: (identifier) @import.alias)) @import
(import_from_statement module_name: (_) @import.module name: (dotted_name) @import.name) @import
(import_from_statement module_name: (_) @import.module name: (aliased_import name: (dotted_name) @import.name alias: (identifier) @import.alias)) @import
(import_from_statement module_name: (_) @import.module (wildcard_import) @import.star) @import
