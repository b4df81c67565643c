package provider_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/provider"
)

func openJournal(t *testing.T, store *effect.MemStore) *effect.Journal {
	t.Helper()
	j, _, err := effect.Open(context.Background(), store, effect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// TestJournal: the exchange is journaled as an intent before dispatch and
// a completion after, both redacted.
func TestJournal(t *testing.T) {
	srv := newServer(t, sse(mustRead(t, "testdata/anthropic-text.sse")))
	store := &effect.MemStore{}
	p := newBridge(t, "anthropic", nil, func(c *provider.Config) {
		c.BaseURLFlag = srv.URL
		c.Journal = openJournal(t, store)
	})
	if _, ok := terminal(t, collect(p.Stream(context.Background(), hello()))).(model.Done); !ok {
		t.Fatal("the request did not complete")
	}
	recs, err := store.Records(context.Background())
	if err != nil || len(recs) != 2 {
		t.Fatalf("records %v (%v); want an intent and a completion", recs, err)
	}
	in, ok := recs[0].(effect.Intent)
	if !ok || in.Kind != provider.ExchangeKind || !strings.Contains(string(in.Input), `"${ANTHROPIC_API_KEY}"`) || !strings.Contains(string(in.Input), `"body_sha256"`) {
		t.Errorf("intent %+v; want a provider.exchange with the credential reference", recs[0])
	}
	c, ok := recs[1].(effect.Completion)
	var out struct {
		Status  int    `json:"status"`
		Outcome string `json:"outcome"`
		Body    string `json:"body"`
	}
	if !ok || c.Mutation != model.MutationNotApplied || c.Error != "" || json.Unmarshal(c.Output, &out) != nil ||
		out.Status != 200 || out.Outcome != "complete" || !strings.Contains(out.Body, "mundo") {
		t.Errorf("completion %+v (output %s); want not_applied with status 200 and the body", recs[1], c.Output)
	}
	b, _ := json.Marshal(recs)
	if strings.Contains(string(b), testKey) {
		t.Error("the credential appears in the journal")
	}
}

// TestJournalRefuses: when the intent cannot be made durable, nothing is
// sent.
func TestJournalRefuses(t *testing.T) {
	srv := newServer(t, sse(mustRead(t, "testdata/anthropic-text.sse")))
	store := &effect.MemStore{Fail: func(effect.Record) error { return errors.New("disk full") }}
	p := newBridge(t, "anthropic", nil, func(c *provider.Config) {
		c.BaseURLFlag = srv.URL
		c.Journal = openJournal(t, store)
	})
	e := streamError(t, collect(p.Stream(context.Background(), hello())))
	if e.Kind != model.ErrAborted || !strings.Contains(e.Message, "disk full") || srv.count() != 0 {
		t.Errorf("error %v, %d requests sent; want aborted naming the journal failure and nothing sent", e, srv.count())
	}
}
