package shop.models

import java.util.ArrayList
import kotlin.math.max
import shop.util.*
import shop.tax.Rate as TaxRate

/** A cart — holds items 🛒. */
class Cart(val owner: String) : Store {
    private val items = ArrayList<Item>()

    // 日本語: adds an item.
    override fun add(item: Item) {
        items.add(item)
        log("added")
    }

    fun total(): Int = items.sumOf { max(it.price, 0) }

    class Line(val name: String) {
        fun render(): String = String.format("%s", name)
    }

    companion object {
        fun empty(): Cart = Cart("nobody")
    }
}

interface Store {
    fun add(item: Item)
}

object Registry {
    val carts = mutableListOf<Cart>()
}

enum class Status { OPEN, CLOSED }

data class Pair(val key: String, val value: Int)

typealias Carts = List<Cart>

fun Cart.describe(): String = "cart of $owner"

val LIMIT = 10

private fun log(msg: String) {
    println(msg)
}
