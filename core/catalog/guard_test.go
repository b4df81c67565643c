package catalog

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/smith-agent/smith/core/model"
)

// recorder is a provider that records what it was asked.
type recorder struct {
	mu   sync.Mutex
	reqs []*model.Request
}

func (r *recorder) Stream(_ context.Context, req *model.Request) model.Stream {
	r.mu.Lock()
	r.reqs = append(r.reqs, req)
	r.mu.Unlock()
	return &failed{ev: model.Done{Reason: model.StopEnd}}
}

func TestGuardFailsBeforeDispatch(t *testing.T) {
	s := testSnapshot(t)
	text, _ := s.Lookup("acme", "vis-text")
	img := &model.Request{Model: "vis-text", MaxOutputTokens: 100000, Messages: []model.Message{
		model.UserMessage{Content: []model.Content{model.Text{Text: "see"}, model.Image{MediaType: "image/png", Data: []byte{1}}}}}}

	inner := &recorder{}
	st := Guard(inner, text, Policy{}).Stream(context.Background(), img)
	ev, ok := st.Next()
	se, isErr := ev.(model.StreamError)
	if !ok || !isErr || se.Err.Kind != model.ErrInvalidRequest ||
		!strings.Contains(se.Err.Message, "model acme/vis-text does not support image input") {
		t.Fatalf("first event %#v", ev)
	}
	if _, more := st.Next(); more {
		t.Error("events after the terminal error")
	}
	if len(inner.reqs) != 0 {
		t.Fatal("the request was dispatched")
	}

	var notes []string
	st = Guard(inner, text, Policy{Images: DegradeAdjust}).Stream(context.Background(), img)
	ev, _ = st.Next()
	for ; model.IsNotice(ev); ev, _ = st.Next() {
		notes = append(notes, ev.(model.Note).Text)
	}
	if model.StreamEventType(ev) != "done" {
		t.Fatalf("adjusted request: %#v", ev)
	}
	if len(inner.reqs) != 1 {
		t.Fatal("adjusted request not dispatched")
	}
	sent := inner.reqs[0]
	if NeedsOf(sent, "").Images || sent.MaxOutputTokens != 4096 {
		t.Errorf("dispatched images=%v max=%d; want none and 4096", NeedsOf(sent, "").Images, sent.MaxOutputTokens)
	}
	if img.MaxOutputTokens != 100000 || !NeedsOf(img, "").Images {
		t.Error("the caller's request was modified")
	}
	if len(notes) != 2 {
		t.Errorf("notes %q", notes)
	}
}
