; Ruby. Captures as in python.scm; @comment as in go.scm.
;
; Kinds: classes and modules are "class" (class A::B is named B); def is
; "function" at the top level and "method" in a class or module, def self.x
; too (Cart.from_json), and so are the defs of a class << self block; constant
; assignments in a file, class or module body are "variable" (Shop.VERSION).
; A definition's doc is the first line of the comment block right above it.
;
; Calls: method names (JSON.parse(x) gives parse, new gives new).
; Imports: require "x" and require_relative "x" (the #any-of? predicate keeps
; other calls with one string argument out).

(class name: [(constant) @name (scope_resolution name: (constant) @name)] body: (_)? @body) @def.class
(module name: [(constant) @name (scope_resolution name: (constant) @name)] body: (_)? @body) @def.class
(method name: (_) @name body: (body_statement)? @body) @def.function
(singleton_method name: (_) @name body: (body_statement)? @body) @def.function

(program (assignment left: (constant) @name) @def.variable)
(body_statement (assignment left: (constant) @name) @def.variable)

(comment) @comment

(call method: (identifier) @call)

(call method: (identifier) @_ arguments: (argument_list . (string (string_content) @import.module) .) (#any-of? @_ "require" "require_relative")) @import
