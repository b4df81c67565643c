// Package index is the snapshot store's stat cache: for each tracked path,
// the file's size, modification and change times, inode and mode when it
// was last hashed, and the blob id it hashed to. A file whose stat still
// matches is not opened again. The cache is an optimization only: a
// missing, foreign or corrupt index file is read as empty.
//
// The file format (little-endian):
//
//	"SMITHIDX" | version u32 (1) | worktree len u16 | worktree
//	| count u32 | count × entry | SHA-1 of all preceding bytes
//	entry: path len u16 | path | mode u32 | size u64 | mtime i64 (ns)
//	       | ctime i64 (ns) | inode u64 | blob id [20]
//
// Paths are slash-separated, relative to the worktree, unique and sorted
// byte-wise. Parse is fuzzed.
package index

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"fmt"
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
}

// Same reports whether e and o describe the same stat (everything but the
// path and blob id).
func (e Entry) Same(o Entry) bool {
	return e.Mode == o.Mode && e.Size == o.Size && e.MTime == o.MTime && e.CTime == o.CTime && e.Ino == o.Ino
}

const (
	magic     = "SMITHIDX"
	version   = 1
	entryTail = 4 + 8 + 8 + 8 + 8 + 20
)

// Encode returns the index file for the worktree path and entries, which
// it sorts by path. Paths must be unique, non-empty, at most 65535 bytes.
func Encode(worktree string, entries []Entry) ([]byte, error) {
	slices.SortFunc(entries, func(a, b Entry) int { return strings.Compare(a.Path, b.Path) })
	if len(worktree) > 0xffff {
		return nil, fmt.Errorf("index worktree path is %d bytes; the limit is 65535", len(worktree))
	}
	b := make([]byte, 0, 64+len(worktree)+len(entries)*(entryTail+40))
	b = append(b, magic...)
	b = binary.LittleEndian.AppendUint32(b, version)
	b = binary.LittleEndian.AppendUint16(b, uint16(len(worktree)))
	b = append(b, worktree...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(entries)))
	for i, e := range entries {
		if e.Path == "" || len(e.Path) > 0xffff {
			return nil, fmt.Errorf("index path %q is empty or longer than 65535 bytes", e.Path)
		}
		if i > 0 && entries[i-1].Path == e.Path {
			return nil, fmt.Errorf("index path %q appears twice", e.Path)
		}
		b = binary.LittleEndian.AppendUint16(b, uint16(len(e.Path)))
		b = append(b, e.Path...)
		b = binary.LittleEndian.AppendUint32(b, e.Mode)
		b = binary.LittleEndian.AppendUint64(b, uint64(e.Size))
		b = binary.LittleEndian.AppendUint64(b, uint64(e.MTime))
		b = binary.LittleEndian.AppendUint64(b, uint64(e.CTime))
		b = binary.LittleEndian.AppendUint64(b, e.Ino)
		b = append(b, e.ID[:]...)
	}
	sum := sha1.Sum(b)
	return append(b, sum[:]...), nil
}

// Parse decodes an index file, returning the worktree it was written for
// and its entries. It rejects a wrong magic or version, a bad checksum,
// truncation, trailing bytes and unsorted or duplicate paths.
func Parse(b []byte) (string, []Entry, error) {
	if len(b) < len(magic)+4+2+4+sha1.Size {
		return "", nil, fmt.Errorf("index is %d bytes, shorter than its header", len(b))
	}
	body, sum := b[:len(b)-sha1.Size], b[len(b)-sha1.Size:]
	if s := sha1.Sum(body); !bytes.Equal(s[:], sum) {
		return "", nil, fmt.Errorf("index checksum does not match its content")
	}
	if string(body[:len(magic)]) != magic {
		return "", nil, fmt.Errorf("index does not start with %q", magic)
	}
	r := body[len(magic):]
	if v := binary.LittleEndian.Uint32(r); v != version {
		return "", nil, fmt.Errorf("index version %d is not %d", v, version)
	}
	r = r[4:]
	n := int(binary.LittleEndian.Uint16(r))
	r = r[2:]
	if len(r) < n+4 {
		return "", nil, fmt.Errorf("index is truncated in its worktree path")
	}
	worktree := string(r[:n])
	r = r[n:]
	count := binary.LittleEndian.Uint32(r)
	r = r[4:]
	if uint64(count) > uint64(len(r))/(2+entryTail) {
		return "", nil, fmt.Errorf("index declares %d entries in %d bytes", count, len(r))
	}
	entries := make([]Entry, 0, count)
	for i := uint32(0); i < count; i++ {
		if len(r) < 2 {
			return "", nil, fmt.Errorf("index is truncated at entry %d", i)
		}
		pl := int(binary.LittleEndian.Uint16(r))
		r = r[2:]
		if pl == 0 || len(r) < pl+entryTail {
			return "", nil, fmt.Errorf("index entry %d is empty or truncated", i)
		}
		e := Entry{Path: string(r[:pl])}
		r = r[pl:]
		e.Mode = binary.LittleEndian.Uint32(r)
		e.Size = int64(binary.LittleEndian.Uint64(r[4:]))
		e.MTime = int64(binary.LittleEndian.Uint64(r[12:]))
		e.CTime = int64(binary.LittleEndian.Uint64(r[20:]))
		e.Ino = binary.LittleEndian.Uint64(r[28:])
		copy(e.ID[:], r[36:56])
		r = r[entryTail:]
		if k := len(entries); k > 0 && entries[k-1].Path >= e.Path {
			return "", nil, fmt.Errorf("index entry %q is out of order or repeated", e.Path)
		}
		entries = append(entries, e)
	}
	if len(r) != 0 {
		return "", nil, fmt.Errorf("index has %d trailing bytes", len(r))
	}
	return worktree, entries, nil
}
