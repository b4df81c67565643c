package runtime

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/core/session"
	"github.com/smith-agent/smith/sessionfmt"
)

// replayAll replays ref and returns its events and report.
func replayAll(t *testing.T, rt *Runtime, ref string, o ReplayOptions) ([]protocol.Event, protocol.ReplayReport) {
	t.Helper()
	var evs []protocol.Event
	o.Emit = func(ev ReplayEvent) error { evs = append(evs, ev.Event); return nil }
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	rep, err := rt.Replay(ctx, ref, o)
	if err != nil {
		t.Fatalf("replay %s: %v", ref, err)
	}
	return evs, rep
}

// lines marshals events as eval prints them, without their sequence
// numbers (live and replayed numbering differ) and, when skipDeltas,
// without the message_update deltas.
func lines(t *testing.T, evs []protocol.Event, skipDeltas bool) []string {
	t.Helper()
	var out []string
	for _, ev := range evs {
		switch ev.(type) {
		case protocol.MessageUpdate, protocol.ToolExecutionUpdate:
			if skipDeltas {
				continue
			}
		}
		b, err := protocol.MarshalEvent(protocol.Numbered(ev, 0))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(b))
	}
	return out
}

// demoWorld is a project with the demo's bug and a runtime on the mock
// model.
func demoWorld(t *testing.T, model string) (*world, *Runtime) {
	w := newWorld(t)
	w.write("greet.sh", "#!/bin/sh\n# greet prints a greeting for the name given as $1.\necho \"Helo, $1!\"\n")
	w.write("test.sh", "#!/bin/sh\nout=$(sh greet.sh world)\n[ \"$out\" = \"Hello, world!\" ] && echo \"PASS: greet.sh world -> $out\" || { echo \"FAIL: $out\"; exit 1; }\n")
	return w, w.open(map[string]string{"model": model}, nil)
}

// record runs each prompt in a new session called name and closes it.
func record(t *testing.T, rt *Runtime, name string, prompts ...string) (protocol.SessionInfo, []protocol.Event) {
	t.Helper()
	s, err := rt.NewSession(context.Background(), NewSessionOptions{Name: name})
	if err != nil {
		t.Fatal(err)
	}
	var evs []protocol.Event
	for _, p := range prompts {
		evs = append(evs, runPrompt(t, s, p)...)
	}
	info := s.Info()
	if err := s.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	return info, evs
}

// script writes a mock script outside the project and returns its model
// name.
func script(t *testing.T, text string) string {
	p := filepath.Join(t.TempDir(), "script.mock.json")
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return "mock/" + p
}

// TestReplayMatchesLive: replaying the demo session gives the events the
// live run published (deltas aside: the mock streamed them in pieces,
// replay sends each block whole; a running tool's partial output is not
// recorded, its result is), and the session file is not written.
func TestReplayMatchesLive(t *testing.T) {
	_, rt := demoWorld(t, "mock")
	info, live := record(t, rt, "demo", "fix the bug")
	before, err := os.ReadFile(info.Path)
	if err != nil {
		t.Fatal(err)
	}
	evs, rep := replayAll(t, rt, "demo", ReplayOptions{})
	if got, want := strings.Join(lines(t, evs, true), "\n"), strings.Join(lines(t, live, true), "\n"); got != want {
		t.Errorf("replayed\n%s\nlive\n%s", got, want)
	}
	for i, ev := range evs {
		if ev.Sequence() != uint64(i+1) {
			t.Fatalf("event %d has seq %d; replay numbers from 1", i, ev.Sequence())
		}
	}
	if !rep.Matched() || rep.Turns != 1 || rep.ShownFrom != 1 || rep.ShownTo != 1 || len(rep.Skipped) != 0 {
		t.Errorf("report %+v", rep)
	}
	after, _ := os.ReadFile(info.Path)
	if !bytes.Equal(before, after) {
		t.Error("replay changed the session file")
	}
}

// TestReplayDeterministic: two replays of one session, one of them of a
// copy of its file, give byte-identical JSON lines.
func TestReplayDeterministic(t *testing.T) {
	w, rt := demoWorld(t, "mock")
	info, _ := record(t, rt, "det", "fix the bug")
	cp := filepath.Join(w.home, "copy.session")
	b, _ := os.ReadFile(info.Path)
	if err := os.WriteFile(cp, b, 0o400); err != nil {
		t.Fatal(err)
	}
	a, _ := replayAll(t, rt, "det", ReplayOptions{})
	c, _ := replayAll(t, rt, cp, ReplayOptions{})
	var ab, cb []string
	for _, ev := range a {
		m, _ := protocol.MarshalEvent(ev)
		ab = append(ab, string(m))
	}
	for _, ev := range c {
		m, _ := protocol.MarshalEvent(ev)
		cb = append(cb, string(m))
	}
	if strings.Join(ab, "\n") != strings.Join(cb, "\n") || len(ab) < 40 {
		t.Errorf("two replays differ (%d and %d events)", len(ab), len(cb))
	}
}

// TestReplayTurns: a range shows only its turns, numbered from 1 by the
// replay and led by the model in effect; bad ranges are usage errors.
func TestReplayTurns(t *testing.T) {
	name := script(t, `{"mock_script":1,"responses":[{"text":"one"},{"text":"two"},{"text":"three"}]}`)
	_, rt := demoWorld(t, name)
	record(t, rt, "three", "first", "second", "third")
	tests := []struct {
		name     string
		from, to int
		runs     []int
		texts    string
	}{
		{"all", 0, 0, []int{1, 2, 3}, "one two three"},
		{"middle", 2, 2, []int{2}, "two"},
		{"from", 2, 0, []int{2, 3}, "two three"},
		{"to", 0, 2, []int{1, 2}, "one two"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			evs, rep := replayAll(t, rt, "three", ReplayOptions{From: tt.from, To: tt.to})
			var runs []int
			var texts []string
			for _, ev := range evs {
				switch e := ev.(type) {
				case protocol.AgentStart:
					runs = append(runs, e.Run)
				case protocol.MessageEnd:
					if am, ok := e.Message.(model.AssistantMessage); ok {
						texts = append(texts, am.Content[0].(model.Text).Text)
					}
				}
			}
			if _, ok := evs[0].(protocol.ModelChange); !ok || evs[0].Sequence() != 1 {
				t.Errorf("first event %#v; want the model change, seq 1", evs[0])
			}
			if len(runs) != len(tt.runs) || strings.Join(texts, " ") != tt.texts || rep.Turns != 3 {
				t.Errorf("runs %v texts %q report %+v", runs, texts, rep)
			}
			for i := range runs {
				if runs[i] != tt.runs[i] {
					t.Errorf("runs %v, want %v", runs, tt.runs)
				}
			}
		})
	}
	for _, bad := range []struct {
		name     string
		from, to int
	}{{"past the end", 4, 5}, {"reversed", 3, 2}, {"to past the end", 1, 9}} {
		t.Run(bad.name, func(t *testing.T) {
			_, err := rt.Replay(context.Background(), "three", ReplayOptions{From: bad.from, To: bad.to})
			if !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), "3 turn(s)") {
				t.Errorf("error %v; want a usage error naming the session's 3 turns", err)
			}
		})
	}
}

// TestReplayReExecute: running the recorded calls again in a copy of an
// unchanged tree diverges nowhere; a changed file is a divergence naming
// the effect, the tool and both outputs; the tree itself is never
// touched.
func TestReplayReExecute(t *testing.T) {
	w, rt := demoWorld(t, "mock")
	pristine := filepath.Join(filepath.Dir(w.project), "pristine")
	if err := replayCopy(w.project, mustMkdir(t, pristine)); err != nil {
		t.Fatal(err)
	}
	record(t, rt, "fix", "fix the bug")
	fixed, _ := os.ReadFile(filepath.Join(w.project, "greet.sh"))
	tests := []struct {
		name  string
		tree  string
		tools []string
	}{
		{"unchanged tree", pristine, nil},
		// The session's own edit is in the project now: the read sees it
		// and the edit finds nothing to replace.
		{"changed file", "", []string{"read", "edit"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			evs, rep := replayAll(t, rt, "fix", ReplayOptions{ReExecute: true, Tree: tt.tree})
			var tools []string
			for _, d := range rep.Divergences {
				tools = append(tools, d.Tool)
				if d.Kind != protocol.DivergeTool || d.EffectID == "" || d.Turn != 1 || d.Recorded == d.Observed && d.RecordedMutation == d.ObservedMutation {
					t.Errorf("divergence %+v", d)
				}
			}
			if strings.Join(tools, " ") != strings.Join(tt.tools, " ") {
				t.Errorf("divergences in %v, want %v: %+v", tools, tt.tools, rep.Divergences)
			}
			notices := 0
			for _, ev := range evs {
				if n, ok := ev.(protocol.Notice); ok && strings.Contains(n.Text, "divergence") {
					notices++
					if strings.Contains(n.Text, "smith-replay-") {
						t.Errorf("the notice names the scratch directory: %s", n.Text)
					}
				}
			}
			if notices != len(tt.tools) {
				t.Errorf("%d divergence notices, want %d", notices, len(tt.tools))
			}
		})
	}
	if d := missingTree(t, rt); d != "" {
		t.Error(d)
	}
	if now, _ := os.ReadFile(filepath.Join(w.project, "greet.sh")); !bytes.Equal(now, fixed) {
		t.Errorf("the project's greet.sh changed to %q", now)
	}
	if b, _ := os.ReadFile(filepath.Join(pristine, "greet.sh")); !strings.Contains(string(b), "Helo,") {
		t.Errorf("the pristine tree was edited: %q", b)
	}
}

// missingTree checks that a missing tree is a usage error naming it.
func missingTree(t *testing.T, rt *Runtime) string {
	_, err := rt.Replay(context.Background(), "fix", ReplayOptions{ReExecute: true, Tree: "/nonexistent/tree"})
	if !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), "/nonexistent/tree") {
		return "a missing tree: " + errString(err)
	}
	return ""
}

func errString(err error) string {
	if err == nil {
		return "no error"
	}
	return err.Error()
}

func mustMkdir(t *testing.T, d string) string {
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	return d
}

// TestReplayIncompleteEffect: an effect whose intent has no completion
// (the process died while it ran) is shown as unknown and never run
// again, with or without ReExecute.
func TestReplayIncompleteEffect(t *testing.T) {
	w, rt := demoWorld(t, "mock")
	marker := filepath.Join(t.TempDir(), "ran")
	path := filepath.Join(w.home, "interrupted.session")
	writeInterrupted(t, path, w.project, marker)
	for _, reexec := range []bool{false, true} {
		evs, rp := replayAll(t, rt, path, ReplayOptions{ReExecute: reexec})
		var end *protocol.ToolExecutionEnd
		var agentEnd *protocol.AgentEnd
		for _, ev := range evs {
			switch e := ev.(type) {
			case protocol.ToolExecutionEnd:
				end = &e
			case protocol.AgentEnd:
				agentEnd = &e
			}
		}
		if end == nil || end.Result.Mutation != model.MutationUnknown || !strings.Contains(replayText(end.Result), "unknown") {
			t.Errorf("re-execute %v: tool end %+v; want the call shown as unknown", reexec, end)
		}
		if agentEnd == nil || agentEnd.Reason != protocol.EndAborted {
			t.Errorf("re-execute %v: agent end %+v", reexec, agentEnd)
		}
		if len(rp.Unknown) != 1 || !rp.Matched() {
			t.Errorf("re-execute %v: report %+v", reexec, rp)
		}
		if _, err := os.Stat(marker); err == nil {
			t.Fatalf("re-execute %v: the incomplete effect was run again", reexec)
		}
	}
}

// TestReplayIncompleteExchange: a provider exchange that began and never
// completed (the process died while the provider answered) is shown as
// unknown, and the interrupted turn ends the run.
func TestReplayIncompleteExchange(t *testing.T) {
	w, rt := demoWorld(t, "mock")
	path := filepath.Join(w.home, "streaming.session")
	f, err := sessionfmt.Create(path, nil)
	must(t, err)
	st, err := session.New(f)
	must(t, err)
	ctx := context.Background()
	must(t, st.RecordMetadata(session.Metadata{Cwd: w.project, Smith: "test"}))
	must(t, st.Record(ctx, model.UserText("hi")))
	id := sessionfmt.NewID().String()
	must(t, st.Append(ctx, effect.Intent{ID: id, Generation: 1, Kind: "provider.exchange",
		Input: json.RawMessage(`{"provider":"anthropic","model":"claude-x","method":"POST","url":"http://127.0.0.1:9/v1/messages","header":{},"body_bytes":0,"body_sha256":""}`)}))
	must(t, f.Close())
	evs, rp := replayAll(t, rt, path, ReplayOptions{})
	if len(rp.Unknown) != 1 || rp.Unknown[0] != id {
		t.Errorf("unknown %v, want [%s]", rp.Unknown, id)
	}
	var notice bool
	for _, ev := range evs {
		if n, ok := ev.(protocol.Notice); ok && strings.Contains(n.Text, id) && strings.Contains(n.Text, "unknown") {
			notice = true
		}
	}
	if e, ok := evs[len(evs)-2].(protocol.AgentEnd); !ok || e.Reason != protocol.EndAborted || !notice {
		t.Errorf("events %v (notice %v)", types(evs), notice)
	}
}

// writeInterrupted writes a session whose bash call's effect began and
// never completed; the call would create marker.
func writeInterrupted(t *testing.T, path, cwd, marker string) {
	t.Helper()
	f, err := sessionfmt.Create(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := session.New(f)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	args, _ := json.Marshal(map[string]string{"command": "touch " + marker})
	must(t, st.RecordMetadata(session.Metadata{Cwd: cwd, Smith: "test"}))
	must(t, st.Record(ctx, model.UserText("touch it")))
	must(t, st.Record(ctx, model.AssistantMessage{Content: []model.Content{model.ToolCall{ID: "call_1", Name: "bash", Arguments: args}},
		Provider: "mock", Model: "mock-model", Stop: model.StopToolUse}))
	must(t, st.Append(ctx, effect.Intent{ID: sessionfmt.NewID().String(), Parent: "call_1", Generation: 1, Kind: "process.run",
		Input: json.RawMessage(`{"command":"touch"}`)}))
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestReplayUnknownRecords: a file with a frame type and an entry kind
// this Smith does not know (as a newer one may write) replays, and says
// what it skipped, first.
func TestReplayUnknownRecords(t *testing.T) {
	w, rt := demoWorld(t, "mock")
	info, _ := record(t, rt, "newer", "fix the bug")
	cp := filepath.Join(w.home, "newer.session")
	b, _ := os.ReadFile(info.Path)
	sess, _, err := sessionfmt.Load(info.Path, nil)
	if err != nil {
		t.Fatal(err)
	}
	b = appendUnknownFrames(t, b, sess.ID(sess.Selected()))
	if err := os.WriteFile(cp, b, 0o600); err != nil {
		t.Fatal(err)
	}
	evs, rp := replayAll(t, rt, cp, ReplayOptions{})
	if len(rp.Skipped) != 2 || !strings.Contains(rp.Skipped[0], "1 frame(s) of a type") || !strings.Contains(rp.Skipped[1], "kind 200") {
		t.Fatalf("skipped %q", rp.Skipped)
	}
	for i := range 2 {
		n, ok := evs[i].(protocol.Notice)
		if !ok || n.Text != "replay: "+rp.Skipped[i] {
			t.Errorf("event %d is %#v; want the skip notice", i, evs[i])
		}
	}
	if !rp.Matched() || rp.Turns != 1 {
		t.Errorf("report %+v", rp)
	}
	var ends int
	for _, ev := range evs {
		if _, ok := ev.(protocol.AgentEnd); ok {
			ends++
		}
	}
	if ends != 1 {
		t.Errorf("%d agent ends", ends)
	}
}

// appendUnknownFrames appends a frame of type 0x7e and an entry of kind
// 200 (child of parent) to the session file bytes b.
func appendUnknownFrames(t *testing.T, b []byte, parent sessionfmt.ID) []byte {
	t.Helper()
	b = replayTestFrame(b, 0x7e, []byte("from the future"))
	id := sessionfmt.NewID()
	content, _ := sessionfmt.EncodeContent(map[string]string{"what": "a kind from the future"})
	payload, err := sessionfmt.EncodeContent(map[int]any{1: id[:], 2: parent[:], 3: time.Now().UnixMilli(), 4: 200, 8: content})
	if err != nil {
		t.Fatal(err)
	}
	return replayTestFrame(b, 0x02, payload)
}

func replayTestFrame(b []byte, typ byte, payload []byte) []byte {
	start := len(b)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(payload)))
	b = append(b, typ, 0)
	b = append(b, payload...)
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b[start:], crc32.MakeTable(crc32.Castagnoli)))
}
