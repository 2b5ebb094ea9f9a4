package bench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// ReadJSONL reads a file of one JSON record per line (blank lines
// skipped), the shape of dev.jsonl and dev_poly.jsonl. check, if set,
// validates (and may complete) each record; its error names the line.
func ReadJSONL[T any](path string, check func(*T) error) ([]T, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open bench data: %w", err)
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var r T
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		if check != nil {
			if err := check(&r); err != nil {
				return nil, fmt.Errorf("%s:%d: %w", path, n, err)
			}
		}
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return out, nil
}
