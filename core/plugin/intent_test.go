package plugin

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/internal/hostops"
	"github.com/smith-agent/smith/core/internal/pluginabi"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/wasmhost"
)

// fakeUI answers every confirmation with answer (or err) after wait, and
// keeps what it was shown.
type fakeUI struct {
	answer bool
	err    error
	wait   time.Duration

	mu    sync.Mutex
	notes []Notification
	asked []Confirmation
}

func (f *fakeUI) Notify(_ context.Context, n Notification) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.notes = append(f.notes, n)
}

func (f *fakeUI) Confirm(ctx context.Context, q Confirmation) (bool, error) {
	f.mu.Lock()
	f.asked = append(f.asked, q)
	f.mu.Unlock()
	select {
	case <-time.After(f.wait):
	case <-ctx.Done():
		return false, ErrDismissed
	}
	return f.answer, f.err
}

// confirmScript calls write on confirm.txt, then answers.
const confirmScript = `{"mock_script":1,"responses":[
  {"tool_calls":[{"id":"c1","name":"write","arguments":{"path":"confirm.txt","content":"x"}}]},{"text":"ok"}]}`

// TestHandlerConfirmation: a handler's ui request-confirmation reaches
// the binding's UI with the plugin, the call and the bounds; the answer
// decides the call; where nobody can answer it is no-user and the
// notification goes to the plugin log. The wait is not charged to
// HandlerBudget.
func TestHandlerConfirmation(t *testing.T) {
	for _, tt := range []struct {
		name   string
		ui     *fakeUI
		ran    bool
		denied string
		logged bool
	}{
		{name: "yes", ui: &fakeUI{answer: true}, ran: true},
		{name: "no", ui: &fakeUI{answer: false}, denied: "the person said no"},
		{name: "dismissed", ui: &fakeUI{err: ErrDismissed}, denied: "not asked: ui-fault dismissed"},
		{name: "no one to ask", denied: "not asked: ui-fault no-user", logged: true},
		{name: "slower than the handler budget", ui: &fakeUI{answer: true, wait: HandlerBudget + 300*time.Millisecond}, ran: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var log bytes.Buffer
			e := Effects{}
			if tt.ui != nil {
				e.UI = tt.ui
			}
			w, hs := handlerWorldWith(t, Config{Log: &log}, e)
			evs, _, _ := handlerRun(t, w, hs, nil, confirmScript, "write it")
			if end := endOf(evs); end.Reason != protocol.EndCompleted {
				t.Fatalf("agent_end %+v; notices %q", end, noticeTexts(evs))
			}
			var res model.ToolResultMessage
			for _, ev := range evs {
				if te, ok := ev.(protocol.ToolExecutionEnd); ok {
					res = te.Result
				}
			}
			_, statErr := os.Stat(filepath.Join(w.root, "confirm.txt"))
			if tt.ran != (statErr == nil) || tt.ran == res.IsError {
				t.Fatalf("ran %v (stat %v), result %+v", tt.ran, statErr, res)
			}
			if tt.denied != "" && !strings.Contains(model.TextOf(res.Content), "denied by plugin guard: "+tt.denied) {
				t.Fatalf("result %q, want the denial %q", model.TextOf(res.Content), tt.denied)
			}
			if got := strings.Contains(log.String(), "plugin guard: warning: notification (no one to show it to): handlerguest asks about a call"); got != tt.logged {
				t.Fatalf("notification logged %v, want %v; log %q", got, tt.logged, log.String())
			}
			if tt.ui == nil {
				return
			}
			if len(tt.ui.notes) != 1 || tt.ui.notes[0] != (Notification{Plugin: "guard", Level: "warning", Text: "handlerguest asks about a call"}) {
				t.Fatalf("notifications %+v", tt.ui.notes)
			}
			want := Confirmation{Plugin: "guard", CallID: "handler:tool_execution_start", Prompt: "run this call?", Timeout: time.Minute}
			if len(tt.ui.asked) != 1 || tt.ui.asked[0] != want {
				t.Fatalf("asked %+v, want %+v", tt.ui.asked, want)
			}
		})
	}
}

// TestIntentText: what a plugin shows is escaped of terminal controls
// and cut at IntentTextBytes; the
// timeout is the default for 0 and capped; outside a call a confirmation
// is refused.
func TestIntentText(t *testing.T) {
	f := &fakeUI{answer: true}
	u := &uiHost{name: "p", h: &Host{log: &syncWriter{w: &bytes.Buffer{}}}}
	u.log = &logHost{name: "p", h: u.h}
	st := &callState{ops: &hostops.Ops{}, ui: f, callID: "c9"}
	ctx := context.WithValue(context.Background(), callKey{}, st)
	long := strings.Repeat("é", IntentTextBytes)
	for _, tt := range []struct {
		name    string
		prompt  string
		timeout uint32
		want    Confirmation
	}{
		{name: "escapes", prompt: "rm \x1b[31mall\x1b]0;x\x07?", want: Confirmation{Prompt: `rm \x1b[31mall\x1b]0;x\x07?`, Timeout: DefaultConfirmTimeout}},
		{name: "cut", prompt: long, timeout: 1, want: Confirmation{Prompt: strings.Repeat("é", IntentTextBytes/2) + " [2048 more bytes cut]", Timeout: time.Millisecond}},
		{name: "capped", prompt: "ok?", timeout: 1 << 31, want: Confirmation{Prompt: "ok?", Timeout: MaxConfirmTimeout}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f.asked = nil
			yes, err := u.RequestConfirmation(ctx, tt.prompt, pluginabi.ConfirmOptions{TimeoutMs: tt.timeout})
			if err != nil || !yes {
				t.Fatalf("answer %v, %v", yes, err)
			}
			tt.want.Plugin, tt.want.CallID = "p", "c9"
			if len(f.asked) != 1 || f.asked[0] != tt.want {
				t.Fatalf("asked %+v, want %+v", f.asked, tt.want)
			}
		})
	}
	_, err := u.RequestConfirmation(context.Background(), "ok?", pluginabi.ConfirmOptions{})
	if fault, ok := err.(pluginabi.UIFault); !ok || fault.Case != pluginabi.UIFaultUnknown || !strings.Contains(fault.Unknown, "only during a tool call") {
		t.Fatalf("outside a call: %v", err)
	}
}

// TestBudgetFix: a call that ran out of its time, fuel or memory budget
// says where to raise it; other failures are left as they are.
func TestBudgetFix(t *testing.T) {
	for _, tt := range []struct {
		name string
		err  error
		want string
	}{
		{name: "fuel", err: &wasmhost.Error{Plugin: "p", Budget: wasmhost.BudgetFuel, Err: errors.New("used all")},
			want: `raise its budget in smith.kdl: plugin "p" { fuel 10000000000 }`},
		{name: "deadline", err: fmt.Errorf("call: %w", &wasmhost.Error{Plugin: "p", Budget: wasmhost.BudgetDeadline, Err: errors.New("ran past")}),
			want: `plugin "p" { timeout "2m" }`},
		{name: "initial memory", err: &wasmhost.ValidationError{Plugin: "p", Problems: []wasmhost.Problem{{Item: "memory", Got: "declares 43 initial pages",
			Want: "at most 32 pages (2048 KiB, its memory budget)"}}}, want: `plugin "p" { memory "256MiB" }`},
		{name: "trap", err: &wasmhost.Error{Plugin: "p", Err: errors.New("unreachable")}, want: ""},
		{name: "other", err: errors.New("boom"), want: ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := budgetFix("p", tt.err)
			if tt.want == "" {
				if got != tt.err {
					t.Fatalf("budgetFix changed %v into %v", tt.err, got)
				}
				return
			}
			if !strings.Contains(got.Error(), tt.want) || !errors.Is(got, tt.err) {
				t.Fatalf("budgetFix = %v; want it to wrap the error and say %q", got, tt.want)
			}
		})
	}
}
