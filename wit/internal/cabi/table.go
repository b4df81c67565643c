package cabi

// Table maps the representations ("reps") of a guest's exported resources
// to their Go values. Reps start at 1 and are reused after Remove. The zero
// Table is empty and ready to use; it is not safe for concurrent use.
type Table[T any] struct {
	items []T
	used  []bool
	free  []uint32
}

// Add stores v and returns its rep.
func (t *Table[T]) Add(v T) uint32 {
	if n := len(t.free); n > 0 {
		rep := t.free[n-1]
		t.free = t.free[:n-1]
		t.items[rep-1], t.used[rep-1] = v, true
		return rep
	}
	t.items = append(t.items, v)
	t.used = append(t.used, true)
	return uint32(len(t.items))
}

// Get returns the value stored under rep. An unknown rep is a host bug and
// panics, which traps the guest.
func (t *Table[T]) Get(rep uint32) T {
	if rep == 0 || int(rep) > len(t.items) || !t.used[rep-1] {
		panic("cabi: unknown resource rep " + itoa(rep))
	}
	return t.items[rep-1]
}

// Remove forgets the value stored under rep; an unknown rep panics.
func (t *Table[T]) Remove(rep uint32) {
	t.Get(rep)
	var zero T
	t.items[rep-1], t.used[rep-1] = zero, false
	t.free = append(t.free, rep)
}

// Len returns how many values the table holds.
func (t *Table[T]) Len() int { return len(t.items) - len(t.free) }

func itoa(v uint32) string {
	if v == 0 {
		return "0"
	}
	var b [10]byte
	i := len(b)
	for v > 0 {
		i--
		b[i] = byte('0' + v%10)
		v /= 10
	}
	return string(b[i:])
}
