package shop.models

import scala.collection.mutable.ListBuffer
import shop.util._
import shop.tax.{Rate, Zone => TaxZone}

/** A cart — holds items 🛒. */
class Cart(val owner: String) extends Store {
  private val items = ListBuffer[Item]()

  // 日本語: adds an item.
  def add(item: Item): Unit = {
    items += item
    log("added")
  }

  def total: Int = items.map(_.price).sum

  class Line(name: String) {
    def render(): String = String.format("%s", name)
  }
}

object Cart {
  def empty(): Cart = new Cart("nobody")
}

trait Store {
  def add(item: Item): Unit
}

case class Pair(key: String, value: Int)

enum Status {
  case Open, Closed
}

type Carts = List[Cart]

val Limit = 10

def log(msg: String): Unit = println(msg)
