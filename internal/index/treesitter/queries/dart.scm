; Dart (definitions). Captures as in python.scm; @comment as in go.scm.
;
; Kinds: classes, mixins, enums, extensions and typedefs are "class";
; functions are "function", and methods, getters, setters and constructors
; in a class, mixin or extension "method", qualified by it (Cart.add,
; Describe.describe). The grammar makes a function's signature and its body
; two siblings, so a function's or method's range is its signature alone
; (void add(Item item)); a class's range is the whole class. A definition's
; doc is the first line of the comment block right above it (/// lines
; count; an annotation such as @override between them hides it).

(class_definition name: (identifier) @name body: (class_body) @body) @def.class
(mixin_declaration (identifier) @name (class_body) @body) @def.class
(enum_declaration name: (identifier) @name body: (enum_body) @body) @def.class
(extension_declaration name: (identifier) @name body: (extension_body) @body) @def.class
(type_alias . (type_identifier) @name) @def.class

(program (function_signature name: (identifier) @name) @def.function)
(method_signature [
  (function_signature name: (identifier) @name)
  (getter_signature name: (identifier) @name)
  (setter_signature name: (identifier) @name)
  (constructor_signature name: (identifier) @name)
  (factory_constructor_signature (identifier) @name .)]) @def.function
(declaration [
  (function_signature name: (identifier) @name)
  (getter_signature name: (identifier) @name)
  (setter_signature name: (identifier) @name)
  (constructor_signature name: (identifier) @name)]) @def.function

(comment) @comment
(documentation_comment) @comment
