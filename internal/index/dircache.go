package index

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"time"
	"unsafe"
)

// The directory cache (.grit/dirs.cache) holds the listing of every
// directory the last walk visited, keyed by the directory's inode, mtime
// and ctime. A directory's mtime and ctime move whenever an entry is
// created, removed or renamed in it, and its ctime whenever anything sets
// its times, so a directory whose three are unchanged lists as it did: the
// walk stats it instead of opening and reading it. On hashicorp/terraform
// (2,572 directories, 5,400 files of which 4,300 are source) that is one
// system call per directory instead of four. The listing is complete (every
// name, not only source files), so a new language or a changed ignore file
// needs nothing from the cache: both are applied to the listing on every
// walk.
//
// The cache only says what a directory holds; it is never the index's
// truth, so it lives in a plain file rather than in index.db: a missing,
// damaged or foreign file is ignored and rewritten, a failed write is
// skipped, and a write is a temporary file renamed into place.

// racyWindow is how recent a stamp must be for the walk not to trust it.
// A change made in the same clock tick as the stat that recorded a
// directory or file leaves its mtime as it was (Linux stamps with a coarse
// clock, some file systems with whole or even seconds); git calls such
// entries racily clean. Anything modified this close to the start of the
// walk that records it is checked again by the next walk. Two seconds
// covers FAT's granularity. (A variable only so that tests can shorten it.)
var racyWindow = 2 * time.Second

// racy reports whether a stamp (Unix nanoseconds) is too recent, for a walk
// that started at start, to vouch for what was read after it.
func racy(stamp int64, start time.Time) bool {
	return stamp >= start.Add(-racyWindow).UnixNano()
}

// dirStamp is what identifies one state of a directory's listing.
type dirStamp struct {
	ino, mtime, ctime int64
}

// cachedDir is one directory's listing as of its stamp.
type cachedDir struct {
	rel   string
	stamp dirStamp
	ents  []dirEntry
}

const (
	dirCacheName    = "dirs.cache"
	dirCacheMagic   = "GRITDIRS"
	dirCacheVersion = 1
	dirCacheHeader  = len(dirCacheMagic) + 4 + 4 // magic, version, CRC-32C of the body
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Entry types as the cache codes them.
var (
	dirCacheTypes = []fs.FileMode{0, fs.ModeDir, fs.ModeSymlink, fs.ModeIrregular}
	errDirCache   = errors.New("damaged directory cache")
)

// loadDirCache reads the cache at path; any problem gives an empty cache.
func loadDirCache(path string) map[string]*cachedDir {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	m, err := decodeDirCache(b)
	if err != nil {
		return nil
	}
	return m
}

// decodeDirCache decodes a cache file's bytes; the names it returns point
// into b, which must not change after.
func decodeDirCache(b []byte) (map[string]*cachedDir, error) {
	if len(b) < dirCacheHeader || string(b[:len(dirCacheMagic)]) != dirCacheMagic {
		return nil, errDirCache
	}
	h := b[len(dirCacheMagic):]
	if binary.LittleEndian.Uint32(h) != dirCacheVersion || binary.LittleEndian.Uint32(h[4:]) != crc32.Checksum(b[dirCacheHeader:], castagnoli) {
		return nil, errDirCache
	}
	// One string holds every name; the listings' names are slices of it.
	// It is b itself, which nothing writes to once read (a copy was a
	// tenth of what a no-change update allocates).
	body := b[dirCacheHeader:]
	s := ""
	if len(body) > 0 {
		s = unsafe.String(&body[0], len(body))
	}
	d := cacheDecoder{s: s}
	n := d.uvarint()
	m := make(map[string]*cachedDir, min(n, uint64(len(s))))
	slab := make([]cachedDir, 0, min(n, uint64(len(s))))
	var ents []dirEntry // the listings' entries, cut from shared blocks
	for i := uint64(0); i < n && d.err == nil; i++ {
		c := cachedDir{rel: d.str()}
		c.stamp = dirStamp{ino: int64(d.uvarint()), mtime: d.varint(), ctime: d.varint()}
		k := d.uvarint()
		if k > uint64(len(s)) {
			return nil, errDirCache
		}
		if ents == nil || uint64(cap(ents)-len(ents)) < k { // never nil: a nil listing is none
			ents = make([]dirEntry, 0, max(k, 4096))
		}
		c.ents = ents[len(ents) : len(ents) : len(ents)+int(k)]
		ents = ents[:len(ents)+int(k)]
		for j := uint64(0); j < k && d.err == nil; j++ {
			t := d.uvarint()
			if t >= uint64(len(dirCacheTypes)) {
				return nil, errDirCache
			}
			c.ents = append(c.ents, dirEntry{typ: dirCacheTypes[t], name: d.str()})
		}
		slab = append(slab, c)
		m[c.rel] = &slab[len(slab)-1]
	}
	if d.err != nil || d.off != len(s) {
		return nil, errDirCache
	}
	return m, nil
}

// cacheDecoder reads varints and length-prefixed strings from s.
type cacheDecoder struct {
	s   string
	off int
	err error
}

func (d *cacheDecoder) uvarint() uint64 {
	var x uint64
	for shift := 0; shift < 64; shift += 7 {
		if d.off >= len(d.s) {
			d.err = errDirCache
			return 0
		}
		c := d.s[d.off]
		d.off++
		x |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return x
		}
	}
	d.err = errDirCache
	return 0
}

func (d *cacheDecoder) varint() int64 {
	u := d.uvarint()
	return int64(u>>1) ^ -int64(u&1)
}

func (d *cacheDecoder) str() string {
	n := d.uvarint()
	if d.err != nil || n > uint64(len(d.s)-d.off) {
		d.err = errDirCache
		return ""
	}
	s := d.s[d.off : d.off+int(n)]
	d.off += int(n)
	return s
}

func encodeDirCache(dirs []cachedDir) []byte {
	b := make([]byte, dirCacheHeader, 64<<10)
	copy(b, dirCacheMagic)
	binary.LittleEndian.PutUint32(b[len(dirCacheMagic):], dirCacheVersion)
	str := func(s string) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	b = binary.AppendUvarint(b, uint64(len(dirs)))
	for _, c := range dirs {
		str(c.rel)
		b = binary.AppendUvarint(b, uint64(c.stamp.ino))
		b = binary.AppendVarint(b, c.stamp.mtime)
		b = binary.AppendVarint(b, c.stamp.ctime)
		b = binary.AppendUvarint(b, uint64(len(c.ents)))
		for _, e := range c.ents {
			t := 3
			switch e.typ {
			case 0:
				t = 0
			case fs.ModeDir:
				t = 1
			case fs.ModeSymlink:
				t = 2
			}
			b = append(b, byte(t))
			str(e.name)
		}
	}
	binary.LittleEndian.PutUint32(b[len(dirCacheMagic)+4:], crc32.Checksum(b[dirCacheHeader:], castagnoli))
	return b
}

// saveDirCache writes dirs to path through a temporary file and a rename,
// so a reader sees the old cache or the new one. Nothing is synced: a cache
// torn by a power loss fails its checksum and is rebuilt. Errors are
// ignored: without the file the next walk lists every directory.
func saveDirCache(path string, dirs []cachedDir) {
	f, err := os.CreateTemp(filepath.Dir(path), dirCacheName+".*")
	if err != nil {
		return
	}
	_, werr := f.Write(encodeDirCache(dirs))
	if werr == nil {
		werr = f.Chmod(0o644) // as index.db: CreateTemp makes it private
	}
	cerr := f.Close()
	if werr != nil || cerr != nil || os.Rename(f.Name(), path) != nil {
		os.Remove(f.Name())
	}
}
