open Printf

(** A cart item — priced 🛒. *)
type item = { name : string; price : float }

type shape = Circle of float | Square of float
and color = Red | Green

exception Empty_cart

let limit = 10

(* 日本語: adds an item. *)
let add items item = item :: items

let rec total = function
  | [] -> 0.0
  | x :: rest -> x.price +. total rest

and count items = List.length items

let () = printf "%d\n" limit

module Cart = struct
  type t = { mutable items : item list }

  let create () = { items = [] }

  let push c i =
    if count c.items >= limit then raise Empty_cart;
    c.items <- add c.items i

  module Audit = struct
    let log msg = eprintf "%s\n" msg
  end
end

module type STORE = sig
  val find : string -> item option
end

module Make (S : STORE) = struct
  let lookup name = S.find name
end

class counter init = object (self)
  val mutable n = init
  method incr = n <- n + 1
  method get = n
  method reset = self#set 0
  method private set v = n <- v
end

let double = fun x -> x * 2
external length : string -> int = "caml_string_length"
let ( +! ) a b = a + b
