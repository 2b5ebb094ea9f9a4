package session

import (
	"bytes"
	"encoding/json"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// Redacted replaces a secret in a transcript.
const Redacted = "[REDACTED]"

// secretPatterns match well-known credential shapes. They match only bytes
// that JSON never escapes, so they can run on an encoded line. Compiled on
// first use, not at every grit command's start-up.
var secretPatterns = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(strings.Join([]string{
		`sk-ant-[A-Za-z0-9_-]{20,}`,    // Anthropic
		`sk-[A-Za-z0-9_-]{20,}`,        // OpenAI and look-alikes
		`gh[pousr]_[A-Za-z0-9]{30,}`,   // GitHub tokens
		`github_pat_[A-Za-z0-9_]{30,}`, // GitHub fine-grained tokens
		`AKIA[0-9A-Z]{16}`,             // AWS access key IDs
		`xox[abprs]-[A-Za-z0-9-]{10,}`, // Slack
		`AIza[0-9A-Za-z_-]{35}`,        // Google API keys
		`glpat-[A-Za-z0-9_-]{20,}`,     // GitLab
		`-----BEGIN [A-Z ]*PRIVATE KEY-----.*?-----END [A-Z ]*PRIVATE KEY-----`, // PEM keys (newlines are \n escapes)
	}, "|"))
})

// secretEnvNames are substrings of environment variable names whose values
// are secrets.
var secretEnvNames = []string{"KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL"}

// minSecretLen keeps short values ("1", "true") from being treated as secrets.
const minSecretLen = 8

// Redactor removes secrets from encoded records. Safe for concurrent use
// (it is immutable).
type Redactor struct {
	values [][]byte // secret values, raw and JSON-escaped, longest first
}

// NewRedactor collects the secret values of environ (KEY=VALUE entries).
func NewRedactor(environ []string) *Redactor {
	r := &Redactor{}
	seen := map[string]bool{}
	for _, kv := range environ {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || len(v) < minSecretLen || !secretName(k) {
			continue
		}
		esc, _ := json.Marshal(v)
		for _, s := range []string{v, string(esc[1 : len(esc)-1])} {
			if !seen[s] {
				seen[s] = true
				r.values = append(r.values, []byte(s))
			}
		}
	}
	sort.Slice(r.values, func(i, j int) bool { return len(r.values[i]) > len(r.values[j]) })
	return r
}

func secretName(k string) bool {
	k = strings.ToUpper(k)
	for _, s := range secretEnvNames {
		if strings.Contains(k, s) {
			return true
		}
	}
	return false
}

// Redact returns line with every secret replaced by Redacted. line is a
// JSON encoding; the result stays valid JSON.
func (r *Redactor) Redact(line []byte) []byte {
	if r == nil {
		return secretPatterns().ReplaceAllLiteral(line, []byte(Redacted))
	}
	for _, v := range r.values {
		line = bytes.ReplaceAll(line, v, []byte(Redacted))
	}
	return secretPatterns().ReplaceAllLiteral(line, []byte(Redacted))
}
