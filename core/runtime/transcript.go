package runtime

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/core/session"
	"github.com/smith-agent/smith/sessionfmt"
)

// Transcript writes the transcript of the session ref names (a name, an id
// or an unambiguous id prefix) to w in format f. It reads the file without
// its writer lock, so the session may be open for writing (by this process
// or another): the transcript holds the entries complete when it starts.
// A damaged file yields what can be read, with a note (Markdown) or the
// frames that are intact (JSONL). An unknown ref or format is an error
// wrapping [ErrUsage].
func (rt *Runtime) Transcript(ctx context.Context, w io.Writer, ref string, f protocol.TranscriptFormat) error {
	d, err := rt.sessionDir()
	if err != nil {
		return err
	}
	info, err := d.Find(ref)
	if err != nil {
		return usagef("%w", err)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	switch f {
	case protocol.TranscriptJSONL:
		if _, err := sessionfmt.Dump(w, info.Path, nil); err != nil {
			return fmt.Errorf("runtime: read session %s: %w", display(info), err)
		}
		return nil
	case protocol.TranscriptMarkdown:
		sess, rep, err := sessionfmt.Load(info.Path, nil)
		if err != nil {
			return fmt.Errorf("runtime: read session %s: %w", display(info), err)
		}
		return transcriptMarkdown(w, rt.describe(info, sess, info.Path), sess, rep != nil && rep.Damaged())
	}
	return usagef("runtime: transcript format %q is not one of %s, %s", f, protocol.TranscriptMarkdown, protocol.TranscriptJSONL)
}

// transcriptMarkdown renders the selected branch's conversation.
func transcriptMarkdown(w io.Writer, si protocol.SessionInfo, sess *sessionfmt.Session, damaged bool) error {
	var b bytes.Buffer
	name := si.ID
	if si.Name != "" {
		name = si.Name + " (" + si.ID + ")"
	}
	fmt.Fprintf(&b, "# Session %s\n\n", name)
	if si.Cwd != "" {
		fmt.Fprintf(&b, "- directory: `%s`\n", si.Cwd)
	}
	if si.Model != "" {
		fmt.Fprintf(&b, "- model: `%s`\n", si.Model)
	}
	fmt.Fprintf(&b, "- entries: %d\n", si.Entries)
	if damaged {
		fmt.Fprintf(&b, "- damaged: parts of the file could not be read and are left out; `smith session repair %s` rewrites it\n", si.ID)
	}
	if err := transcriptBranch(&b, sess); err != nil {
		return fmt.Errorf("runtime: read the conversation of session %s: %w", name, err)
	}
	_, err := w.Write(b.Bytes())
	return err
}

// transcriptBranch renders the selected branch: its messages, and the
// effects of tool calls a frontend made (MCP's, whose causal parent is
// "mcp:N"), which are in the journal but not in the conversation.
func transcriptBranch(b *bytes.Buffer, sess *sessionfmt.Session) error {
	if sess.Selected() < 0 {
		return nil
	}
	completions := map[string]effect.Completion{}
	for i := range sess.Len() {
		if sess.Kind(i) != sessionfmt.KindEffectCompletion {
			continue
		}
		if r, err := session.EntryEffect(sess.Entry(i)); err == nil {
			completions[r.EffectID()] = r.(effect.Completion)
		}
	}
	call := ""
	for _, i := range sess.History(sess.Selected(), nil) {
		e := sess.Entry(i)
		switch sess.Kind(i) {
		case sessionfmt.KindMessage:
			m, err := session.EntryMessage(e.Content)
			if err != nil {
				return fmt.Errorf("entry %s: %w", e.ID, err)
			}
			transcriptMessage(b, m)
			call = ""
		case sessionfmt.KindEffectIntent:
			r, err := session.EntryEffect(e)
			if err != nil {
				return err
			}
			in := r.(effect.Intent)
			if !strings.HasPrefix(in.Parent, transcriptMCPPrefix) {
				continue
			}
			if in.Parent != call {
				transcriptHeading(b, fmt.Sprintf("MCP tool call (%s)", in.Parent))
				b.WriteString("Not part of the conversation; its effects are journaled:\n\n")
				call = in.Parent
			}
			outcome := "no completion recorded (interrupted: unknown)"
			if c, ok := completions[in.ID]; ok {
				outcome = string(c.Mutation)
				if c.Error != "" {
					outcome += ": " + c.Error
				}
			}
			fmt.Fprintf(b, "- `%s` %s → %s\n", in.Kind, transcriptCode(string(in.Input), 200), outcome)
		}
	}
	return nil
}

// transcriptHeading starts a section, after a blank line.
func transcriptHeading(b *bytes.Buffer, title string) {
	for !bytes.HasSuffix(b.Bytes(), []byte("\n\n")) {
		b.WriteByte('\n')
	}
	b.WriteString("## " + title + "\n\n")
}

// transcriptMCPPrefix starts the causal parent of an MCP tool call's
// effects.
const transcriptMCPPrefix = "mcp:"

// transcriptCode is s as inline code, cut to max runes.
func transcriptCode(s string, max int) string {
	if r := []rune(s); len(r) > max {
		s = string(r[:max-1]) + "…"
	}
	s = strings.ReplaceAll(s, "\n", " ")
	if strings.Contains(s, "`") {
		return "`` " + s + " ``"
	}
	return "`" + s + "`"
}

func transcriptMessage(b *bytes.Buffer, m model.Message) {
	switch m := m.(type) {
	case model.UserMessage:
		transcriptHeading(b, "User")
		transcriptContent(b, m.Content)
	case model.AssistantMessage:
		transcriptHeading(b, fmt.Sprintf("Assistant (%s)", m.Model))
		transcriptContent(b, m.Content)
		for _, c := range m.ToolCalls() {
			fmt.Fprintf(b, "Tool call `%s` (%s):\n\n", c.Name, c.ID)
			transcriptFence(b, "json", string(c.Arguments))
		}
		if m.Error != nil {
			fmt.Fprintf(b, "Error (%s): %s\n\n", m.Error.Kind, m.Error.Message)
		}
	case model.ToolResultMessage:
		status := string(m.Mutation)
		if m.IsError {
			status = "error, " + status
		}
		transcriptHeading(b, fmt.Sprintf("Tool result `%s` (%s; %s)", m.Name, m.CallID, status))
		transcriptFence(b, "", model.TextOf(m.Content))
	}
}

func transcriptContent(b *bytes.Buffer, cs []model.Content) {
	for _, c := range cs {
		switch c := c.(type) {
		case model.Text:
			if strings.TrimSpace(c.Text) != "" {
				b.WriteString(strings.TrimRight(c.Text, "\n"))
				b.WriteString("\n\n")
			}
		case model.Image:
			fmt.Fprintf(b, "*(image, %s)*\n\n", c.MediaType)
		case model.Thinking, model.ToolCall:
			// Thinking is not part of the transcript; tool calls follow.
		}
	}
}

// transcriptFence writes text in a code fence longer than any run of
// backticks inside it.
func transcriptFence(b *bytes.Buffer, lang, text string) {
	n, run := 3, 0
	for _, r := range text {
		if r == '`' {
			run++
			n = max(n, run+1)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", n)
	b.WriteString(fence + lang + "\n")
	b.WriteString(strings.TrimRight(text, "\n"))
	b.WriteString("\n" + fence + "\n\n")
}
