import 'dart:math';
import 'package:shop/item.dart' as item;

/// A cart — holds items 🛒.
class Cart implements Store {
  final String owner;
  final List<Item> items = [];

  Cart(this.owner);

  // 日本語: adds an item.
  @override
  void add(Item item) {
    items.add(item);
    log('added');
  }

  int get total => items.fold(0, (s, i) => max(s, i.price));
}

abstract class Store {
  void add(Item item);
}

mixin Greets {
  String hello() => 'hello';
}

enum Status { open, closed }

extension Describe on Cart {
  String describe() => 'cart of $owner';
}

typedef Carts = List<Cart>;

void log(String msg) {
  print(msg);
}
