package httpengine

import (
	"context"
	"fmt"
	"io"
	"sync/atomic"
	"time"
)

// Body streams one response body. A goroutine reads the wire and hands
// chunks to [Body.Next] over a channel of [Config.ChunkQueue] entries, so at
// most ChunkQueue+2 buffers of [Config.ReadSize] bytes are held per
// body, whatever its length. Buffers are recycled, so streaming allocates
// nothing per chunk, and allocated only as the backlog needs them.
//
// Next and Close must be called from one goroutine at a time (the consumer).
// To stop a body from elsewhere, cancel the context given to
// [Engine.Exchange].
type Body struct {
	ch     chan []byte
	free   chan []byte   // read buffers handed back by Next, capacity ChunkQueue+2
	held   []byte        // the chunk Next returned last
	done   chan struct{} // closed when the reading goroutine has exited
	ctx    context.Context
	cancel context.CancelFunc // ends the exchange's internal context
	xdone  <-chan struct{}    // that context's Done
	engine *Engine
	id     uint64
	start  time.Time

	// written by the reading goroutine before it closes ch
	readEnd  End
	received int64

	closing   atomic.Bool // Close was called
	ended     bool
	end       End
	delivered int64
	chunks    int
}

// Next blocks until the next chunk arrives and returns it, or returns false
// once the body has ended; [Body.End] then says how. Cancellation is checked
// at every chunk boundary: once ctx has ended, no further chunk is returned
// and the body ends [Cancelled], even when chunks read earlier are queued.
// The returned slice is valid until the next call to Next or Close: the
// engine reuses its memory (copy it to keep it). This is what keeps a body's
// memory at most ChunkQueue+2 read buffers however long it is.
func (b *Body) Next() ([]byte, bool) {
	chunk, ok, _ := b.NextWithin(nil)
	return chunk, ok
}

// NextWithin is [Body.Next] that stops waiting when wait delivers
// (typically a timer's channel): it then returns waited true, no chunk and
// ok true, and the body goes on; a nil wait waits as Next does. It lets a
// consumer report that it is still waiting without a second goroutine.
func (b *Body) NextWithin(wait <-chan time.Time) (chunk []byte, ok, waited bool) {
	if b.ended {
		return nil, false, false
	}
	if b.held != nil { // the previous chunk is the caller's no longer
		b.free <- b.held[:cap(b.held)]
		b.held = nil
	}
	if b.ctx.Err() != nil {
		b.finish(End{Outcome: Cancelled, Err: b.ctx.Err()})
		return nil, false, false
	}
	select {
	case chunk, ok = <-b.ch:
	case <-wait:
		return nil, true, true
	}
	switch {
	case !ok:
		b.finish(b.readEnd)
		return nil, false, false
	case b.ctx.Err() != nil:
		b.finish(End{Outcome: Cancelled, Err: b.ctx.Err()})
		return nil, false, false
	}
	b.delivered += int64(len(chunk))
	b.chunks++
	b.held = chunk
	return chunk[:len(chunk):len(chunk)], true, false
}

// Close abandons the body: the connection is released and, unless the body
// had already ended and been fully delivered, it ends [Cancelled]. Close is
// idempotent and a no-op after Next has returned false.
func (b *Body) Close() {
	if b.ended {
		return
	}
	b.closing.Store(true)
	select {
	case <-b.done:
		if len(b.ch) == 0 { // everything read was delivered
			b.finish(b.readEnd)
			return
		}
	default:
	}
	b.finish(End{Outcome: Cancelled})
}

// End returns how the body ended. It is meaningful once Next has returned
// false or Close has returned; before that its Outcome is zero.
func (b *Body) End() End { return b.end }

func (b *Body) finish(end End) {
	b.cancel()
	<-b.done
	end.Received, end.Delivered, end.Chunks = b.received, b.delivered, b.chunks
	b.ended, b.end = true, end
	b.engine.emit(EndEvent{Exchange: b.id, Elapsed: time.Since(b.start), End: end})
}

// read runs on the body's goroutine: it reads chunks until EOF, the bound,
// the gap, cancellation or a failure, and records the reason in readEnd.
func (b *Body) read(rc io.ReadCloser, shown string, headAfter time.Duration) {
	s := &b.engine.s
	defer close(b.done)
	defer close(b.ch)
	defer rc.Close()
	var gapped atomic.Bool
	gap := time.AfterFunc(s.chunkGap, func() { gapped.Store(true); b.cancel() })
	defer gap.Stop()
	last := headAfter
	// Read buffers are recycled: Next hands the chunk it returned last back
	// through b.free when it is called again. While the reader fills one
	// buffer, at most ChunkQueue sit in the channel and the consumer holds
	// one, so ChunkQueue+2 buffers always suffice; a stream whose consumer
	// keeps up cycles through few.
	var buf []byte // the buffer being filled; kept across reads that return nothing
	allocated, empty := 0, 0
	for {
		size := int64(s.readSize)
		if left := s.maxResponse - b.received + 1; left < size {
			size = left // one byte past the bound tells truncated from complete
		}
		if buf == nil {
			select {
			case buf = <-b.free:
			default:
				if allocated < s.queue+2 {
					buf, allocated = make([]byte, s.readSize), allocated+1
					break
				}
				select { // unreachable by the count above; kept so a mistake cannot hang
				case buf = <-b.free:
				case <-b.xdone:
					b.readEnd = b.stopped(&gapped, nil, shown)
					return
				}
			}
		}
		n, err := rc.Read(buf[:size])
		if n > 0 {
			gap.Stop()
			truncated := b.received+int64(n) > s.maxResponse
			if truncated {
				n = int(s.maxResponse - b.received)
			}
			if n > 0 {
				now := time.Since(b.start)
				if s.observer != nil { // checked first: boxing the event allocates
					s.observer.Observe(ChunkEvent{Exchange: b.id, Size: n, Offset: b.received, Elapsed: now, Gap: now - last})
				}
				last = now
				b.received += int64(n)
				select {
				case b.ch <- buf[:n]:
					buf = nil
				case <-b.xdone:
					b.readEnd = b.stopped(&gapped, nil, shown)
					return
				}
			}
			if truncated {
				b.readEnd = End{Outcome: Truncated}
				return
			}
			gap.Reset(s.chunkGap)
		}
		if n == 0 && err == nil {
			if empty++; empty == 100 { // as bufio does: a reader making no progress is broken
				err = io.ErrNoProgress
			}
		} else {
			empty = 0
		}
		switch {
		case err == io.EOF:
			b.readEnd = End{Outcome: Complete}
			return
		case err != nil:
			b.readEnd = b.stopped(&gapped, err, shown)
			return
		}
	}
}

// stopped decides why reading stopped early: the gap bound, the caller, or
// the transport.
func (b *Body) stopped(gapped *atomic.Bool, err error, shown string) End {
	s := &b.engine.s
	switch {
	case gapped.Load():
		return End{Outcome: Failed, Err: &Error{Kind: KindTimeout, Op: "read body", URL: shown, Detail: fmt.Sprintf(
			"no body chunk for %v (Config.ChunkGap) after %d bytes; the server stalled mid-body; retry, or raise the bound", s.chunkGap, b.received)}}
	case b.ctx.Err() != nil:
		return End{Outcome: Cancelled, Err: b.ctx.Err()}
	case b.closing.Load():
		return End{Outcome: Cancelled}
	}
	return End{Outcome: Failed, Err: &Error{Kind: classify(err), Op: "read body", URL: shown, Err: err,
		Detail: fmt.Sprintf("body stopped after %d bytes", b.received)}}
}
