package textout

import (
	"fmt"
	"io"
	"strings"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
)

// resultLines bounds the lines of a tool result shown.
const resultLines = 12

// Writer renders events: the conversation to W, diagnostics to Diag (nil
// means W); a W with a Flush method is flushed before each diagnostic. It
// is not safe for concurrent use.
type Writer struct {
	W, Diag io.Writer
	// Tally accumulates the events rendered.
	Tally   Tally
	midLine bool
}

// Event renders one event.
func (w *Writer) Event(ev protocol.Event) error {
	w.Tally.Observe(ev)
	var err error
	switch e := ev.(type) {
	case protocol.MessageUpdate:
		if d, ok := e.Delta.(model.TextDelta); ok && d.Text != "" {
			_, err = io.WriteString(w.W, Safe(d.Text))
			w.midLine = !strings.HasSuffix(d.Text, "\n")
		}
	case protocol.ToolExecutionStart:
		w.endLine()
		_, err = io.WriteString(w.W, Safe(fmt.Sprintf("→ %s %s", e.Name, e.Arguments))+"\n")
	case protocol.ToolExecutionEnd:
		_, err = io.WriteString(w.W, Safe(excerpt(e.Result)))
	case protocol.ProviderRetry:
		err = w.diag("%s", Retry(e))
	case protocol.ProviderFailover:
		err = w.diag("%s", Failover(e))
	case protocol.Notice:
		err = w.diag("%s", NoticeText(e))
	case protocol.ConfirmationRequest:
		err = w.diag("%s", Asked(e))
	case protocol.ConfirmationEnd:
		err = w.diag("%s", Answered(e))
	case protocol.CompactionStart:
		err = w.diag("%s", CompactionStart(e))
	case protocol.CompactionEnd:
		err = w.diag("%s", CompactionEnd(e))
	case protocol.AgentEnd:
		w.endLine()
		if e.Reason == protocol.EndCompleted || e.Reason == protocol.EndProviderError || e.Reason == protocol.EndMaxCost {
			err = w.diag("%s", w.Tally.Line())
		}
	}
	return err
}

// diag writes one diagnostic line, after ending the conversation's line
// when both go to the same place. A buffered W (one with a Flush method)
// is flushed first: on a terminal both streams interleave, and the
// diagnostic must not land in the middle of the answer's last line.
func (w *Writer) diag(format string, args ...any) error {
	d := w.Diag
	if d == nil {
		d = w.W
		w.endLine()
	} else if f, ok := w.W.(interface{ Flush() error }); ok {
		if err := f.Flush(); err != nil {
			return err
		}
	}
	_, err := io.WriteString(d, Safe("smith: "+fmt.Sprintf(format, args...))+"\n")
	return err
}

// NoticeText is a notice as a line: "warning: TEXT", with the plugin
// that sent it: "warning: plugin NAME: TEXT".
func NoticeText(e protocol.Notice) string {
	if e.Plugin != "" {
		return fmt.Sprintf("%s: plugin %s: %s", e.Level, e.Plugin, e.Text)
	}
	return fmt.Sprintf("%s: %s", e.Level, e.Text)
}

// Asked is a plugin's confirmation request as a line.
func Asked(e protocol.ConfirmationRequest) string {
	return fmt.Sprintf("plugin %s asks: %s", e.Plugin, e.Prompt)
}

// Answered says how a confirmation request ended.
func Answered(e protocol.ConfirmationEnd) string {
	answer := "no"
	if e.Answer {
		answer = "yes"
	}
	switch e.Outcome {
	case protocol.ConfirmAnswered:
		return "answered " + answer
	case protocol.ConfirmTimedOut:
		return "nobody answered in time; the answer is the default, " + answer
	case protocol.ConfirmNoUser:
		return "nobody can answer here, so the answer is no (with the permission policy, --yes approves every call it would ask about)"
	case protocol.ConfirmDismissed:
		return "the question was withdrawn unanswered"
	}
	return "the question ended: " + string(e.Outcome)
}

// Retry says a provider request is sent again, and why: "anthropic/x
// failed (rate limit, HTTP 429); retrying in 2s (attempt 2)".
func Retry(e protocol.ProviderRetry) string {
	return fmt.Sprintf("%s failed (%s); retrying in %s (attempt %d)", e.Target, describe(e.Error), wait(e.WaitMillis), e.Attempt+1)
}

// CompactionStart says a compaction began, and why.
func CompactionStart(e protocol.CompactionStart) string {
	switch e.Reason {
	case protocol.CompactThreshold:
		return "compacting the context: it is close to the model's context window"
	case protocol.CompactOverflow:
		return "compacting the context: the provider refused the request as too long for the model's context window; it is sent again after"
	}
	return "compacting the context"
}

// CompactionEnd says what a compaction did: "compacted 42 messages into a
// 3,120-byte summary, 6 kept; context ~120,400 → ~18,200 tokens · $0.0123",
// or why it failed.
func CompactionEnd(e protocol.CompactionEnd) string {
	if e.Error != "" {
		return "compaction failed: " + e.Error
	}
	s := fmt.Sprintf("compacted %d message(s) into a %s-byte summary, %d kept; context ~%s → ~%s tokens",
		e.Summarized, count(int64(e.SummaryBytes)), e.Kept, count(int64(e.TokensBefore)), count(int64(e.TokensAfter)))
	if n, ok := e.Usage.CostNanoUSD.Value(); ok {
		s += " · " + Dollars(n)
	} else {
		s += " · cost unknown"
	}
	return s
}

// BranchSummary says what a branch summary holds: "2 message(s)
// summarised into a 1,204-byte summary · $0.0012".
func BranchSummary(r protocol.BranchSummaryResult) string {
	s := fmt.Sprintf("%d message(s) summarised into a %s-byte summary", r.Summarized, count(int64(r.SummaryBytes)))
	if n, ok := r.Usage.CostNanoUSD.Value(); ok {
		return s + " · " + Dollars(n)
	}
	return s + " · cost unknown"
}

// Failover says a provider request moves to the group's next target, and
// why.
func Failover(e protocol.ProviderFailover) string {
	return fmt.Sprintf("%s failed (%s); trying %s", e.From, describe(e.Error), e.To)
}

func (w *Writer) endLine() {
	if w.midLine {
		_, _ = io.WriteString(w.W, "\n")
		w.midLine = false
	}
}

func excerpt(r model.ToolResultMessage) string {
	lines := strings.Split(strings.TrimRight(model.TextOf(r.Content), "\n"), "\n")
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

// wait renders a wait in milliseconds for people: "800ms", "2s", "1m30s".
func wait(ms int64) string {
	switch {
	case ms < 1000:
		return fmt.Sprintf("%dms", ms)
	case ms < 60_000:
		return fmt.Sprintf("%.0fs", float64(ms)/1000)
	}
	return fmt.Sprintf("%dm%02ds", ms/60_000, ms/1000%60)
}
