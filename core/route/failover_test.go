package route

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/model"
)

// reply is one scripted response.
type reply struct {
	status     int
	retryAfter string // Retry-After header, seconds
	noRetry    bool   // x-should-retry: false
}

// scripted is a loopback server answering POST /<target> with the next
// reply of that target's script (200 once the script is used up), and
// recording the order of requests.
type scripted struct {
	*httptest.Server
	mu      sync.Mutex
	scripts map[string][]reply
	hits    []string
}

func newScripted(t *testing.T, scripts map[string][]reply) *scripted {
	s := &scripted{scripts: scripts}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/")
		s.mu.Lock()
		s.hits = append(s.hits, name)
		rep := reply{status: 200}
		if q := s.scripts[name]; len(q) > 0 {
			rep, s.scripts[name] = q[0], q[1:]
		}
		s.mu.Unlock()
		if rep.retryAfter != "" {
			w.Header().Set("Retry-After", rep.retryAfter)
		}
		if rep.noRetry {
			w.Header().Set("X-Should-Retry", "false")
		}
		w.WriteHeader(rep.status)
		_, _ = fmt.Fprintf(w, `{"status":%d}`, rep.status)
	}))
	t.Cleanup(s.Close)
	return s
}

// classify maps a response to a classified model error, as a provider codec
// would (passed in, so route stays vendor-neutral).
func classify(resp *http.Response) error {
	if resp.StatusCode < 300 {
		return nil
	}
	kind := map[int]model.ErrorKind{429: model.ErrRateLimit, 529: model.ErrOverloaded, 500: model.ErrServer, 503: model.ErrOverloaded,
		400: model.ErrInvalidRequest, 404: model.ErrNotFound, 401: model.ErrAuth}[resp.StatusCode]
	e := model.NewError(kind, "status %d", resp.StatusCode)
	e.HTTPStatus = resp.StatusCode
	if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil {
		e.RetryAfterMillis = int64(s) * 1000
	}
	if resp.Header.Get("X-Should-Retry") == "false" {
		e.Retryable = false
	}
	return e
}

// provider is a small fake provider over the loopback server.
func (s *scripted) provider() Attempter {
	return AttemptFunc(func(ctx context.Context, t Target) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.URL+"/"+t.String(), strings.NewReader(`{}`))
		if err != nil {
			return err
		}
		resp, err := s.Client().Do(req)
		if err != nil {
			return model.NewError(model.ErrTransport, "post: %v", err)
		}
		defer resp.Body.Close()
		return classify(resp)
	})
}

type clock struct{ waits []time.Duration }

func (c *clock) sleep(_ context.Context, d time.Duration) error {
	c.waits = append(c.waits, d)
	return nil
}

func TestFailover(t *testing.T) {
	targets := []Target{{Provider: "p", Model: "a"}, {Provider: "p", Model: "b"}, {Provider: "q", Model: "c"}}
	s5 := time.Second
	tests := []struct {
		name      string
		scripts   map[string][]reply
		wantHits  []string
		wantWaits []time.Duration
		wantErr   string
		served    string
	}{
		{name: "rate limit fails over at once", scripts: map[string][]reply{"p/a": {{status: 429, retryAfter: "20"}}},
			wantHits: []string{"p/a", "p/b"}, served: "p/b"},
		{name: "overload retried with backoff", scripts: map[string][]reply{"p/a": {{status: 529}, {status: 529}}},
			wantHits: []string{"p/a", "p/a", "p/a"}, wantWaits: []time.Duration{s5, 2 * s5}, served: "p/a"},
		{name: "server errors exhaust retries then fail over", scripts: map[string][]reply{"p/a": {{status: 500}, {status: 500}, {status: 500}, {status: 500}, {status: 500}}},
			wantHits: []string{"p/a", "p/a", "p/a", "p/a", "p/a", "p/b"}, wantWaits: []time.Duration{s5, 2 * s5, 4 * s5, 8 * s5}, served: "p/b"},
		{name: "retry hint honoured", scripts: map[string][]reply{"p/a": {{status: 529, retryAfter: "7"}}},
			wantHits: []string{"p/a", "p/a"}, wantWaits: []time.Duration{7 * s5}, served: "p/a"},
		{name: "hint beyond the bound fails over", scripts: map[string][]reply{"p/a": {{status: 529, retryAfter: "600"}}},
			wantHits: []string{"p/a", "p/b"}, served: "p/b"},
		{name: "provider says do not retry", scripts: map[string][]reply{"p/a": {{status: 500, noRetry: true}}},
			wantHits: []string{"p/a", "p/b"}, served: "p/b"},
		{name: "invalid request stops", scripts: map[string][]reply{"p/a": {{status: 400}}},
			wantHits: []string{"p/a"}, wantErr: "p/a: model: invalid_request: status 400 (http 400) (stop); the request itself was refused"},
		{name: "unavailable model fails over without retry", scripts: map[string][]reply{"p/a": {{status: 404}}, "p/b": {{status: 404}}},
			wantHits: []string{"p/a", "p/b", "q/c"}, served: "q/c"},
		{name: "mixed sequence", scripts: map[string][]reply{"p/a": {{status: 529}, {status: 429}}, "p/b": {{status: 500}, {status: 400}}},
			wantHits: []string{"p/a", "p/a", "p/b", "p/b"}, wantWaits: []time.Duration{s5, s5}, wantErr: "p/b: model: invalid_request"},
		{name: "a rate limit on the last target waits and retries", scripts: map[string][]reply{"p/a": {{status: 429}}, "p/b": {{status: 429}}, "q/c": {{status: 429, retryAfter: "3"}}},
			wantHits: []string{"p/a", "p/b", "q/c", "q/c"}, wantWaits: []time.Duration{3 * s5}, served: "q/c"},
		{name: "everything rate limited", scripts: map[string][]reply{"p/a": {{status: 429}}, "p/b": {{status: 429}}, "q/c": {{status: 429}, {status: 429}, {status: 429}, {status: 429}, {status: 429}}},
			wantHits: []string{"p/a", "p/b", "q/c", "q/c", "q/c", "q/c", "q/c"}, wantWaits: []time.Duration{s5, 2 * s5, 4 * s5, 8 * s5}, wantErr: "every target is unavailable"},
		{name: "always failing is bounded", scripts: map[string][]reply{"p/a": {{status: 500}, {status: 500}, {status: 500}, {status: 500}, {status: 500}},
			"p/b": {{status: 503}, {status: 503}, {status: 503}, {status: 503}, {status: 503}}, "q/c": {{status: 500}, {status: 500}, {status: 500}, {status: 500}, {status: 500}}},
			wantHits:  []string{"p/a", "p/a", "p/a", "p/a", "p/a", "p/b", "p/b", "p/b", "p/b", "p/b", "q/c", "q/c", "q/c", "q/c", "q/c"},
			wantWaits: []time.Duration{s5, 2 * s5, 4 * s5, 8 * s5, s5, 2 * s5, 4 * s5, 8 * s5, s5, 2 * s5, 4 * s5, 8 * s5}, wantErr: "q/c: model: server"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newScripted(t, tt.scripts)
			var c clock
			rep, err := Run(context.Background(), targets, srv.provider(), Policy{Sleep: c.sleep})
			if fmt.Sprint(srv.hits) != fmt.Sprint(tt.wantHits) {
				t.Errorf("requests %v, want %v", srv.hits, tt.wantHits)
			}
			if fmt.Sprint(c.waits) != fmt.Sprint(tt.wantWaits) {
				t.Errorf("waits %v, want %v", c.waits, tt.wantWaits)
			}
			if tt.wantErr != "" {
				var fe *FailedError
				var me *model.Error
				if !errors.As(err, &fe) || !errors.As(err, &me) || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want a FailedError wrapping a model error containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if rep.Served == nil || rep.Served.String() != tt.served {
				t.Errorf("served by %v, want %s", rep.Served, tt.served)
			}
		})
	}
}

// TestSingleTarget: one model is its own last target, so a rate limit is
// waited out (honouring the server's hint) instead of failing at once, and
// the waits of one request stay under MaxTotalWait.
func TestSingleTarget(t *testing.T) {
	one := []Target{{Provider: "p", Model: "a"}}
	s := time.Second
	tests := []struct {
		name      string
		replies   []reply
		wantHits  int
		wantWaits []time.Duration
		wantErr   string
	}{
		{name: "rate limit retried after the hint", replies: []reply{{status: 429, retryAfter: "3"}, {status: 429, retryAfter: "3"}},
			wantHits: 3, wantWaits: []time.Duration{3 * s, 3 * s}},
		{name: "rate limit without a hint backs off", replies: []reply{{status: 429}, {status: 429}},
			wantHits: 3, wantWaits: []time.Duration{s, 2 * s}},
		{name: "the total wait is bounded", replies: []reply{{status: 429, retryAfter: "50"}, {status: 429, retryAfter: "50"}, {status: 429, retryAfter: "50"}},
			wantHits: 3, wantWaits: []time.Duration{50 * s, 50 * s}, wantErr: "every target is unavailable"},
		{name: "a rejected credential is not retried", replies: []reply{{status: 401}},
			wantHits: 1, wantErr: "model: auth"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newScripted(t, map[string][]reply{"p/a": tt.replies})
			var c clock
			_, err := Run(context.Background(), one, srv.provider(), Policy{Sleep: c.sleep})
			if len(srv.hits) != tt.wantHits || fmt.Sprint(c.waits) != fmt.Sprint(tt.wantWaits) {
				t.Errorf("%d requests, waits %v; want %d and %v", len(srv.hits), c.waits, tt.wantHits, tt.wantWaits)
			}
			if (tt.wantErr == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("error %v, want %q", err, tt.wantErr)
			}
		})
	}
}

func TestFailoverBackoffIsCapped(t *testing.T) {
	var c clock
	fails := 0
	a := AttemptFunc(func(context.Context, Target) error {
		if fails++; fails <= 6 {
			return model.NewError(model.ErrServer, "boom")
		}
		return nil
	})
	_, err := Run(context.Background(), []Target{{Provider: "p", Model: "m"}}, a,
		Policy{Retries: 6, Backoff: time.Second, MaxBackoff: 5 * time.Second, Sleep: c.sleep})
	if err != nil {
		t.Fatal(err)
	}
	want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 5 * time.Second, 5 * time.Second, 5 * time.Second}
	if fmt.Sprint(c.waits) != fmt.Sprint(want) {
		t.Errorf("waits %v, want %v", c.waits, want)
	}
}

func TestFailoverCancelledWhileWaiting(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	a := AttemptFunc(func(context.Context, Target) error {
		calls++
		return model.NewError(model.ErrOverloaded, "busy")
	})
	sleep := func(ctx context.Context, d time.Duration) error { cancel(); <-ctx.Done(); return ctx.Err() }
	_, err := Run(ctx, []Target{{Provider: "p", Model: "m"}, {Provider: "q", Model: "m"}}, a, Policy{Sleep: sleep})
	if !errors.Is(err, context.Canceled) || calls != 1 {
		t.Fatalf("err %v after %d calls, want cancellation after 1", err, calls)
	}
}

func TestFailoverUnclassifiedErrorStops(t *testing.T) {
	a := AttemptFunc(func(context.Context, Target) error { return errors.New("plugin bug") })
	rep, err := Run(context.Background(), []Target{{Provider: "p", Model: "m"}, {Provider: "q", Model: "m"}}, a, Policy{})
	if err == nil || len(rep.Attempts) != 1 || rep.Attempts[0].Action != ActionStop {
		t.Fatalf("unclassified error: %v %+v", err, rep)
	}
}

func TestFailedErrorSummary(t *testing.T) {
	a, b := Target{Provider: "p", Model: "a"}, Target{Provider: "q", Model: "b"}
	tests := []struct {
		name     string
		attempts []Target
		want     string
	}{
		{name: "one", attempts: []Target{a}, want: "1 attempt on p/a"},
		{name: "retried", attempts: []Target{a, a, a}, want: "3 attempts on p/a"},
		{name: "failed over", attempts: []Target{a, a, b}, want: "3 attempts over 2 targets (p/a ×2, q/b)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var e FailedError
			for _, x := range tt.attempts {
				e.Attempts = append(e.Attempts, Attempt{Target: x})
			}
			if got := e.Summary(); got != tt.want {
				t.Fatalf("Summary = %q, want %q", got, tt.want)
			}
		})
	}
}
