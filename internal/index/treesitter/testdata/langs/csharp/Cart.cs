using System;
using System.Collections.Generic;
using Json = System.Text.Json;

namespace Shop.Models
{
    /// <summary>A cart — holds items 🛒.</summary>
    public class Cart : IStore
    {
        private readonly List<Item> items = new List<Item>();

        public Cart(string owner)
        {
            Owner = owner;
        }

        public string Owner { get; set; }

        // 日本語: adds an item.
        public void Add(Item item)
        {
            items.Add(item);
            Log("added");
        }

        private static void Log(string msg) => Console.WriteLine(msg);

        public class Line
        {
            public string Render() { return string.Format("{0}", 1); }
        }
    }

    public interface IStore
    {
        void Add(Item item);
    }

    public struct Point { public int X; }

    public enum Status { Open, Closed }

    public record Pair(string Key, int Value);
}
