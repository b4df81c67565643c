package catalog

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
)

// Fetch retrieves a catalog document in Smith's format. The catalog knows no
// vendor endpoint: a provider plugin or the binary supplies the function.
type Fetch func(ctx context.Context) ([]byte, error)

// ErrStale reports a refresh that finished after a newer one had been
// published, or that carried older data; it was discarded.
var ErrStale = errors.New("catalog: stale refresh discarded")

// Store holds the published catalog Snapshot and publishes refreshed ones.
// Readers never block: [Store.Snapshot] is one atomic load. Publication is
// serialized, each published Snapshot is built whole before it becomes
// visible, and a refresh started before another one that has already
// published can never replace it. A Store is safe for concurrent use.
type Store struct {
	mu      sync.Mutex // serializes publication
	base    []Layer    // bundled, provider and config layers
	persist Persist    // nil: refreshes live in memory only
	cur     atomic.Pointer[state]
	tickets atomic.Uint64
}

// Persist keeps refreshed documents across runs, so that a later run
// starts from the newest one without waiting for the network (see
// [NewPersistentStore]). Ticket may be called from several goroutines;
// the Store serializes calls to Commit.
type Persist interface {
	// Ticket returns the ticket of a refresh starting now. It must exceed
	// every ticket committed before, by this process or by any other that
	// shares the persisted state, so that tickets order refreshes by their
	// start across processes.
	Ticket() (uint64, error)
	// Commit persists a validated document (raw is its bytes) under ticket
	// just before the Store publishes it. It returns an error wrapping
	// [ErrStale] when a refresh with a larger ticket, or a newer document,
	// is already persisted; the Store then discards the refresh. Any other
	// error fails the refresh. Either way nothing is published.
	Commit(ticket uint64, d *Document, raw []byte) error
}

type state struct {
	snap      *Snapshot
	refresh   *Layer // the refreshed layer, nil before the first refresh
	ticket    uint64 // the ticket of the refresh that produced refresh
	generated string // refresh's document date
	bundled   string
}

// NewStore returns a Store publishing bundled together with the other
// layers (provider declarations, the user's configured models). It does no
// I/O: the bundled snapshot is usable at once.
func NewStore(bundled *Document, others ...Layer) *Store {
	return NewPersistentStore(bundled, nil, others...)
}

// NewPersistentStore is [NewStore] whose refreshes take their tickets from
// p and are committed to p before they are published; p == nil keeps them
// in memory. Publish the newest persisted document with [Store.Restore].
func NewPersistentStore(bundled *Document, p Persist, others ...Layer) *Store {
	s := &Store{base: append([]Layer{LayerOf(bundled, EvidenceBundled)}, others...), persist: p}
	st := &state{bundled: bundled.Generated}
	st.snap = s.build(st)
	s.cur.Store(st)
	return s
}

func (s *Store) build(st *state) *Snapshot {
	layers := s.base
	gen := st.bundled
	if st.refresh != nil {
		layers = append(append([]Layer{}, s.base...), *st.refresh)
		gen = max(gen, st.generated)
	}
	return Build(gen, layers...)
}

// Snapshot returns the current Snapshot.
func (s *Store) Snapshot() *Snapshot { return s.cur.Load().snap }

// RefreshResult describes one published refresh.
type RefreshResult struct {
	// Ticket orders refreshes by their start.
	Ticket uint64
	// Models is the number of models the refreshed document carried.
	Models int
	// Generated is the refreshed document's date.
	Generated string
	// Conflicts lists where the refreshed data disagreed with stronger
	// evidence (the user's configuration or the reviewed bundle), which
	// was kept.
	Conflicts []Conflict
	// Previous is the Snapshot the refresh replaced; Published the one it
	// published.
	Previous, Published *Snapshot
}

// Refresh fetches a document with fetch and publishes it unless ctx was
// cancelled, the document is invalid, or a refresh started later has
// already published or newer data is published (then it returns an error
// wrapping [ErrStale]). The refreshed layer never overrides the bundled
// catalog or the user's configuration; where it disagrees the difference is
// reported as a Conflict. Refresh blocks for as long as fetch does; run it
// in a goroutine (see [Store.Start]) so startup never waits for it.
func (s *Store) Refresh(ctx context.Context, name string, fetch Fetch) (RefreshResult, error) {
	ticket, err := s.ticket()
	if err != nil {
		return RefreshResult{}, fmt.Errorf("catalog: refresh from %s not started, keeping the current catalog: %w", name, err)
	}
	b, err := fetch(ctx)
	if err != nil {
		return RefreshResult{}, fmt.Errorf("catalog: refresh from %s failed, keeping the current catalog: %w", name, err)
	}
	d, err := Parse(name, b, false, EvidenceRefreshed)
	if err != nil {
		return RefreshResult{}, fmt.Errorf("catalog: refresh from %s rejected, keeping the current catalog: %w", name, err)
	}
	layer := LayerOf(d, EvidenceRefreshed)
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return RefreshResult{}, fmt.Errorf("catalog: refresh from %s cancelled before publication: %w", name, err)
	}
	cur := s.cur.Load()
	if cur.refresh != nil && ticket < cur.ticket {
		return RefreshResult{}, fmt.Errorf("%w: refresh #%d from %s finished after #%d had published", ErrStale, ticket, name, cur.ticket)
	}
	if cur.refresh != nil && d.Generated < cur.generated {
		return RefreshResult{}, fmt.Errorf("%w: %s is dated %s, older than the published %s", ErrStale, name, d.Generated, cur.generated)
	}
	next := &state{refresh: &layer, ticket: ticket, generated: d.Generated, bundled: cur.bundled}
	next.snap = s.build(next)
	if s.persist != nil {
		if err := s.persist.Commit(ticket, d, b); err != nil {
			if errors.Is(err, ErrStale) {
				return RefreshResult{}, err
			}
			return RefreshResult{}, fmt.Errorf("catalog: refresh from %s not saved, keeping the current catalog: %w", name, err)
		}
	}
	s.cur.Store(next)
	var conflicts []Conflict
	for _, c := range next.snap.Conflicts() {
		if c.IgnoredFrom == EvidenceRefreshed {
			conflicts = append(conflicts, c)
		}
	}
	return RefreshResult{Ticket: ticket, Models: len(d.Models), Generated: d.Generated, Conflicts: conflicts,
		Previous: cur.snap, Published: next.snap}, nil
}

// ticket returns the ticket of a refresh starting now: above every ticket
// taken or restored in this Store, and at least the Persist's.
func (s *Store) ticket() (uint64, error) {
	var floor uint64
	if s.persist != nil {
		t, err := s.persist.Ticket()
		if err != nil {
			return 0, err
		}
		floor = t
	}
	return s.raiseTickets(floor), nil
}

// raiseTickets takes the next ticket, at least floor.
func (s *Store) raiseTickets(floor uint64) uint64 {
	for {
		cur := s.tickets.Load()
		next := max(cur+1, floor)
		if s.tickets.CompareAndSwap(cur, next) {
			return next
		}
	}
}

// Restore publishes a document refreshed earlier (raw, read back from a
// persistent cache; name says where) as the refreshed layer with the
// ticket it was committed under, so a run starts from the newest refresh
// without any network. Later refreshes take larger tickets. It fails on
// an invalid document, and with an error wrapping [ErrStale] when a
// refresh with a ticket at least as large has already published.
func (s *Store) Restore(name string, ticket uint64, raw []byte) error {
	d, err := Parse(name, raw, false, EvidenceRefreshed)
	if err != nil {
		return fmt.Errorf("catalog: cached refresh %s rejected: %w", name, err)
	}
	layer := LayerOf(d, EvidenceRefreshed)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.raiseTickets(ticket)
	cur := s.cur.Load()
	if cur.refresh != nil && cur.ticket >= ticket {
		return fmt.Errorf("%w: cached refresh #%d from %s is not newer than the published #%d", ErrStale, ticket, name, cur.ticket)
	}
	next := &state{refresh: &layer, ticket: ticket, generated: d.Generated, bundled: cur.bundled}
	next.snap = s.build(next)
	s.cur.Store(next)
	return nil
}

// RefreshOutcome is what a background refresh reports.
type RefreshOutcome struct {
	Result RefreshResult
	Err    error
}

// Start runs Refresh in a new goroutine and returns at once; the outcome is
// sent on the returned channel (buffered, so nobody has to read it), which
// is then closed. Cancelling ctx abandons the refresh.
func (s *Store) Start(ctx context.Context, name string, fetch Fetch) <-chan RefreshOutcome {
	out := make(chan RefreshOutcome, 1)
	go func() {
		defer close(out)
		r, err := s.Refresh(ctx, name, fetch)
		out <- RefreshOutcome{Result: r, Err: err}
	}()
	return out
}
