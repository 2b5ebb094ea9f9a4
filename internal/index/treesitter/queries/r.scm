; R. Captures as in python.scm; @receiver and @comment as in go.scm.
;
; Kinds: a function assigned to a name (f <- function(x) …, f = …, f <<- …,
; and the lambda \(x) …) is "function"; so is the
; generic of setGeneric("f", …). A class made by R6Class or setRefClass
; and assigned to a name (Cart <- R6Class("Cart", …), R6::R6Class too) is "class", and the
; functions of its lists (public = list(add = function(…) …), methods =
; list(…)) are its methods: Cart.add. setClass("Person", …) is "class";
; setMethod("greet", "Person", function …) is the method Person.greet.
; A quoted name ("f" <- function …) is named without its quotes; a name in
; backquotes keeps them, as the identifier is written (`%+%`).
; A definition's doc is the first line of the comment block right above it
; (roxygen's #' too).
;
; Calls: function names (pkg::f(x) and obj$f(x) give f). Imports:
; library(x), require(x), requireNamespace("x"), loadNamespace("x") and
; source("file.R") give module x or file.R.

(binary_operator
  lhs: [(identifier) @name (string (string_content) @name)]
  operator: ["<-" "<<-" "="]
  rhs: (function_definition body: (braced_expression)? @body)) @def.function

(binary_operator
  lhs: [(identifier) @name (string (string_content) @name)]
  operator: ["<-" "<<-" "="]
  rhs: (call function: [(identifier) @_ (namespace_operator rhs: (identifier) @_)])
  (#any-of? @_ "R6Class" "setRefClass")) @def.class
(call
  function: [(identifier) @_ (namespace_operator rhs: (identifier) @_)]
  arguments: (arguments (argument
    value: (call arguments: (arguments
      (argument
        name: [(identifier) @name (string (string_content) @name)]
        value: (function_definition body: (braced_expression)? @body)) @def.method))))
  (#any-of? @_ "R6Class" "setRefClass"))

(call
  function: (identifier) @_
  arguments: (arguments . (argument value: (string (string_content) @name)))
  (#eq? @_ "setClass")) @def.class
(call
  function: (identifier) @_
  arguments: (arguments . (argument value: (string (string_content) @name)) (comma) . (argument value: (function_definition)))
  (#eq? @_ "setGeneric")) @def.function
(call
  function: (identifier) @_
  arguments: (arguments
    . (argument value: (string (string_content) @name))
    (comma)
    . (argument value: (string (string_content) @receiver)))
  (#eq? @_ "setMethod")) @def.method

(comment) @comment

(call function: [
  (identifier) @call
  (namespace_operator rhs: (identifier) @call)
  (extract_operator rhs: (identifier) @call)])

(call
  function: (identifier) @_
  arguments: (arguments . (argument value: [(identifier) @import.module (string (string_content) @import.module)]))
  (#any-of? @_ "library" "require" "requireNamespace" "loadNamespace" "source")) @import
