package tui

import (
	"encoding/json"
	"strings"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/smith/internal/textout"
)

// feed applies one runtime event to the transcript and the status.
func (a *App) feed(ev protocol.Event) {
	t := &a.tr
	switch ev := ev.(type) {
	case protocol.AgentStart:
		a.busy, a.started, a.firstToken = true, a.now(), false
	case protocol.MessageStart:
		switch m := ev.Message.(type) {
		case model.UserMessage:
			t.add(&item{kind: kindUser, text: model.TextOf(m.Content)})
		case model.AssistantMessage:
			a.blocks = map[int]*item{}
		}
	case protocol.MessageUpdate:
		a.delta(ev.Delta)
	case protocol.MessageEnd:
		if m, ok := ev.Message.(model.AssistantMessage); ok {
			a.endAssistant(m)
		}
	case protocol.ToolExecutionStart:
		it := a.callItem(ev.CallID, ev.Name)
		it.args = summarizeArgs(ev.Name, ev.Arguments)
		it.touch()
	case protocol.ToolExecutionUpdate:
		if it := a.calls[ev.CallID]; it != nil {
			// Updates carry the new output; the preview keeps its tail.
			it.output += model.TextOf(ev.Partial)
			if n := len(it.output); n > maxPartial {
				it.output = it.output[n-maxPartial:]
			}
			it.touch()
		}
	case protocol.ToolExecutionEnd:
		a.result(ev.CallID, ev.Name, ev.Result)
	case protocol.ProviderRetry:
		t.add(&item{kind: kindWarning, text: textout.Retry(ev)})
	case protocol.ProviderFailover:
		t.add(&item{kind: kindWarning, text: textout.Failover(ev)})
	case protocol.CompactionStart:
		a.compacting = true
		if !a.busy {
			a.busy, a.compactOnly, a.started = true, true, a.now()
		}
		t.add(&item{kind: kindInfo, text: textout.CompactionStart(ev) + "…"})
	case protocol.CompactionEnd:
		a.compacting = false
		if a.compactOnly {
			a.busy, a.compactOnly = false, false
		}
		a.refreshStats()
		if ev.Error != "" {
			t.add(&item{kind: kindError, text: textout.CompactionEnd(ev)})
		} else {
			t.add(&item{kind: kindInfo, text: textout.CompactionEnd(ev) + "; the full history stays in the session (smith session show)"})
		}
	case protocol.QueueUpdate:
		a.queued = a.queued[:0]
		for _, m := range ev.Steer {
			a.queued = append(a.queued, queuedInput{text: model.TextOf(m.Content), steer: true})
		}
		for _, m := range ev.FollowUp {
			a.queued = append(a.queued, queuedInput{text: model.TextOf(m.Content)})
		}
	case protocol.ModelChange:
		a.model, a.thinking = ev.Model, ev.Thinking
	case protocol.Notice:
		k := kindNotice
		switch ev.Level {
		case protocol.NoticeWarning:
			k = kindWarning
		case protocol.NoticeError:
			k = kindError
		}
		text := ev.Text
		if ev.Plugin != "" {
			text = "plugin " + ev.Plugin + ": " + text
		}
		t.add(&item{kind: k, text: text})
	case protocol.ConfirmationRequest:
		a.ask(ev)
	case protocol.ConfirmationEnd:
		a.asked(ev)
	case protocol.AgentEnd:
		// Still busy until Settled: the runtime records the turn's end
		// (its file snapshot) in between.
		a.cost = ev.Cost
		switch ev.Reason {
		case protocol.EndCompleted:
		case protocol.EndAborted:
			t.add(&item{kind: kindWarning, text: "aborted"})
		default:
			msg := textout.EndReason(ev.Reason)
			if ev.Error != "" {
				msg += ": " + ev.Error
			}
			t.add(&item{kind: kindError, text: msg})
		}
		a.refreshStats()
	case protocol.TurnEnd:
		a.refreshStats()
	case protocol.Settled:
		a.busy = false
		a.showNotes() // such as a reload's, or a failed catalog refresh
	}
}

// maxPartial bounds the output kept of a running tool: the preview shows
// its last lines; the result replaces it when the tool ends.
const maxPartial = 64 << 10

// delta applies one stream event of the assistant message being streamed.
func (a *App) delta(d model.StreamEvent) {
	block := func(index int, k kind) *item {
		it := a.blocks[index]
		if it == nil {
			it = a.tr.add(&item{kind: k})
			a.blocks[index] = it
		}
		return it
	}
	switch d := d.(type) {
	case model.TextDelta:
		a.firstToken = true
		it := block(d.Index, kindAssistant)
		it.text += d.Text
		it.touch()
	case model.ThinkingDelta:
		a.firstToken = true
		it := block(d.Index, kindThinking)
		it.text += d.Text
		it.touch()
	case model.ToolCallStart:
		a.firstToken = true
		it := block(d.Index, kindTool)
		it.callID, it.name = d.ID, d.Name
		a.calls[d.ID] = it
		it.touch()
	}
}

// endAssistant replaces what was streamed by the recorded message, which
// is authoritative, and shows its error.
func (a *App) endAssistant(m model.AssistantMessage) {
	for i, c := range m.Content {
		it := a.blocks[i]
		switch c := c.(type) {
		case model.Text:
			if it == nil {
				it = a.tr.add(&item{kind: kindAssistant})
			}
			it.text = c.Text
		case model.Thinking:
			if it == nil {
				it = a.tr.add(&item{kind: kindThinking})
			}
			it.text = c.Text
			if c.Redacted && c.Text == "" {
				it.text = "(redacted by the provider)"
			}
		case model.ToolCall:
			if it == nil {
				it = a.tr.add(&item{kind: kindTool})
			}
			it.callID, it.name, it.args = c.ID, c.Name, summarizeArgs(c.Name, c.Arguments)
			a.calls[c.ID] = it
		}
		if it != nil {
			it.touch()
		}
	}
	a.blocks = map[int]*item{}
	if m.Error != nil {
		a.tr.add(&item{kind: kindError, text: strings.TrimSpace(m.Error.Error())})
	}
}

// callItem returns the tool item of call id, adding one when the call
// was not streamed.
func (a *App) callItem(id, name string) *item {
	it := a.calls[id]
	if it == nil {
		it = a.tr.add(&item{kind: kindTool, callID: id, name: name})
		a.calls[id] = it
	}
	return it
}

// result shows the result of call id.
func (a *App) result(id, name string, r model.ToolResultMessage) {
	it := a.callItem(id, name)
	it.output, it.done, it.failed = model.TextOf(r.Content), true, r.IsError
	it.touch()
}

// history draws the messages of a session opened with a past.
func (a *App) history(msgs []model.Message) {
	for _, m := range msgs {
		switch m := m.(type) {
		case model.UserMessage:
			a.tr.add(&item{kind: kindUser, text: model.TextOf(m.Content)})
		case model.AssistantMessage:
			a.blocks = map[int]*item{}
			a.endAssistant(m)
		case model.ToolResultMessage:
			a.result(m.CallID, m.Name, m)
		}
	}
}

// argKeys are the argument members that best describe a call, by tool.
var argKeys = map[string][]string{
	"read":  {"path", "offset"},
	"write": {"path"},
	"edit":  {"path"},
	"bash":  {"command"},
	"grep":  {"pattern", "path"},
	"find":  {"pattern", "path"},
	"ls":    {"path"},
}

// summarizeArgs describes a call's arguments in one short line: the
// members that matter for well-known tools, else the compact JSON.
func summarizeArgs(name string, raw json.RawMessage) string {
	var obj map[string]any
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return oneLine(string(raw), 200)
	}
	var parts []string
	for _, k := range argKeys[name] {
		if v, ok := obj[k]; ok {
			s, isStr := v.(string)
			if !isStr {
				b, _ := json.Marshal(v)
				s = string(b)
			}
			parts = append(parts, s)
		}
	}
	if len(parts) == 0 {
		b, _ := json.Marshal(obj)
		return oneLine(string(b), 200)
	}
	return oneLine(strings.Join(parts, " "), 200)
}

// oneLine joins s's lines with " ⏎ " and cuts it at n runes.
func oneLine(s string, n int) string {
	s = strings.ReplaceAll(strings.TrimSpace(s), "\n", " ⏎ ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
