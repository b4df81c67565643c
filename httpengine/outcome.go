package httpengine

import "fmt"

// Outcome is how a body ended. Every body ends with exactly one.
type Outcome uint8

const (
	// Complete: every byte the message framing announced was delivered.
	Complete Outcome = iota + 1
	// Truncated: the body was longer than [Config.MaxResponseBody]; exactly
	// that many bytes were delivered and the rest was not read.
	Truncated
	// Cancelled: the context ended or [Body.Close] was called before the
	// body ended; no chunk was delivered after that.
	Cancelled
	// Failed: the transport failed; [End.Err] is an [*Error] saying why.
	Failed
)

var outcomeNames = [...]string{Complete: "complete", Truncated: "truncated", Cancelled: "cancelled", Failed: "failed"}

// String returns the outcome's lowercase name, e.g. "truncated".
func (o Outcome) String() string {
	if int(o) < len(outcomeNames) && outcomeNames[o] != "" {
		return outcomeNames[o]
	}
	return fmt.Sprintf("outcome(%d)", uint8(o))
}

// End is the final account of a body.
type End struct {
	Outcome Outcome
	// Err is an [*Error] when Outcome is Failed (the gap bound is
	// KindTimeout with the gap in its Detail), the context's error when
	// Cancelled by the context, and nil otherwise.
	Err error
	// Received counts body bytes read from the wire (at most the bound).
	Received int64
	// Delivered counts body bytes returned by [Body.Next]; it is less than
	// Received only when chunks were dropped at cancellation.
	Delivered int64
	// Chunks counts chunks returned by [Body.Next].
	Chunks int
}
