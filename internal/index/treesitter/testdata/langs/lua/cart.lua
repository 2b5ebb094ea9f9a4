local json = require("json")
local util = require "shop.util"

--- A cart — holds items 🛒.
local Cart = {}
Cart.__index = Cart

-- 日本語: makes a cart.
function Cart.new(owner)
  local self = setmetatable({}, Cart)
  self.owner = owner
  self.items = {}
  return self
end

function Cart:add(item)
  table.insert(self.items, item)
  util.log("added")
end

local function total(cart)
  local n = 0
  for _, it in ipairs(cart.items) do n = n + it.price end
  return n
end

function M.helper() return json.encode({}) end

helper = function(x) return x end

return Cart
