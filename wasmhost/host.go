package wasmhost

import (
	"context"
	"time"
)

// HostFunc implements one host import. stack holds the core parameters on
// entry (encode and decode with the api.Encode*/Decode* style helpers: a
// uint64 per value) and must hold the results on return; it is as long as the
// longer of the two. call gives bounds-checked access to the calling guest's
// memory and allocator for the duration of the call only. ctx carries the
// caller's deadline and cancellation (not Budgets.Timeout, which is checked
// between fuel slices); it is valid only during the call.
//
// A non-nil error aborts the invocation: the guest is unwound, the instance is
// destroyed, and Invoke returns an *Error wrapping it.
type HostFunc func(ctx context.Context, call *Call, stack []uint64) error

// HostFuncDef binds a HostFunc to an import name and its core signature.
type HostFuncDef struct {
	Name string
	Sig  Signature
	Fn   HostFunc
}

// HostModule is a set of host functions served under one import module name
// ("smith:plugin/host@0.0.0"). A plugin may import only functions that both
// its WorldSpec allows and one of its HostModules implements: a world import
// without an implementation is a capability that was not granted.
type HostModule struct {
	Name  string
	Funcs []HostFuncDef
}

// Unmetered runs wait, the part of a host function that waits for
// something outside the guest and the host's own work (a person's answer
// to a confirmation), without counting its wall time against
// Budgets.Timeout: the invocation's deadline moves on by the time wait
// took. The caller's context deadline still applies; a host function that
// must outlast it waits on a context of its own. ctx is the host
// function's; outside an invocation Unmetered just calls wait. It must be
// called on the host function's goroutine.
func Unmetered(ctx context.Context, wait func()) {
	inv, _ := ctx.Value(stateKey{}).(*invocation)
	start := time.Now()
	wait()
	if inv != nil {
		inv.deadline = inv.deadline.Add(time.Since(start))
	}
}
