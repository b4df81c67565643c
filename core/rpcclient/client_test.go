package rpcclient

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
)

// fakeServer answers each request line with handle's reply lines.
func fakeServer(t *testing.T, handle func(req protocol.RPCRequest) []string) (*Client, func()) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go func() {
		sc := bufio.NewScanner(inR)
		for sc.Scan() {
			var req protocol.RPCRequest
			if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
				t.Errorf("the client sent %q: %v", sc.Text(), err)
				continue
			}
			for _, l := range handle(req) {
				if _, err := io.WriteString(outW, l+"\n"); err != nil {
					return
				}
			}
		}
		_ = outW.Close()
	}()
	c := New(outR, inW)
	return c, func() { _ = outW.Close() }
}

func TestCalls(t *testing.T) {
	tests := []struct {
		name    string
		reply   string // %s is the id
		wantErr *protocol.RPCError
		want    protocol.Stats
	}{
		{name: "result", reply: `{"jsonrpc":"2.0","id":%s,"result":{"responses":3,"context_percent":-1}}`, want: protocol.Stats{Responses: 3, ContextPercent: -1}},
		{name: "error", reply: `{"jsonrpc":"2.0","id":%s,"error":{"code":-32003,"message":"no session"}}`, wantErr: &protocol.RPCError{Code: -32003, Message: "no session"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := fakeServer(t, func(req protocol.RPCRequest) []string {
				if req.JSONRPC != "2.0" || req.Method != protocol.MethodStats {
					t.Errorf("request %+v", req)
				}
				return []string{fmt.Sprintf(tc.reply, req.ID)}
			})
			defer c.Close()
			got, err := c.Stats(context.Background())
			var re *protocol.RPCError
			switch {
			case tc.wantErr != nil:
				if !errors.As(err, &re) || *re != *tc.wantErr {
					t.Fatalf("error %v; want %v", err, tc.wantErr)
				}
			case err != nil:
				t.Fatal(err)
			case got.Responses != tc.want.Responses || got.ContextPercent != tc.want.ContextPercent:
				t.Fatalf("stats %+v; want %+v", got, tc.want)
			}
		})
	}
}

// TestConcurrentCallsAndEvents: answers out of order reach their calls;
// events between them arrive in order.
func TestConcurrentCallsAndEvents(t *testing.T) {
	var mu sync.Mutex
	var held []json.RawMessage
	c, _ := fakeServer(t, func(req protocol.RPCRequest) []string {
		mu.Lock()
		defer mu.Unlock()
		held = append(held, req.ID)
		if len(held) < 8 {
			return nil
		}
		var out []string
		for i := len(held) - 1; i >= 0; i-- { // answer in reverse
			out = append(out, fmt.Sprintf(`{"jsonrpc":"2.0","method":"event","params":{"type":"notice","seq":%d,"level":"info","text":"n"}}`, len(held)-i))
			out = append(out, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"responses":%s}}`, held[i], held[i]))
		}
		return out
	})
	defer c.Close()
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			var st protocol.Stats
			if err := c.Call(context.Background(), protocol.MethodStats, nil, &st); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	for want := uint64(1); want <= 8; want++ {
		select {
		case ev := <-c.Events():
			if ev.Sequence() != want {
				t.Fatalf("event %d has sequence %d", want, ev.Sequence())
			}
		case <-time.After(10 * time.Second):
			t.Fatal("events missing")
		}
	}
}

// TestConnectionEnd: a call pending when the server's output ends fails
// with ErrClosed, and so does every later call; the events channel closes.
func TestConnectionEnd(t *testing.T) {
	c, end := fakeServer(t, func(req protocol.RPCRequest) []string { return []string{"not json"} })
	errc := make(chan error, 1)
	go func() { errc <- c.Abort(context.Background()) }()
	time.Sleep(10 * time.Millisecond)
	end()
	if err := <-errc; !errors.Is(err, ErrClosed) {
		t.Fatalf("pending call: %v; want ErrClosed", err)
	}
	if err := c.Abort(context.Background()); !errors.Is(err, ErrClosed) {
		t.Fatalf("later call: %v; want ErrClosed", err)
	}
	for range c.Events() {
	}
	if c.EventError() == nil {
		t.Error("the line that is not JSON was not reported")
	}
}

// TestAssembler: deltas of text, thinking and a tool call assemble into
// the message_end's message, arguments compacted.
func TestAssembler(t *testing.T) {
	end := model.AssistantMessage{Content: []model.Content{
		model.Thinking{Text: "hmm, ok"},
		model.Text{Text: "I will read it"},
		model.ToolCall{ID: "c1", Name: "read", Arguments: json.RawMessage(`{"path":"a b"}`)},
	}, Provider: "p", Model: "m", ResponseID: "r", Stop: model.StopToolUse, Usage: model.Usage{Input: model.Known(3)}}
	deltas := []model.StreamEvent{
		model.Start{Provider: "p", Model: "m", ResponseID: "r"},
		model.ThinkingDelta{Index: 0, Text: "hmm, "}, model.ThinkingDelta{Index: 0, Text: "ok"},
		model.TextDelta{Index: 1, Text: "I will "}, model.TextDelta{Index: 1, Text: "read it"},
		model.ToolCallStart{Index: 2, ID: "c1", Name: "read"},
		model.ToolCallDelta{Index: 2, Arguments: `{"path": `}, model.ToolCallDelta{Index: 2, Arguments: `"a b"}`},
		model.ToolCallEnd{Index: 2},
	}
	var a Assembler
	evs := []protocol.Event{protocol.MessageStart{Message: model.AssistantMessage{}}}
	for _, d := range deltas {
		evs = append(evs, protocol.MessageUpdate{Delta: d})
	}
	evs = append(evs, protocol.MessageEnd{Message: end})
	var got model.AssistantMessage
	var done bool
	for _, ev := range evs {
		got, done = a.Observe(ev)
	}
	if !done {
		t.Fatal("no message at message_end")
	}
	if !reflect.DeepEqual(got, end) {
		t.Fatalf("assembled %#v\nwant %#v", got, end)
	}
}
