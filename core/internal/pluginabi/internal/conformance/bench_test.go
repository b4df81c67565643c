package conformance_test

import (
	"context"
	"testing"

	"github.com/smith-agent/smith/core/internal/pluginabi/internal/conformance"
	"github.com/smith-agent/smith/wasmhost"
)

// BenchmarkCall measures calls through the generated bindings on a pooled
// instance: a string in and a result out through a host import (probe-text),
// flat scalars only (score-shape), and a whole bundle both ways
// (transform-bundle).
func BenchmarkCall(b *testing.B) {
	ctx := context.Background()
	for _, gc := range guestCases(b) {
		g, _ := instance(b, gc, wasmhost.Budgets{})
		b.Run(gc.name+"/probe-text", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := g.ProbeText(ctx, "héllo"); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(gc.name+"/score-shape", func(b *testing.B) {
			shape := conformance.Shape{Case: conformance.ShapeCircle, Circle: 3}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := g.ScoreShape(ctx, shape, nil, conformance.ColorRed); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(gc.name+"/transform-bundle", func(b *testing.B) {
			bundle := fullBundle()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := g.TransformBundle(ctx, bundle); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestCallAllocations pins the host-side allocations of a call through the
// bindings: the context carrying the instance state, and what lifting and
// lowering a string needs.
func TestCallAllocations(t *testing.T) {
	_, w := guests(t)
	g, _ := instance(t, guestCase{name: "wat", wasm: w}, wasmhost.Budgets{})
	ctx := context.Background()
	shape := conformance.Shape{Case: conformance.ShapeCircle, Circle: 3}
	tests := []struct {
		name string
		max  float64
		call func() error
	}{
		{name: "flat-scalars", max: 1, call: func() error {
			_, err := g.ScoreShape(ctx, shape, nil, conformance.ColorRed)
			return err
		}},
		{name: "string-through-import", max: 5, call: func() error {
			_, err := g.ProbeText(ctx, "héllo")
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			n := testing.AllocsPerRun(200, func() {
				if e := tt.call(); e != nil {
					err = e
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			if n > tt.max {
				t.Errorf("allocations per call = %v; want at most %v", n, tt.max)
			}
		})
	}
}
