package textout

import (
	"fmt"
	"io"
	"strings"

	"github.com/smith-agent/smith/core/protocol"

	"github.com/smith-agent/smith/core/model"
)

// resultLines bounds the lines of a tool result shown.
const resultLines = 12

// Writer renders events to W. It is not safe for concurrent use.
type Writer struct {
	W       io.Writer
	midLine bool
}

// Event renders one event.
func (w *Writer) Event(ev protocol.Event) error {
	var err error
	switch e := ev.(type) {
	case protocol.MessageUpdate:
		if d, ok := e.Delta.(model.TextDelta); ok && d.Text != "" {
			_, err = io.WriteString(w.W, d.Text)
			w.midLine = !strings.HasSuffix(d.Text, "\n")
		}
	case protocol.MessageEnd:
		if a, ok := e.Message.(model.AssistantMessage); ok && a.Error != nil {
			w.endLine()
			_, err = fmt.Fprintf(w.W, "model error (%s): %s\n", a.Error.Kind, a.Error.Message)
		}
	case protocol.ToolExecutionStart:
		w.endLine()
		_, err = fmt.Fprintf(w.W, "→ %s %s\n", e.Name, e.Arguments)
	case protocol.ToolExecutionEnd:
		_, err = io.WriteString(w.W, excerpt(e.Result))
	case protocol.AgentEnd:
		w.endLine()
		if e.Reason != protocol.EndCompleted {
			_, err = fmt.Fprintf(w.W, "[run ended: %s]\n", e.Reason)
		}
	}
	return err
}

func (w *Writer) endLine() {
	if w.midLine {
		_, _ = io.WriteString(w.W, "\n")
		w.midLine = false
	}
}

func excerpt(r model.ToolResultMessage) string {
	var text strings.Builder
	for _, c := range r.Content {
		if t, ok := c.(model.Text); ok {
			text.WriteString(t.Text)
		}
	}
	lines := strings.Split(strings.TrimRight(text.String(), "\n"), "\n")
	more := ""
	if len(lines) > resultLines {
		more = fmt.Sprintf("  … %d more lines\n", len(lines)-resultLines)
		lines = lines[:resultLines]
	}
	mark := "  "
	if r.IsError {
		mark = "  error: "
	}
	return mark + strings.Join(lines, "\n  ") + "\n" + more
}
