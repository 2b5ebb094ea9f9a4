; HCL and Terraform (definitions). Captures as in python.scm; @receiver and
; @comment as in go.scm.
;
; Kinds: a block with labels is named by its last label, qualified by the one
; before it if it has two: resource "aws_s3_bucket" "logs" is
; aws_s3_bucket.logs, data "aws_caller_identity" "me" aws_caller_identity.me.
; variable "region" and output "bucket" are "variable"; resources, data
; sources, modules, providers and any other labelled block are "class", and a
; labelled block inside another is qualified by it. Blocks without labels
; (terraform, locals) are not definitions. A definition's doc is the first
; line of the comment block right above it.

(block . (identifier) @_ . (string_lit (template_literal) @name) . (block_start) (body)? @body
  (#any-of? @_ "variable" "output")) @def.variable
(block . (identifier) @_ . (string_lit (template_literal) @name) . (block_start) (body)? @body
  (#not-any-of? @_ "variable" "output")) @def.class
(block . (identifier) . (string_lit (template_literal) @receiver) . (string_lit (template_literal) @name) . (block_start) (body)? @body) @def.class

(comment) @comment
