package conformance_test

import (
	"context"
	"strconv"

	"github.com/smith-agent/smith/core/internal/pluginabi/internal/conformance"
)

// hostImpl implements the conformance world's host interface as its WIT
// documents.
type hostImpl struct {
	counters []*counter // every counter created, in order
	echoed   int
}

func (h *hostImpl) NewCounter(_ context.Context, start int64) (conformance.Counter, error) {
	c := &counter{value: start}
	h.counters = append(h.counters, c)
	return c, nil
}

func (h *hostImpl) EchoBundle(_ context.Context, value conformance.Bundle) (conformance.Bundle, error) {
	h.echoed++
	return value, nil
}

func (h *hostImpl) CheckText(_ context.Context, text string) (uint32, error) {
	switch {
	case text == "":
		return 0, conformance.Fault{Case: conformance.FaultInvalid, Invalid: text}
	case len(text) > 8:
		return 0, conformance.Fault{Case: conformance.FaultTooLarge, TooLarge: 8}
	}
	return uint32(len(text)), nil
}

func (h *hostImpl) NameShape(_ context.Context, value conformance.Shape) (*string, error) {
	switch value.Case {
	case conformance.ShapeNamed:
		return &value.Named, nil
	case conformance.ShapeUnknown:
		return &value.Unknown, nil
	}
	return nil, nil
}

type counter struct{ value int64 }

func (c *counter) Add(_ context.Context, delta int64) (int64, error) {
	c.value += delta
	return c.value, nil
}

func (c *counter) Describe(context.Context) (string, error) {
	return strconv.FormatInt(c.value, 10), nil
}
