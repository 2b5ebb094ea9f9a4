package index

import (
	"context"
	"sync"
)

// Lazy is the index a long-lived session holds: opened by the first Get
// and brought up to date by every later one (Locate, EditFunction), so a
// session that never searches never opens it. Safe for concurrent use.
type Lazy struct {
	// Open opens the index and brings it up to date (the composition root
	// picks the parser).
	Open func(ctx context.Context) (*Index, error)

	mu sync.Mutex
	ix *Index // nil until the first Get succeeds
}

// Get returns the index, up to date.
func (l *Lazy) Get(ctx context.Context) (*Index, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ix == nil {
		ix, err := l.Open(ctx)
		if err != nil {
			return nil, err
		}
		l.ix = ix
		return ix, nil
	}
	if _, err := l.ix.Update(ctx); err != nil {
		return nil, err
	}
	return l.ix, nil
}

// Close closes the index if it was opened; Get opens it again.
func (l *Lazy) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ix == nil {
		return nil
	}
	err := l.ix.Close()
	l.ix = nil
	return err
}
