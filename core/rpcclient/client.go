package rpcclient

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"sync"
	"time"

	"github.com/smith-agent/smith/core/protocol"
)

// MaxLineBytes bounds one line the client reads: 64 MiB.
const MaxLineBytes = 64 << 20

// ErrClosed is returned by a call made after the connection ended (the
// server exited or closed its output, or Close was called).
var ErrClosed = errors.New("rpcclient: the connection is closed")

// Client is a connection to a `smith rpc` server. Its methods are safe for
// concurrent use.
type Client struct {
	w  io.Writer
	wm sync.Mutex // one writer: one line per request

	mu      sync.Mutex
	next    int64
	pending map[string]chan *protocol.RPCResponse
	err     error // why the connection ended; nil while it is up
	done    chan struct{}

	events  chan protocol.Event
	evMu    sync.Mutex
	evQueue []protocol.Event
	evReady chan struct{}
	discard bool
	evErr   error

	cmd    *exec.Cmd
	stdin  io.Closer
	closed sync.Once
}

// New connects to a server that reads requests from w and writes its
// output to r. The client reads r until it ends; Close stops it.
func New(r io.Reader, w io.Writer) *Client {
	c := &Client{w: w, pending: map[string]chan *protocol.RPCResponse{}, done: make(chan struct{}),
		events: make(chan protocol.Event), evReady: make(chan struct{}, 1)}
	go c.read(r)
	go c.pumpEvents()
	return c
}

// Start starts cmd (such as exec.Command("smith", "rpc")) with its
// standard input and output connected to the client; its standard error is
// left as cmd sets it. Close ends its input and waits for it to exit.
func Start(cmd *exec.Cmd) (*Client, error) {
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("rpcclient: connect to %s: %w", cmd.Path, err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("rpcclient: connect to %s: %w", cmd.Path, err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("rpcclient: start %s: %w", cmd.Path, err)
	}
	c := New(stdout, stdin)
	c.cmd, c.stdin = cmd, stdin
	return c, nil
}

// Close ends the connection: it closes the server's input (a started
// process then shuts down: a run still active is aborted) and, for a
// started process, waits for it to exit, at most ten seconds before it is
// killed. It returns the process's exit error, if any.
func (c *Client) Close() error {
	var err error
	c.closed.Do(func() {
		if c.stdin != nil {
			_ = c.stdin.Close()
		} else if wc, ok := c.w.(io.Closer); ok {
			_ = wc.Close()
		}
		if c.cmd != nil {
			exited := make(chan error, 1)
			go func() { exited <- c.cmd.Wait() }()
			select {
			case err = <-exited:
			case <-time.After(10 * time.Second):
				_ = c.cmd.Process.Kill()
				err = fmt.Errorf("rpcclient: %s did not exit within 10s of the end of its input and was killed", c.cmd.Path)
				<-exited
			}
		}
		c.end(ErrClosed)
	})
	return err
}

// Done is closed when the connection has ended.
func (c *Client) Done() <-chan struct{} { return c.done }

// Err says why the connection ended; nil while it is up.
func (c *Client) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// end fails every pending call with err and marks the connection over.
func (c *Client) end(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return
	}
	c.err = err
	for id, ch := range c.pending {
		close(ch)
		delete(c.pending, id)
	}
	close(c.done)
}

// read reads the server's output: responses go to their calls, events to
// the event queue.
func (c *Client) read(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), MaxLineBytes)
	for sc.Scan() {
		line := sc.Bytes()
		var head struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if err := json.Unmarshal(line, &head); err != nil {
			c.eventError(fmt.Errorf("rpcclient: the server wrote a line that is not JSON: %.80q", line))
			continue
		}
		if head.Method != "" && head.ID == nil {
			if head.Method != protocol.RPCEventMethod {
				continue // a notification of a newer server
			}
			ev, err := protocol.UnmarshalEvent(head.Params)
			if err != nil {
				c.eventError(fmt.Errorf("rpcclient: an event could not be read: %w", err))
				continue
			}
			c.pushEvent(ev)
			continue
		}
		var resp protocol.RPCResponse
		if err := json.Unmarshal(line, &resp); err != nil {
			c.eventError(fmt.Errorf("rpcclient: a response could not be read: %w", err))
			continue
		}
		c.mu.Lock()
		ch := c.pending[string(resp.ID)]
		delete(c.pending, string(resp.ID))
		c.mu.Unlock()
		if ch != nil {
			ch <- &resp
		}
	}
	err := sc.Err()
	if err == nil {
		err = io.EOF
	}
	c.end(fmt.Errorf("%w: the server's output ended (%v)", ErrClosed, err))
}

func (c *Client) eventError(err error) {
	c.evMu.Lock()
	if c.evErr == nil {
		c.evErr = err
	}
	c.evMu.Unlock()
}

// EventError returns the first server line that could not be read, if
// any (the line is skipped; the connection goes on).
func (c *Client) EventError() error {
	c.evMu.Lock()
	defer c.evMu.Unlock()
	return c.evErr
}

func (c *Client) pushEvent(ev protocol.Event) {
	c.evMu.Lock()
	if !c.discard {
		c.evQueue = append(c.evQueue, ev)
	}
	c.evMu.Unlock()
	c.signalEvents()
}

func (c *Client) signalEvents() {
	select {
	case c.evReady <- struct{}{}:
	default:
	}
}

// pumpEvents moves queued events to the Events channel and closes it once
// the connection has ended and the queue is empty.
func (c *Client) pumpEvents() {
	defer close(c.events)
	for {
		c.evMu.Lock()
		if len(c.evQueue) == 0 {
			c.evMu.Unlock()
			select {
			case <-c.evReady:
				continue
			case <-c.done:
				c.evMu.Lock()
				empty := len(c.evQueue) == 0
				c.evMu.Unlock()
				if empty {
					return
				}
				continue
			}
		}
		ev := c.evQueue[0]
		c.evQueue[0] = nil
		c.evQueue = c.evQueue[1:]
		c.evMu.Unlock()
		c.events <- ev
	}
}

// Events returns the server's events in order. The channel is closed once
// the connection has ended and every event has been read.
func (c *Client) Events() <-chan protocol.Event { return c.events }

// DiscardEvents drops every event from now on (and those not yet read),
// for a client that only makes calls.
func (c *Client) DiscardEvents() {
	c.evMu.Lock()
	c.discard = true
	c.evQueue = nil
	c.evMu.Unlock()
}

// Call sends method with params (nil for none) and decodes the result into
// result (nil to ignore it). An error response is a *protocol.RPCError;
// when ctx ends first the call's response is ignored.
func (c *Client) Call(ctx context.Context, method string, params, result any) error {
	var p json.RawMessage
	if params != nil {
		b, err := json.Marshal(params)
		if err != nil {
			return fmt.Errorf("rpcclient: encode the params of %s: %w", method, err)
		}
		p = b
	}
	c.mu.Lock()
	if c.err != nil {
		err := c.err
		c.mu.Unlock()
		return err
	}
	c.next++
	id := strconv.FormatInt(c.next, 10)
	ch := make(chan *protocol.RPCResponse, 1)
	c.pending[id] = ch
	c.mu.Unlock()
	line, err := json.Marshal(protocol.RPCRequest{JSONRPC: protocol.RPCVersion, ID: json.RawMessage(id), Method: method, Params: p})
	if err != nil {
		return fmt.Errorf("rpcclient: encode %s: %w", method, err)
	}
	c.wm.Lock()
	_, err = c.w.Write(append(line, '\n'))
	c.wm.Unlock()
	if err != nil {
		c.forget(id)
		return fmt.Errorf("rpcclient: send %s: %w", method, err)
	}
	select {
	case resp, ok := <-ch:
		if !ok {
			return c.Err()
		}
		if resp.Error != nil {
			return resp.Error
		}
		if result == nil {
			return nil
		}
		if err := json.Unmarshal(resp.Result, result); err != nil {
			return fmt.Errorf("rpcclient: decode the result of %s: %w", method, err)
		}
		return nil
	case <-ctx.Done():
		c.forget(id)
		return ctx.Err()
	}
}

func (c *Client) forget(id string) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}

// Notify sends method as a notification: the server answers nothing.
func (c *Client) Notify(method string, params any) error {
	var p json.RawMessage
	if params != nil {
		b, err := json.Marshal(params)
		if err != nil {
			return fmt.Errorf("rpcclient: encode the params of %s: %w", method, err)
		}
		p = b
	}
	line, err := json.Marshal(protocol.RPCRequest{JSONRPC: protocol.RPCVersion, Method: method, Params: p})
	if err != nil {
		return err
	}
	c.wm.Lock()
	defer c.wm.Unlock()
	_, err = c.w.Write(append(line, '\n'))
	return err
}
