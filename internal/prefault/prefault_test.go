package prefault

import "testing"

func TestHeapRegion(t *testing.T) {
	maps := []byte(`00400000-00452000 r-xp 00000000 08:02 173521      /usr/bin/grit
c000000000-c000400000 rw-p 00000000 00:00 0
7f0000000000-7f0000001000 rw-p 00000000 00:00 0                          [stack]
`)
	for _, c := range []struct {
		name   string
		addr   uintptr
		window uintptr
		want   region
		ok     bool
	}{
		{"window ends first", 0xc000001234, 1 << 20, region{0xc000001000, 0xc000101000}, true},
		{"mapping ends first", 0xc0003ff000, 1 << 20, region{0xc0003ff000, 0xc000400000}, true},
		{"last line, no newline needed", 0x7f0000000010, 4096, region{0x7f0000000000, 0x7f0000001000}, true},
		{"not mapped", 0xb000000000, 4096, region{}, false},
	} {
		got, ok := heapRegion(maps, c.addr, c.window)
		if got != c.want || ok != c.ok {
			t.Errorf("%s: heapRegion(%#x) = %#x, %v; want %#x, %v", c.name, c.addr, got, ok, c.want, c.ok)
		}
	}
	for _, bad := range []string{"", "zz-1 rw-p\n", "1000 rw-p\n", "1000-\n"} {
		if _, ok := heapRegion([]byte(bad), 0x1000, 4096); ok {
			t.Errorf("heapRegion(%q) found a region", bad)
		}
	}
}
