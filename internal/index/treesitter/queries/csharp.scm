; C#. Captures as in python.scm; @comment as in go.scm.
;
; Kinds: classes, structs, interfaces, enums, records and delegates are
; "class"; methods, constructors (Cart.Cart), destructors and interface members
; are "method", qualified by the enclosing types (Outer.Inner.Method); local
; functions are "function"; properties are "variable". Namespaces are not
; definitions and not part of qualified names. A definition's range starts at
; its attributes and modifiers; its doc is the first line of the comment block
; right above it (/// <summary> lines count).
;
; Imports: using A.B gives module A.B; using X = A.B gives module A.B with
; alias X. Calls: method names (x.Add(...) gives Add, F<T>() gives F) and
; constructed types (new List<int>() gives List).

(class_declaration name: (identifier) @name body: (declaration_list) @body) @def.class
(struct_declaration name: (identifier) @name body: (declaration_list) @body) @def.class
(interface_declaration name: (identifier) @name body: (declaration_list) @body) @def.class
(enum_declaration name: (identifier) @name body: (enum_member_declaration_list) @body) @def.class
(record_declaration name: (identifier) @name body: (declaration_list)? @body) @def.class
(delegate_declaration name: (identifier) @name) @def.class

(method_declaration name: (identifier) @name body: (_)? @body) @def.method
(constructor_declaration name: (identifier) @name body: (_)? @body) @def.method
(destructor_declaration name: (identifier) @name body: (_)? @body) @def.method
(local_function_statement name: (identifier) @name body: (_)? @body) @def.function
(property_declaration name: (identifier) @name) @def.variable

(comment) @comment

(invocation_expression function: [
  (identifier) @call
  (generic_name (identifier) @call)
  (member_access_expression name: [(identifier) @call (generic_name (identifier) @call)])])
(object_creation_expression type: [
  (identifier) @call
  (generic_name (identifier) @call)
  (qualified_name name: [(identifier) @call (generic_name (identifier) @call)])])

(using_directive !name [(qualified_name) (identifier)] @import.module) @import
(using_directive name: (identifier) @import.alias [(qualified_name) (identifier)] @import.module) @import
