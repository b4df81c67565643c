package conformance

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/smith-agent/smith/wasmhost"
)

// fuzzBase is where the fuzzer's bytes are written in the WAT guest's
// memory: above its data and below the memory's end, where nothing else
// lives until the guest's allocator reaches it.
const fuzzBase = 8192

// watInstance compiles the WAT guest for the fuzz target and returns a
// function binding a fresh instance of it.
func watInstance(tb testing.TB) func() *Guest {
	tb.Helper()
	if _, err := exec.LookPath("wat2wasm"); err != nil {
		tb.Fatal("wat2wasm not found: install wabt (scripts/deps.sh does)")
	}
	out := filepath.Join(tb.TempDir(), "guest.wasm")
	if msg, err := exec.Command("wat2wasm", filepath.Join("testdata", "guest.wat"), "-o", out).CombinedOutput(); err != nil {
		tb.Fatalf("wat2wasm: %v\n%s", err, msg)
	}
	wasm, err := os.ReadFile(out)
	if err != nil {
		tb.Fatal(err)
	}
	ctx := context.Background()
	e, err := wasmhost.NewEngine(ctx, wasmhost.Config{CacheDir: filepath.Join(tb.TempDir(), "cache")})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { e.Close(ctx) })
	mods, err := HostModules(Hosts{Host: nopHost{}})
	if err != nil {
		tb.Fatal(err)
	}
	p, err := e.Compile(ctx, wasmhost.Artifact{Name: "fuzz", Reader: bytes.NewReader(wasm)},
		wasmhost.PluginConfig{World: WorldSpec(), Hosts: mods, MaxInstances: 1})
	if err != nil {
		tb.Fatal(err)
	}
	gen, err := wasmhost.NewGeneration(p)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(gen.Close)
	return func() *Guest {
		in, err := gen.Acquire(ctx, p.Name())
		if err != nil {
			tb.Fatal(err)
		}
		return Bind(in)
	}
}

// nopHost serves the host interface for a guest the fuzzer never runs.
type nopHost struct{}

func (nopHost) NewCounter(context.Context, int64) (Counter, error) { return nil, nil }
func (nopHost) EchoBundle(_ context.Context, b Bundle) (Bundle, error) {
	return b, nil
}
func (nopHost) CheckText(context.Context, string) (uint32, error) { return 0, nil }
func (nopHost) NameShape(context.Context, Shape) (*string, error) { return nil, nil }

// withCall runs fn with a live *wasmhost.Call on the guest, inside the
// lowering of a call to the guest's no-op destructor. It reports whether
// the instance survived: reading too much out of it exceeds the output
// budget, which destroys it, as it should.
func withCall(tb testing.TB, g *Guest, fn func(c *wasmhost.Call)) bool {
	err := g.in.Invoke(g.ctx(context.Background()), "smith:conformance/guest@0.0.0#[dtor]accumulator",
		func(c *wasmhost.Call, f []uint64) error {
			fn(c)
			return nil
		}, nil)
	var we *wasmhost.Error
	switch {
	case err == nil:
		return true
	case errors.As(err, &we) && we.Budget != "":
		return false
	}
	tb.Fatalf("the no-op call failed: %v", err)
	return false
}

// FuzzLift writes hostile bytes into guest memory and lifts a bundle (every
// kind of value: pointers, lengths, alignments, discriminants, chars, UTF-8)
// and flat values from them. Lifting must fail cleanly or succeed; a lifted
// value must survive a lower and lift round trip unchanged.
func FuzzLift(f *testing.F) {
	f.Add(make([]byte, 136))
	f.Add(validBundleImage())
	f.Add(bytes.Repeat([]byte{0xff}, 160))
	fresh := watInstance(f)
	g := fresh()
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 32<<10 {
			return
		}
		defer func() {
			if g == nil {
				g = fresh()
			}
		}()
		alive := withCall(t, g, func(c *wasmhost.Call) {
			if err := c.WriteBytes(fuzzBase, data); err != nil {
				t.Fatalf("write the input: %v", err)
			}
			raw := append(append([]byte(nil), data...), make([]byte, 160)...)
			var b Bundle
			if err := loadBundle(c, raw, &b); err == nil {
				roundTrip(t, c, b)
			}
			var fault Fault
			_ = loadFault(c, raw, &fault)
			flat := make([]uint64, 5)
			for i := range flat {
				flat[i] = uint64(binary.LittleEndian.Uint32(raw[4*i:]))
			}
			var s Shape
			_ = liftShape(c, flat, &s)
		})
		if !alive {
			g.in.Release()
			g = nil
		}
	})
}

// roundTrip lowers b into guest memory and lifts it again.
func roundTrip(t *testing.T, c *wasmhost.Call, b Bundle) {
	buf := make([]byte, 136)
	if err := storeBundle(c, buf, &b); err != nil {
		return // the guest's memory budget ran out; not a lifting bug
	}
	var again Bundle
	if err := loadBundle(c, buf, &again); err != nil {
		t.Fatalf("lifting a lowered bundle failed: %v\nbundle %+v", err, b)
	}
	if !reflect.DeepEqual(again, b) && !sameBundle(again, b) {
		t.Fatalf("round trip changed the bundle:\n got %+v\nwant %+v", again, b)
	}
}

// sameBundle compares bundles treating empty and nil slices alike and NaN
// as equal to itself.
func sameBundle(a, b Bundle) bool {
	na, nb := a, b
	for _, x := range []*Bundle{&na, &nb} {
		if len(x.Tags) == 0 {
			x.Tags = nil
		}
		if len(x.Points) == 0 {
			x.Points = nil
		}
		if len(x.Payload) == 0 {
			x.Payload = nil
		}
		if len(x.Groups) == 0 {
			x.Groups = nil
		}
		for i := range x.Groups {
			if len(x.Groups[i]) == 0 {
				x.Groups[i] = nil
			}
		}
		x.Ratio, x.Scale = 0, 0
	}
	return reflect.DeepEqual(na, nb) && sameFloat(float64(a.Scale), float64(b.Scale)) && sameFloat(a.Ratio, b.Ratio)
}

func sameFloat(a, b float64) bool { return a == b || a != a && b != b }

// validBundleImage is a bundle whose name points inside the image itself.
func validBundleImage() []byte {
	img := make([]byte, 160)
	binary.LittleEndian.PutUint64(img[0:], 42)
	binary.LittleEndian.PutUint32(img[8:], fuzzBase+136) // name ptr
	binary.LittleEndian.PutUint32(img[12:], 5)           // name len
	img[32] = 2                                          // color blue
	img[36] = 2                                          // shape named
	binary.LittleEndian.PutUint32(img[40:], fuzzBase+136)
	binary.LittleEndian.PutUint32(img[44:], 3)
	binary.LittleEndian.PutUint32(img[96:], 'x') // initial
	copy(img[136:], "hello")
	return img
}
