package main

import (
	"strconv"
	"strings"

	"github.com/smith-agent/smith/plugins-src/internal/jsonscan"
)

// The tools decode their arguments with jsonscan (the system plugins'
// JSON reader) instead of encoding/json: the host has already validated
// them against the tool's schema, every tool takes a flat object of
// strings, integers and booleans (edit also a list of objects), and
// leaving out encoding/json (with reflect and fmt) keeps the plugin about a
// third smaller, which every process start pays for in decoding,
// validation and cached-code loading.

// field binds one property name to where its value goes; exactly one of
// str, num, flag and each is set.
type field struct {
	name string
	str  *string
	num  *int
	flag *bool
	each func(r *reader) error // a list: called with r at each element
	seen *bool                 // if set, becomes true when the property is present and not null
}

func strField(name string, p *string) field { return field{name: name, str: p} }
func intField(name string, p *int) field    { return field{name: name, num: p} }
func boolField(name string, p *bool) field  { return field{name: name, flag: p} }

// listField decodes a JSON array, calling each for every element.
func listField(name string, each func(r *reader) error) field {
	return field{name: name, each: each}
}

// decode reads args, a JSON object, into fields. A property no field names
// is skipped (the host's schema check refuses those first); null leaves the
// field unchanged, as encoding/json does. The error is a tool fault telling
// the model what was wrong.
func decode(tool, args string, fields ...field) error {
	var r reader
	r.d.Reset([]byte(args))
	switch k := r.d.Peek(); k {
	case jsonscan.Object:
		r.object(func(key string) error {
			for _, f := range fields {
				if f.name == key {
					return r.into(f)
				}
			}
			return nil // left unread: skipped
		})
	case jsonscan.Invalid:
		r.d.Skip() // records the syntax error (or the empty input)
	default:
		r.err = kindError("the arguments", "must be a JSON object", k)
		r.d.Skip()
	}
	err := r.d.Finish() // a syntax error anywhere comes first
	if err == nil {
		err = r.err
	}
	if err != nil {
		msg := strings.TrimPrefix(err.Error(), "jsonscan: ")
		return invalid(tool + ": arguments are not valid: " + msg + "; send a JSON object matching the tool's schema")
	}
	return nil
}

// reader reads one argument object, keeping the first error a field
// reported (a value of a kind the field cannot hold).
type reader struct {
	d   jsonscan.Decoder
	err error
}

// argError describes a property the tool cannot use.
type argError struct{ msg string }

func (e *argError) Error() string { return e.msg }

func kindError(name, want string, got jsonscan.Kind) error {
	return &argError{msg: name + " " + want + ", not " + got.String()}
}

// object reads an object, calling member with each key; member reads the
// value (an unread one is skipped). After the first error the remaining
// members are skipped.
func (r *reader) object(member func(key string) error) {
	r.d.Object(func(key []byte) {
		if r.err != nil {
			return
		}
		if err := member(string(key)); err != nil {
			r.err = err
		}
	})
}

// into decodes the next value into f; null leaves f as it is.
func (r *reader) into(f field) error {
	if r.d.Null() {
		return nil
	}
	if f.seen != nil {
		*f.seen = true
	}
	k := r.d.Peek()
	name := strconv.Quote(f.name)
	switch {
	case f.str != nil:
		if k != jsonscan.Str {
			return kindError(name, "must be a string", k)
		}
		*f.str = r.d.Str().String()
	case f.num != nil:
		if k != jsonscan.Number {
			return kindError(name, "must be an integer", k)
		}
		n, err := integer(name, string(r.d.Raw()))
		if err != nil {
			return err
		}
		*f.num = n
	case f.flag != nil:
		if k != jsonscan.Bool {
			return kindError(name, "must be true or false", k)
		}
		*f.flag = r.d.Bool()
	case f.each != nil:
		if k != jsonscan.Array {
			return kindError(name, "must be a list", k)
		}
		r.d.Array(func() {
			if r.err == nil {
				if err := f.each(r); err != nil {
					r.err = err
				}
			}
		})
	}
	return nil
}

// integer converts a JSON number token to an int. Like the host's schema
// check, it takes a whole number written with a fraction or an exponent
// (3.0, 1e3) as an integer.
func integer(name, tok string) (int, error) {
	if n, err := strconv.Atoi(tok); err == nil {
		return n, nil
	}
	f, err := strconv.ParseFloat(tok, 64)
	if err != nil || f != float64(int64(f)) || f < -1<<53 || f > 1<<53 {
		return 0, &argError{msg: name + " must be a whole number between -2^53 and 2^53, not " + tok}
	}
	return int(f), nil
}
