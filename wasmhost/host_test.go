package wasmhost

import (
	"context"
	"testing"
	"time"
)

// TestUnmeteredWaitIsNotCharged: a host function's wait inside Unmetered
// (a person answering) moves the invocation's deadline on by the time it
// took, so it is not charged against Budgets.Timeout; outside an
// invocation Unmetered just waits.
func TestUnmeteredWaitIsNotCharged(t *testing.T) {
	const wait = 20 * time.Millisecond
	before := time.Now().Add(time.Second)
	inv := &invocation{deadline: before}
	ctx := &invCtx{parent: context.Background(), inv: inv}
	ran := false
	Unmetered(ctx, func() { time.Sleep(wait); ran = true })
	if !ran {
		t.Fatal("Unmetered did not run the wait")
	}
	if moved := inv.deadline.Sub(before); moved < wait {
		t.Fatalf("the deadline moved by %v after a wait of %v; want at least the wait", moved, wait)
	}
	ran = false
	Unmetered(context.Background(), func() { ran = true })
	if !ran {
		t.Fatal("Unmetered outside an invocation did not run the wait")
	}
}
