package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// Amount is a count a provider may or may not have reported. The zero Amount
// is unknown, which is not the same as a known zero.
type Amount struct {
	n     int64
	known bool
}

// Known returns an Amount with the value n.
func Known(n int64) Amount { return Amount{n: n, known: true} }

// Unknown returns an unknown Amount (the zero Amount).
func Unknown() Amount { return Amount{} }

// Value returns the amount and whether it is known.
func (a Amount) Value() (int64, bool) { return a.n, a.known }

// IsKnown reports whether the amount was reported.
func (a Amount) IsKnown() bool { return a.known }

// Add returns a+b; the sum is unknown when either operand is unknown.
func (a Amount) Add(b Amount) Amount {
	if !a.known || !b.known {
		return Amount{}
	}
	return Known(a.n + b.n)
}

// String returns the decimal value, or "unknown".
func (a Amount) String() string {
	if !a.known {
		return "unknown"
	}
	return strconv.FormatInt(a.n, 10)
}

// MarshalJSON encodes a known amount as a number and an unknown one as null.
func (a Amount) MarshalJSON() ([]byte, error) {
	if !a.known {
		return []byte("null"), nil
	}
	return strconv.AppendInt(nil, a.n, 10), nil
}

// UnmarshalJSON decodes a number or null.
func (a *Amount) UnmarshalJSON(b []byte) error {
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		*a = Amount{}
		return nil
	}
	var n int64
	if err := json.Unmarshal(b, &n); err != nil {
		return fmt.Errorf("model: amount %.40q is neither an integer nor null", b)
	}
	*a = Known(n)
	return nil
}

// Usage is the token accounting of one provider response. Every field may be
// unknown; the zero Usage is entirely unknown.
type Usage struct {
	// Input counts uncached input tokens.
	Input Amount `json:"input"`
	// Output counts output tokens, reasoning included.
	Output Amount `json:"output"`
	// CacheRead counts input tokens served from the provider's cache.
	CacheRead Amount `json:"cache_read"`
	// CacheWrite counts input tokens written to the provider's cache.
	CacheWrite Amount `json:"cache_write"`
	// Reasoning counts the part of Output spent on reasoning.
	Reasoning Amount `json:"reasoning"`
	// CostNanoUSD is the price of the response in billionths of a US dollar.
	CostNanoUSD Amount `json:"cost_nano_usd"`
}

// Total returns Input+CacheRead+CacheWrite+Output, unknown if any part is.
func (u Usage) Total() Amount {
	return u.Input.Add(u.CacheRead).Add(u.CacheWrite).Add(u.Output)
}

// Add returns the field-wise sum of u and v; a field unknown on either side
// stays unknown.
func (u Usage) Add(v Usage) Usage {
	return Usage{
		Input:       u.Input.Add(v.Input),
		Output:      u.Output.Add(v.Output),
		CacheRead:   u.CacheRead.Add(v.CacheRead),
		CacheWrite:  u.CacheWrite.Add(v.CacheWrite),
		Reasoning:   u.Reasoning.Add(v.Reasoning),
		CostNanoUSD: u.CostNanoUSD.Add(v.CostNanoUSD),
	}
}
