package runtime

import (
	"github.com/smith-agent/smith/core/model"
)

// imageTokens is what an image is estimated to take of a context: 1,600
// tokens, about what the vendors charge for a screenshot.
const imageTokens = 1600

// textTokens estimates the tokens of n bytes of text: four bytes a token,
// the usual figure for English and code.
func textTokens(n int) int { return (n + 3) / 4 }

// messageTokens estimates the tokens m takes of a request's context.
func messageTokens(m model.Message) int {
	n := 4 // the role and the message's framing
	var cs []model.Content
	switch m := m.(type) {
	case model.UserMessage:
		cs = m.Content
	case model.AssistantMessage:
		cs = m.Content
	case model.ToolResultMessage:
		n += textTokens(len(m.CallID) + len(m.Name))
		cs = m.Content
	}
	for _, c := range cs {
		switch c := c.(type) {
		case model.Text:
			n += textTokens(len(c.Text))
		case model.Thinking:
			n += textTokens(len(c.Text) + len(c.Signature) + len(c.Encrypted))
		case model.Image:
			n += imageTokens
		case model.ToolCall:
			n += textTokens(len(c.ID) + len(c.Name) + len(c.Arguments))
		}
	}
	return n
}

// messagesTokens estimates the tokens of msgs.
func messagesTokens(msgs []model.Message) int {
	n := 0
	for _, m := range msgs {
		n += messageTokens(m)
	}
	return n
}

// requestTokens estimates the tokens of a request's whole context: the
// system prompt, the tool definitions and the messages.
func requestTokens(system string, tools []model.ToolDefinition, msgs []model.Message) int {
	n := textTokens(len(system))
	for _, t := range tools {
		n += textTokens(len(t.Name)+len(t.Description)+len(t.Parameters)) + 4
	}
	return n + messagesTokens(msgs)
}

// usageContext is the size of the context a response read and wrote (its
// input, cache reads and writes, and output): the prefix of the next
// request. ok is false when the response did not report its input.
func usageContext(u model.Usage) (int, bool) {
	in, ok := u.Input.Value()
	if !ok {
		return 0, false
	}
	n := in
	for _, a := range []model.Amount{u.CacheRead, u.CacheWrite, u.Output} {
		if v, ok := a.Value(); ok {
			n += v
		}
	}
	return int(n), n > 0
}

// estimateContext estimates the tokens of a request's context from the
// latest response that reported its usage, plus the text after it. The
// first stale messages (the summary and the messages a compaction kept)
// reported usage of the longer context before it, so they are not used:
// without a later response, the estimate is the compaction's own estimate
// after (when stale > 0) plus the text since, else the whole text.
func estimateContext(req *model.Request, stale, after int) int {
	msgs := req.Messages
	if stale > len(msgs) {
		stale = 0
	}
	for i := len(msgs) - 1; i >= stale; i-- {
		if am, ok := msgs[i].(model.AssistantMessage); ok {
			if n, ok := usageContext(am.Usage); ok {
				return n + messagesTokens(msgs[i+1:])
			}
		}
	}
	if stale > 0 {
		return after + messagesTokens(msgs[stale:])
	}
	return requestTokens(req.System, req.Tools, msgs)
}

// chooseBoundary picks where a compaction of msgs cuts them: the index of
// the first message kept verbatim, in (start, len(msgs)]; len(msgs) keeps
// none. Messages before start are not candidates (the summary in force).
// The cut keeps as much of the recent conversation as fits keep tokens,
// summarises at least one message, and never falls inside a tool batch: no
// tool call before the cut has its result after it, and the kept part
// never starts with a tool result. It returns -1 when there is nothing to
// summarise (no message from start on).
func chooseBoundary(msgs []model.Message, start, keep int) int {
	if start >= len(msgs) {
		return -1
	}
	// results[id] is the index of the result answering call id.
	results := map[string]int{}
	for i := start; i < len(msgs); i++ {
		if r, ok := msgs[i].(model.ToolResultMessage); ok {
			if _, seen := results[r.CallID]; !seen {
				results[r.CallID] = i
			}
		}
	}
	// valid[j]: cutting before j splits no batch.
	valid := make([]bool, len(msgs)+1)
	valid[len(msgs)] = true
	reach := -1 // the furthest result of a call before j
	for j := start; j < len(msgs); j++ {
		if j > start {
			valid[j] = reach < j
			if _, ok := msgs[j].(model.ToolResultMessage); ok {
				valid[j] = false
			}
		}
		if am, ok := msgs[j].(model.AssistantMessage); ok {
			for _, c := range am.ToolCalls() {
				if k, ok := results[c.ID]; ok && k > reach {
					reach = k
				}
			}
		}
	}
	best, kept := len(msgs), 0
	for j := len(msgs) - 1; j > start; j-- {
		if kept += messageTokens(msgs[j]); kept > keep {
			break
		}
		if valid[j] {
			best = j
		}
	}
	return best
}
