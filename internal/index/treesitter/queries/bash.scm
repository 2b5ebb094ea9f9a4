; Bash. Captures as in python.scm; @comment as in go.scm.
;
; Kinds: functions (f() { } and function f { }) are "function"; variables
; assigned at the top level of a script are "variable". A definition's doc is
; the first line of the comment block right above it.
;
; Imports: source x and . x give module x (quotes removed). Calls: command
; names (gcc, log, and the script's own functions).

(function_definition name: (word) @name body: (_) @body) @def.function
(program (variable_assignment name: (variable_name) @name) @def.variable)

(comment) @comment

(command name: (command_name (word) @call))

(command name: (command_name (word) @_) . argument: [(word) (string) (raw_string)] @import.module (#any-of? @_ "source" ".")) @import
