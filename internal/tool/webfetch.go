package tool

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	htmltomarkdown "github.com/JohannesKaufmann/html-to-markdown/v2"
	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
)

// Limits of WebFetch.
const (
	// webFetchTimeout bounds one fetch, connection to last byte.
	webFetchTimeout = 30 * time.Second
	// webFetchMaxBytes is the most of a response body read; the rest is
	// cut (a page larger than this is rarely worth a model's window).
	webFetchMaxBytes = 5 << 20
	// webFetchBudget is the most Markdown returned as is, in bytes (about
	// 10k tokens); longer pages are summarised for the prompt by the model
	// when the session can, else cut.
	webFetchBudget = 40_000
	// webFetchMaxRedirects bounds same-host redirects followed.
	webFetchMaxRedirects = 10
)

//go:embed webfetch.md
var webFetchMD string

var webFetchDesc = render("webfetch.md", webFetchMD)

// Summarizer answers prompt about content with the session's model (for
// pages over the budget). The agent provides it; nil cuts such pages.
type Summarizer func(ctx context.Context, prompt, content string) (string, error)

// WebFetch fetches a URL over HTTP(S) in Grit's own process (the sandbox's
// network setting is for Bash, not for it): HTML becomes Markdown, text
// stays text, and a page over the budget is summarised for the prompt.
// Permission rules WebFetch(domain:HOST) decide which hosts it reaches; a
// redirect to another host is reported, not followed, so a rule for one
// host never fetches another.
type WebFetch struct {
	// Client is the HTTP client; nil means one with webFetchTimeout.
	Client *http.Client
	// Summarize condenses a page over the budget; nil cuts it instead.
	Summarize Summarizer
}

func (WebFetch) Name() string        { return "WebFetch" }
func (WebFetch) Description() string { return webFetchDesc() }
func (WebFetch) Kind() Kind          { return KindExecute }
func (WebFetch) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{` +
		`"url":{"type":"string","format":"uri","description":"The URL to fetch"},` +
		`"prompt":{"type":"string","description":"What to find in the page"}},` +
		`"required":["url","prompt"]}`)
}

func (t WebFetch) Run(ctx context.Context, env *Env, input json.RawMessage) (Result, error) {
	return finish(t.run(ctx, input))
}

func (t WebFetch) run(ctx context.Context, input json.RawMessage) (Result, error) {
	var in struct {
		URL    string `json:"url"`
		Prompt string `json:"prompt"`
	}
	if err := decode("WebFetch", input, &in); err != nil {
		return Result{}, err
	}
	u, err := url.Parse(strings.TrimSpace(in.URL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return Result{}, fixf(nil, "WebFetch: %q is not an http or https URL.", in.URL)
	}
	client := t.Client
	if client == nil {
		client = &http.Client{Timeout: webFetchTimeout}
	}
	c := *client
	var redirected *url.URL
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if !strings.EqualFold(req.URL.Hostname(), u.Hostname()) {
			redirected = req.URL
			return http.ErrUseLastResponse
		}
		if len(via) >= webFetchMaxRedirects {
			return fmt.Errorf("more than %d redirects", webFetchMaxRedirects)
		}
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, webFetchTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return Result{}, fixf(nil, "WebFetch: %v", err)
	}
	req.Header.Set("User-Agent", "grit-webfetch/1")
	req.Header.Set("Accept", "text/html, text/markdown, text/plain, application/json;q=0.9, */*;q=0.1")
	resp, err := c.Do(req)
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return Result{}, fixf(nil, "WebFetch: %s did not answer within %s.", u, webFetchTimeout)
		}
		return Result{}, fixf(nil, "WebFetch: fetching %s failed: %v", u, err)
	}
	defer resp.Body.Close()
	if redirected != nil {
		return Result{Content: fmt.Sprintf("%s redirects to another host: %s. To fetch it, call WebFetch again with that URL (its host needs its own permission).", u, redirected)}, nil
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, webFetchMaxBytes+1))
	if err != nil {
		return Result{}, fixf(nil, "WebFetch: reading %s failed: %v", u, err)
	}
	cut := len(body) > webFetchMaxBytes
	if cut {
		body = body[:webFetchMaxBytes]
	}
	if resp.StatusCode >= 400 {
		return Result{}, fixf(nil, "WebFetch: %s answered %s.", u, resp.Status)
	}
	text, err := pageText(resp.Header.Get("Content-Type"), body, u)
	if err != nil {
		return Result{}, err
	}
	head := fmt.Sprintf("Fetched %s (%s, %d bytes", resp.Request.URL, resp.Status, len(body))
	if cut {
		head += fmt.Sprintf(", cut at %d", webFetchMaxBytes)
	}
	head += ")"
	if len(text) <= webFetchBudget {
		return Result{Content: head + "\n\n" + text}, nil
	}
	if t.Summarize != nil && strings.TrimSpace(in.Prompt) != "" {
		sum, err := t.Summarize(ctx, in.Prompt, text)
		if err == nil && strings.TrimSpace(sum) != "" {
			return Result{Content: fmt.Sprintf("%s; the page's %d bytes of Markdown were over %d, so this is the model's answer to the prompt from it:\n\n%s", head, len(text), webFetchBudget, sum)}, nil
		}
	}
	text = text[:webFetchBudget]
	for !utf8.ValidString(text) && len(text) > 0 {
		text = text[:len(text)-1]
	}
	return Result{Content: fmt.Sprintf("%s\n\n%s\n\n[cut at %d bytes of Markdown]", head, text, webFetchBudget)}, nil
}

// pageText turns a response body into text for the model: HTML to
// Markdown (links made absolute), text and JSON as they are.
func pageText(contentType string, body []byte, u *url.URL) (string, error) {
	mt, _, _ := mime.ParseMediaType(contentType)
	if mt == "" {
		mt = http.DetectContentType(body)
		mt, _, _ = mime.ParseMediaType(mt)
	}
	switch {
	case mt == "text/html" || mt == "application/xhtml+xml":
		md, err := htmltomarkdown.ConvertString(string(body), converter.WithDomain(u.Scheme+"://"+u.Host))
		if err != nil {
			return "", fixf(nil, "WebFetch: %s is HTML that could not be converted: %v", u, err)
		}
		return strings.TrimSpace(md), nil
	case strings.HasPrefix(mt, "text/"), mt == "application/json", strings.HasSuffix(mt, "+json"), mt == "application/xml", strings.HasSuffix(mt, "+xml"), mt == "application/javascript":
		if !utf8.Valid(body) {
			return strings.ToValidUTF8(string(body), "\uFFFD"), nil
		}
		return string(body), nil
	}
	return "", fixf(nil, "WebFetch: %s is %s, not a page of text; WebFetch reads HTML, text and JSON.", u, mt)
}
