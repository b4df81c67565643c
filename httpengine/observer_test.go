package httpengine

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

func TestObserverSeesEveryStepAndNoSecret(t *testing.T) {
	const (
		authSecret   = "Bearer sk-auth-4f1d"
		customSecret = "custom-key-77aa"
		configSecret = "config-key-9c0e"
		cookieSecret = "session=cookie-1b2b"
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != authSecret || r.Header.Get("X-Custom-Key") != customSecret {
			http.Error(w, "the secrets must still reach the server", http.StatusUnauthorized)
			return
		}
		w.Header().Set("Set-Cookie", cookieSecret)
		w.Header().Set("X-Echo-Key", r.Header.Get("X-Config-Key"))
		for _, part := range []string{"one;", "two;", "three;"} {
			io.WriteString(w, part)
			w.(http.Flusher).Flush()
		}
	}))
	defer srv.Close()
	obs := &recorder{}
	e := newEngine(t, Config{Observer: obs, SecretHeaders: []string{"x-config-key", "X-Echo-Key"}})
	resp, err := e.Exchange(context.Background(), Request{
		Method: "POST", URL: srv.URL + "/v1/run", Body: []byte(`{"q":1}`),
		Header:        http.Header{"Authorization": {authSecret}, "X-Custom-Key": {customSecret}, "X-Config-Key": {configSecret}, "Accept": {"text/plain"}},
		SecretHeaders: []string{"x-custom-key"},
	})
	if err != nil {
		t.Fatal(err)
	}
	chunks, end := drain(resp.Body)
	if resp.StatusCode != 200 || end.Outcome != Complete {
		t.Fatalf("status %d end %+v", resp.StatusCode, end)
	}
	if resp.Header.Get("Set-Cookie") != cookieSecret {
		t.Fatal("the caller's own response header must not be redacted")
	}

	dump := obs.dump()
	for _, secret := range []string{authSecret, "sk-auth-4f1d", customSecret, configSecret, cookieSecret, "cookie-1b2b"} {
		if strings.Contains(dump, secret) {
			t.Fatalf("observed output contains secret %q:\n%s", secret, dump)
		}
	}
	if !strings.Contains(dump, Redacted) || !strings.Contains(dump, "text/plain") {
		t.Fatalf("observed headers lack the redaction marker or the non-secret value:\n%s", dump)
	}

	evs := obs.all()
	start, ok := evs[0].(StartEvent)
	if !ok || start.Exchange != 1 || start.Method != "POST" || start.BodySize != 7 || !strings.HasSuffix(start.URL, "/v1/run") {
		t.Fatalf("first event %+v, want the start", evs[0])
	}
	head, ok := evs[1].(HeadEvent)
	if !ok || head.StatusCode != 200 || head.Elapsed <= 0 {
		t.Fatalf("second event %+v, want the head", evs[1])
	}
	var offset int64
	nchunks := 0
	for i, ev := range evs[2 : len(evs)-1] {
		c, ok := ev.(ChunkEvent)
		if !ok || c.Offset != offset || c.Size != len(chunks[i]) || c.Elapsed < head.Elapsed || c.Gap < 0 {
			t.Fatalf("event %d = %+v, want chunk %d at offset %d of %d bytes", i+2, ev, i, offset, len(chunks[i]))
		}
		offset += int64(c.Size)
		nchunks++
	}
	last, ok := evs[len(evs)-1].(EndEvent)
	if !ok || last.Outcome != Complete || last.Received != offset || last.Delivered != offset || last.Chunks != nchunks || nchunks != len(chunks) {
		t.Fatalf("last event %+v; chunks %d observed, %d delivered, %d bytes", evs[len(evs)-1], nchunks, len(chunks), offset)
	}
	if offset != int64(len("one;two;three;")) {
		t.Fatalf("observed %d body bytes", offset)
	}
}

func TestObserverSeesFailures(t *testing.T) {
	obs := &recorder{}
	e := newEngine(t, Config{Observer: obs})
	_, err := e.Exchange(context.Background(), Request{URL: "http://no-such-host.invalid/", Header: http.Header{"Authorization": {"Bearer hidden-77"}}})
	if err == nil {
		t.Fatal("dns failure expected")
	}
	evs := obs.all()
	if len(evs) != 2 {
		t.Fatalf("events %+v, want start and end", evs)
	}
	end, ok := evs[1].(EndEvent)
	if !ok || end.Outcome != Failed || kindOf(t, end.Err) != KindDNS {
		t.Fatalf("end %+v, want failed with a dns cause", evs[1])
	}
	if strings.Contains(obs.dump(), "hidden-77") {
		t.Fatal("secret leaked into the failure events")
	}
}

// TestConcurrentExchanges hammers one Engine from many goroutines; run with
// -race. Each exchange's events must stay ordered and complete.
func TestConcurrentExchanges(t *testing.T) {
	url := chunkServer(t, 5, nil)
	obs := &recorder{}
	e := newEngine(t, Config{Observer: obs, ReadSize: 4})
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			for range 5 {
				resp, err := e.Exchange(context.Background(), Request{URL: url})
				if err != nil {
					t.Error(err)
					return
				}
				if chunks, end := drain(resp.Body); join(chunks) != "chunk-a;chunk-b;chunk-c;chunk-d;chunk-e;" || end.Outcome != Complete {
					t.Errorf("got %q %+v", join(chunks), end)
				}
			}
		})
	}
	wg.Wait()
	state := map[uint64]string{} // per exchange: last event type
	for _, ev := range obs.all() {
		switch ev := ev.(type) {
		case StartEvent:
			if state[ev.Exchange] != "" {
				t.Fatalf("exchange %d started twice", ev.Exchange)
			}
			state[ev.Exchange] = "start"
		case HeadEvent:
			if state[ev.Exchange] != "start" {
				t.Fatalf("exchange %d head after %q", ev.Exchange, state[ev.Exchange])
			}
			state[ev.Exchange] = "head"
		case ChunkEvent:
			if s := state[ev.Exchange]; s != "head" && s != "chunk" {
				t.Fatalf("exchange %d chunk after %q", ev.Exchange, s)
			}
			state[ev.Exchange] = "chunk"
		case EndEvent:
			if state[ev.Exchange] != "chunk" {
				t.Fatalf("exchange %d end after %q", ev.Exchange, state[ev.Exchange])
			}
			state[ev.Exchange] = "end"
		}
	}
	if len(state) != 80 {
		t.Fatalf("%d exchanges observed, want 80", len(state))
	}
	for id, s := range state {
		if s != "end" {
			t.Fatalf("exchange %d stopped at %q", id, s)
		}
	}
}
