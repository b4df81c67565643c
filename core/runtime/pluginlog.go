package runtime

import (
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
	// redact replaces the registered secrets in a write (nil: none);
	// a secret split across two writes of a plugin's stdout is missed.
	redact func([]byte) []byte

	mu   sync.Mutex
	f    *os.File
	size int64
	bol  bool // the next byte starts a line
}

func newPluginLog(path string) *pluginLog {
	return &pluginLog{path: path, now: time.Now, bol: true}
}

// Write appends b, stamping each line it starts; it always reports success.
func (l *pluginLog) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil && !l.open() {
		return len(b), nil
	}
	n := len(b)
	if l.redact != nil {
		b = l.redact(b)
	}
	out := make([]byte, 0, len(b)+32)
	stamp := l.now().UTC().Format("2006-01-02T15:04:05.000Z ")
	for _, c := range b {
		if l.bol {
			out = append(out, stamp...)
		}
		out = append(out, c)
		l.bol = c == '\n'
	}
	w, _ := l.f.Write(out)
	l.size += int64(w)
	if l.size >= PluginLogLimit && l.bol {
		_ = l.f.Close()
		l.f = nil
		_ = os.Rename(l.path, l.path+".1")
	}
	return n, nil
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

// close closes the file, if open.
func (l *pluginLog) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f != nil {
		_ = l.f.Close()
		l.f = nil
	}
}
