package catalog

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// memPersist is a Persist over memory: the committed tickets and dates,
// and a floor for new tickets.
type memPersist struct {
	floor     uint64
	committed []uint64
	fail      error
}

func (p *memPersist) Ticket() (uint64, error) { return p.floor, nil }

func (p *memPersist) Commit(ticket uint64, d *Document, raw []byte) error {
	if p.fail != nil {
		return p.fail
	}
	if len(raw) == 0 || d.Generated == "" {
		return errors.New("nothing to commit")
	}
	p.committed = append(p.committed, ticket)
	return nil
}

func serve(b []byte) Fetch { return func(context.Context) ([]byte, error) { return b, nil } }

func TestPersistentStore(t *testing.T) {
	tests := []struct {
		name      string
		fail      error
		published bool
		wantErr   string
	}{
		{name: "committed then published", published: true},
		{name: "stale commit discarded", fail: fmt.Errorf("%w: another process cached a newer one", ErrStale), wantErr: "another process cached a newer one"},
		{name: "failed commit not published", fail: errors.New("disk full"), wantErr: "refresh from r not saved, keeping the current catalog: disk full"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := &memPersist{floor: 1000, fail: tt.fail}
			st := NewPersistentStore(mustParse(t, testDoc("2026-01-01"), EvidenceBundled), p)
			before := st.Snapshot()
			res, err := st.Refresh(context.Background(), "r", serve(refreshedDoc(t, "2026-02-01", 1)))
			if tt.published {
				if err != nil {
					t.Fatal(err)
				}
				if res.Ticket < 1000 || len(p.committed) != 1 || p.committed[0] != res.Ticket {
					t.Errorf("ticket %d, committed %v; want one commit of a ticket >= the Persist's 1000", res.Ticket, p.committed)
				}
				if res.Previous != before || res.Published != st.Snapshot() || res.Generated != "2026-02-01" {
					t.Errorf("result %+v does not describe the publication", res)
				}
				if !has(st.Snapshot(), "acme", "fresh-1") {
					t.Error("not published")
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || errors.Is(err, ErrStale) != errors.Is(tt.fail, ErrStale) {
				t.Fatalf("error %v; want %q", err, tt.wantErr)
			}
			if st.Snapshot() != before {
				t.Error("a refresh that was not committed was published")
			}
		})
	}
}

// TestRestore: a cached document is published with its ticket; refreshes
// that follow take larger tickets; an older cached document cannot
// replace a newer publication; an invalid one is rejected.
func TestRestore(t *testing.T) {
	st := newStore(t)
	if err := st.Restore("cache", 500, refreshedDoc(t, "2026-02-01", 1)); err != nil {
		t.Fatal(err)
	}
	m, err := st.Snapshot().Lookup("acme", "fresh-1")
	if err != nil || m.Evidence != EvidenceRefreshed {
		t.Fatalf("restored model: %+v, %v", m, err)
	}
	res, err := st.Refresh(context.Background(), "r", serve(refreshedDoc(t, "2026-03-01", 2)))
	if err != nil || res.Ticket <= 500 {
		t.Fatalf("refresh after restore: ticket %d, %v", res.Ticket, err)
	}
	if err := st.Restore("old cache", 400, refreshedDoc(t, "2026-04-01", 3)); !errors.Is(err, ErrStale) {
		t.Fatalf("older cached refresh: %v", err)
	}
	if !has(st.Snapshot(), "acme", "fresh-2") || has(st.Snapshot(), "acme", "fresh-3") {
		t.Error("an older cached refresh replaced a newer one")
	}
	err = st.Restore("broken cache", 900, []byte(`{"format":1}`))
	if err == nil || !strings.Contains(err.Error(), "cached refresh broken cache rejected") {
		t.Fatalf("invalid cached document: %v", err)
	}
}
