; Elixir (definitions). Captures as in python.scm; @comment as in go.scm.
;
; Kinds: defmodule, defprotocol and defimpl are "class", named by their
; alias (Shop.Cart); def, defp, defmacro, defmacrop, defguard and
; defdelegate are "function", qualified by the innermost module
; (Shop.Cart.add; a nested defmodule Line gives Shop.Cart.Line and
; Line.render). A definition's doc is the first line of the comment block
; right above it (@doc strings are not read).

(call target: (identifier) @_ (arguments . (alias) @name) (do_block)? @body
  (#any-of? @_ "defmodule" "defprotocol" "defimpl")) @def.class

(call target: (identifier) @_ (arguments . [
    (call target: (identifier) @name)
    (identifier) @name
    (binary_operator left: (call target: (identifier) @name) operator: "when")
    (binary_operator left: (identifier) @name operator: "when")])
  (do_block)? @body
  (#any-of? @_ "def" "defp" "defmacro" "defmacrop" "defguard" "defguardp" "defdelegate")) @def.function

(comment) @comment
