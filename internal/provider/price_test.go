package provider

import "testing"

func TestCostUSD(t *testing.T) {
	u := Usage{InputTokens: 1_000_000, OutputTokens: 100_000, CacheReadTokens: 2_000_000, CacheWriteTokens: 0}
	tests := []struct {
		model string
		want  float64
		known bool
	}{
		{"anthropic:claude-sonnet-4-5", 3 + 1.5 + 0.6, true},
		{"anthropic:claude-opus-4-5-20251101", 5 + 2.5 + 1, true},
		{"openai:gpt-4o-mini", 0.15 + 0.06 + 0.15, true},
		{"ollama:qwen2.5-coder:7b", 0, true},
		{"scripted:x.json", 0, false},
	}
	for _, tc := range tests {
		got, known := CostUSD(tc.model, u)
		if known != tc.known || got < tc.want-1e-9 || got > tc.want+1e-9 {
			t.Errorf("CostUSD(%q) = %v, %v; want %v, %v", tc.model, got, known, tc.want, tc.known)
		}
	}
}
