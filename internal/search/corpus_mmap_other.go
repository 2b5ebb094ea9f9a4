//go:build !unix

package search

import (
	"io"
	"os"
)

// mapping is a read-only copy of a file where mappings are not used.
type mapping struct {
	data []byte
}

// mapFile reads size bytes of f.
func mapFile(f *os.File, size int) (*mapping, error) {
	data := make([]byte, size)
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, err
	}
	return &mapping{data: data}, nil
}

func (m *mapping) release(off, n int) {}
