; Haskell (definitions). Captures as in python.scm; @comment as in go.scm.
;
; Kinds: data, newtype, type synonyms and type classes are "class"; a
; function's type signature and its equations (one node each: `total ::
; Cart -> Int`, `total [] = 0`, `total (x:xs) = …`) are "function" and
; become one definition spanning them all (language.equations), whose
; signature is the type signature when there is one; a binding without arguments (`emptyCart = Cart []`)
; is a "function" too, as Haskell makes no difference. A class's default
; methods are qualified by the class (Priced.priceOf); an instance's
; methods are not (instances have no name of their own). Where-bound
; helpers are qualified by their function (describe.count). A
; definition's doc is the first line of the comment block right above it
; (`-- |` Haddock comments).

(data_type name: (name) @name) @def.class
(newtype name: (name) @name) @def.class
(type_synomym name: (name) @name) @def.class
(class name: (name) @name declarations: (class_declarations)? @body) @def.class
(signature name: (variable) @name) @def.function
(function name: (variable) @name match: (_) @body) @def.function
(bind name: (variable) @name match: (_) @body) @def.function

(comment) @comment
(haddock) @comment
