package replay

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The recording format is line-oriented UTF-8 text with raw byte payloads,
// so recordings diff well and bodies stay byte-exact:
//
//	smith-http-replay 1
//	exchange "POST" "https://api.example/v1/run"
//	request-header "Content-Type" "application/json"
//	request-body 7
//	{"q":1}
//	response 200 "HTTP/2.0" 81250000
//	header "Content-Type" "text/event-stream"
//	chunk 1250000 12
//	data: hello
//
//	end "eof"
//
// Strings are Go-quoted; "response" carries the status, protocol and
// nanoseconds to the head; "chunk" carries nanoseconds since the previous
// chunk and the payload length, then the payload and a newline. An exchange
// whose head never arrived has `failed "<error>"` instead of a response.
// Header lines are sorted by name, so encoding is deterministic.
const magic = "smith-http-replay 1"

// Encode writes exchanges in the recording format. Output is deterministic.
// Every exchange with a response must have an End.
func Encode(w io.Writer, exchanges []Exchange) error {
	bw := bufio.NewWriter(w)
	bw.WriteString(magic + "\n")
	for i, x := range exchanges {
		fmt.Fprintf(bw, "exchange %s %s\n", strconv.Quote(x.Method), strconv.Quote(x.URL))
		writeHeader(bw, "request-header", x.RequestHeader)
		if len(x.RequestBody) > 0 {
			fmt.Fprintf(bw, "request-body %d\n", len(x.RequestBody))
			bw.Write(x.RequestBody)
			bw.WriteByte('\n')
		}
		if x.Failed != "" {
			fmt.Fprintf(bw, "failed %s\n", strconv.Quote(x.Failed))
			continue
		}
		if x.End == "" {
			return fmt.Errorf("replay: exchange %d (%s %s) has a body still being read; close or drain it before encoding", i+1, x.Method, x.URL)
		}
		fmt.Fprintf(bw, "response %d %s %d\n", x.StatusCode, strconv.Quote(x.Proto), int64(x.HeadAfter))
		writeHeader(bw, "header", x.Header)
		for _, c := range x.Chunks {
			fmt.Fprintf(bw, "chunk %d %d\n", int64(c.After), len(c.Data))
			bw.Write(c.Data)
			bw.WriteByte('\n')
		}
		fmt.Fprintf(bw, "end %s\n", strconv.Quote(x.End))
	}
	return bw.Flush()
}

func writeHeader(w *bufio.Writer, key string, h http.Header) {
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range h {
			if !yield(k) {
				return
			}
		}
	}) {
		for _, v := range h[k] {
			fmt.Fprintf(w, "%s %s %s\n", key, strconv.Quote(k), strconv.Quote(v))
		}
	}
}

// SyntaxError reports where a recording is malformed.
type SyntaxError struct {
	Line   int // 1-based line of the offending record
	Offset int // byte offset of that line
	Msg    string
}

// Error formats "replay: recording line N (byte B): message".
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("replay: recording line %d (byte %d): %s", e.Line, e.Offset, e.Msg)
}

type decoder struct {
	data       []byte
	off, line  int
	lineOffset int
}

func (d *decoder) fail(format string, args ...any) error {
	return &SyntaxError{Line: d.line, Offset: d.lineOffset, Msg: fmt.Sprintf(format, args...)}
}

// next returns the next line without its newline.
func (d *decoder) next() (string, bool) {
	if d.off >= len(d.data) {
		return "", false
	}
	d.line++
	d.lineOffset = d.off
	rest := d.data[d.off:]
	i := bytes.IndexByte(rest, '\n')
	if i < 0 {
		d.off = len(d.data)
		return string(rest), true
	}
	d.off += i + 1
	return string(rest[:i]), true
}

// payload takes n raw bytes and the newline after them.
func (d *decoder) payload(n int64) ([]byte, error) {
	if n < 0 || n > int64(len(d.data)-d.off-1) {
		return nil, d.fail("payload of %d bytes and its newline need %d bytes, but only %d remain; the recording was cut short", n, n+1, len(d.data)-d.off)
	}
	p := d.data[d.off : d.off+int(n)]
	if d.data[d.off+int(n)] != '\n' {
		return nil, d.fail("payload of %d bytes is not followed by a newline", n)
	}
	d.off += int(n) + 1
	d.line += bytes.Count(p, []byte{'\n'}) + 1
	return bytes.Clone(p), nil
}

// fields splits a record into its keyword and arguments: Go-quoted strings
// or decimal integers, separated by single spaces.
func fields(line string) (string, []string, error) {
	key, rest, _ := strings.Cut(line, " ")
	var args []string
	for rest != "" {
		if rest[0] == '"' {
			q, err := strconv.QuotedPrefix(rest)
			if err != nil {
				return "", nil, fmt.Errorf("bad quoted string at %q", trim(rest))
			}
			s, _ := strconv.Unquote(q)
			args = append(args, s)
			rest = rest[len(q):]
		} else {
			tok, _, _ := strings.Cut(rest, " ")
			if tok == "" {
				return "", nil, fmt.Errorf("want one space between fields at %q", trim(rest))
			}
			args = append(args, tok)
			rest = rest[len(tok):]
		}
		if rest != "" {
			if rest[0] != ' ' || len(rest) == 1 {
				return "", nil, fmt.Errorf("want one space between fields at %q", trim(rest))
			}
			rest = rest[1:]
		}
	}
	return key, args, nil
}

func trim(s string) string {
	if len(s) > 20 {
		return s[:20] + "…"
	}
	return s
}

func number(s string, lo, hi int64) (int64, bool) {
	if s == "" || (len(s) > 1 && s[0] == '0') || s[0] == '+' || s[0] == '-' {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil && n >= lo && n <= hi
}

// Decode parses a recording made by [Encode]. It fails with a
// [*SyntaxError] naming the line and byte offset of the first malformed
// record. Payloads are copied; data may be reused afterwards.
func Decode(data []byte) ([]Exchange, error) {
	d := &decoder{data: data}
	if l, ok := d.next(); !ok || l != magic {
		return nil, d.fail("want the header %q; this is not a replay recording", magic)
	}
	var out []Exchange
	var x *Exchange
	state := "" // "", "request", "response", "end"
	for {
		line, ok := d.next()
		if !ok {
			break
		}
		key, args, err := fields(line)
		if err != nil {
			return nil, d.fail("%v", err)
		}
		want := func(n int) error {
			if len(args) != n {
				return d.fail("%s takes %d fields, got %d", key, n, len(args))
			}
			return nil
		}
		switch {
		case key == "exchange":
			if state == "request" || state == "response" {
				return nil, d.fail("exchange %d has no end or failed record", len(out))
			}
			if err := want(2); err != nil {
				return nil, err
			}
			out = append(out, Exchange{Method: args[0], URL: args[1], RequestHeader: http.Header{}, Header: http.Header{}})
			x, state = &out[len(out)-1], "request"
		case key == "request-header" && state == "request" && len(x.RequestBody) == 0:
			if err := want(2); err != nil {
				return nil, err
			}
			x.RequestHeader[args[0]] = append(x.RequestHeader[args[0]], args[1])
		case key == "request-body" && state == "request" && len(x.RequestBody) == 0:
			if err := want(1); err != nil {
				return nil, err
			}
			n, ok := number(args[0], 1, 1<<62)
			if !ok {
				return nil, d.fail("request-body length %q is not a positive decimal", args[0])
			}
			if x.RequestBody, err = d.payload(n); err != nil {
				return nil, err
			}
		case key == "failed" && state == "request":
			if err := want(1); err != nil {
				return nil, err
			}
			if args[0] == "" {
				return nil, d.fail("failed needs the error text")
			}
			x.Failed, state = args[0], "end"
		case key == "response" && state == "request":
			if err := want(3); err != nil {
				return nil, err
			}
			code, ok1 := number(args[0], 100, 999)
			after, ok2 := number(args[2], 0, 1<<62)
			if !ok1 || !ok2 {
				return nil, d.fail("response wants a status 100-999 and a nanosecond count, got %q and %q", args[0], args[2])
			}
			x.StatusCode, x.Proto, x.HeadAfter, state = int(code), args[1], time.Duration(after), "response"
		case key == "header" && state == "response" && len(x.Chunks) == 0:
			if err := want(2); err != nil {
				return nil, err
			}
			x.Header[args[0]] = append(x.Header[args[0]], args[1])
		case key == "chunk" && state == "response":
			if err := want(2); err != nil {
				return nil, err
			}
			after, ok1 := number(args[0], 0, 1<<62)
			n, ok2 := number(args[1], 1, 1<<62)
			if !ok1 || !ok2 {
				return nil, d.fail("chunk wants a nanosecond count and a positive length, got %q and %q", args[0], args[1])
			}
			p, err := d.payload(n)
			if err != nil {
				return nil, err
			}
			x.Chunks = append(x.Chunks, Chunk{After: time.Duration(after), Data: p})
		case key == "end" && state == "response":
			if err := want(1); err != nil {
				return nil, err
			}
			if args[0] == "" {
				return nil, d.fail(`end needs "eof", "closed" or the error text`)
			}
			x.End, state = args[0], "end"
		default:
			return nil, d.fail("unexpected record %q here (after %q)", trim(key), state)
		}
	}
	if state == "request" || state == "response" {
		return nil, d.fail("the recording ends inside exchange %d; it was cut short", len(out))
	}
	return out, nil
}
