package wasmhost

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"unicode/utf8"
)

// FuzzGuestPointers has the WAT guest return hostile (ptr, len) pairs: echo
// hands back whatever the host lowered, so the lift reads a string at an
// arbitrary place. Every outcome must be a clean result or a clean *Error,
// never a panic, and a failed instance must never be reused.
func FuzzGuestPointers(f *testing.F) {
	f.Add(uint32(0), uint32(0), []byte(nil))
	f.Add(uint32(8192), uint32(5), []byte("hello"))
	f.Add(uint32(64), uint32(13), []byte(nil))
	f.Add(uint32(65000), uint32(1000), []byte("x"))
	f.Add(uint32(0xffffffff), uint32(1), []byte(nil))
	f.Add(uint32(1), uint32(0xffffffff), []byte(nil))
	f.Add(uint32(60000), uint32(10), make([]byte, 60000))
	e := newEngine(f, Config{})
	p := compile(f, e, "fuzz", wat(f, "guest"), PluginConfig{})
	g, err := NewGeneration(p)
	if err != nil {
		f.Fatal(err)
	}
	defer g.Close()
	f.Fuzz(func(t *testing.T, ptr, n uint32, data []byte) {
		in, err := g.Acquire(context.Background(), "fuzz")
		if err != nil {
			t.Fatal(err)
		}
		defer in.Release()
		var out string
		var writeErr error
		err = in.Invoke(context.Background(), ex+"echo", func(c *Call, params []uint64) error {
			writeErr = c.WriteBytes(8192, data)
			if (writeErr == nil) != (8192+len(data) <= 65536) {
				t.Fatalf("WriteBytes(8192, %d bytes) = %v in 65536 bytes of memory", len(data), writeErr)
			}
			params[0], params[1] = uint64(ptr), uint64(n)
			return nil
		}, liftString(&out))
		inBounds := uint64(ptr)+uint64(n) <= 65536
		if err == nil {
			if !inBounds || uint32(len(out)) != n || !utf8.ValidString(out) {
				t.Fatalf("lifted %d bytes at %#x/%d: in bounds %v, valid %v", len(out), ptr, n, inBounds, utf8.ValidString(out))
			}
			return
		}
		var he *Error
		if !errors.As(err, &he) || he.Plugin != "fuzz" {
			t.Fatalf("error %v (%T) is not a *wasmhost.Error of the plugin", err, err)
		}
		switch {
		case !inBounds && !strings.Contains(err.Error(), "is outside linear memory (65536 bytes)"):
			t.Fatalf("out of bounds %#x/%d: %v", ptr, n, err)
		case inBounds && !strings.Contains(err.Error(), "is not valid UTF-8"):
			t.Fatalf("in bounds %#x/%d: %v", ptr, n, err)
		}
		if !in.broken {
			t.Fatal("a failed instance was not marked for destruction")
		}
	})
}

// FuzzCompile feeds arbitrary bytes to Compile: it must refuse or accept,
// never panic, and anything it accepts must instantiate.
func FuzzCompile(f *testing.F) {
	f.Add(wat(f, "guest"))
	f.Add(wat(f, "refuse/several"))
	f.Add([]byte("\x00asm\x01\x00\x00\x00"))
	e := newEngine(f, Config{})
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := e.Compile(context.Background(), Artifact{Name: "fuzz", Reader: strings.NewReader(string(b)), MaxBytes: 1 << 20},
			PluginConfig{World: testWorld(), Hosts: testHosts(new(atomic.Int64)), Budgets: Budgets{Fuel: 1 << 20, MemoryPages: 16}})
		if err != nil {
			return
		}
		defer p.Close(context.Background())
		g, _ := NewGeneration(p)
		defer g.Close()
		in, err := g.Acquire(context.Background(), "fuzz")
		if err == nil {
			in.Release()
		}
	})
}
