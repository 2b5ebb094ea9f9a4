package provider

import "strings"

// Price is a model's price in USD per million tokens.
type Price struct {
	Input, Output, CacheRead, CacheWrite float64
}

// prices of known models, by model name prefix (the provider's list
// prices at the time of writing; cache writes at the 5-minute rate).
var prices = []struct {
	prefix string
	price  Price
}{
	{"anthropic:claude-opus-4-5", Price{5, 25, 0.5, 6.25}},
	{"anthropic:claude-opus-4", Price{15, 75, 1.5, 18.75}},
	{"anthropic:claude-sonnet-4", Price{3, 15, 0.3, 3.75}},
	{"anthropic:claude-3-7-sonnet", Price{3, 15, 0.3, 3.75}},
	{"anthropic:claude-haiku-4-5", Price{1, 5, 0.1, 1.25}},
	{"anthropic:claude-3-5-haiku", Price{0.8, 4, 0.08, 1}},
	{"openai:gpt-4o-mini", Price{0.15, 0.6, 0.075, 0}},
	{"openai:gpt-4o", Price{2.5, 10, 1.25, 0}},
	{"openai:gpt-4.1-nano", Price{0.1, 0.4, 0.025, 0}},
	{"openai:gpt-4.1-mini", Price{0.4, 1.6, 0.1, 0}},
	{"openai:gpt-4.1", Price{2, 8, 0.5, 0}},
	{"openai:gpt-5-nano", Price{0.05, 0.4, 0.005, 0}},
	{"openai:gpt-5-mini", Price{0.25, 2, 0.025, 0}},
	{"openai:gpt-5", Price{1.25, 10, 0.125, 0}},
	{"ollama:", Price{}}, // local: free
}

// PriceOf returns the price of model ("PROVIDER:MODEL"), by the longest
// known prefix.
func PriceOf(model string) (Price, bool) {
	best := -1
	for i, p := range prices {
		if strings.HasPrefix(model, p.prefix) && (best < 0 || len(p.prefix) > len(prices[best].prefix)) {
			best = i
		}
	}
	if best < 0 {
		return Price{}, false
	}
	return prices[best].price, true
}

// CostUSD is what u cost on model, when its price is known.
func CostUSD(model string, u Usage) (float64, bool) {
	p, ok := PriceOf(model)
	if !ok {
		return 0, false
	}
	return (float64(u.InputTokens)*p.Input + float64(u.OutputTokens)*p.Output +
		float64(u.CacheReadTokens)*p.CacheRead + float64(u.CacheWriteTokens)*p.CacheWrite) / 1e6, true
}
