const std = @import("std");
const Item = @import("item.zig").Item;

/// A cart — holds items 🛒.
pub const Cart = struct {
    owner: []const u8,
    items: std.ArrayList(Item),

    // 日本語: adds an item.
    pub fn add(self: *Cart, item: Item) !void {
        try self.items.append(item);
        log("added");
    }

    pub fn total(self: Cart) u32 {
        var sum: u32 = 0;
        for (self.items.items) |it| sum += it.price;
        return sum;
    }
};

pub const Status = enum { open, closed };

const Value = union(enum) { int: i64, float: f64 };

fn log(msg: []const u8) void {
    std.debug.print("{s}\n", .{msg});
}

test "add" {
    try std.testing.expect(true);
}
