package handoff

import (
	"fmt"
	"hash/fnv"
	"regexp"
	"strings"

	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
)

// Target is the provider the conversation goes to next.
type Target struct {
	// Provider is the producer tag its decoder puts on messages (for
	// example "anthropic", "openai", "google", "openrouter").
	Provider string
	// API is its wire API: anthropic, openai-chat, openai-responses, gemini.
	API string
	// Model is the model id; encrypted reasoning is only replayed to the
	// model that made it.
	Model string
	// IDStyle overrides the API's tool-call id rule for servers with a
	// stricter one: "mistral" (exactly 9 letters or digits). Empty means
	// the API's rule.
	IDStyle string
}

// idRules are the tool-call id constraints of each API.
var idRules = map[string]struct {
	allowed *regexp.Regexp // characters that must be replaced
	max     int
}{
	"anthropic":        {regexp.MustCompile(`[^a-zA-Z0-9_-]`), 64},
	"openai-chat":      {regexp.MustCompile(`[^a-zA-Z0-9_-]`), 40},
	"openai-responses": {regexp.MustCompile(`[^a-zA-Z0-9_-]`), 64},
	"gemini":           {regexp.MustCompile(`[^a-zA-Z0-9_.:-]`), 64},
}

// SkipSignature is the value Gemini accepts in place of a thought
// signature on a function call it did not make.
const SkipSignature = "skip_thought_signature_validator"

// Transform returns the conversation rewritten for t; msgs is not
// modified. Messages that ended in an error are dropped (their tool calls
// never ran); results of calls no longer in the history become user text;
// calls without a result get an error result, so pairing always holds.
func Transform(msgs []norm.Message, t Target) []norm.Message {
	ids := newIDMap(t.API, t.IDStyle)
	var out []norm.Message
	for i := 0; i < len(msgs); i++ {
		switch m := msgs[i].(type) {
		case norm.AssistantMessage:
			if m.Error != nil {
				continue
			}
			am := assistant(m, t, ids)
			out = append(out, am)
			// Pair the calls with the results that follow.
			pending := map[string]norm.ToolCall{}
			var order []string
			for _, c := range am.ToolCalls() {
				pending[c.ID] = c
				order = append(order, c.ID)
			}
			for i+1 < len(msgs) {
				r, ok := msgs[i+1].(norm.ToolResultMessage)
				if !ok {
					break
				}
				i++
				id := ids.get(r.CallID)
				if _, ok := pending[id]; !ok {
					out = append(out, orphanResult(r))
					continue
				}
				delete(pending, id)
				r.CallID = id
				out = append(out, r)
			}
			for _, id := range order {
				if c, ok := pending[id]; ok {
					out = append(out, norm.ToolResultMessage{CallID: id, Name: c.Name, IsError: true,
						Content: []norm.Content{norm.Text{Text: "The tool call was not executed (the turn was interrupted)."}}})
				}
			}
		case norm.ToolResultMessage:
			out = append(out, orphanResult(m))
		default:
			out = append(out, m)
		}
	}
	return out
}

func orphanResult(r norm.ToolResultMessage) norm.Message {
	var b strings.Builder
	fmt.Fprintf(&b, "Result of an earlier %s tool call:\n", r.Name)
	content := []norm.Content{nil}
	for _, c := range r.Content {
		if t, ok := c.(norm.Text); ok {
			b.WriteString(t.Text)
		} else {
			content = append(content, c)
		}
	}
	content[0] = norm.Text{Text: b.String()}
	return norm.UserMessage{Content: content}
}

func assistant(m norm.AssistantMessage, t Target, ids *idMap) norm.AssistantMessage {
	own := m.Provider == t.Provider
	out := m
	out.Content = make([]norm.Content, 0, len(m.Content))
	for _, c := range m.Content {
		switch c := c.(type) {
		case norm.Thinking:
			switch {
			case own && !(t.API == "openai-responses" && len(c.Encrypted) > 0 && m.Model != t.Model):
				out.Content = append(out.Content, c)
			case c.Redacted || c.Text == "":
				// Nothing readable to keep.
			default:
				// Readable reasoning stays as text; the blank line keeps it
				// apart from the answer when an API joins text blocks.
				out.Content = append(out.Content, norm.Text{Text: c.Text + "\n\n"})
			}
		case norm.Text:
			if !own {
				c.Signature, c.ItemID, c.Phase = nil, "", ""
			}
			out.Content = append(out.Content, c)
		case norm.ToolCall:
			c.ID = ids.get(c.ID)
			if !own {
				c.Signature = nil
				c.ItemID = ""
				if t.API == "gemini" {
					c.Signature = []byte(SkipSignature)
				}
			}
			out.Content = append(out.Content, c)
		case norm.Other:
			if own {
				out.Content = append(out.Content, c)
			}
		default:
			out.Content = append(out.Content, c)
		}
	}
	return out
}

// idMap rewrites ids to a target's rules, consistently and without
// collisions.
type idMap struct {
	api, style string
	to         map[string]string
	used       map[string]string // rewritten → original
}

func newIDMap(api, style string) *idMap {
	return &idMap{api: api, style: style, to: map[string]string{}, used: map[string]string{}}
}

var mistralID = regexp.MustCompile(`^[a-zA-Z0-9]{9}$`)

func (m *idMap) get(id string) string {
	if v, ok := m.to[id]; ok {
		return v
	}
	rule, ok := idRules[m.api]
	v := id
	switch {
	case m.style == "mistral":
		if !mistralID.MatchString(v) || m.used[v] != "" && m.used[v] != id {
			v = base62(id, 9)
		}
	case ok:
		v = rule.allowed.ReplaceAllString(id, "_")
		if v == "" {
			v = "call"
		}
		if len(v) > rule.max {
			v = hashed(v[:rule.max-9], id)
		}
		if orig, taken := m.used[v]; taken && orig != id {
			v = hashed(v[:min(len(v), rule.max-9)], id)
		}
	}
	m.to[id], m.used[v] = v, id
	return v
}

// base62 derives n letters and digits from id.
func base62(id string, n int) string {
	const digits = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	h := fnv.New64a()
	h.Write([]byte(id))
	x := h.Sum64()
	b := make([]byte, n)
	for i := range b {
		b[i] = digits[x%62]
		x /= 62
	}
	return string(b)
}

func hashed(prefix, id string) string {
	h := fnv.New32a()
	h.Write([]byte(id))
	return fmt.Sprintf("%s_%08x", prefix, h.Sum32())
}
