package plugin

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/smith-agent/smith/core/internal/pluginabi"
)

// Bounds of the log capability. A call may append at most
// LogRecordsPerCall records and LogBytesPerCall bytes of lines to the
// plugin log; the record that would exceed either is replaced by one
// "log budget exhausted" record and every later one is dropped. Each
// message is cut at LogMessageBytes bytes.
const (
	LogRecordsPerCall = 256
	LogBytesPerCall   = 64 << 10
	LogMessageBytes   = 4 << 10
)

// logHost serves the log capability of one plugin: each record becomes
// one line "plugin NAME: LEVEL: MESSAGE" of Config.Log.
type logHost struct {
	name string // sanitized
	h    *Host
	// maxBytes is the bytes one call may write (Artifact.LogBytes, else
	// LogBytesPerCall).
	maxBytes int
	// ambient is the budget of the records written outside a call that
	// carries its own (registration, provider codecs): shared by all of
	// them for the life of the compiled plugin.
	ambient logBudget
}

var _ pluginabi.LogImports = (*logHost)(nil)

func newLogHost(h *Host, a Artifact) *logHost {
	n, _ := sanitize(a.Name, 128)
	max := a.LogBytes
	if max <= 0 {
		max = LogBytesPerCall
	}
	return &logHost{name: n, h: h, maxBytes: max}
}

// logBudget counts one call's log records; the zero value is a full
// budget.
type logBudget struct {
	mu        sync.Mutex
	records   int
	bytes     int
	exhausted bool
}

// take reserves n bytes for one record: ok says the record may be
// written; notice says it may not and that the exhaustion record is due
// now (once per budget).
func (b *logBudget) take(n, maxBytes int) (ok, notice bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.exhausted {
		return false, false
	}
	if b.records+1 > LogRecordsPerCall || b.bytes+n > maxBytes {
		b.exhausted = true
		return false, true
	}
	b.records++
	b.bytes += n
	return true, false
}

// WriteLog serves log write-log. The message is redacted of the call's
// registered secrets (when its binding has them), cut at LogMessageBytes
// and has its control and format characters escaped, so that a record is
// one line and no terminal escape reaches the log.
func (l *logHost) WriteLog(ctx context.Context, message string, o pluginabi.LogOptions) error {
	budget := &l.ambient
	if st, ok := ctx.Value(callKey{}).(*callState); ok {
		budget = &st.log
		if s := st.ops.Secrets; s != nil {
			message = s.RedactString(message)
		}
	}
	text, cut := sanitize(message, LogMessageBytes)
	if cut > 0 {
		text += fmt.Sprintf(" [%d more bytes cut]", cut)
	}
	line := "plugin " + l.name + ": " + levelName(o.Level) + ": " + text + "\n"
	ok, notice := budget.take(len(line), l.maxBytes)
	switch {
	case ok:
		_, _ = l.h.log.Write([]byte(line))
	case notice:
		_, _ = fmt.Fprintf(l.h.log, "plugin %s: warning: log budget exhausted (at most %d records and %d bytes per call; smith.kdl: plugin %q { log \"256KiB\"; }); later records of this call are dropped\n",
			l.name, LogRecordsPerCall, l.maxBytes, l.name)
	}
	return nil
}

// levelName is the level as the log shows it; a level newer than this
// host is info, as the world says.
func levelName(v pluginabi.Level) string {
	switch v {
	case pluginabi.LevelDebug:
		return "debug"
	case pluginabi.LevelWarning:
		return "warning"
	case pluginabi.LevelError:
		return "error"
	}
	return "info"
}

// sanitize returns s as at most limit bytes of printable text and the
// number of bytes of s left out: invalid UTF-8 becomes U+FFFD; control
// characters (C0, DEL, C1) become \n, \r, \t or \xNN, and format
// characters (bidirectional overrides, zero-width characters) and line
// and paragraph separators \uNNNN, so that what a plugin logs cannot move
// the cursor, recolour the terminal, start a new line or reorder text.
func sanitize(s string, limit int) (string, int) {
	clean := true
	for _, r := range s {
		if escaped(r) {
			clean = false
			break
		}
	}
	if clean && len(s) <= limit {
		return s, 0
	}
	var b strings.Builder
	b.Grow(min(len(s), limit))
	for i, r := range s {
		var piece string
		switch {
		case r == utf8.RuneError:
			piece = "\uFFFD"
		case r == '\n':
			piece = `\n`
		case r == '\r':
			piece = `\r`
		case r == '\t':
			piece = `\t`
		case r < 0x100 && escaped(r):
			piece = fmt.Sprintf(`\x%02x`, r)
		case escaped(r):
			piece = fmt.Sprintf(`\u%04x`, r)
		default:
			piece = s[i : i+utf8.RuneLen(r)]
		}
		if b.Len()+len(piece) > limit {
			return b.String(), len(s) - i
		}
		b.WriteString(piece)
	}
	return b.String(), 0
}

// escaped reports whether sanitize writes r as an escape.
func escaped(r rune) bool {
	return r == utf8.RuneError || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029'
}
