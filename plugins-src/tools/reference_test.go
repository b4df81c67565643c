package tools_test

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/smith-agent/smith/plugins-src/internal/jsonscan"
)

// This file keeps the Go plugin's argument decoding and output bounding
// (plugins-src/tools before the Rust crate replaced it) as the oracle the
// fuzz targets hold the crate to: the same values, the same messages.

// referenceBound is the Go plugin's bound.
func referenceBound(s string, limit int) string {
	if limit <= 0 || len(s) <= limit {
		return s
	}
	notice := "\n[output truncated: " + strconv.Itoa(len(s)) + " bytes exceed the " + strconv.Itoa(limit) + "-byte tool output limit; narrow the request]"
	keep := max(limit-len(notice), 0)
	for keep > 0 && !utf8.RuneStart(s[keep]) {
		keep--
	}
	if nl := strings.LastIndexByte(s[:keep], '\n'); nl >= keep/2 {
		return s[:nl] + notice
	}
	return s[:keep] + notice
}

// sample is what the decode fuzz target reads: one field of each kind.
type sample struct {
	Path  string
	N     int
	B     bool
	Items []string
}

// referenceDecode is the Go plugin's decoding of the sample object; the
// error is the invalid-arguments message.
func referenceDecode(args string) (sample, error) {
	var s sample
	var r reader
	r.d.Reset([]byte(args))
	switch k := r.d.Peek(); k {
	case jsonscan.Object:
		r.object(func(key string) error {
			switch key {
			case "path":
				return r.str(key, &s.Path)
			case "n":
				return r.num(key, &s.N)
			case "b":
				return r.flag(key, &s.B)
			case "items":
				return r.list(key, func() error {
					var v string
					err := r.str("items[]", &v)
					s.Items = append(s.Items, v)
					return err
				})
			}
			return nil
		})
	case jsonscan.Invalid:
		r.d.Skip()
	default:
		r.err = kindError("the arguments", "must be a JSON object", k)
		r.d.Skip()
	}
	err := r.d.Finish()
	if err == nil {
		err = r.err
	}
	if err != nil {
		return s, argError("t: arguments are not valid: " + strings.TrimPrefix(err.Error(), "jsonscan: ") + "; send a JSON object matching the tool's schema")
	}
	return s, nil
}

type argError string

func (e argError) Error() string { return string(e) }

func kindError(name, want string, got jsonscan.Kind) error {
	return argError(name + " " + want + ", not " + got.String())
}

type reader struct {
	d   jsonscan.Decoder
	err error
}

func (r *reader) object(member func(key string) error) {
	r.d.Object(func(key []byte) {
		if r.err == nil {
			if err := member(string(key)); err != nil {
				r.err = err
			}
		}
	})
}

// value checks the next value's kind; false when it is null (left as is).
func (r *reader) value(name, want string, kind jsonscan.Kind) (bool, error) {
	if r.d.Null() {
		return false, nil
	}
	if k := r.d.Peek(); k != kind {
		return false, kindError(strconv.Quote(name), want, k)
	}
	return true, nil
}

func (r *reader) str(name string, p *string) error {
	ok, err := r.value(name, "must be a string", jsonscan.Str)
	if ok {
		*p = r.d.Str().String()
	}
	return err
}

func (r *reader) flag(name string, p *bool) error {
	ok, err := r.value(name, "must be true or false", jsonscan.Bool)
	if ok {
		*p = r.d.Bool()
	}
	return err
}

func (r *reader) num(name string, p *int) error {
	ok, err := r.value(name, "must be an integer", jsonscan.Number)
	if !ok {
		return err
	}
	tok := string(r.d.Raw())
	if n, err := strconv.Atoi(tok); err == nil {
		*p = n
		return nil
	}
	f, err := strconv.ParseFloat(tok, 64)
	if err != nil || f != float64(int64(f)) || f < -1<<53 || f > 1<<53 {
		return argError(strconv.Quote(name) + " must be a whole number between -2^53 and 2^53, not " + tok)
	}
	*p = int(f)
	return nil
}

func (r *reader) list(name string, each func() error) error {
	ok, err := r.value(name, "must be a list", jsonscan.Array)
	if ok {
		r.d.Array(func() {
			if r.err == nil {
				if err := each(); err != nil {
					r.err = err
				}
			}
		})
	}
	return err
}
