; Ruby. Captures as in python.scm; @comment as in go.scm.
;
; Kinds: classes and modules are "class" (class A::B is named B); def is
; "function" at the top level and "method" in a class or module, def self.x
; too (Cart.from_json), and so are the defs of a class << self block; constant
; assignments in a file, class or module body are "variable" (Shop.VERSION).
; A definition's doc is the first line of the comment block right above it.
;
; Calls: method names (JSON.parse(x) gives parse, new gives new).
; Imports (require "x", require_relative "x") need the query's #eq?
; predicates, which the extraction does not evaluate yet: until it does they
; are left out rather than taking every call with a string argument.

(class name: [(constant) @name (scope_resolution name: (constant) @name)] body: (_)? @body) @def.class
(module name: [(constant) @name (scope_resolution name: (constant) @name)] body: (_)? @body) @def.class
(method name: (_) @name body: (body_statement)? @body) @def.function
(singleton_method name: (_) @name body: (body_statement)? @body) @def.function

(program (assignment left: (constant) @name) @def.variable)
(body_statement (assignment left: (constant) @name) @def.variable)

(comment) @comment

(call method: (identifier) @call)
