package norm

import "strconv"

// Amount is a count a provider may or may not have reported. The zero Amount
// is unknown, which is not the same as a known zero.
type Amount struct {
	n     int64
	known bool
}

// Known returns an Amount with the value n.
func Known(n int64) Amount { return Amount{n: n, known: true} }

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

// Usage is the token accounting of one response. The zero Usage is entirely
// unknown. Input counts uncached input tokens only; Output includes
// Reasoning.
type Usage struct {
	Input      Amount
	Output     Amount
	CacheRead  Amount
	CacheWrite Amount
	Reasoning  Amount
}

// Total returns Input+CacheRead+CacheWrite+Output, unknown if any part is.
func (u Usage) Total() Amount {
	return u.Input.Add(u.CacheRead).Add(u.CacheWrite).Add(u.Output)
}

// IsKnown reports whether any field of u is known.
func (u Usage) IsKnown() bool {
	return u.Input.known || u.Output.known || u.CacheRead.known || u.CacheWrite.known || u.Reasoning.known
}
