library(R6)
require("jsonlite")
source("utils.R")

#' A cart — holds items 🛒.
#' @export
Cart <- R6Class("Cart",
  public = list(
    items = NULL,
    # 日本語: adds an item.
    add = function(item) {
      self$items <- c(self$items, item)
      invisible(self)
    },
    total = function() sum(vapply(self$items, price, numeric(1)))
  ),
  private = list(
    check = function(item) stopifnot(is.list(item))
  )
)

Account <- setRefClass("Account",
  fields = list(balance = "numeric"),
  methods = list(
    deposit = function(x) {
      balance <<- balance + x
    }
  )
)

# Builds an item.
new_item <- function(name, price = 0) {
  list(name = name, price = price)
}

price = function(item) item$price
LIMIT <- 10
last_total <<- function() 0
"print.cart" <- function(x, ...) cat("Cart of", length(x$items), "\n")
`%+%` <- function(cart, item) cart$add(item)

setClass("Store", representation(name = "character"))
setGeneric("describe", function(obj, ...) standardGeneric("describe"))
setMethod("describe", "Store", function(obj, ...) {
  jsonlite::toJSON(list(name = obj@name))
})
