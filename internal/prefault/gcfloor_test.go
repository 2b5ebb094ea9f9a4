package prefault

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
	"testing"
)

func TestGOGCFor(t *testing.T) {
	for _, c := range []struct {
		live uint64
		want int
	}{
		{0, 400},               // nothing live yet: 4 × the runtime's 4 MB
		{1 << 20, 1500},        // 1 MiB live: 16× to reach the floor
		{4 << 20, 300},         // 4 MiB live: 4×
		{HeapFloor / 2, 100},   // twice the live heap reaches the floor
		{HeapFloor * 4, 100},   // a large heap: the default
		{HeapFloor/2 - 1, 100}, // just under: rounds to the default
		{HeapFloor / 3, 200},   // a third: 3×
	} {
		if got := gogcFor(c.live); got != c.want {
			t.Errorf("gogcFor(%d) = %d, want %d", c.live, got, c.want)
		}
	}
}

var sink [][]byte

// TestNoCollectionBelowFloor allocates 12 MiB of garbage, three times the
// runtime's own 4 MB floor and under HeapFloor, and checks that no collection ran.
func TestNoCollectionBelowFloor(t *testing.T) {
	if _, set := os.LookupEnv("GOGC"); set {
		t.Skip("GOGC is set: the floor is off")
	}
	if p := debug.SetGCPercent(-1); p <= 100 {
		debug.SetGCPercent(p)
		t.Fatalf("GOGC is %d at start-up, want more than 100 while the live heap is small", p)
	} else {
		debug.SetGCPercent(p)
	}
	cycles := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(cycles)
	before := cycles[0].Value.Uint64()
	for range 12 * 16 {
		sink = append(sink[:0], make([]byte, 64<<10))
	}
	metrics.Read(cycles)
	if n := cycles[0].Value.Uint64() - before; n != 0 {
		t.Errorf("%d collections while 12 MiB of garbage was allocated, want none below the %d-byte floor", n, HeapFloor)
	}
}
