package runtime

import (
	"context"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/protocol"
)

// notices returns the text of the warnings among evs.
func notices(evs []protocol.Event) []string {
	var out []string
	for _, ev := range evs {
		if n, ok := ev.(protocol.Notice); ok && n.Level == protocol.NoticeWarning {
			out = append(out, n.Text)
		}
	}
	return out
}

// TestCompactionThatLeavesTooMuch: a compaction whose summary and kept
// context are still above the threshold does not make every later request
// compact again: the requests are sent as they are, one warning says what
// to change, and the next compaction waits until more than
// keep-recent-tokens of conversation were added since.
func TestCompactionThatLeavesTooMuch(t *testing.T) {
	w := newWorld(t)
	w.write("g.mock.json", mockScript(
		mockText(words("alpha", 800), 500, 200, 0),
		mockText(words("bravo", 800), 2500, 200, 0),
		mockText(words("summary", 12000), 900, 3000, 0), // ~3,000 tokens: over the 2,560-token threshold alone
		mockText("charlie", 3400, 10, 0),
		mockText("delta", 3450, 10, 0),
		mockText("echo", 3500, 10, 0),
		mockText("golf", 3900, 10, 0),
		mockText("SUMMARY two", 900, 10, 0),
		mockText("foxtrot", 600, 10, 0)))
	w.config(smallModel("g.mock.json"))
	rt := w.open(map[string]string{"model": "mock/g.mock.json"}, nil)
	s, err := rt.NewSession(context.Background(), NewSessionOptions{Name: "g"})
	if err != nil {
		t.Fatal(err)
	}
	runPrompt(t, s, words("one", 800))
	runPrompt(t, s, words("two", 800))
	evs := runPrompt(t, s, "three")
	if starts, ends := compactionEvents(evs); len(starts) != 1 || len(ends) != 1 || ends[0].Error != "" || ends[0].TokensAfter <= 2560 {
		t.Fatalf("the first compaction: %v %+v", starts, ends)
	}

	evs = runPrompt(t, s, "four")
	if starts, _ := compactionEvents(evs); len(starts) != 0 {
		t.Fatalf("compacted again with nothing new: %v", starts)
	}
	warned := notices(evs)
	if len(warned) != 1 || !strings.Contains(warned[0], "left the context at ~") || !strings.Contains(warned[0], "above the compaction threshold of 2,560 tokens") ||
		!strings.Contains(warned[0], "once more than 300 tokens of conversation are added") ||
		!strings.Contains(warned[0], "lower compaction { keep-recent-tokens }") || !strings.Contains(warned[0], "a larger context window") {
		t.Fatalf("warnings %q", warned)
	}
	t.Logf("the warning: %s", warned[0])
	if e := agentEnd(evs); e.Reason != protocol.EndCompleted {
		t.Fatalf("agent_end %+v", e)
	}

	evs = runPrompt(t, s, "five")
	if starts, _ := compactionEvents(evs); len(starts) != 0 || len(notices(evs)) != 0 {
		t.Fatalf("the second request after it: compactions %v, warnings %q (the warning is given once)", starts, notices(evs))
	}

	// A request is checked before its input is added: the long input
	// counts from the next request on.
	if starts, _ := compactionEvents(runPrompt(t, s, words("six", 1600))); len(starts) != 0 {
		t.Fatalf("compacted before the long input was added: %v", starts)
	}
	evs = runPrompt(t, s, "seven")
	if starts, ends := compactionEvents(evs); len(starts) != 1 || starts[0] != protocol.CompactThreshold || len(ends) != 1 || ends[0].Error != "" {
		t.Fatalf("after more than keep-recent-tokens of conversation: %v %+v, want a compaction", starts, ends)
	}
	if n := len(compactions(t, s)); n != 2 {
		t.Fatalf("%d compaction entries, want 2", n)
	}
	if n := len(mockOf(t, s).Requests()); n != 9 {
		t.Fatalf("%d requests, want 9", n)
	}
}
