-- | A shopping cart — holds items 🛒.
module Shop.Cart (Cart(..), total, addItem) where

import qualified Data.Map as M
import Data.List (foldl')

-- | An item in the cart.
data Item = Item { name :: String, price :: Int }

newtype Cart = Cart [Item]

type Price = Int

-- | 日本語: things with a price.
class Priced a where
  priceOf :: a -> Int
  priceOf _ = 0

instance Priced Item where
  priceOf (Item _ p) = p

total :: Cart -> Int
total (Cart []) = 0
total (Cart (x:xs)) = price x + total (Cart xs)

-- | Adds an item.
addItem :: Item -> Cart -> Cart
addItem i (Cart is) = Cart (i : is)

emptyCart = Cart []

describe :: Cart -> String
describe c
  | n == 0 = "empty"
  | otherwise = show n ++ " items"
  where
    n = count c
    count (Cart xs) = length xs
