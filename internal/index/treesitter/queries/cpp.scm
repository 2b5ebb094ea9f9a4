; C++. Captures as in python.scm; @receiver and @comment as in go.scm.
;
; Kinds: function definitions (with a body; declarations and pure virtual
; members are not definitions) are "function", or "method" when defined
; directly in a class body (Shape.name) or out of class with a qualified name
; (void geo::Circle::area() {} is Circle.area, with Circle as its parent: the
; scope is the last part before the name, template arguments dropped; so are
; constructors, Circle.Circle, and destructors, Circle.~Circle); a qualifier
; that is a namespace declared in the file (@namespace) is no scope, so
; void detail::f() {} is the function f. A specialisation (struct
; formatter<T, Char> {...}) is named without its arguments. class, struct,
; union and enum specifiers with a body, type aliases (using X = ...) and plain
; typedefs are "class". Namespaces are not definitions and not part of
; qualified names, so a member defined in or out of its class gets the same
; one. A template's range includes its template <...> line; its signature
; starts after it. A definition's doc is the first line of the comment block
; right above it.
;
; Imports as in c.scm: #include "x.h" gives module x.h, #include <x> module
; <x>. Calls: function, method and qualified names (std::max gives max),
; explicit template calls (f<int>(...) gives f) and constructed types
; (new geo::Circle(1) gives Circle).

(function_definition declarator: [
    (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)
    (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name))
    (reference_declarator (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name))]
  body: (_) @body) @def.function
(template_declaration (function_definition declarator: [
    (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)
    (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name))
    (reference_declarator (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name))]
  body: (_) @body) @sig) @def.function
(function_definition declarator: [
    (function_declarator declarator: (qualified_identifier) @qualified)
    (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier) @qualified))
    (reference_declarator (function_declarator declarator: (qualified_identifier) @qualified))]
  body: (_) @body) @def.method
(template_declaration (function_definition declarator: [
    (function_declarator declarator: (qualified_identifier) @qualified)
    (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier) @qualified))
    (reference_declarator (function_declarator declarator: (qualified_identifier) @qualified))]
  body: (_) @body) @sig) @def.method

(class_specifier name: (type_identifier) @name body: (_) @body) @def.class
(struct_specifier name: (type_identifier) @name body: (_) @body) @def.class
(union_specifier name: (type_identifier) @name body: (_) @body) @def.class
(enum_specifier name: (type_identifier) @name body: (_) @body) @def.class
(class_specifier name: (template_type name: (type_identifier) @name) body: (_) @body) @def.class
(struct_specifier name: (template_type name: (type_identifier) @name) body: (_) @body) @def.class
(template_declaration [
  (class_specifier name: (template_type name: (type_identifier) @name) body: (_) @body)
  (struct_specifier name: (template_type name: (type_identifier) @name) body: (_) @body)] @sig) @def.class
(template_declaration [
  (class_specifier name: (type_identifier) @name body: (_) @body)
  (struct_specifier name: (type_identifier) @name body: (_) @body)
  (union_specifier name: (type_identifier) @name body: (_) @body)] @sig) @def.class
(alias_declaration name: (type_identifier) @name) @def.class
(template_declaration (alias_declaration name: (type_identifier) @name) @sig) @def.class
(type_definition type: [
  (primitive_type) (type_identifier) (sized_type_specifier) (qualified_identifier) (template_type)]
  declarator: (type_identifier) @name) @def.class

(namespace_definition name: (namespace_identifier) @namespace)
(namespace_definition name: (nested_namespace_specifier (namespace_identifier) @namespace))

(comment) @comment

(call_expression function: (identifier) @call)
(call_expression function: (field_expression field: (field_identifier) @call))
(call_expression function: (qualified_identifier name: (identifier) @call))
(call_expression function: (template_function name: (identifier) @call))
(call_expression function: (qualified_identifier name: (template_function name: (identifier) @call)))
(call_expression function: (field_expression field: (template_method name: (field_identifier) @call)))
(new_expression type: (type_identifier) @call)
(new_expression type: (qualified_identifier name: (type_identifier) @call))

(preproc_include path: (string_literal (string_content) @import.module)) @import
(preproc_include path: (system_lib_string) @import.module) @import
