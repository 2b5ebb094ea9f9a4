import Foundation
import struct Shop.Item

/// A cart — holds items 🛒.
class Cart: Store {
    var items: [Item] = []
    let owner: String

    init(owner: String) {
        self.owner = owner
    }

    // 日本語: adds an item.
    func add(_ item: Item) {
        items.append(item)
        log("added")
    }

    struct Line {
        func render() -> String { return String(format: "%d", 1) }
    }
}

protocol Store {
    func add(_ item: Item)
}

struct Point { var x: Int }

enum Status { case open, closed }

extension Cart {
    func total() -> Int { return items.reduce(0) { $0 + $1.price } }
}

typealias Carts = [Cart]

func log(_ msg: String) {
    print(msg)
}
