package wasmhost

import (
	"fmt"
	"strings"
)

// Budget names a per-invocation limit. An *Error whose Budget is non-empty
// means the guest exceeded that limit.
type Budget string

// The budgets enforced on every invocation.
const (
	BudgetFuel     Budget = "fuel"     // instrumented instruction units
	BudgetDeadline Budget = "deadline" // Budgets.Timeout or the context deadline
	BudgetMemory   Budget = "memory"   // linear memory pages
	BudgetLog      Budget = "log"      // bytes written to stdout/stderr
	BudgetOutput   Budget = "output"   // bytes read out of guest memory by the host
	BudgetStack    Budget = "stack"    // nested guest calls
)

// Error reports a failed invocation or instantiation of a plugin. The
// instance it happened on has been destroyed and will never be reused.
//
// Budget is set when a budget was exceeded; otherwise the guest trapped, a
// host function failed, the guest returned data the host refused (invalid
// UTF-8, an out-of-bounds pointer) or the context was cancelled; Err says
// which and errors.Is/As see through to it.
type Error struct {
	Plugin string // Artifact.Name
	Export string // the export being called; "_initialize" during instantiation
	Budget Budget // the exceeded budget, or ""
	Err    error
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "wasmhost: plugin %q", e.Plugin)
	if e.Export != "" {
		fmt.Fprintf(&b, " export %q", e.Export)
	}
	if e.Budget != "" {
		fmt.Fprintf(&b, ": %s budget exceeded", e.Budget)
	}
	fmt.Fprintf(&b, ": %v (instance destroyed)", e.Err)
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// Problem is one reason an artifact was refused: the offending item, what was
// found, what the host expected, and how to fix it.
type Problem struct {
	Item string // `import "wasi_snapshot_preview1" "sock_accept"`, `export "cabi_realloc"`, "artifact"
	Got  string
	Want string
	Fix  string
}

func (p Problem) String() string {
	s := p.Item + ": " + p.Got
	if p.Want != "" {
		s += "; expected " + p.Want
	}
	if p.Fix != "" {
		s += "; " + p.Fix
	}
	return s
}

// ValidationError reports an artifact refused before any of its code ran.
// Problems lists every offending import, export, section or property found.
type ValidationError struct {
	Plugin   string
	Problems []Problem
}

func (e *ValidationError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "wasmhost: plugin %q refused", e.Plugin)
	if len(e.Problems) == 1 {
		b.WriteString(": " + e.Problems[0].String())
		return b.String()
	}
	fmt.Fprintf(&b, " (%d problems):", len(e.Problems))
	for _, p := range e.Problems {
		b.WriteString("\n  " + p.String())
	}
	return b.String()
}
