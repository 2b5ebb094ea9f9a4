package provider

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Retry defaults; Options can override each.
const (
	// DefaultMaxRetries: four calls in all ride out a short overload.
	DefaultMaxRetries = 3
	// DefaultRetryBaseDelay is the first backoff; each retry doubles it.
	DefaultRetryBaseDelay = time.Second
	// DefaultMaxRetryWait caps one wait, retry-after included, so a
	// misbehaving server cannot park a session for an hour.
	DefaultMaxRetryWait = time.Minute
)

// retrier makes a call again on rate limits and overloads, with exponential
// backoff and jitter, honouring retry-after. A call that already delivered
// streaming events is never repeated: the caller has shown them.
type retrier struct {
	maxRetries int
	baseDelay  time.Duration
	maxWait    time.Duration
	// sleep waits d or until ctx ends; tests replace it to record waits.
	sleep func(ctx context.Context, d time.Duration) error
}

func newRetrier(opts Options) *retrier {
	r := &retrier{
		maxRetries: opts.MaxRetries,
		baseDelay:  opts.RetryBaseDelay,
		maxWait:    opts.MaxRetryWait,
		sleep:      sleepCtx,
	}
	switch {
	case r.maxRetries == 0:
		r.maxRetries = DefaultMaxRetries
	case r.maxRetries < 0:
		r.maxRetries = 0
	}
	if r.baseDelay <= 0 {
		r.baseDelay = DefaultRetryBaseDelay
	}
	if r.maxWait <= 0 {
		r.maxWait = DefaultMaxRetryWait
	}
	return r
}

// do runs call until it succeeds, fails for good, or the retries run out.
// call receives an emit function to use instead of onEvent.
func (r *retrier) do(ctx context.Context, onEvent func(Event), call func(ctx context.Context, emit func(Event)) (*Response, error)) (*Response, error) {
	for attempt := 0; ; attempt++ {
		emitted := false
		emit := func(ev Event) {
			emitted = true
			if onEvent != nil {
				onEvent(ev)
			}
		}
		resp, err := call(ctx, emit)
		var apiErr *APIError
		if err == nil || emitted || ctx.Err() != nil || !errors.As(err, &apiErr) || !apiErr.Retryable() {
			return resp, err
		}
		if attempt >= r.maxRetries {
			if attempt > 0 {
				err = fmt.Errorf("%w (still failing after %d retries)", err, attempt)
			}
			return resp, err
		}
		if err := r.sleep(ctx, r.wait(attempt, apiErr.RetryAfter)); err != nil {
			return resp, err
		}
	}
}

// wait is how long to wait before retry number attempt+1: what the server
// asked for, else base·2^attempt with jitter in its upper half; capped.
func (r *retrier) wait(attempt int, retryAfter time.Duration) time.Duration {
	d := retryAfter
	if d <= 0 {
		d = r.baseDelay << min(attempt, 30)
		if d <= 0 || d > r.maxWait {
			d = r.maxWait
		}
		d = d/2 + rand.N(d/2+1)
	}
	return min(d, r.maxWait)
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// parseRetryAfter reads retry-after-ms (OpenAI) or retry-after in seconds or
// as an HTTP date; 0 when absent or unreadable.
func parseRetryAfter(h http.Header, now time.Time) time.Duration {
	if h == nil {
		return 0
	}
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s <= 0 {
			return 0
		}
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}
