package provider

import (
	"errors"
	"fmt"
	"net"
	"strings"
	"syscall"
)

// Unreachable explains a model that does not answer, or returns "".
func Unreachable(spec string, err error) string {
	var op *net.OpError
	if !errors.Is(err, syscall.ECONNREFUSED) && !(errors.As(err, &op) && op.Op == "dial") {
		return ""
	}
	kind, model, _ := strings.Cut(spec, ":")
	if kind == "ollama" {
		return fmt.Sprintf("model %s did not answer: is Ollama running? Start it with `ollama serve` and fetch the model with `ollama pull %s` (OLLAMA_HOST sets its address), or choose another model with --model PROVIDER:MODEL or \"model\" in .grit/settings.json (e.g. anthropic:claude-sonnet-4-5 with ANTHROPIC_API_KEY set)", spec, model)
	}
	return fmt.Sprintf("model %s did not answer (%v): check the endpoint's address, or choose another model with --model PROVIDER:MODEL", spec, err)
}
