; Lua. Captures as in python.scm; @receiver and @comment as in go.scm.
;
; Kinds: function f and local function f are "function"; function T.f and
; function T:f are "method" with T as their scope (Cart.new, Cart.add), and so
; are T.f = function ... end assignments; f = function ... end is "function".
; A definition's doc is the first line of the comment block right above it.
;
; Imports: require "x" and require("x") give module x. Calls: function and
; method names (util.log(x) and self:add(x) give log and add).

(function_declaration name: (identifier) @name body: (block)? @body) @def.function
(function_declaration name: [
  (dot_index_expression table: (identifier) @receiver field: (identifier) @name)
  (method_index_expression table: (identifier) @receiver method: (identifier) @name)]
  body: (block)? @body) @def.method

(assignment_statement
  (variable_list . name: (identifier) @name .)
  (expression_list . value: (function_definition body: (block)? @body) .)) @def.function
(assignment_statement
  (variable_list . name: (dot_index_expression table: (identifier) @receiver field: (identifier) @name) .)
  (expression_list . value: (function_definition body: (block)? @body) .)) @def.method

(comment) @comment

(function_call name: [
  (identifier) @call
  (dot_index_expression field: (identifier) @call)
  (method_index_expression method: (identifier) @call)])

(function_call name: (identifier) @_ arguments: (arguments . (string content: (string_content) @import.module) .) (#eq? @_ "require")) @import
