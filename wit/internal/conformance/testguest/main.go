//go:build wasip1

// Command testguest is the Go implementation of the conformance world,
// built with the standard toolchain as a wasip1 reactor:
//
//	GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -trimpath -ldflags='-s -w'
//
// Its behaviour is specified in the world's WIT; the hand-written WAT guest
// in core/internal/pluginabi/internal/conformance/testdata behaves the same,
// and one conformance suite checks both.
package main

import (
	"github.com/smith-agent/smith/wit/internal/conformance/guest"
	"github.com/smith-agent/smith/wit/internal/conformance/host"
	"github.com/smith-agent/smith/wit/internal/conformance/shapes"
)

func init() { guest.Export(exports{}) }

// main is never called in a reactor; c-shared builds still need it.
func main() {}

type exports struct{}

func (exports) NewAccumulator(name string) guest.Accumulator {
	return &accumulator{name: name}
}

func (exports) TransformBundle(value shapes.Bundle) (shapes.Bundle, error) {
	if value.Name == "" {
		return shapes.Bundle{}, shapes.Fault{Case: shapes.FaultInvalid, Invalid: "empty name"}
	}
	return host.EchoBundle(value), nil
}

func (exports) ProbeText(text string) (uint32, error) { return host.CheckText(text) }

func (exports) ProbeShape(value shapes.Shape) *string { return host.NameShape(value) }

func (exports) CountWith(counter host.Counter, times uint32) int64 {
	last := counter.Add(0)
	for range times {
		last = counter.Add(1)
	}
	return last
}

func (exports) OpenCounter(start int64) host.Counter {
	c := host.NewCounter(start)
	c.Add(1)
	return c
}

func (exports) ScoreShape(value shapes.Shape, extra *uint64, color shapes.Color) uint64 {
	var n uint64
	switch value.Case {
	case shapes.ShapeCircle:
		n = uint64(value.Circle)
	case shapes.ShapeRectangle:
		p := value.Rectangle
		n = uint64(int64(p.X) + int64(p.Y) + int64(len(p.Label)))
	case shapes.ShapeNamed:
		n = uint64(len(value.Named))
	case shapes.ShapeUnknown:
		n = uint64(len(value.Unknown))
	}
	if extra != nil {
		n += *extra
	}
	return n + 1000*uint64(color)
}

type accumulator struct {
	name    string
	pushed  uint32
	pending []string
	has     bool
}

func (a *accumulator) Push(values []string) uint32 {
	a.pushed += uint32(len(values))
	a.pending, a.has = values, true
	return a.pushed
}

func (a *accumulator) Drain() ([]string, error) {
	if !a.has {
		return nil, shapes.Fault{Case: shapes.FaultInvalid, Invalid: a.name}
	}
	out := a.pending
	a.pending, a.has = nil, false
	return out, nil
}
