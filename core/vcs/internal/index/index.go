// Package index is the snapshot store's cache of the worktree as the last
// scan saw it: for each tracked path, the file's size, modification and
// change times, inode and mode when it was last hashed and the blob id it
// hashed to (a file whose stat still matches is not opened again), and the
// tree ids of the directories holding those files (a directory whose files
// did not change keeps its tree without encoding it again, and a restore
// reads only the trees that differ). The cache is an optimization only: a
// missing, foreign or corrupt index file is read as empty.
//
// The file format (little-endian):
//
//	"SMITHIDX" | version u32 (2) | worktree len u16 | worktree
//	| count u32 | count × entry | trees u32 | trees × tree
//	| CRC-32C (Castagnoli) of all preceding bytes, u32
//	entry: path len u16 | path | flags u8 | mode u32 | size u64
//	       | mtime i64 (ns) | ctime i64 (ns) | inode u64 | blob id [20]
//	tree:  dir len u16 | dir | tree id [20]
//
// Paths are slash-separated, relative to the worktree, unique and sorted
// byte-wise. Flags bit 0 is [Entry.Racy]; the other bits are zero. A tree's
// dir is "" for the root or a path ending in "/"; dirs are unique and
// sorted byte-wise. Parse is fuzzed.
package index

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"slices"
	"strings"
)

// Entry is the cached stat of one path and the blob id of its content.
type Entry struct {
	Path  string
	Mode  uint32 // git mode: 100644, 100755 or 120000 (octal)
	Size  int64
	MTime int64 // nanoseconds since the epoch
	CTime int64 // nanoseconds since the epoch; 0 where unavailable
	Ino   uint64
	ID    [20]byte
	// Racy says the stat does not vouch for the content (the file was
	// modified too close to the scan, or written by a restore): the next
	// scan hashes the file again. Mode and ID still describe the file.
	Racy bool
}

// Same reports whether e and o describe the same stat (everything but the
// path, the blob id and Racy).
func (e Entry) Same(o Entry) bool {
	return e.Mode == o.Mode && e.Size == o.Size && e.MTime == o.MTime && e.CTime == o.CTime && e.Ino == o.Ino
}

// Tree is the tree id of the entries below a directory.
type Tree struct {
	Dir string   // "" for the root, else the directory's path and "/"
	ID  [20]byte // the tree holding exactly the entries whose paths start with Dir
}

// Index is the content of an index file.
type Index struct {
	Worktree string  // the absolute path the entries are relative to
	Entries  []Entry // sorted by path
	Trees    []Tree  // sorted by Dir; any subset of the entries' directories
}

// castagnoli is the CRC-32C table: hardware-computed on amd64 and arm64,
// twenty times as fast as SHA-1 and as good at catching a torn write.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

const (
	sumSize   = 4
	magic     = "SMITHIDX"
	version   = 2
	entryTail = 1 + 4 + 8 + 8 + 8 + 8 + 20
	flagRacy  = 1
)

// Encode returns the index file of ix, sorting its entries and trees
// first when they are not sorted. Paths must be unique, non-empty, at
// most 65535 bytes; tree dirs unique, "" or ending in "/".
func Encode(ix Index) ([]byte, error) {
	byPath := func(a, b Entry) int { return strings.Compare(a.Path, b.Path) }
	if !slices.IsSortedFunc(ix.Entries, byPath) {
		slices.SortFunc(ix.Entries, byPath)
	}
	byDir := func(a, b Tree) int { return strings.Compare(a.Dir, b.Dir) }
	if !slices.IsSortedFunc(ix.Trees, byDir) {
		slices.SortFunc(ix.Trees, byDir)
	}
	if len(ix.Worktree) > 0xffff {
		return nil, fmt.Errorf("index worktree path is %d bytes; the limit is 65535", len(ix.Worktree))
	}
	n := 64 + len(ix.Worktree)
	for _, e := range ix.Entries {
		n += 2 + len(e.Path) + entryTail
	}
	for _, t := range ix.Trees {
		n += 2 + len(t.Dir) + 20
	}
	b := make([]byte, 0, n)
	b = append(b, magic...)
	b = binary.LittleEndian.AppendUint32(b, version)
	b = binary.LittleEndian.AppendUint16(b, uint16(len(ix.Worktree)))
	b = append(b, ix.Worktree...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(ix.Entries)))
	for i, e := range ix.Entries {
		if e.Path == "" || len(e.Path) > 0xffff {
			return nil, fmt.Errorf("index path %q is empty or longer than 65535 bytes", e.Path)
		}
		if i > 0 && ix.Entries[i-1].Path == e.Path {
			return nil, fmt.Errorf("index path %q appears twice", e.Path)
		}
		b = binary.LittleEndian.AppendUint16(b, uint16(len(e.Path)))
		b = append(b, e.Path...)
		var flags byte
		if e.Racy {
			flags |= flagRacy
		}
		b = append(b, flags)
		b = binary.LittleEndian.AppendUint32(b, e.Mode)
		b = binary.LittleEndian.AppendUint64(b, uint64(e.Size))
		b = binary.LittleEndian.AppendUint64(b, uint64(e.MTime))
		b = binary.LittleEndian.AppendUint64(b, uint64(e.CTime))
		b = binary.LittleEndian.AppendUint64(b, e.Ino)
		b = append(b, e.ID[:]...)
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(len(ix.Trees)))
	for i, t := range ix.Trees {
		if len(t.Dir) > 0xffff || (t.Dir != "" && !strings.HasSuffix(t.Dir, "/")) {
			return nil, fmt.Errorf("index tree dir %q is not empty or a path ending in \"/\" of at most 65535 bytes", t.Dir)
		}
		if i > 0 && ix.Trees[i-1].Dir == t.Dir {
			return nil, fmt.Errorf("index tree dir %q appears twice", t.Dir)
		}
		b = binary.LittleEndian.AppendUint16(b, uint16(len(t.Dir)))
		b = append(b, t.Dir...)
		b = append(b, t.ID[:]...)
	}
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli)), nil
}

// Parse decodes an index file. It rejects a wrong magic or version, a bad
// checksum, truncation, trailing bytes, unknown flags, and unsorted or
// duplicate paths and dirs.
func Parse(b []byte) (Index, error) {
	var ix Index
	if len(b) < len(magic)+4+2+4+4+sumSize {
		return ix, fmt.Errorf("index is %d bytes, shorter than its header", len(b))
	}
	body, sum := b[:len(b)-sumSize], b[len(b)-sumSize:]
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(sum) {
		return ix, fmt.Errorf("index checksum does not match its content")
	}
	if string(body[:len(magic)]) != magic {
		return ix, fmt.Errorf("index does not start with %q", magic)
	}
	r := body[len(magic):]
	if v := binary.LittleEndian.Uint32(r); v != version {
		return ix, fmt.Errorf("index version %d is not %d", v, version)
	}
	r = r[4:]
	n := int(binary.LittleEndian.Uint16(r))
	r = r[2:]
	if len(r) < n+4 {
		return ix, fmt.Errorf("index is truncated in its worktree path")
	}
	ix.Worktree = string(r[:n])
	r = r[n:]
	// One string holds every path; entries slice it.
	text := string(r)
	off := 0
	count := binary.LittleEndian.Uint32(r)
	off += 4
	if uint64(count) > uint64(len(r)-off)/(2+entryTail) {
		return ix, fmt.Errorf("index declares %d entries in %d bytes", count, len(r))
	}
	ix.Entries = make([]Entry, 0, count)
	for i := uint32(0); i < count; i++ {
		if len(r)-off < 2 {
			return ix, fmt.Errorf("index is truncated at entry %d", i)
		}
		pl := int(binary.LittleEndian.Uint16(r[off:]))
		off += 2
		if pl == 0 || len(r)-off < pl+entryTail {
			return ix, fmt.Errorf("index entry %d is empty or truncated", i)
		}
		e := Entry{Path: text[off : off+pl]}
		off += pl
		t := r[off : off+entryTail]
		if t[0]&^flagRacy != 0 {
			return ix, fmt.Errorf("index entry %q has unknown flags %#x", e.Path, t[0])
		}
		e.Racy = t[0]&flagRacy != 0
		e.Mode = binary.LittleEndian.Uint32(t[1:])
		e.Size = int64(binary.LittleEndian.Uint64(t[5:]))
		e.MTime = int64(binary.LittleEndian.Uint64(t[13:]))
		e.CTime = int64(binary.LittleEndian.Uint64(t[21:]))
		e.Ino = binary.LittleEndian.Uint64(t[29:])
		copy(e.ID[:], t[37:57])
		off += entryTail
		if k := len(ix.Entries); k > 0 && ix.Entries[k-1].Path >= e.Path {
			return ix, fmt.Errorf("index entry %q is out of order or repeated", e.Path)
		}
		ix.Entries = append(ix.Entries, e)
	}
	if len(r)-off < 4 {
		return ix, fmt.Errorf("index is truncated before its trees")
	}
	trees := binary.LittleEndian.Uint32(r[off:])
	off += 4
	if uint64(trees) > uint64(len(r)-off)/(2+20) {
		return ix, fmt.Errorf("index declares %d trees in %d bytes", trees, len(r)-off)
	}
	ix.Trees = make([]Tree, 0, trees)
	for i := uint32(0); i < trees; i++ {
		if len(r)-off < 2 {
			return ix, fmt.Errorf("index is truncated at tree %d", i)
		}
		dl := int(binary.LittleEndian.Uint16(r[off:]))
		off += 2
		if len(r)-off < dl+20 {
			return ix, fmt.Errorf("index tree %d is truncated", i)
		}
		t := Tree{Dir: text[off : off+dl]}
		off += dl
		copy(t.ID[:], r[off:off+20])
		off += 20
		if t.Dir != "" && !strings.HasSuffix(t.Dir, "/") {
			return ix, fmt.Errorf("index tree dir %q does not end in \"/\"", t.Dir)
		}
		if k := len(ix.Trees); k > 0 && ix.Trees[k-1].Dir >= t.Dir {
			return ix, fmt.Errorf("index tree dir %q is out of order or repeated", t.Dir)
		}
		ix.Trees = append(ix.Trees, t)
	}
	if off != len(r) {
		return ix, fmt.Errorf("index has %d trailing bytes", len(r)-off)
	}
	return ix, nil
}
