package com.example.shop;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.*;
import static java.lang.Math.max;
import com.example.shop.model.Item;

/**
 * Keeps items in stock — thread-safe enough for a demo ☕.
 */
@Service
public class Inventory implements Store {
    private final List<Item> items = new ArrayList<>();
    public static final int LIMIT = 100;

    /** Creates an empty inventory. */
    public Inventory() {
        super();
    }

    // 日本語: adds an item.
    @Override
    public void add(Item item) {
        if (items.size() >= LIMIT) {
            throw new IllegalStateException("full");
        }
        items.add(item);
        log(item.getName());
    }

    public <T extends Item> int count(Class<T> kind) {
        return max(0, (int) items.stream().filter(kind::isInstance).count());
    }

    private static void log(String msg) {
        System.out.println(msg);
    }

    /** A line of the report. */
    public static class Line {
        String name;
        int qty;

        Line(String name, int qty) {
            this.name = name;
            this.qty = qty;
        }

        String render() {
            return String.format("%s x%d", name, qty);
        }
    }

    enum Status { OPEN, CLOSED; boolean done() { return this == CLOSED; } }
}

interface Store {
    void add(Item item);
    default int size() { return 0; }
}

@interface Audited {
    String value() default "";
}

record Pair(String key, int value) {
    Pair {
        java.util.Objects.requireNonNull(key);
    }
}
