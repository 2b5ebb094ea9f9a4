# frozen_string_literal: true

require "json"
require_relative "pricing"
require_relative "../lib/tax.rb"

# Shopping helpers — a cart and its items 🛒.
module Shop
  VERSION = "1.2.0"

  # A cart holds line items.
  class Cart < Base
    attr_reader :items

    def initialize(owner)
      @owner = owner
      @items = []
    end

    # 日本語: adds an item.
    def add(item, qty = 1)
      @items << LineItem.new(item, qty)
      recalculate!
      self
    end

    def self.from_json(text)
      data = JSON.parse(text)
      new(data.fetch("owner"))
    end

    def total = @items.sum(&:price)

    private

    def recalculate!
      @total = Pricing.apply(@items)
    end
  end

  class << self
    def default_cart
      Cart.new("guest")
    end
  end

  def self.helper; end
end

def top_level(x)
  x * 2
end
