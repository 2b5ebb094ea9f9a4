package cli

import (
	"context"
	"os"
	"strings"
	"time"

	"github.com/grit-dev/grit/internal/config"
	"github.com/grit-dev/grit/internal/permission"
	"github.com/grit-dev/grit/internal/provider"
)

// providerChecks asks each provider that could answer here whether it does:
// the configured model first, then Ollama at OLLAMA_HOST, and the hosted APIs
// when their keys are set. None is needed: everything but the model call works
// without one.
func providerChecks(ctx context.Context, root string) []doctorResult {
	model := config.DefaultModel
	if s, _, _, err := permission.LoadSettings(root, config.LoadOptions{}, ""); err == nil && s.Model != "" {
		model = s.Model
	}
	specs := []string{model}
	add := func(spec string) {
		for _, s := range specs {
			if strings.SplitN(s, ":", 2)[0] == strings.SplitN(spec, ":", 2)[0] {
				return
			}
		}
		specs = append(specs, spec)
	}
	add("ollama:" + strings.TrimPrefix(config.DefaultModel, "ollama:"))
	if os.Getenv("OPENAI_API_KEY") != "" || os.Getenv("OPENAI_BASE_URL") != "" {
		add("openai:gpt-4o-mini")
	}
	if os.Getenv("ANTHROPIC_API_KEY") != "" {
		add("anthropic:claude-sonnet-4-5")
	}
	var out []doctorResult
	for i, spec := range specs {
		name := "model"
		if i > 0 {
			name = strings.SplitN(spec, ":", 2)[0]
		}
		r := doctorResult{Name: name}
		cctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		err := provider.Check(cctx, spec, provider.Options{MaxRetries: -1})
		cancel()
		if err != nil {
			r.Detail = spec + ": " + err.Error()
			r.Fix = providerFix(spec)
		} else {
			r.OK, r.Detail = true, spec+" answers"
		}
		out = append(out, r)
	}
	return out
}

func providerFix(spec string) string {
	switch strings.SplitN(spec, ":", 2)[0] {
	case "ollama":
		return "start Ollama (ollama serve; ollama pull " + strings.TrimPrefix(spec, "ollama:") + "), set OLLAMA_HOST, or choose another with --model / \"model\" in settings.json"
	case "openai":
		return "set OPENAI_API_KEY, and OPENAI_BASE_URL for vLLM, llama.cpp or LM Studio"
	case "anthropic":
		return "set ANTHROPIC_API_KEY"
	}
	return "check the \"model\" setting (PROVIDER:MODEL with provider anthropic, openai, ollama or scripted)"
}
