package search

import (
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/grit-dev/grit/internal/index"
)

// The search corpus on disk: .grit/search.corpus, one versioned binary
// file written whole (temporary file, rename; no fsync: it checks itself
// on load), so a reader sees the old or the new one, never a mix. Layout, little-endian:
//
//	header (64 bytes): magic, version, flags, the lengths of the two
//	                   sections, CRC-32C of the rest, total length
//	meta:   varint-coded records, copied to the heap when read, so strings
//	        taken from it (paths, definitions, edge names) may outlive the
//	        file: the files (path, hash, size, definition count), the
//	        definitions, the file graph, the BM25 shapes, the parts of the
//	        definitions' names, the identifier names.
//	arrays: arrays used in place from the mapping: each BM25 model's
//	        document lengths, sorted term dictionary, term, postings and
//	        byte offsets and its postings packed as uvarint (document gap,
//	        frequency) pairs; the identifier postings; the call graph.
//
// The files' bytes are not kept: content search reads the few files it
// picks from the repository (Corpus.source). A reader maps the file, checks
// the header and the checksum and decodes meta; a query then touches only
// the postings of its terms. Anything unexpected (short, foreign, damaged,
// another version) makes the file ignored: the corpus is built in memory
// and the file replaced.
const (
	corpusName    = "search.corpus"
	corpusMagic   = "GRITSRCH"
	corpusVersion = 2 // 1 held the files' bytes
	headerSize    = 64
	// staleTemp is how old a temporary file of an interrupted write must
	// be before a writer deletes it.
	staleTemp = 10 * time.Minute
	// crcChunk is how much of the file the checksum reads before handing
	// the pages back.
	crcChunk = 1 << 20
)

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// errCorpusFile is the cause of every decoding failure.
var errCorpusFile = errors.New("search corpus file is damaged")

// corpusPath is where the corpus of the repository at root is kept.
func corpusPath(root string) string { return filepath.Join(root, ".grit", corpusName) }

// loadCorpus reads the corpus persisted for ix's repository, or returns
// nil when there is none or it is unusable. Its recency is not set.
func loadCorpus(ctx context.Context, ix *index.Index) *Corpus {
	c := readCorpus(ctx, ix)
	if c != nil {
		c.complete()
	}
	return c
}

// complete derives, from what a corpus file holds, what a search needs
// and a patch does not: the definitions' name indexes and the names'
// parts and rarity.
func (c *Corpus) complete() {
	c.indexDefs()
	c.deriveNames()
}

// readCorpus is loadCorpus without complete: what patchCorpus needs of a
// base.
func readCorpus(ctx context.Context, ix *index.Index) *Corpus {
	if ctx.Err() != nil || !littleEndian() {
		return nil
	}
	f, err := os.Open(corpusPath(ix.Root()))
	if err != nil {
		return nil
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.Size() < headerSize || st.Size() > math.MaxInt32*4 {
		return nil
	}
	m, err := mapFile(f, int(st.Size()))
	if err != nil {
		return nil
	}
	c, err := decodeCorpus(ix.Root(), m, f)
	if err != nil {
		return nil
	}
	return c
}

func littleEndian() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}

// saveCorpus persists c, replacing the file atomically. Failing to write
// (a read-only .grit, a full disk) is not an error: the next process
// builds in memory again.
func saveCorpus(c *Corpus) {
	if c.unsure || !littleEndian() {
		return
	}
	_ = writeCorpus(c)
}

func writeCorpus(c *Corpus) error {
	meta, arrays := encodeCorpus(c)
	metaPad := pad8(len(meta))
	arraysPad := pad8(len(arrays))
	total := headerSize + metaPad + arraysPad
	hdr := make([]byte, headerSize)
	copy(hdr, corpusMagic)
	binary.LittleEndian.PutUint32(hdr[8:], corpusVersion)
	binary.LittleEndian.PutUint64(hdr[16:], uint64(len(meta)))
	binary.LittleEndian.PutUint64(hdr[24:], uint64(len(arrays)))
	crc := crc32.Update(crc32.Checksum(meta, crcTable), crcTable, arrays)
	binary.LittleEndian.PutUint32(hdr[40:], crc)
	binary.LittleEndian.PutUint64(hdr[48:], uint64(total))

	dir := filepath.Join(c.root, ".grit")
	removeStaleTemps(dir)
	tmp, err := os.CreateTemp(dir, corpusName+".tmp*")
	if err != nil {
		return err
	}
	ok := false
	_ = tmp.Chmod(0o644) // as index.db: readable by whoever reads the repository
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	zeros := make([]byte, 8)
	bufs := [][]byte{hdr, meta, zeros[:metaPad-len(meta)], arrays, zeros[:arraysPad-len(arrays)]}
	for _, b := range bufs {
		if _, err := tmp.Write(b); err != nil {
			return err
		}
	}
	// No fsync, of the file or of the directory: the corpus is a cache
	// that checks itself (magic, version, length, CRC-32C) when loaded.
	// The rename makes a crashed writer leave the old file or the new
	// one; a power loss that leaves a torn or empty file costs a rebuild,
	// not a wrong answer. Syncing 20 MB took a third of a patch.
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), corpusPath(c.root)); err != nil {
		return err
	}
	ok = true
	return nil
}

// removeStaleTemps deletes temporary files left by writers killed midway.
func removeStaleTemps(dir string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if !strings.HasPrefix(e.Name(), corpusName+".tmp") {
			continue
		}
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > staleTemp {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

func pad8(n int) int { return (n + 7) &^ 7 }

// kinds and langs are coded as their index in a table.
var defKinds = []string{index.KindFunction, index.KindMethod, index.KindClass, index.KindVariable}

// encoder appends varint-coded meta records and 4-byte aligned arrays.
type encoder struct {
	meta   []byte
	arrays []byte
}

func (e *encoder) uint(x uint64) { e.meta = binary.AppendUvarint(e.meta, x) }
func (e *encoder) int(x int64)   { e.meta = binary.AppendVarint(e.meta, x) }
func (e *encoder) str(s string)  { e.uint(uint64(len(s))); e.meta = append(e.meta, s...) }
func (e *encoder) f64(x float64) {
	e.meta = binary.LittleEndian.AppendUint64(e.meta, math.Float64bits(x))
}
func (e *encoder) u32s(xs []uint32) {
	e.uint(uint64(len(e.arrays)))
	e.uint(uint64(len(xs)))
	for _, x := range xs {
		e.arrays = binary.LittleEndian.AppendUint32(e.arrays, x)
	}
}
func (e *encoder) i32s(xs []int32) {
	e.uint(uint64(len(e.arrays)))
	e.uint(uint64(len(xs)))
	for _, x := range xs {
		e.arrays = binary.LittleEndian.AppendUint32(e.arrays, uint32(x))
	}
}

// lists appends n lists as an offsets array (n+1 entries) and a values
// array.
func (e *encoder) lists(n int, list func(i int) []int32) {
	e.uint(uint64(len(e.arrays)))
	e.uint(uint64(n + 1))
	at := 0
	for i := range n {
		e.arrays = binary.LittleEndian.AppendUint32(e.arrays, uint32(at))
		at += len(list(i))
	}
	e.arrays = binary.LittleEndian.AppendUint32(e.arrays, uint32(at))
	e.uint(uint64(len(e.arrays)))
	e.uint(uint64(at))
	for i := range n {
		for _, x := range list(i) {
			e.arrays = binary.LittleEndian.AppendUint32(e.arrays, uint32(x))
		}
	}
}

func (e *encoder) bytes(b []byte) {
	e.uint(uint64(len(e.arrays)))
	e.uint(uint64(len(b)))
	e.arrays = append(e.arrays, b...)
	for len(e.arrays)%4 != 0 {
		e.arrays = append(e.arrays, 0)
	}
}

// encodeCorpus codes c's meta and arrays sections.
//
// long: one field after another in the file's order, mirrored by decodeCorpus.
func encodeCorpus(c *Corpus) (meta, arrays []byte) {
	// Size the buffers once: meta is a guess, arrays exact but for padding.
	e := &encoder{meta: make([]byte, 0, 128*len(c.defs)+16*len(c.graph)+16*len(c.idents)+1<<16)}
	n := 4*len(c.calls) + 64
	models := []*BM25{c.fileBM25, c.defBM25}
	var packed [2][]byte
	var byteOff [2][]uint32
	for k, m := range models {
		m.freeze()
		packed[k], byteOff[k] = m.pack()
		n += 4*len(m.lens) + len(m.dict) + 8*len(m.termOff) + len(packed[k]) + 4*len(byteOff[k]) + 16
	}
	for _, cs := range c.calls {
		n += 4 * len(cs)
	}
	for _, p := range c.idents {
		n += 4 * (2 + len(p.files) + len(p.defs))
	}
	e.arrays = make([]byte, 0, n)
	e.str(c.finger)
	e.str(c.stamp)
	e.uint(uint64(len(c.files)))
	for _, f := range c.files {
		e.str(f.path)
		e.str(f.hash)
		e.uint(uint64(f.size))
		e.uint(uint64(f.n))
	}
	var langs []string
	langIdx := map[string]int{}
	for _, d := range c.defs {
		if _, ok := langIdx[d.Lang]; !ok {
			langIdx[d.Lang] = len(langs)
			langs = append(langs, d.Lang)
		}
	}
	e.uint(uint64(len(langs)))
	for _, l := range langs {
		e.str(l)
	}
	e.uint(uint64(len(c.defs)))
	for _, d := range c.defs {
		kind := len(defKinds)
		for k, n := range defKinds {
			if n == d.Kind {
				kind = k
			}
		}
		e.int(d.ID)
		e.uint(uint64(langIdx[d.Lang]))
		e.uint(uint64(kind))
		if kind == len(defKinds) {
			e.str(d.Kind)
		}
		e.str(d.Name)
		e.str(d.QName)
		e.str(d.Parent)
		for _, x := range []int{d.Start, d.End, d.NameStart, d.NameEnd, d.StartLine, d.StartCol, d.EndLine, d.EndCol} {
			e.int(int64(x))
		}
		e.str(d.Signature)
		e.str(d.Doc)
	}
	e.uint(uint64(len(c.edgeExtra)))
	for _, p := range c.edgeExtra {
		e.str(p)
	}
	e.uint(uint64(len(c.graph)))
	// Heaviest first, so an edge's weight is mostly the one before's: a
	// flag, and the weight only when it differs.
	for i, ed := range c.graph {
		e.uint(uint64(ed.from))
		e.uint(uint64(ed.to))
		if i > 0 && ed.w == c.graph[i-1].w {
			e.uint(0)
			continue
		}
		e.uint(1)
		e.f64(ed.w)
	}
	for k, m := range models {
		e.uint(uint64(m.total))
		e.i32s(m.lens)
		e.bytes(m.dict)
		e.u32s(m.termOff)
		e.u32s(m.postOff)
		e.u32s(byteOff[k])
		e.bytes(packed[k])
	}
	// The parts of each name, as numbers in a table of parts, at its first
	// definition (1 + their count, then the numbers; 0 at the others).
	partIdx := map[string]int{}
	var parts []string
	var nameParts []int
	for i, ts := range c.nameToks {
		if int(c.sameName[i]) != i {
			nameParts = append(nameParts, 0)
			continue
		}
		nameParts = append(nameParts, 1+len(ts))
		for _, t := range ts {
			k, ok := partIdx[t]
			if !ok {
				k = len(parts)
				partIdx[t] = k
				parts = append(parts, t)
			}
			nameParts = append(nameParts, k)
		}
	}
	e.uint(uint64(len(parts)))
	for _, t := range parts {
		e.str(t)
	}
	for _, x := range nameParts {
		e.uint(uint64(x))
	}
	// Identifier postings, in key order so the file is reproducible.
	if c.idents != nil {
		keys := make([]string, 0, len(c.idents))
		for k := range c.idents {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		e.uint(uint64(len(keys)) + 1)
		posts := make([]*identPost, len(keys))
		for i, k := range keys {
			e.str(k)
			posts[i] = c.idents[k]
		}
		e.lists(len(keys), func(i int) []int32 { return posts[i].files })
		e.lists(len(keys), func(i int) []int32 { return posts[i].defs })
	} else {
		e.uint(0)
	}
	e.lists(len(c.calls), func(i int) []int32 { return c.calls[i] })
	return e.meta, e.arrays
}

// decoder reads meta records and arrays, failing on anything out of range.
type decoder struct {
	meta   []byte
	pos    int
	arrays []byte
	err    error
}

func (d *decoder) fail() {
	if d.err == nil {
		d.err = errCorpusFile
	}
}

func (d *decoder) uint() uint64 {
	x, n := binary.Uvarint(d.meta[min(d.pos, len(d.meta)):])
	if n <= 0 {
		d.fail()
		return 0
	}
	d.pos += n
	return x
}

// count is a length that must fit what is left of meta (every counted
// item takes at least a byte).
func (d *decoder) count() int {
	x := d.uint()
	if x > uint64(len(d.meta)) {
		d.fail()
		return 0
	}
	return int(x)
}

func (d *decoder) int() int64 {
	x, n := binary.Varint(d.meta[min(d.pos, len(d.meta)):])
	if n <= 0 {
		d.fail()
		return 0
	}
	d.pos += n
	return x
}

// str returns a string sharing meta's bytes (never written again).
func (d *decoder) str() string {
	n := d.uint()
	if n > uint64(len(d.meta)-d.pos) {
		d.fail()
		return ""
	}
	if n == 0 {
		return ""
	}
	s := unsafe.String(&d.meta[d.pos], int(n))
	d.pos += int(n)
	return s
}

func (d *decoder) f64() float64 {
	if d.pos+8 > len(d.meta) {
		d.fail()
		return 0
	}
	x := math.Float64frombits(binary.LittleEndian.Uint64(d.meta[d.pos:]))
	d.pos += 8
	return x
}

// span returns the array bytes of n items of size w.
func (d *decoder) span(w int) (unsafe.Pointer, int) {
	off, n := d.uint(), d.uint()
	if d.err != nil || off%4 != 0 || n > uint64(len(d.arrays)) || off+n*uint64(w) > uint64(len(d.arrays)) {
		d.fail()
		return nil, 0
	}
	if n == 0 {
		return nil, 0
	}
	return unsafe.Pointer(&d.arrays[off]), int(n)
}

func (d *decoder) u32s() []uint32 {
	p, n := d.span(4)
	if p == nil {
		return nil
	}
	return unsafe.Slice((*uint32)(p), n)
}

func (d *decoder) i32s() []int32 {
	p, n := d.span(4)
	if p == nil {
		return nil
	}
	return unsafe.Slice((*int32)(p), n)
}

func (d *decoder) bytes() []byte {
	p, n := d.span(1)
	if p == nil {
		return nil
	}
	return unsafe.Slice((*byte)(p), n)
}

// offsets checks an offsets array: want entries, ascending, the last at most limit.
func (d *decoder) offsets(xs []uint32, want, limit int) {
	if len(xs) != want {
		d.fail()
		return
	}
	for i := 1; i < len(xs); i++ {
		if xs[i] < xs[i-1] {
			d.fail()
			return
		}
	}
	if len(xs) > 0 && (xs[0] != 0 || int(xs[len(xs)-1]) > limit) {
		d.fail()
	}
}

// decodeCorpus decodes a corpus file, f, mapped as m; complete finishes
// the corpus for a search.
//
// long: one field after another in the file's order, mirrored by encodeCorpus.
func decodeCorpus(root string, m *mapping, f *os.File) (*Corpus, error) {
	b := m.data
	if len(b) < headerSize || string(b[:8]) != corpusMagic || binary.LittleEndian.Uint32(b[8:]) != corpusVersion {
		return nil, errCorpusFile
	}
	metaLen, arraysLen := binary.LittleEndian.Uint64(b[16:]), binary.LittleEndian.Uint64(b[24:])
	total := binary.LittleEndian.Uint64(b[48:])
	if total != uint64(len(b)) || metaLen > total || arraysLen > total ||
		uint64(headerSize+pad8(int(metaLen))+pad8(int(arraysLen))) != total {
		return nil, errCorpusFile
	}
	arraysStart := headerSize + pad8(int(metaLen))
	arrays := b[arraysStart : arraysStart+int(arraysLen)]
	// Meta is read into the heap (one read, cheaper than faulting the
	// mapping's pages in to copy them). The checksum covers the arrays
	// too: read a chunk at a time and let the kernel take the pages back,
	// so checking does not hold the whole file resident; a query reads
	// again what it needs.
	meta := make([]byte, metaLen)
	if _, err := f.ReadAt(meta, headerSize); err != nil {
		return nil, errCorpusFile
	}
	crc := crc32.Checksum(meta, crcTable)
	for at, end := arraysStart, arraysStart+int(arraysLen); at < end; at += crcChunk {
		z := min(at+crcChunk, end)
		crc = crc32.Update(crc, crcTable, b[at:z])
		m.release(at, z-at)
	}
	if crc != binary.LittleEndian.Uint32(b[40:]) {
		return nil, errCorpusFile
	}
	d := &decoder{meta: meta, arrays: arrays}
	finger, stamp := d.str(), d.str()
	nFiles := d.count()
	files := make([]index.File, nFiles)
	counts := make([]int, nFiles)
	sizes := make([]int, nFiles)
	nDefs := 0
	for i := range files {
		files[i].Path, files[i].Hash = d.str(), d.str()
		sizes[i] = int(d.uint())
		counts[i] = d.count()
		nDefs += counts[i]
	}
	langs := make([]string, d.count())
	for i := range langs {
		langs[i] = d.str()
	}
	if d.count() != nDefs || d.err != nil {
		return nil, errCorpusFile
	}
	defs := make([]index.Def, nDefs)
	di := 0
	for fi, f := range files {
		for j := 0; j < counts[fi]; j++ {
			x := &defs[di]
			di++
			x.ID = d.int()
			x.Path = f.Path
			if l := d.uint(); l < uint64(len(langs)) {
				x.Lang = langs[l]
			} else {
				d.fail()
			}
			if k := d.uint(); k < uint64(len(defKinds)) {
				x.Kind = defKinds[k]
			} else {
				x.Kind = d.str()
			}
			x.Name, x.QName, x.Parent = d.str(), d.str(), d.str()
			x.Start, x.End, x.NameStart, x.NameEnd = int(d.int()), int(d.int()), int(d.int()), int(d.int())
			x.StartLine, x.StartCol, x.EndLine, x.EndCol = int(d.int()), int(d.int()), int(d.int()), int(d.int())
			x.Signature, x.Doc = d.str(), d.str()
		}
		if d.err != nil {
			return nil, d.err
		}
	}
	c := layoutCorpus(root, files, defs, counts, nil)
	if c.stamp != stamp {
		return nil, errCorpusFile
	}
	c.finger = finger
	for i, n := range sizes {
		c.files[i].size = n
	}
	c.edgeExtra = make([]string, d.count())
	for i := range c.edgeExtra {
		c.edgeExtra[i] = d.str()
	}
	ends := uint64(nFiles + len(c.edgeExtra))
	es := make([]graphEdge, d.count())
	for i := range es {
		from, to := d.uint(), d.uint()
		if from >= ends || to >= ends {
			d.fail()
			break
		}
		switch d.uint() {
		case 0:
			if i == 0 {
				d.fail()
				break
			}
			es[i] = graphEdge{int32(from), int32(to), es[i-1].w}
		case 1:
			es[i] = graphEdge{int32(from), int32(to), d.f64()}
		default:
			d.fail()
		}
	}
	if d.err != nil {
		return nil, d.err
	}
	for k, nDocs := range []int{nFiles, nDefs} {
		bm := &BM25{total: int(d.uint())}
		bm.lens = d.i32s()
		bm.dict = d.bytes()
		bm.termOff = d.u32s()
		nTerms := len(bm.termOff) - 1
		d.offsets(bm.termOff, max(nTerms, 0)+1, len(bm.dict))
		bm.postOff = d.u32s()
		bm.byteOff = d.u32s()
		bm.packed = d.bytes()
		d.offsets(bm.byteOff, len(bm.termOff), len(bm.packed))
		// A posting takes two bytes at least.
		d.offsets(bm.postOff, len(bm.termOff), len(bm.packed)/2)
		if len(bm.lens) != nDocs || nTerms < 0 {
			d.fail()
		}
		if d.err != nil {
			return nil, d.err
		}
		if k == 0 {
			c.fileBM25 = bm
		} else {
			c.defBM25 = bm
		}
	}
	parts := make([]string, d.count())
	for i := range parts {
		parts[i] = d.str()
	}
	c.nameToks = make([][]string, nDefs)
	for i := range c.nameToks {
		n := d.count()
		if n == 0 {
			continue // named as an earlier definition: deriveNames shares its parts
		}
		ts := make([]string, n-1)
		for j := range ts {
			if k := d.uint(); k < uint64(len(parts)) {
				ts[j] = parts[k]
			} else {
				d.fail()
			}
		}
		c.nameToks[i] = ts
	}
	var keys []string
	var fileOff, defOff []uint32
	var fileVals, defVals []int32
	if n := d.count(); n > 0 {
		keys = make([]string, n-1)
		for i := range keys {
			keys[i] = d.str()
		}
		fileOff, fileVals = d.u32s(), d.i32s()
		defOff, defVals = d.u32s(), d.i32s()
		d.offsets(fileOff, n, len(fileVals))
		d.offsets(defOff, n, len(defVals))
	}
	callOff, callVals := d.u32s(), d.i32s()
	d.offsets(callOff, nDefs+1, len(callVals))
	if d.err != nil || d.pos != len(d.meta) {
		return nil, errCorpusFile
	}
	c.graph = es
	var wg sync.WaitGroup
	wg.Go(func() {
		if keys == nil {
			return
		}
		posts := make([]identPost, len(keys))
		c.idents = make(map[string]*identPost, len(keys))
		for i, k := range keys {
			a, z := fileOff[i], fileOff[i+1]
			posts[i].files = fileVals[a:z:z]
			a, z = defOff[i], defOff[i+1]
			posts[i].defs = defVals[a:z:z]
			c.idents[k] = &posts[i]
		}
	})
	c.calls = make([][]int32, nDefs)
	for i := range c.calls {
		a, z := callOff[i], callOff[i+1]
		if z > a {
			c.calls[i] = callVals[a:z:z]
		}
	}
	wg.Wait()
	c.mapped = []*mapping{m}
	return c, nil
}
