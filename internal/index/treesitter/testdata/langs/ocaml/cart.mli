open Printf

(** A cart item — priced 🛒. *)
type item = { name : string; price : float }

type t

(* 日本語: adds an item. *)
val add : item list -> item -> item list
val limit : int
val ( +! ) : int -> int -> int
external length : string -> int = "caml_string_length"
exception Empty_cart

module Audit : sig
  val log : string -> unit
end

module type STORE = sig
  val find : string -> item option
end

class counter : int -> object
  method incr : unit
  method get : int
end
