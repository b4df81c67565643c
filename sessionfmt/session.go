package sessionfmt

import (
	"encoding/binary"
	"fmt"
	"slices"
	"time"
	"unsafe"
)

// record is the fixed-size in-memory form of an entry: identity, links,
// pairing fields and the location of its key and content in the arena.
type record struct {
	id, parent, pair, cause ID
	time                    int64  // Unix milliseconds
	off                     uint64 // key at arena[off:], content right after it
	keyLen                  uint32
	contentLen              uint32
	parentIdx               int32 // -1 for a root or an orphan
	children                uint32
	kind                    Kind
}

// Session is a branching history held as an index arena: a vector of
// fixed-size entry records in append order over one contiguous payload
// arena holding each entry's key and canonical CBOR content. Traversal,
// pairing, fork and compaction-boundary lookup read only the records; content
// is never decoded here.
//
// Entries are addressed by index (0 ≤ i < Len) in append order; a parent
// always has a smaller index than its children. A Session is not safe for
// concurrent use when one goroutine modifies it; concurrent readers are fine.
type Session struct {
	recs     []record
	arena    []byte
	table    []int32 // open-addressing id index; slot holds record index + 1
	selected int32   // -1 when empty
}

// New returns an empty in-memory session. Externally managed entries can be
// added with [Session.Add], keeping their order and ids.
func New() *Session { return &Session{selected: -1} }

// Len returns the number of entries.
func (s *Session) Len() int { return len(s.recs) }

// Entry returns entry i. Key and Content alias the arena: do not modify them.
func (s *Session) Entry(i int) Entry {
	r := &s.recs[i]
	e := Entry{ID: r.id, Parent: r.parent, Time: time.UnixMilli(r.time), Kind: r.kind, Pair: r.pair, Cause: r.cause}
	if r.keyLen > 0 {
		e.Key = unsafe.String(&s.arena[r.off], int(r.keyLen))
	}
	c := r.off + uint64(r.keyLen)
	e.Content = s.arena[c : c+uint64(r.contentLen) : c+uint64(r.contentLen)]
	return e
}

// ID returns the id of entry i.
func (s *Session) ID(i int) ID { return s.recs[i].id }

// Kind returns the kind of entry i.
func (s *Session) Kind(i int) Kind { return s.recs[i].kind }

// Parent returns the index of entry i's parent, or -1 for a root (or an
// entry whose parent was lost to a corrupt frame).
func (s *Session) Parent(i int) int { return int(s.recs[i].parentIdx) }

// Index returns the index of the entry with the given id, or -1.
func (s *Session) Index(id ID) int { return int(s.lookup(id)) }

// Selected returns the index of the selected leaf, or -1 for an empty
// session. By default the last entry appended is selected.
func (s *Session) Selected() int { return int(s.selected) }

// Select makes entry i the selected leaf in memory (see [File.Select] to
// record it). It panics if i is out of range.
func (s *Session) Select(i int) {
	_ = s.recs[i]
	s.selected = int32(i)
}

// Leaves appends to dst the index of every entry without children — the tip
// of every branch — in append order, and returns the extended slice.
func (s *Session) Leaves(dst []int) []int {
	for i := range s.recs {
		if s.recs[i].children == 0 {
			dst = append(dst, i)
		}
	}
	return dst
}

// Depth returns the number of entries on the path from a root to entry i,
// i included.
func (s *Session) Depth(i int) int {
	n := 0
	for j := int32(i); j >= 0; j = s.recs[j].parentIdx {
		n++
	}
	return n
}

// History appends to dst the indices of the path from the root to entry i
// (root first, i last) and returns the extended slice. It reads records only.
func (s *Session) History(i int, dst []int) []int {
	n := s.Depth(i)
	dst = slices.Grow(dst, n)[:len(dst)+n]
	for j, k := int32(i), len(dst)-1; j >= 0; j, k = s.recs[j].parentIdx, k-1 {
		dst[k] = int(j)
	}
	return dst
}

// CompactionBoundary finds the latest compaction on the path from the root
// to entry i. It returns the compaction entry's index and the index of the
// first entry it keeps (its Pair), or ok=false if the path has no compaction.
// firstKept is -1 if that entry is not in the session. It reads records only.
func (s *Session) CompactionBoundary(i int) (compaction, firstKept int, ok bool) {
	for j := int32(i); j >= 0; j = s.recs[j].parentIdx {
		if s.recs[j].kind == KindCompaction {
			return int(j), int(s.lookup(s.recs[j].pair)), true
		}
	}
	return -1, -1, false
}

// Add validates e and appends it: its id must be new, its parent (if any)
// present. The new entry becomes the selected leaf. Add copies Key and
// Content into the arena.
func (s *Session) Add(e Entry) error {
	p, err := s.check(&e)
	if err != nil {
		return err
	}
	s.insert(&e, p)
	return nil
}

// check validates e against the session and returns its parent's index.
func (s *Session) check(e *Entry) (int32, error) {
	if err := e.Validate(); err != nil {
		return 0, err
	}
	if s.lookup(e.ID) >= 0 {
		return 0, fmt.Errorf("sessionfmt: entry id %s is already in the session; give each entry a fresh NewID", e.ID)
	}
	p := int32(-1)
	if !e.Parent.IsZero() {
		if p = s.lookup(e.Parent); p < 0 {
			return 0, fmt.Errorf("sessionfmt: entry %s: parent %s is not in the session; add the parent first", e.ID, e.Parent)
		}
	}
	return p, nil
}

// insert appends a checked entry.
func (s *Session) insert(e *Entry, parent int32) {
	s.push(e.ID, e.Parent, e.Pair, e.Cause, e.Time.UnixMilli(), e.Kind, unsafe.Slice(unsafe.StringData(e.Key), len(e.Key)), e.Content, parent)
}

// push appends a record, copying key and content into the arena. The loader
// sizes recs, arena and table up front so that push never grows them.
func (s *Session) push(id, parent, pair, cause ID, ms int64, k Kind, key, content []byte, parentIdx int32) {
	off := uint64(len(s.arena))
	s.arena = append(s.arena, key...)
	s.arena = append(s.arena, content...)
	s.recs = append(s.recs, record{id: id, parent: parent, pair: pair, cause: cause, time: ms,
		off: off, keyLen: uint32(len(key)), contentLen: uint32(len(content)), parentIdx: parentIdx, kind: k})
	idx := int32(len(s.recs) - 1)
	if parentIdx >= 0 {
		s.recs[parentIdx].children++
	}
	if 2*len(s.recs) > len(s.table) {
		s.rehash(2 * len(s.recs))
	} else {
		s.place(idx)
	}
	s.selected = idx
}

// tableSize returns the id index size for n entries: a power of two with a
// load factor of at most one half.
func tableSize(n int) int {
	t := 16
	for t < 2*n {
		t <<= 1
	}
	return t
}

func (s *Session) rehash(n int) {
	s.table = make([]int32, tableSize(n))
	for i := range s.recs {
		s.place(int32(i))
	}
}

func slot(id *ID, mask uint32) uint32 {
	h := binary.LittleEndian.Uint64(id[8:]) ^ binary.LittleEndian.Uint64(id[:8])
	return uint32((h*0x9e3779b97f4a7c15)>>32) & mask
}

func (s *Session) place(idx int32) {
	mask := uint32(len(s.table) - 1)
	for i := slot(&s.recs[idx].id, mask); ; i = (i + 1) & mask {
		if s.table[i] == 0 {
			s.table[i] = idx + 1
			return
		}
	}
}

func (s *Session) lookup(id ID) int32 {
	if len(s.table) == 0 || id.IsZero() {
		return -1
	}
	mask := uint32(len(s.table) - 1)
	for i := slot(&id, mask); ; i = (i + 1) & mask {
		v := s.table[i]
		if v == 0 {
			return -1
		}
		if s.recs[v-1].id == id {
			return v - 1
		}
	}
}

// Fork returns a new session holding only the path from the root to entry
// i, in order, with entry i selected. Ids, times, kinds, pairing fields,
// content and therefore the compaction boundary are kept. Fork allocates a
// constant number of times, whatever the session's size: the session, its
// records, its arena and its id index.
func (s *Session) Fork(i int) *Session {
	n, size := 0, 0
	for j := int32(i); j >= 0; j = s.recs[j].parentIdx {
		n++
		size += int(s.recs[j].keyLen + s.recs[j].contentLen)
	}
	f := &Session{recs: make([]record, n), arena: make([]byte, size), table: make([]int32, tableSize(n)), selected: int32(n - 1)}
	k, at := n-1, size
	for j := int32(i); j >= 0; j = s.recs[j].parentIdx {
		r := s.recs[j]
		l := int(r.keyLen + r.contentLen)
		at -= l
		copy(f.arena[at:], s.arena[r.off:r.off+uint64(l)])
		r.off = uint64(at)
		r.parentIdx = int32(k - 1)
		r.children = 1
		if k == n-1 {
			r.children = 0
		}
		if k == 0 {
			r.parent = ID{}
		}
		f.recs[k] = r
		k--
	}
	for j := range f.recs {
		f.place(int32(j))
	}
	return f
}

// Clone returns an independent copy of s: every branch, the same selected
// leaf and therefore the same compaction boundaries. It allocates a constant
// number of times.
func (s *Session) Clone() *Session {
	return &Session{recs: slices.Clone(s.recs), arena: slices.Clone(s.arena), table: slices.Clone(s.table), selected: s.selected}
}
