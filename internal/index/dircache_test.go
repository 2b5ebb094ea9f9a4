package index

import (
	"io/fs"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestDirCacheRoundTrip(t *testing.T) {
	dirs := []cachedDir{
		{rel: "", stamp: dirStamp{ino: 2, mtime: 1_700_000_000_123_456_789, ctime: 1_700_000_001_000_000_000}, ents: []dirEntry{
			{name: "a.go"}, {name: "sub", typ: fs.ModeDir}, {name: "link", typ: fs.ModeSymlink}, {name: "fifo", typ: fs.ModeIrregular},
		}},
		{rel: "sub", stamp: dirStamp{ino: 1 << 40, mtime: -5, ctime: 0}, ents: []dirEntry{}},
	}
	b := encodeDirCache(dirs)
	got, err := decodeDirCache(b)
	if err != nil {
		t.Fatalf("decodeDirCache(encodeDirCache(dirs)) = %v", err)
	}
	want := map[string]*cachedDir{"": &dirs[0], "sub": &dirs[1]}
	if d := cmp.Diff(want, got, cmp.AllowUnexported(cachedDir{}, dirStamp{}, dirEntry{})); d != "" {
		t.Errorf("round trip (-want +got):\n%s", d)
	}
	// Any damage is caught: every flipped byte, every truncation.
	for i := range b {
		c := append([]byte(nil), b...)
		c[i] ^= 0x40
		if _, err := decodeDirCache(c); err == nil {
			t.Errorf("decodeDirCache with byte %d flipped = nil error, want errDirCache", i)
		}
		if _, err := decodeDirCache(b[:i]); err == nil {
			t.Errorf("decodeDirCache of the first %d bytes = nil error, want errDirCache", i)
		}
	}
}

// TestDirCacheEmptyFirst: an empty directory decodes to an empty listing,
// not to none (the walk caches only listings it has), wherever it comes.
func TestDirCacheEmptyFirst(t *testing.T) {
	got, err := decodeDirCache(encodeDirCache([]cachedDir{{rel: "empty", ents: []dirEntry{}}, {rel: "", ents: []dirEntry{{name: "a.go"}}}}))
	if err != nil {
		t.Fatal(err)
	}
	if c := got["empty"]; c == nil || c.ents == nil {
		t.Errorf("decoded listing of an empty directory = %+v, want an empty non-nil listing", c)
	}
}

func TestRacy(t *testing.T) {
	start := time.Unix(100, 0)
	tests := []struct {
		stamp int64
		want  bool
	}{
		{start.Add(-racyWindow - 1).UnixNano(), false},
		{start.Add(-racyWindow).UnixNano(), true},
		{start.UnixNano(), true},
		{start.Add(time.Hour).UnixNano(), true}, // in the future: never trusted
	}
	for _, tt := range tests {
		if got := racy(tt.stamp, start); got != tt.want {
			t.Errorf("racy(%d, %v) = %v, want %v", tt.stamp, start, got, tt.want)
		}
	}
}
