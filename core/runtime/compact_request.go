package runtime

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/smith-agent/smith/core/internal/streamasm"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/plugin"
	"github.com/smith-agent/smith/core/protocol"
)

// Bounds of what a summary request shows of each message: a tool result's
// text is cut to its first and last quarter of toolResultBytes, any other
// text to textBytes.
const (
	toolResultBytes = 4096
	textBytes       = 16384
)

// summaryMaxTokens bounds the summary's length: 8,192 tokens, or the
// model's output bound when that is less.
const summaryMaxTokens = 8192

// unknownWindowBytes bounds the conversation text of a summary request to
// a model whose context window is unknown: 1 MiB.
const unknownWindowBytes = 1 << 20

// summaryInput is the user message of a summary request: the summary in
// force (if any), the conversation to summarise as plain text (thinking
// left out, long texts cut), and the user's instructions. The text of the
// conversation is at most limit bytes: the oldest messages that do not
// fit are left out, with a note saying how many.
func summaryInput(previous string, msgs []model.Message, instructions string, limit int) string {
	parts := make([]string, len(msgs))
	total := 0
	for i, m := range msgs {
		parts[i] = transcriptEntry(m)
		total += len(parts[i])
	}
	first := 0
	for first < len(parts) && total > limit {
		total -= len(parts[first])
		first++
	}
	var b strings.Builder
	b.Grow(total + len(previous) + len(instructions) + 256)
	if previous != "" {
		b.WriteString("<previous-summary>\n")
		b.WriteString(strings.TrimRight(previous, "\n"))
		b.WriteString("\n</previous-summary>\n\n")
	}
	b.WriteString("<conversation>\n")
	if first > 0 {
		fmt.Fprintf(&b, "[the first %d message(s) are left out: they do not fit the summary request]\n\n", first)
	}
	for _, p := range parts[first:] {
		b.WriteString(p)
	}
	b.WriteString("</conversation>\n")
	if s := strings.TrimSpace(instructions); s != "" {
		b.WriteString("\n<instructions>\n")
		b.WriteString(s)
		b.WriteString("\n</instructions>\n")
	}
	return b.String()
}

// transcriptEntry renders one message for a summary request.
func transcriptEntry(m model.Message) string {
	var b strings.Builder
	switch m := m.(type) {
	case model.UserMessage:
		b.WriteString("[user]\n")
		writeBlocks(&b, m.Content, textBytes)
	case model.AssistantMessage:
		b.WriteString("[assistant]\n")
		writeBlocks(&b, m.Content, textBytes)
		for _, c := range m.ToolCalls() {
			fmt.Fprintf(&b, "[tool call %s %s]\n", c.Name, cutMiddle(string(c.Arguments), textBytes))
		}
		if m.Error != nil {
			fmt.Fprintf(&b, "[the response failed: %s]\n", m.Error.Kind)
		}
	case model.ToolResultMessage:
		status := ""
		if m.IsError {
			status = ", failed"
		}
		fmt.Fprintf(&b, "[tool result of %s%s]\n", m.Name, status)
		writeBlocks(&b, m.Content, toolResultBytes)
	}
	b.WriteString("\n")
	return b.String()
}

func writeBlocks(b *strings.Builder, cs []model.Content, limit int) {
	for _, c := range cs {
		switch c := c.(type) {
		case model.Text:
			if t := strings.TrimSpace(c.Text); t != "" {
				b.WriteString(cutMiddle(t, limit))
				b.WriteString("\n")
			}
		case model.Image:
			fmt.Fprintf(b, "[image, %s]\n", c.MediaType)
		}
	}
}

// cutMiddle returns s, or, when it is longer than limit bytes, its first
// and last quarter of limit with a note of how much is left out between.
func cutMiddle(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	head, tail := limit/4, limit/4
	for head > 0 && !utf8Start(s[head]) {
		head--
	}
	from := len(s) - tail
	for from < len(s) && !utf8Start(s[from]) {
		from++
	}
	return fmt.Sprintf("%s\n[… %d bytes left out …]\n%s", s[:head], from-head, s[from:])
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// summaryJob words what a summary request is for in its errors.
type summaryJob struct {
	// what is the work: "compaction".
	what string
	// shorter says how to ask for a shorter summary.
	shorter string
	// kept says what stays as it was when no summary is recorded.
	kept string
}

// compactionJob and branchJob are the summaries of a compaction and of a
// branch left behind.
var (
	compactionJob = summaryJob{what: "compaction", shorter: "compact again with instructions asking for a shorter summary",
		kept: "nothing was compacted and the context stays as it was"}
	branchJob = summaryJob{what: "branch summary", shorter: "select the entry again with instructions asking for a shorter summary",
		kept: "nothing was recorded and the session stays where it was"}
)

// summaryRequest is the request in which sm summarises msgs for job: the
// system prompt is the plugins' compaction prompt (rendered for facts),
// the one user message the summary in force (previous, if any), the
// conversation cut to what fits sm's window, and the instructions.
func summaryRequest(ctx context.Context, binding *plugin.Binding, facts plugin.Facts, sm summaryModel, previous string, msgs []model.Message, instructions string, job summaryJob) (*model.Request, error) {
	prompt, err := binding.Prompt(ctx, plugin.CompactionPromptName, facts)
	switch {
	case err != nil:
		return nil, fmt.Errorf("the summary prompt could not be rendered: %v; %s", strings.TrimPrefix(err.Error(), "plugin: "), job.kept)
	case strings.TrimSpace(prompt) == "":
		return nil, fmt.Errorf("no plugin contributes the %q prompt that instructs the summary (Smith's product plugin does); enable the product plugin; %s", plugin.CompactionPromptName, job.kept)
	}
	maxTokens := min(summaryMaxTokens, sm.output)
	limit := unknownWindowBytes
	if sm.window > 0 {
		budget := sm.window - min(maxTokens, sm.window/2) - textTokens(len(prompt)) - 1024
		limit = max(4096, 4*budget)
	}
	return &model.Request{Model: sm.modelID, System: prompt, MaxOutputTokens: maxTokens,
		Messages: []model.Message{model.UserText(summaryInput(previous, msgs, instructions, limit))}}, nil
}

// summaryFailure is a summary request that gave no usable summary.
type summaryFailure struct{ text string }

func (f *summaryFailure) Error() string { return f.text }

// summarize sends req through p and returns the summary's text and the
// response's usage. A response that is not a complete summary — cut off
// by the output limit (stop reason length), refused, failed, malformed,
// aborted or empty — is a *summaryFailure saying what happened and what
// to do next (job words it). The routing notices of the request
// (retries, failovers, notes) go to notify as events without a sequence
// number. A provider that ignores the cancellation of ctx is left behind
// after grace.
func summarize(ctx context.Context, p model.Provider, req *model.Request, grace time.Duration, notify func(protocol.Event), job summaryJob) (string, model.Usage, error) {
	pump := streamasm.NewPump(p.Stream(ctx, req))
	var asm streamasm.Assembler
read:
	for {
		select {
		case ev, ok := <-pump.Events():
			if !ok {
				if err := pump.Panicked(); err != nil {
					asm.Abort(err)
				}
				break read
			}
			if n, ok := protocol.RoutingEvent(ev, 0); ok {
				notify(n)
				continue
			}
			if asm.Push(ev) != nil {
				break read
			}
		case <-ctx.Done():
			asm.Abort(model.NewError(model.ErrAborted, "the %s was aborted while the summary was streaming", job.what))
			break read
		}
	}
	pump.Close(grace)
	msg := asm.Message()
	text := strings.TrimSpace(model.TextOf(msg.Content))
	fail := func(format string, args ...any) (string, model.Usage, error) {
		return "", msg.Usage, &summaryFailure{text: fmt.Sprintf(format, args...) + "; " + job.kept}
	}
	switch {
	case msg.Error != nil && msg.Error.Kind == model.ErrAborted:
		return fail("the %s was aborted before the summary was complete", job.what)
	case msg.Error != nil:
		return fail("the summary request failed (%s); try again, or set compaction { model \"…\" } in smith.kdl to summarise with another model", msg.Error.Error())
	case msg.Stop == model.StopLength:
		return fail("the summary was cut off by the model's output limit after %d bytes (stop reason length), so it is incomplete; %s, or set compaction { model \"…\" } to a model with a larger output limit", len(text), job.shorter)
	case msg.Stop == model.StopRefusal:
		return fail("the model refused to write the summary; try again with other instructions, or set compaction { model \"…\" } to another model")
	case msg.Stop != model.StopEnd:
		return fail("the summary response ended with stop reason %q instead of a finished answer; try again", msg.Stop)
	case text == "":
		return fail("the model returned an empty summary; try again, or set compaction { model \"…\" } to another model")
	}
	return text, msg.Usage, nil
}
