// Package prefault makes the Go heap's next pages present when the process
// starts, with one system call instead of a page fault per 4 KB page, and
// keeps the garbage collector off while the heap is under HeapFloor
// (gcfloor.go): what a short-lived process pays for its memory.
//
// Every grit command is a fresh process, and most of them are short: a warm
// `grit index` takes 40–60 ms from start to exit. On a virtual machine whose
// page faults trap to the hypervisor (this project's test host is a
// Firecracker/PVM guest: 12 µs per fault on fresh anonymous memory against
// 1.2 µs per page for madvise(MADV_POPULATE_WRITE)), the faults on a heap
// growing from nothing were 800 of the 1,400 faults of a one-file update.
// The package's init, which runs before the heavy package initialisers
// because it imports nothing but syscall, populates the rest of the heap
// mapping it allocates from, up to Window bytes, on a goroutine of its own:
// the runtime allocates pages lowest address first, so these are the pages
// the process touches next.
//
// It only maps pages earlier than they would be: the memory is zero either
// way, and if the kernel refuses (before Linux 5.14) nothing changes. Set
// GRIT_NOPREFAULT=1 to turn it off (to measure it). docs/design.md has the
// numbers.
//
// cmd/grit imports it for its inits alone; nothing else should.
package prefault

// Window is how much of the heap mapping, from the first allocation on, is
// populated: a one-file update of sympy touched about 2.5 MB of heap after
// this package's init (620 page faults).
const Window = 4 << 20

// region is the [start, end) a populate covers.
type region struct{ start, end uintptr }

// heapRegion finds, in the text of /proc/self/maps, the mapping that holds
// addr and returns the page-aligned range from addr to the end of that
// mapping or addr+window, whichever is nearer.
func heapRegion(maps []byte, addr, window uintptr) (region, bool) {
	for len(maps) > 0 {
		lo, n := hexPrefix(maps)
		if n == 0 || n >= len(maps) || maps[n] != '-' {
			return region{}, false
		}
		hi, m := hexPrefix(maps[n+1:])
		if m == 0 {
			return region{}, false
		}
		if lo <= addr && addr < hi {
			start := addr &^ 4095
			return region{start, min(hi, start+window)}, true
		}
		i := n + 1 + m
		for i < len(maps) && maps[i] != '\n' {
			i++
		}
		if i < len(maps) {
			i++
		}
		maps = maps[i:]
	}
	return region{}, false
}

// hexPrefix parses the lowercase hexadecimal number b starts with.
func hexPrefix(b []byte) (v uintptr, n int) {
	for ; n < len(b) && n < 16; n++ {
		c := b[n]
		switch {
		case '0' <= c && c <= '9':
			v = v<<4 | uintptr(c-'0')
		case 'a' <= c && c <= 'f':
			v = v<<4 | uintptr(c-'a'+10)
		default:
			return v, n
		}
	}
	return v, n
}
