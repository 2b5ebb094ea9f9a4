package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// postJSON sends body to url with the given headers and returns the
// response when its status is 200; otherwise the error answer classified
// for provider. The caller closes the body.
func postJSON(ctx context.Context, client *http.Client, provider, url string, header http.Header, body []byte) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", provider, err)
	}
	req.Header = header.Clone()
	req.Header.Set("Content-Type", "application/json")
	return send(ctx, client, provider, req)
}

// getJSON sends a GET to url and decodes the answer into out.
func getJSON(ctx context.Context, client *http.Client, provider, url string, header http.Header, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return fmt.Errorf("%s: %w", provider, err)
	}
	req.Header = header.Clone()
	res, err := send(ctx, client, provider, req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(newLimitReader(res.Body, maxListBytes))
	if err != nil {
		return fmt.Errorf("%s: reading %s: %w", provider, url, err)
	}
	if err := json.Unmarshal(data, out); err != nil {
		return malformed(provider, fmt.Errorf("%s: %w", url, err))
	}
	return nil
}

// send does req: ctx.Err() when ctx ended, the transport's error wrapped,
// or the error answer of a status other than 200.
func send(ctx context.Context, client *http.Client, provider string, req *http.Request) (*http.Response, error) {
	req.Header.Set("Accept", "application/json")
	res, err := client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("%s: %w", provider, err)
	}
	if res.StatusCode != http.StatusOK {
		defer res.Body.Close()
		return nil, statusError(provider, res)
	}
	return res, nil
}

// statusError reads an error answer ({"type":"error","error":{...}},
// {"error":{...}} or a bare {"message":...}) and classifies it.
func statusError(provider string, res *http.Response) error {
	body, _ := io.ReadAll(io.LimitReader(res.Body, maxErrorBytes))
	typ, msg := errorFields(body)
	if msg == "" && typ == "" {
		msg = truncate(string(bytes.TrimSpace(body)), 300)
	}
	if msg == "" {
		msg = http.StatusText(res.StatusCode)
	}
	return classify(provider, res.StatusCode, typ, msg, parseRetryAfter(res.Header, time.Now()))
}

// marshalJSON encodes a request body without HTML escaping (<, >, & stay
// as they are: a model reads them).
func marshalJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// errorFields reads an error body of any of the shapes the endpoints use:
// {"error":{"type"|"code":..., "message":...}}, {"error":"..."},
// {"type":..., "message":...}.
func errorFields(body []byte) (typ, msg string) {
	var v struct {
		Type    string          `json:"type"`
		Code    any             `json:"code"`
		Message string          `json:"message"`
		Error   json.RawMessage `json:"error"`
	}
	if json.Unmarshal(body, &v) != nil {
		return "", truncate(string(body), 300)
	}
	if len(v.Error) > 0 {
		var s string
		if json.Unmarshal(v.Error, &s) == nil {
			return "", s
		}
		if t, m := errorFields(v.Error); t != "" || m != "" {
			return t, m
		}
	}
	typ = v.Type
	if c, ok := v.Code.(string); ok && c != "" { // OpenAI's code is the precise one
		typ = c
	}
	if typ == "error" {
		typ = ""
	}
	return typ, v.Message
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
