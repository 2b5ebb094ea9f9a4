defmodule Shop.Cart do
  @moduledoc "A cart — holds items 🛒."
  alias Shop.Item
  import Enum, only: [map: 2]

  defstruct owner: nil, items: []

  # 日本語: adds an item.
  def add(cart, %Item{} = item) do
    log("added")
    %{cart | items: [item | cart.items]}
  end

  def total(cart), do: cart.items |> map(& &1.price) |> Enum.sum()

  defp log(msg) do
    IO.puts(msg)
  end

  defmacro empty do
    quote do: %Shop.Cart{}
  end

  defmodule Line do
    def render(line), do: "#{line.name}"
  end
end

defprotocol Shop.Store do
  def add(store, item)
end
