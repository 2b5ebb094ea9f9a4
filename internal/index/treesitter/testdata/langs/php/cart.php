<?php

namespace Shop;

use App\Models\Item;
use App\Support\{Money, Tax as T};

/**
 * A cart — holds items 🛒.
 */
class Cart implements Store
{
    const LIMIT = 10;

    private array $items = [];

    public function __construct(private string $owner)
    {
    }

    // 日本語: adds an item.
    public function add(Item $item): void
    {
        $this->items[] = $item;
        self::log("added");
    }

    private static function log(string $msg): void
    {
        printf("%s\n", $msg);
    }
}

interface Store
{
    public function add(Item $item): void;
}

trait Greets
{
    public function hello() { return new Money(1); }
}

enum Status: string
{
    case Open = 'open';

    public function label(): string { return ucfirst($this->value); }
}

function total(array $carts): int
{
    return array_sum(array_map(fn($c) => count($c), $carts));
}
