package canon

import "fmt"

// Table is one resource type's handle table in one guest instance: the
// component model's per-instance table mapping handles (from 1) to values.
// Handles are reused after Remove. The zero Table is ready to use; it is
// not safe for concurrent use, which an instance's one call in flight
// guarantees.
type Table[T any] struct {
	name  string
	items []T
	used  []bool
	free  []uint32
}

// NewTable returns an empty table for the resource type named in errors.
func NewTable[T any](name string) *Table[T] { return &Table[T]{name: name} }

// Add stores v and returns its handle.
func (t *Table[T]) Add(v T) uint32 {
	if n := len(t.free); n > 0 {
		h := t.free[n-1]
		t.free = t.free[:n-1]
		t.items[h-1], t.used[h-1] = v, true
		return h
	}
	t.items = append(t.items, v)
	t.used = append(t.used, true)
	return uint32(len(t.items))
}

// Get returns the value of handle h.
func (t *Table[T]) Get(h uint32) (T, error) {
	if h == 0 || int64(h) > int64(len(t.items)) || !t.used[h-1] {
		var zero T
		return zero, fmt.Errorf("canon: %s handle %d is not in the instance's table (%d live); the guest used a dropped or invented handle", t.name, h, t.Len())
	}
	return t.items[h-1], nil
}

// Remove takes handle h out of the table and returns its value.
func (t *Table[T]) Remove(h uint32) (T, error) {
	v, err := t.Get(h)
	if err != nil {
		return v, err
	}
	var zero T
	t.items[h-1], t.used[h-1] = zero, false
	t.free = append(t.free, h)
	return v, nil
}

// Len returns the number of live handles.
func (t *Table[T]) Len() int { return len(t.items) - len(t.free) }
