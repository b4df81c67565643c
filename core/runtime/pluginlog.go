package runtime

import (
	"bytes"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// PluginLogLimit is the size at which the plugin log is rotated: the
// current file becomes PATH.1 (replacing the previous one) and a new file
// is started, so the log never holds more than twice this.
const PluginLogLimit = 1 << 20

// PluginLog is the plugin log: DATA/logs/plugins.log, what plugins write
// to stdout and stderr and through the log capability, one line per record
// ("plugin NAME: LEVEL: MESSAGE"), each prefixed with its UTC time, the
// registered secrets replaced by their references.
func (p Paths) PluginLog() string { return filepath.Join(p.Data, "logs", "plugins.log") }

// pluginLog is the io.Writer of the plugin log. The file is opened at the
// first write (a run whose plugins log nothing never touches it) and a
// write that fails is dropped: a plugin's diagnostics never fail a call.
// It is safe for concurrent use.
type pluginLog struct {
	path string
	now  func() time.Time
	// redact replaces the registered secrets in a line (nil: none). A
	// line is redacted whole, once it is complete, so a secret a plugin
	// writes to stdout in two pieces is still caught.
	redact func([]byte) []byte

	mu      sync.Mutex
	f       *os.File
	size    int64
	pending []byte // the line being written, up to pendingLimit
}

// pendingLimit bounds a line held back for its end: 16 KiB. A longer one
// is written (redacted) as it stands.
const pendingLimit = 16 << 10

func newPluginLog(path string) *pluginLog {
	return &pluginLog{path: path, now: time.Now}
}

// Write appends the complete lines of b (with what earlier writes left of
// their line), each stamped and redacted; the rest of b waits for its
// line's end. It always reports success.
func (l *pluginLog) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.pending = append(l.pending, b...)
	end := bytes.LastIndexByte(l.pending, '\n') + 1
	if end == 0 && len(l.pending) < pendingLimit {
		return len(b), nil
	}
	if end == 0 {
		end = len(l.pending)
	}
	l.flush(l.pending[:end])
	l.pending = append(l.pending[:0], l.pending[end:]...)
	return len(b), nil
}

// flush writes lines, redacted, each prefixed with the time. Called with
// l.mu held.
func (l *pluginLog) flush(lines []byte) {
	if len(lines) == 0 || l.f == nil && !l.open() {
		return
	}
	stamp := l.now().UTC().Format("2006-01-02T15:04:05.000Z ")
	out := make([]byte, 0, len(lines)+64)
	for len(lines) > 0 {
		i := bytes.IndexByte(lines, '\n') + 1
		if i == 0 {
			i = len(lines)
		}
		line := lines[:i]
		if l.redact != nil {
			line = l.redact(line)
		}
		out = append(append(out, stamp...), line...)
		lines = lines[i:]
	}
	if out[len(out)-1] != '\n' {
		out = append(out, '\n') // a line cut at the bound, or left at close
	}
	w, _ := l.f.Write(out)
	l.size += int64(w)
	if l.size >= PluginLogLimit {
		_ = l.f.Close()
		l.f = nil
		_ = os.Rename(l.path, l.path+".1")
	}
}

// open opens the log for appending, creating its directory.
func (l *pluginLog) open() bool {
	if err := os.MkdirAll(filepath.Dir(l.path), 0o700); err != nil {
		return false
	}
	f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return false
	}
	st, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return false
	}
	l.f, l.size = f, st.Size()
	return true
}

// close writes the line left unfinished, if any, and closes the file.
func (l *pluginLog) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.flush(l.pending)
	l.pending = nil
	if l.f != nil {
		_ = l.f.Close()
		l.f = nil
	}
}
