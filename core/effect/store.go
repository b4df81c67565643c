package effect

import (
	"context"
	"errors"
	"sync"
)

// Store is the durable destination of journal records, normally the session.
//
// Append must make the record durable (written and synced) before it
// returns nil; a non-nil error means the record may be missing. Records
// returns every record appended so far, in append order, including those of
// earlier processes. Implementations must be safe for concurrent use.
type Store interface {
	Append(ctx context.Context, r Record) error
	Records(ctx context.Context) ([]Record, error)
}

// MemStore is a Store in memory. Records survive only as long as the value;
// it exists for tests and for composing with a durable store. The zero
// MemStore is empty and ready. It is safe for concurrent use.
type MemStore struct {
	mu      sync.Mutex
	records []Record
	// Fail, when set, is consulted before every Append; a non-nil result is
	// returned instead of appending.
	Fail func(Record) error
}

// Append stores r unless Fail rejects it.
func (m *MemStore) Append(ctx context.Context, r Record) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.Fail != nil {
		if err := m.Fail(r); err != nil {
			return err
		}
	}
	m.records = append(m.records, r)
	return nil
}

// Records returns a copy of the stored records.
func (m *MemStore) Records(ctx context.Context) ([]Record, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]Record(nil), m.records...), nil
}

// ErrJournalFailed is returned (wrapped) by every [Journal.Begin] after a
// completion could not be recorded: the journal's evidence is incomplete, so
// no further effect may run through it.
var ErrJournalFailed = errors.New("effect: the journal failed to record a completion and accepts no more effects; reopen the session to recover")
