//go:build unix

package term

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/smith-agent/smith/termkit/input"
	"golang.org/x/sys/unix"
	xterm "golang.org/x/term"
)

// sysState is the Unix part of a Terminal: the signals it handles and the
// input it opened.
type sysState struct {
	sigs     chan os.Signal
	ownIn    bool // in was opened here (/dev/tty) and is closed at the end
	nonblock bool // in's descriptor was made non-blocking and is restored
	sigDone  chan struct{}
}

// probe is the capability query burst: DECRQM for synchronized output,
// grapheme width, focus and bracketed paste, the kitty keyboard flags,
// XTVERSION and the background colour, ended by DA1, which nearly every
// terminal answers.
const probe = "\x1b[?2026$p\x1b[?2027$p\x1b[?1004$p\x1b[?2004$p\x1b[?u\x1b[>0q\x1b]11;?\x1b\\\x1b[c"

// Open takes over the terminal: raw mode, the capability probe (bounded
// by ProbeTimeout; bytes typed meanwhile are kept), the alternate screen
// unless Inline, bracketed paste, focus events, the mouse if asked, and
// the kitty keyboard protocol or modifyOtherKeys; it starts the input
// reader and the signal handling. The error says what is wrong and how
// to run without a terminal.
func Open(opt Options) (*Terminal, error) {
	if opt.Env == nil {
		opt.Env = os.Getenv
	}
	if opt.ProbeTimeout <= 0 {
		opt.ProbeTimeout = 100 * time.Millisecond
	}
	t := &Terminal{opt: opt, events: make(chan input.Event, 1024), done: make(chan struct{}), readerDone: make(chan struct{})}
	if err := t.openFiles(); err != nil {
		return nil, err
	}
	st, err := xterm.MakeRaw(t.fd)
	if err != nil {
		t.sys.release(t)
		return nil, fmt.Errorf("term: cannot put %s into raw mode: %w; run in a terminal, or use a non-interactive mode", t.in.Name(), err)
	}
	t.restoreState = st
	t.caps = envCaps(opt.Env)
	early := t.probe()
	if opt.Override != nil {
		opt.Override(&t.caps)
	}
	t.enable, t.disable = modes(opt, t.caps)
	if _, err := t.out.Write([]byte(t.enable)); err != nil {
		_ = xterm.Restore(t.fd, st)
		t.sys.release(t)
		return nil, fmt.Errorf("term: cannot write to %s: %w", t.out.Name(), err)
	}
	t.startSignals()
	go t.read(early)
	return t, nil
}

// openFiles opens /dev/tty, or falls back to stdin/stdout; the input is
// made pollable so reads take deadlines and Close can stop the reader.
func (t *Terminal) openFiles() error {
	in, out := t.opt.In, t.opt.Out
	if in == nil || out == nil {
		if f, err := os.OpenFile("/dev/tty", os.O_RDWR, 0); err == nil {
			in, out, t.sys.ownIn = f, f, true
		} else {
			in, out = os.Stdin, os.Stdout
		}
	}
	t.fd = descriptor(in)
	if !xterm.IsTerminal(t.fd) {
		if t.sys.ownIn {
			_ = in.Close()
		}
		return fmt.Errorf("term: %s is not a terminal; run in a terminal, or use a non-interactive mode", in.Name())
	}
	t.out = out
	if err := in.SetReadDeadline(time.Time{}); err == nil {
		t.in = in
		return nil
	}
	// Not pollable (a descriptor opened blocking): read through a
	// non-blocking duplicate, made blocking again at the end.
	nfd, err := unix.Dup(t.fd)
	if err != nil {
		return fmt.Errorf("term: duplicate %s: %w", in.Name(), err)
	}
	if err := unix.SetNonblock(nfd, true); err != nil {
		_ = unix.Close(nfd)
		return fmt.Errorf("term: make %s non-blocking: %w", in.Name(), err)
	}
	t.sys.nonblock = true
	t.in = os.NewFile(uintptr(nfd), in.Name())
	return nil
}

// probe sends the query burst and reads replies until DA1 or the
// deadline; it returns the events that were not replies (typed ahead).
func (t *Terminal) probe() []input.Event {
	if _, err := t.out.Write([]byte(probe)); err != nil {
		return nil
	}
	deadline := time.Now().Add(t.opt.ProbeTimeout)
	var dec input.Decoder
	var kept, evs []input.Event
	buf := make([]byte, 4096)
	for time.Now().Before(deadline) {
		_ = t.in.SetReadDeadline(deadline)
		n, err := t.in.Read(buf)
		evs = dec.Feed(evs[:0], buf[:n])
		da1 := false
		for _, ev := range evs {
			if _, ok := ev.(input.PrimaryAttrs); ok {
				da1 = true
			}
			if !t.caps.apply(ev, t.opt.Env) {
				kept = append(kept, ev)
			}
		}
		if da1 || err != nil {
			break
		}
	}
	_ = t.in.SetReadDeadline(time.Time{})
	return append(kept, dec.Flush(nil)...)
}

// read is the input reader: it decodes what the terminal sends, applies
// the ESC timeout, and sends the events until Close.
func (t *Terminal) read(early []input.Event) {
	defer close(t.readerDone)
	defer close(t.events)
	for _, ev := range early {
		if !t.send(ev) {
			return
		}
	}
	var dec input.Decoder
	var evs []input.Event
	buf := make([]byte, 32<<10)
	for {
		select {
		case <-t.done:
			return
		default:
		}
		if dec.Pending() && !dec.InPaste() {
			_ = t.in.SetReadDeadline(time.Now().Add(input.EscTimeout))
		} else {
			_ = t.in.SetReadDeadline(time.Time{})
		}
		n, err := t.in.Read(buf)
		select {
		case <-t.done:
			return
		default:
		}
		evs = dec.Feed(evs[:0], buf[:n])
		if errors.Is(err, os.ErrDeadlineExceeded) {
			evs = dec.Flush(evs)
		} else if err != nil {
			return
		}
		for _, ev := range evs {
			if t.caps.apply(ev, t.opt.Env) {
				continue // a late probe reply
			}
			if !t.send(ev) {
				return
			}
		}
	}
}

func (t *Terminal) send(ev input.Event) bool {
	select {
	case t.events <- ev:
		return true
	case <-t.done:
		return false
	}
}

// endSignals are the signals that end the program; one the process
// ignored when Open ran (nohup's SIGHUP) stays ignored.
var endSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT}

// startSignals handles SIGWINCH (a Resize event), SIGTSTP (Suspend) and
// the ending signals (restore, then OnSignal, or end by the signal).
func (t *Terminal) startSignals() {
	s := &t.sys
	s.sigs = make(chan os.Signal, 8)
	s.sigDone = make(chan struct{})
	watch := []os.Signal{syscall.SIGWINCH, syscall.SIGTSTP}
	for _, sig := range endSignals {
		if !signal.Ignored(sig) {
			watch = append(watch, sig)
		}
	}
	signal.Notify(s.sigs, watch...)
	go func() {
		defer close(s.sigDone)
		for {
			select {
			case sig := <-s.sigs:
				switch sig {
				case syscall.SIGWINCH:
					w, h := t.Size()
					select {
					case t.events <- input.Resize{Width: w, Height: h}:
					default: // the app is behind; a later resize carries the size
					}
				case syscall.SIGTSTP:
					_ = t.Suspend()
				default:
					_ = t.Close()
					if t.opt.OnSignal != nil {
						t.opt.OnSignal(sig)
						continue
					}
					endBy(sig)
				}
			case <-t.done:
				return
			}
		}
	}()
}

// endBy ends the process by sig, so its parent sees the signal; SIGQUIT
// (whose default in Go prints every goroutine) and a signal that does not
// end it exit with 128+signal.
func endBy(sig os.Signal) {
	n, _ := sig.(syscall.Signal)
	if sig != syscall.SIGQUIT {
		signal.Reset(sig)
		_ = syscall.Kill(os.Getpid(), n)
		time.Sleep(100 * time.Millisecond)
	}
	os.Exit(128 + int(n))
}

// Suspend hands the terminal back to the shell and stops the process
// group (job control, ctrl+z); when the shell continues it, raw mode and
// the modes are set again and a Resize event makes the app redraw. With
// no job control (the parent in the same process group) it does nothing
// and says so.
func (t *Terminal) Suspend() error {
	if unix.Getpgrp() == pgid(os.Getppid()) {
		return errors.New("term: no job control here (the parent shares the process group), so Smith cannot be suspended")
	}
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return errClosed
	}
	_, _ = t.out.Write([]byte(t.disable))
	_ = xterm.Restore(t.fd, t.restoreState)
	t.mu.Unlock()
	cont := make(chan os.Signal, 1)
	signal.Notify(cont, syscall.SIGCONT)
	defer signal.Stop(cont)
	// Go's handler would swallow SIGTSTP: stop the rest of the group with
	// it, and this process with SIGSTOP, which cannot be caught.
	signal.Ignore(syscall.SIGTSTP)
	_ = syscall.Kill(0, syscall.SIGTSTP)
	_ = syscall.Kill(os.Getpid(), syscall.SIGSTOP)
	select {
	case <-cont:
	case <-time.After(time.Second):
		// Continued before the notification was set up, or never stopped.
	}
	signal.Notify(t.sys.sigs, syscall.SIGTSTP)
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return errClosed
	}
	st, err := xterm.MakeRaw(t.fd)
	if err != nil {
		return fmt.Errorf("term: raw mode again after suspend: %w", err)
	}
	t.restoreState = st
	_, _ = t.out.Write([]byte(t.enable))
	w, h := t.Size()
	select {
	case t.events <- input.Resize{Width: w, Height: h}:
	default:
	}
	return nil
}

func pgid(pid int) int {
	g, err := unix.Getpgid(pid)
	if err != nil {
		return -1
	}
	return g
}

// stop ends the signal handling.
func (s *sysState) stop(*Terminal) {
	if s.sigs != nil {
		signal.Stop(s.sigs)
	}
}

// release discards pending input and closes what Open opened.
func (s *sysState) release(t *Terminal) {
	if t.in != nil {
		// Discard what is still buffered (key releases, late replies).
		_ = t.in.SetReadDeadline(time.Now().Add(5 * time.Millisecond))
		buf := make([]byte, 4096)
		for range 64 {
			if n, err := t.in.Read(buf); n == 0 || err != nil {
				break
			}
		}
	}
	switch {
	case s.ownIn:
		_ = t.in.Close()
	case s.nonblock:
		_ = unix.SetNonblock(descriptor(t.in), false)
		_ = t.in.Close()
	}
}

// descriptor returns f's descriptor without the side effect of f.Fd,
// which puts the file into blocking mode (and so out of the poller: read
// deadlines would stop working).
func descriptor(f *os.File) int {
	fd := -1
	if rc, err := f.SyscallConn(); err == nil {
		_ = rc.Control(func(d uintptr) { fd = int(d) })
	}
	if fd < 0 {
		return int(f.Fd())
	}
	return fd
}
