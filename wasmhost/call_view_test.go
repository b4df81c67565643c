package wasmhost

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestCallView reads guest bytes in place: what was written is there,
// without a copy (a write through the guest shows in the view), and a
// range past the memory is refused naming it.
func TestCallView(t *testing.T) {
	e := newEngine(t, Config{})
	p := compile(t, e, "view", wat(t, "guest"), PluginConfig{})
	g, err := NewGeneration(p)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	in, err := g.Acquire(context.Background(), "view")
	if err != nil {
		t.Fatal(err)
	}
	defer in.Release()
	data := []byte("in place")
	tests := []struct {
		name   string
		ptr, n uint32
		want   string // the bytes, or the error's text
		err    bool
	}{
		{name: "written bytes", ptr: 8192, n: uint32(len(data)), want: "in place"},
		{name: "empty", ptr: 8192, n: 0, want: ""},
		{name: "past the end", ptr: 65530, n: 100, want: "pointer 0xfffa, length 100 is outside linear memory (65536 bytes)", err: true},
	}
	var out string
	err = in.Invoke(context.Background(), ex+"echo", func(c *Call, params []uint64) error {
		if err := c.WriteBytes(8192, data); err != nil {
			return err
		}
		for _, tt := range tests {
			b, err := c.View(tt.ptr, tt.n)
			switch {
			case tt.err && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("%s: View(%#x, %d) error %v; want %q", tt.name, tt.ptr, tt.n, err, tt.want)
			case !tt.err && (err != nil || string(b) != tt.want):
				t.Errorf("%s: View(%#x, %d) = %q, %v; want %q", tt.name, tt.ptr, tt.n, b, err, tt.want)
			}
		}
		b, err := c.View(8192, uint32(len(data)))
		if err != nil {
			return err
		}
		if err := c.WriteBytes(8192, []byte("IN")); err != nil {
			return err
		}
		if !bytes.HasPrefix(b, []byte("IN place")) {
			t.Errorf("view %q after the guest memory changed; want it to alias the memory", b)
		}
		params[0], params[1] = 8192, uint64(len(data))
		return nil
	}, liftString(&out))
	if err != nil || out != "IN place" {
		t.Fatalf("echo of the viewed bytes = %q, %v; want %q", out, err, "IN place")
	}
}
