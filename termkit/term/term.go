package term

import (
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/smith-agent/smith/termkit/input"
	xterm "golang.org/x/term"
)

// Options configure [Open]. The zero value takes over /dev/tty in
// fullscreen mode with a 100 ms probe.
type Options struct {
	// In and Out are the terminal; nil opens /dev/tty (falling back to
	// os.Stdin and os.Stdout when it cannot be opened).
	In, Out *os.File
	// Inline stays in the main screen instead of the alternate screen
	// (autowrap and the cursor are left as they are).
	Inline bool
	// Mouse reports mouse buttons, the wheel and drags (SGR encoding,
	// button-motion mode 1002, never all-motion 1003).
	Mouse bool
	// NoKittyKeyboard does not push the kitty keyboard protocol even when
	// the terminal supports it (modifyOtherKeys is used instead).
	NoKittyKeyboard bool
	// ProbeTimeout bounds the capability probe: a terminal that answers
	// nothing delays Open by at most this much. Zero is 100 ms.
	ProbeTimeout time.Duration
	// Override adjusts the probed capabilities: the user's flags and
	// configuration win over the probe.
	Override func(*Caps)
	// OnSignal, when set, is called after SIGINT, SIGTERM, SIGHUP or
	// SIGQUIT has restored the terminal, so the program can end in order
	// (the terminal ignores later writes); when nil the process exits at
	// once with status 128+signal.
	OnSignal func(os.Signal)
	// Env reads the environment; nil is os.Getenv.
	Env func(string) string
}

// Terminal is a terminal in raw mode. Every method is safe for concurrent
// use; Close restores the exact prior state and may be called any number
// of times from any goroutine.
type Terminal struct {
	opt  Options
	in   *os.File // read with deadlines (a pollable copy of the input)
	out  *os.File
	fd   int // the input's descriptor, for termios and size
	caps Caps

	restoreState *xterm.State
	events       chan input.Event
	done         chan struct{}
	readerDone   chan struct{}

	mu     sync.Mutex // guards writes and closed
	closed bool
	once   sync.Once
	sys    sysState // the platform's part (signals, non-blocking copy)

	enable, disable string // the mode sequences, for suspend and resume
}

// Caps returns the terminal's capabilities.
func (t *Terminal) Caps() Caps { return t.caps }

// Events returns the terminal's events: keys, pastes, mouse, focus, and
// input.Resize when the window changes size. It is closed after Close.
func (t *Terminal) Events() <-chan input.Event { return t.events }

// Size returns the terminal's columns and rows (80×24 when they cannot be
// read).
func (t *Terminal) Size() (w, h int) {
	w, h, err := xterm.GetSize(t.fd)
	if err != nil || w <= 0 || h <= 0 {
		return 80, 24
	}
	return w, h
}

// errClosed is returned by writes after Close.
var errClosed = errors.New("term: the terminal was closed and restored")

// Write writes p to the terminal; after Close it writes nothing and
// returns an error.
func (t *Terminal) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return 0, errClosed
	}
	return t.out.Write(p)
}

// Copy puts text on the system clipboard through the terminal (OSC 52).
// Terminals do not acknowledge it; an error means it was not sent.
func (t *Terminal) Copy(text string) error {
	if !t.caps.Clipboard {
		return errors.New("this terminal does not take clipboard writes (OSC 52)")
	}
	if len(text) > 1<<20 {
		return fmt.Errorf("%d bytes is more than the 1 MiB a terminal clipboard write may carry", len(text))
	}
	seq := "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(text)) + "\x1b\\"
	_, err := t.Write([]byte(seq))
	return err
}

// modes returns the sequences that enable the terminal's modes and the
// ones that disable them, in reverse order.
func modes(opt Options, c Caps) (enable, disable string) {
	var on, off []string
	add := func(e, d string) {
		on = append(on, e)
		off = append([]string{d}, off...)
	}
	if !opt.Inline {
		add("\x1b[?1049h", "\x1b[?1049l")
		add("\x1b[?7l", "\x1b[?7h")
		add("\x1b[?25l", "\x1b[?25h")
	}
	if c.BracketedPaste {
		add("\x1b[?2004h", "\x1b[?2004l")
	}
	add("\x1b[?1004h", "\x1b[?1004l")
	if opt.Mouse {
		add("\x1b[?1000h\x1b[?1002h\x1b[?1006h", "\x1b[?1006l\x1b[?1002l\x1b[?1000l")
	}
	if c.GraphemeWidth {
		add("\x1b[?2027h", "\x1b[?2027l")
	}
	// Keyboard flags are per screen: pushed after entering the alternate
	// screen, popped before leaving it.
	if c.KittyKeyboard && !opt.NoKittyKeyboard {
		add("\x1b[>1u", "\x1b[<u")
	} else {
		add("\x1b[>4;2m", "\x1b[>4;0m")
	}
	off = append(off, "\x1b[0m")
	return strings.Join(on, ""), strings.Join(off, "")
}

// Close restores the terminal: modes off in reverse order, the cursor
// shown, the main screen back, the saved termios, and pending input
// discarded (so key releases never reach the shell). Idempotent.
func (t *Terminal) Close() error {
	var err error
	t.once.Do(func() {
		t.mu.Lock()
		if !t.closed {
			_, _ = t.out.Write([]byte(t.disable))
		}
		t.closed = true
		t.mu.Unlock()
		close(t.done)
		t.sys.stop(t)
		t.wakeReader()
		if t.restoreState != nil {
			err = xterm.Restore(t.fd, t.restoreState)
		}
		t.sys.release(t)
	})
	return err
}

// wakeReader makes the reader's blocked read return until the reader has
// ended (it may set its own deadline between two of ours), giving up
// after a second: release closes the input anyway.
func (t *Terminal) wakeReader() {
	for range 100 {
		_ = t.in.SetReadDeadline(time.Now())
		select {
		case <-t.readerDone:
			return
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// Go runs f in a new goroutine; a panic in it restores the terminal,
// prints the panic with its stack to stderr and exits with status 2.
func (t *Terminal) Go(f func()) {
	go func() {
		defer Recover(t)
		f()
	}()
}

// Recover, deferred at the top of a goroutine (main's included), turns a
// panic into a restored terminal, the panic and its stack on stderr, and
// exit status 2. Without a panic it does nothing.
func Recover(t *Terminal) {
	r := recover()
	if r == nil {
		return
	}
	if t != nil {
		_ = t.Close()
	}
	fmt.Fprintf(os.Stderr, "panic: %v\n\n%s", r, debug.Stack())
	os.Exit(2)
}
