package rustdriver

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// stopWait is how long a driver may take to exit once its stdin is closed
// (or its pipe broke) before it is killed.
const stopWait = 5 * time.Second

// Driver is a running Rust driver binary. Ask is safe for concurrent use:
// requests are served one at a time.
type Driver struct {
	root   string
	cmd    *exec.Cmd
	in     *os.File
	out    *bufio.Reader
	outF   *os.File
	stderr tail
	exited chan struct{} // closed once the process has been waited for

	mu     sync.Mutex
	broken error // why the last request failed; every later one fails too
}

// drivers holds the drivers started in this process, by root and args.
var drivers struct {
	mu sync.Mutex
	m  map[string]*start
}

type start struct {
	once sync.Once
	d    *Driver
	err  error
}

// Start returns the driver built from root (a Rust crate root, relative
// to the test's directory) with rustc -C opt-level=2 --crate-type bin
// --edition 2021 -D warnings and args, building and starting it on the
// first call in this test binary and returning the same Driver after. It
// fails tb if rustc is missing (run scripts/deps.sh), the build fails, or
// the binary does not start. The driver runs until [Stop].
func Start(tb testing.TB, root string, args ...string) *Driver {
	tb.Helper()
	key := root + "\x00" + strings.Join(args, "\x00")
	drivers.mu.Lock()
	if drivers.m == nil {
		drivers.m = map[string]*start{}
	}
	s := drivers.m[key]
	if s == nil {
		s = &start{}
		drivers.m[key] = s
	}
	drivers.mu.Unlock()
	s.once.Do(func() { s.d, s.err = launch(root, args) })
	if s.err != nil {
		tb.Fatal(s.err)
	}
	return s.d
}

// launch builds root into a new directory, starts the binary and
// removes the directory (the running process keeps its file), so a test
// process killed later leaves nothing behind.
func launch(root string, args []string) (*Driver, error) {
	sweep(os.TempDir(), time.Now().Add(-staleAfter))
	dir, err := os.MkdirTemp("", "rustdriver-")
	if err != nil {
		return nil, fmt.Errorf("rustdriver: a directory for %s's binary: %w", root, err)
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, strings.TrimSuffix(filepath.Base(root), ".rs"))
	if err := compile(root, bin, append([]string{"-C", "opt-level=2", "--crate-type", "bin"}, args...)...); err != nil {
		return nil, err
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("rustdriver: a pipe to %s: %w", root, err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, fmt.Errorf("rustdriver: a pipe from %s: %w", root, err)
	}
	d := &Driver{root: root, cmd: tether(exec.Command(bin)), exited: make(chan struct{})}
	d.cmd.Stdin, d.cmd.Stdout, d.cmd.Stderr = inR, outW, &d.stderr
	err = d.cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, fmt.Errorf("rustdriver: starting %s built from %s: %w", bin, root, err)
	}
	d.in, d.outF, d.out = inW, outR, bufio.NewReaderSize(outR, 64<<10)
	go func() {
		d.cmd.Wait()
		close(d.exited)
	}()
	return d, nil
}

// staleAfter is the age past which a build directory is a leftover: a
// build takes seconds, and a started driver's directory is removed at
// once.
const staleAfter = time.Hour

// sweep removes the rustdriver-* directories in tmp last changed before
// cutoff, which test processes killed while building leave behind.
func sweep(tmp string, cutoff time.Time) {
	old, _ := filepath.Glob(filepath.Join(tmp, "rustdriver-*"))
	for _, dir := range old {
		if fi, err := os.Lstat(dir); err == nil && fi.IsDir() && fi.ModTime().Before(cutoff) {
			os.RemoveAll(dir)
		}
	}
}

// Ask sends the driver one request, op and payload, and returns the
// payload of its reply. It fails tb if the driver cannot take the request
// or does not answer in full (it panicked on this or an earlier request:
// the message holds its stderr); a broken driver fails every later Ask.
func (d *Driver) Ask(tb testing.TB, op byte, payload []byte) []byte {
	tb.Helper()
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.broken != nil {
		tb.Fatalf("rustdriver: %s cannot take op %q: it broke on an earlier request: %v", d.root, op, d.broken)
	}
	if uint64(len(payload)) > 1<<32-1 {
		tb.Fatalf("rustdriver: a %d-byte payload for op %q exceeds the frame limit of 4 GiB - 1; send less", len(payload), op)
	}
	req := make([]byte, 5, 5+len(payload))
	req[0] = op
	binary.LittleEndian.PutUint32(req[1:], uint32(len(payload)))
	reply, err := d.exchange(append(req, payload...))
	if err != nil {
		d.broken = d.death(err)
		tb.Fatalf("rustdriver: %s did not answer op %q with a %d-byte payload %.200q: %v", d.root, op, len(payload), payload, d.broken)
	}
	return reply
}

func (d *Driver) exchange(req []byte) ([]byte, error) {
	if _, err := d.in.Write(req); err != nil {
		return nil, fmt.Errorf("writing the request: %w", err)
	}
	var n [4]byte
	if _, err := io.ReadFull(d.out, n[:]); err != nil {
		return nil, fmt.Errorf("reading the reply's length: %w", err)
	}
	reply := make([]byte, binary.LittleEndian.Uint32(n[:]))
	if _, err := io.ReadFull(d.out, reply); err != nil {
		return nil, fmt.Errorf("reading the %d-byte reply: %w", len(reply), err)
	}
	return reply, nil
}

// death waits for the driver to end after a failed exchange and describes
// how it ended.
func (d *Driver) death(err error) error {
	select {
	case <-d.exited:
	case <-time.After(stopWait):
		d.cmd.Process.Kill()
		<-d.exited
	}
	return fmt.Errorf("%v; the driver ended with %v; its stderr:\n%s", err, d.cmd.ProcessState, d.stderr.String())
}

// stop closes the driver's stdin and waits for it to exit, killing it
// after stopWait.
func (d *Driver) stop() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.in.Close()
	select {
	case <-d.exited:
	case <-time.After(stopWait):
		d.cmd.Process.Kill()
		<-d.exited
	}
	d.outF.Close()
	if d.broken == nil {
		d.broken = fmt.Errorf("rustdriver: %s was stopped", d.root)
	}
}

// Stop stops every driver this process started; a later Start builds
// afresh. TestMain calls it after m.Run.
func Stop() {
	drivers.mu.Lock()
	m := drivers.m
	drivers.m = nil
	drivers.mu.Unlock()
	for _, s := range m {
		s.once.Do(func() {}) // a Start still building finishes first
		if s.d != nil {
			s.d.stop()
		}
	}
}

// tail keeps the last tailSize bytes written to it.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

const tailSize = 16 << 10

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > tailSize {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-tailSize:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
