package prefault

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"syscall"
)

// HeapFloor is the Go heap below which no collection runs. The runtime's
// own floor is 4 MB (at GOGC=100), which a short command passes while it
// initialises and walks: a no-change `grit index` of terraform allocated
// about 8 MB and spent two collections, 15% of its CPU, on a heap whose
// live part never reached 4 MB. Above the floor the usual rule holds (the
// heap grows to twice what survived the last collection), so a command
// whose live heap is large, like a cold index, peaks where it did.
const HeapFloor = 16 << 20

// runtimeFloor is the heap goal of GOGC=100 before anything is live.
const runtimeFloor = 4 << 20

// The floor is kept by raising GOGC while the live heap is small: after
// every collection a finalizer reads the live heap and sets the GOGC whose
// goal is HeapFloor, or 100 once twice the live heap is past it (and then
// stops). A GOGC set in the environment is left alone.
func init() {
	if _, set := syscall.Getenv("GOGC"); set {
		return
	}
	if _, child := syscall.Getenv("GRIT_SANDBOX_CHILD"); child {
		return
	}
	debug.SetGCPercent(gogcFor(0))
	armFloor()
}

// sentinel is collected by every collection, which runs its finalizer.
// The pointer keeps it out of the tiny allocator, whose blocks may hold a
// finalized object alive.
type sentinel struct{ _ *int }

func armFloor() {
	runtime.SetFinalizer(&sentinel{}, func(*sentinel) {
		p := gogcFor(liveHeap())
		debug.SetGCPercent(p)
		if p > 100 {
			armFloor()
		}
	})
}

var liveSample = []metrics.Sample{{Name: "/gc/heap/live:bytes"}}

// liveHeap is what the last collection found live, in bytes.
func liveHeap() uint64 {
	metrics.Read(liveSample)
	if liveSample[0].Value.Kind() != metrics.KindUint64 {
		return HeapFloor // unknown: no floor
	}
	return liveSample[0].Value.Uint64()
}

// gogcFor is the GOGC whose next heap goal is HeapFloor when live bytes
// survived the last collection (0: none yet, where the runtime's goal is
// runtimeFloor scaled by GOGC), and never less than the default 100.
func gogcFor(live uint64) int {
	if live == 0 {
		return 100 * HeapFloor / runtimeFloor
	}
	if 2*live >= HeapFloor {
		return 100
	}
	return int(100*HeapFloor/live) - 100
}
