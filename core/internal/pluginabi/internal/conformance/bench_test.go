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
