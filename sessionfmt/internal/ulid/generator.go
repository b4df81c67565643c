package ulid

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"math"
	"sync"
)

// batch is how many random parts one read from crypto/rand provides.
const batch = 16

// Generator makes strictly increasing ULIDs. Its zero value is ready to use
// and it is safe for concurrent use.
//
// A new millisecond gets fresh random bits; the same millisecond as the last
// ULID gets the last random part plus one. A time earlier than the last
// ULID's is raised to it, and when the 80-bit random part would overflow, the
// ULID takes the next millisecond with fresh random bits, so every ULID is
// greater than the one before.
type Generator struct {
	mu    sync.Mutex
	used  bool   // a ULID was made; ms, hi and lo describe it
	ms    uint64 // the last ULID's millisecond
	hi    uint16 // its random part's top 16 bits
	lo    uint64 // its random part's low 64 bits
	pool  [batch * 10]byte
	avail int // unused bytes at the end of pool
	// fill reads random bytes; nil means crypto/rand (tests count reads).
	fill func([]byte)
}

// New returns the next ULID for the millisecond time ms (capped at [MaxMs]).
// It panics only when the previous ULID was the largest one possible (time
// MaxMs, random part all ones), since no greater ULID exists.
func (g *Generator) New(ms uint64) [Size]byte {
	ms = min(ms, MaxMs)
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.used && ms <= g.ms {
		ms = g.ms
		if g.hi == math.MaxUint16 && g.lo == math.MaxUint64 { // plus one would wrap the 80 bits: borrow the next millisecond
			if ms == MaxMs {
				panic(fmt.Sprintf("ulid: no ULID is greater than the last one made (time %d ms, random part all ones)", ms))
			}
			ms++
			g.fresh()
		} else {
			g.lo++
			if g.lo == 0 {
				g.hi++
			}
		}
	} else {
		g.fresh()
	}
	g.used, g.ms = true, ms
	var id [Size]byte
	binary.BigEndian.PutUint64(id[:8], ms<<16|uint64(g.hi))
	binary.BigEndian.PutUint64(id[8:], g.lo)
	return id
}

// fresh sets the random part to 80 new random bits, refilling the pool from
// crypto/rand when it is used up.
func (g *Generator) fresh() {
	if g.avail == 0 {
		if g.fill != nil {
			g.fill(g.pool[:])
		} else {
			rand.Read(g.pool[:]) // never fails: crypto/rand crashes the program instead
		}
		g.avail = len(g.pool)
	}
	r := g.pool[len(g.pool)-g.avail:]
	g.hi = binary.BigEndian.Uint16(r[:2])
	g.lo = binary.BigEndian.Uint64(r[2:10])
	g.avail -= 10
}
