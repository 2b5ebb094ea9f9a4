# A shopping cart — holds items 🛒.
module Shop

using LinearAlgebra
import Base: show

"An item in the cart."
struct Item
    name::String
    price::Int
end

mutable struct Cart
    items::Vector{Item}
end

abstract type Store end

# 日本語: adds an item.
function add!(c::Cart, i::Item)
    push!(c.items, i)
    return c
end

total(c::Cart) = sum(i.price for i in c.items)

Base.show(io::IO, c::Cart) = print(io, "Cart(", length(c.items), ")")

macro log(msg)
    return :(println($msg))
end

const LIMIT = 10

struct Pair{T} <: Store
    key::T
end

first_key(p::Pair{T}) where {T} = p.key

function count_items(c::Cart)::Int
    length(c.items)
end

end
