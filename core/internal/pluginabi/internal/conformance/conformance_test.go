package conformance_test

import (
	"context"
	"errors"
	"math"
	"reflect"
	"testing"

	"github.com/smith-agent/smith/core/internal/pluginabi/internal/conformance"
	"github.com/smith-agent/smith/wasmhost"
)

func ptr[T any](v T) *T { return &v }

// fullBundle sets every field, with multi-byte UTF-8, extremes and nesting.
func fullBundle() conformance.Bundle {
	return conformance.Bundle{
		ID:      math.MaxUint64 - 1,
		Name:    "bündel ✓",
		Tags:    []string{"a", "", "ünï"},
		Points:  []conformance.Point{{X: -1, Y: math.MaxInt32, Label: "p0"}, {X: math.MinInt32, Y: 0, Label: ""}},
		Color:   conformance.ColorBlue,
		Shape:   conformance.Shape{Case: conformance.ShapeRectangle, Rectangle: conformance.Point{X: 3, Y: -4, Label: "rect"}},
		Note:    ptr("a note"),
		Ratio:   -2.5e300,
		Scale:   float32(1.25),
		Flag:    true,
		Tiny:    -128,
		Port:    65535,
		Offset:  math.MinInt64,
		Initial: '𝄞',
		Payload: []byte{0, 1, 2, 255},
		Groups:  [][]string{{"x", "y"}, nil, {"z"}},
		Origin:  &conformance.Point{X: 7, Y: 8, Label: "origin"},
	}
}

// normalize makes empty slices nil, since a lifted empty list is either.
func normalize(b conformance.Bundle) conformance.Bundle {
	if len(b.Tags) == 0 {
		b.Tags = nil
	}
	if len(b.Points) == 0 {
		b.Points = nil
	}
	if len(b.Payload) == 0 {
		b.Payload = nil
	}
	if len(b.Groups) == 0 {
		b.Groups = nil
	}
	for i := range b.Groups {
		if len(b.Groups[i]) == 0 {
			b.Groups[i] = nil
		}
	}
	return b
}

func TestConformance(t *testing.T) {
	t.Parallel()
	for _, gc := range guestCases(t) {
		t.Run(gc.name, func(t *testing.T) {
			t.Run("bundle", func(t *testing.T) { testBundle(t, gc) })
			t.Run("results", func(t *testing.T) { testResults(t, gc) })
			t.Run("options", func(t *testing.T) { testOptions(t, gc) })
			t.Run("flat", func(t *testing.T) { testFlat(t, gc) })
			t.Run("host-resource", func(t *testing.T) { testHostResource(t, gc) })
			t.Run("guest-resource", func(t *testing.T) { testGuestResource(t, gc) })
		})
	}
}

// testBundle round-trips records, lists, variants, enums, options and every
// scalar: host → guest export → host import → guest → host.
func testBundle(t *testing.T, gc guestCase) {
	g, h := instance(t, gc, wasmhost.Budgets{})
	ctx := context.Background()
	empty := conformance.Bundle{Name: "n", Shape: conformance.Shape{Case: conformance.ShapeEmpty}}
	tests := []struct {
		name string
		in   conformance.Bundle
	}{
		{name: "full", in: fullBundle()},
		{name: "zero-lists-and-none", in: empty},
		{name: "circle", in: func() conformance.Bundle {
			b := fullBundle()
			b.Shape = conformance.Shape{Case: conformance.ShapeCircle, Circle: math.MaxUint32}
			b.Note, b.Origin = nil, nil
			return b
		}()},
		{name: "unknown-shape", in: func() conformance.Bundle {
			b := fullBundle()
			b.Shape = conformance.Shape{Case: conformance.ShapeUnknown, Unknown: "hexagon"}
			b.Color = conformance.ColorUnknown
			return b
		}()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := h.echoed
			got, err := g.TransformBundle(ctx, tt.in)
			if err != nil {
				t.Fatalf("TransformBundle: %v", err)
			}
			if !reflect.DeepEqual(normalize(got), normalize(tt.in)) {
				t.Errorf("TransformBundle round trip:\n got %+v\nwant %+v", got, tt.in)
			}
			if h.echoed != before+1 {
				t.Errorf("host echo-bundle calls = %d; want %d (the guest must call the import)", h.echoed, before+1)
			}
		})
	}
	// Many calls on one instance: return areas and pins are released.
	for i := range 200 {
		if _, err := g.TransformBundle(ctx, fullBundle()); err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
	}
}

// testResults checks result<T, fault> in both directions: a guest fault,
// and a host fault passed through the guest.
func testResults(t *testing.T, gc guestCase) {
	g, _ := instance(t, gc, wasmhost.Budgets{})
	ctx := context.Background()
	tests := []struct {
		name      string
		call      func() (any, error)
		want      any
		wantFault *conformance.Fault
	}{
		{name: "guest-fault", call: func() (any, error) {
			return g.TransformBundle(ctx, conformance.Bundle{})
		}, wantFault: &conformance.Fault{Case: conformance.FaultInvalid, Invalid: "empty name"}},
		{name: "host-ok", call: func() (any, error) { return g.ProbeText(ctx, "héllo") }, want: uint32(6)},
		{name: "host-fault-string", call: func() (any, error) { return g.ProbeText(ctx, "") },
			wantFault: &conformance.Fault{Case: conformance.FaultInvalid, Invalid: ""}},
		{name: "host-fault-u32", call: func() (any, error) { return g.ProbeText(ctx, "123456789") },
			wantFault: &conformance.Fault{Case: conformance.FaultTooLarge, TooLarge: 8}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.call()
			if tt.wantFault != nil {
				var f conformance.Fault
				if !errors.As(err, &f) {
					t.Fatalf("error = %v; want fault %v", err, *tt.wantFault)
				}
				if f != *tt.wantFault {
					t.Errorf("fault = %+v; want %+v", f, *tt.wantFault)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("got %v; want %v", got, tt.want)
			}
		})
	}
}

// testOptions checks option<string> results through an import and back.
func testOptions(t *testing.T, gc guestCase) {
	g, _ := instance(t, gc, wasmhost.Budgets{})
	ctx := context.Background()
	tests := []struct {
		name string
		in   conformance.Shape
		want *string
	}{
		{name: "named", in: conformance.Shape{Case: conformance.ShapeNamed, Named: "tri✓"}, want: ptr("tri✓")},
		{name: "unknown", in: conformance.Shape{Case: conformance.ShapeUnknown, Unknown: ""}, want: ptr("")},
		{name: "circle", in: conformance.Shape{Case: conformance.ShapeCircle, Circle: 9}},
		{name: "rectangle", in: conformance.Shape{Case: conformance.ShapeRectangle, Rectangle: conformance.Point{Label: "r"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := g.ProbeShape(ctx, tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if (got == nil) != (tt.want == nil) || got != nil && *got != *tt.want {
				t.Errorf("ProbeShape = %v; want %v", deref(got), deref(tt.want))
			}
		})
	}
}

func deref(s *string) string {
	if s == nil {
		return "<none>"
	}
	return "some(" + *s + ")"
}

// testFlat checks variant, option and enum parameters passed as flat core
// values, with joined slot types.
func testFlat(t *testing.T, gc guestCase) {
	g, _ := instance(t, gc, wasmhost.Budgets{})
	ctx := context.Background()
	tests := []struct {
		name  string
		shape conformance.Shape
		extra *uint64
		color conformance.Color
		want  uint64
	}{
		{name: "circle", shape: conformance.Shape{Case: conformance.ShapeCircle, Circle: 7}, color: conformance.ColorRed, want: 7},
		{name: "rectangle", shape: conformance.Shape{Case: conformance.ShapeRectangle, Rectangle: conformance.Point{X: 10, Y: -3, Label: "ab"}},
			extra: ptr(uint64(1) << 40), color: conformance.ColorBlue, want: 9 + 1<<40 + 2000},
		{name: "named", shape: conformance.Shape{Case: conformance.ShapeNamed, Named: "four"}, color: conformance.ColorGreen, want: 1004},
		{name: "empty", shape: conformance.Shape{Case: conformance.ShapeEmpty}, extra: ptr(uint64(5)), want: 5},
		{name: "unknown", shape: conformance.Shape{Case: conformance.ShapeUnknown, Unknown: "xyz"}, color: conformance.ColorUnknown, want: 3003},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := g.ScoreShape(ctx, tt.shape, tt.extra, tt.color)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("ScoreShape = %d; want %d", got, tt.want)
			}
		})
	}
}

// testHostResource lends a host resource to the guest (borrow) and receives
// one the guest created (own).
func testHostResource(t *testing.T, gc guestCase) {
	g, h := instance(t, gc, wasmhost.Budgets{})
	ctx := context.Background()
	c := &counter{value: 5}
	got, err := g.CountWith(ctx, c, 3)
	if err != nil {
		t.Fatal(err)
	}
	if got != 8 || c.value != 8 {
		t.Errorf("CountWith(5, 3) = %d, counter %d; want 8, 8", got, c.value)
	}
	if got, err := g.CountWith(ctx, c, 0); err != nil || got != 8 {
		t.Errorf("CountWith(8, 0) = %d, %v; want 8", got, err)
	}
	owned, err := g.OpenCounter(ctx, 41)
	if err != nil {
		t.Fatal(err)
	}
	oc, ok := owned.(*counter)
	if !ok || oc.value != 42 || len(h.counters) != 1 || h.counters[0] != oc {
		t.Fatalf("OpenCounter(41) = %#v; want the host counter it created, at 42", owned)
	}
	// The handle moved to the host: lending the counter again works and
	// the guest's table does not keep it.
	if got, err := g.CountWith(ctx, oc, 1); err != nil || got != 43 {
		t.Errorf("CountWith(owned, 1) = %d, %v; want 43", got, err)
	}
}

// testGuestResource creates a guest resource, calls its methods on the
// instance that owns it, and drops it.
func testGuestResource(t *testing.T, gc guestCase) {
	g, _ := instance(t, gc, wasmhost.Budgets{})
	ctx := context.Background()
	acc, err := g.NewAccumulator(ctx, "acc-1")
	if err != nil {
		t.Fatal(err)
	}
	var f conformance.Fault
	if _, err := acc.Drain(ctx); !errors.As(err, &f) || f.Case != conformance.FaultInvalid || f.Invalid != "acc-1" {
		t.Errorf("Drain on empty = %v; want fault invalid(acc-1)", err)
	}
	other, err := g.NewAccumulator(ctx, "acc-2")
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name   string
		acc    *conformance.Accumulator
		values []string
		want   uint32
	}{
		{name: "first", acc: acc, values: []string{"a", "béta"}, want: 2},
		{name: "second", acc: acc, values: []string{"c"}, want: 3},
		{name: "other-instance-state", acc: other, values: []string{"x", "y", "z"}, want: 3},
		{name: "empty", acc: other, values: nil, want: 3},
	}
	for _, s := range steps {
		got, err := s.acc.Push(ctx, s.values)
		if err != nil || got != s.want {
			t.Errorf("%s: Push = %d, %v; want %d", s.name, got, err, s.want)
		}
	}
	got, err := acc.Drain(ctx)
	if err != nil || !reflect.DeepEqual(got, []string{"c"}) {
		t.Errorf("Drain = %q, %v; want [c]", got, err)
	}
	if err := acc.Drop(ctx); err != nil {
		t.Fatalf("Drop: %v", err)
	}
	if _, err := acc.Push(ctx, []string{"late"}); err == nil {
		t.Error("Push after Drop succeeded; want an error naming the dropped handle")
	}
	if got, err := other.Drain(ctx); err != nil || len(got) != 0 {
		t.Errorf("other Drain = %q, %v; want the empty batch", got, err)
	}
}

// TestBindSharesHandles checks that binding a pooled instance again sees
// the resource handles created through an earlier binding.
func TestBindSharesHandles(t *testing.T) {
	_, w := guests(t)
	g, _ := instance(t, guestCase{name: "wat", wasm: w}, wasmhost.Budgets{})
	ctx := context.Background()
	acc, err := g.NewAccumulator(ctx, "shared")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := acc.Push(ctx, []string{"a"}); err != nil {
		t.Fatal(err)
	}
	again := conformance.Bind(g.Instance())
	second, err := again.NewAccumulator(ctx, "second")
	if err != nil {
		t.Fatal(err)
	}
	if acc.Handle() != 1 || second.Handle() != 2 {
		t.Errorf("handles = %d, %d; want 1, 2 from one shared table", acc.Handle(), second.Handle())
	}
	if err := acc.Drop(ctx); err != nil {
		t.Errorf("Drop after rebinding: %v", err)
	}
}
