package secret

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Set is the registered secrets of one runtime. It is safe for concurrent
// use: Add builds a new matcher and publishes it through an atomic pointer,
// so Redact, Restore and the others never wait for it and each sees either
// the old or the new secrets. The zero Set is empty and ready to use; a Set
// must not be copied after first use.
type Set struct {
	mu sync.Mutex // serializes Add
	m  atomic.Pointer[matcher]
}

func (s *Set) load() *matcher {
	if m := s.m.Load(); m != nil {
		return m
	}
	return emptyMatcher
}

// Add registers a secret. It refuses an invalid name and a value shorter
// than MinLen, which could not be redacted without false positives. Adding
// a name again with the same value does nothing; with a different value it
// replaces the old one.
//
// Add also refuses a value one of whose encodings could overlap a reference
// ${secret:NAME} to a registered name, or a name whose reference could
// overlap a registered value: for example a value that ends in "$" or
// begins with "}". Redacted text is made of references and unmatched text,
// and such a value could appear where a reference meets the text around it,
// so redacted output could still hold it and redacting twice would change
// it. Error messages name the secret, never its value.
func (s *Set) Add(sec Secret) error {
	if !ValidName(sec.Name) {
		return fmt.Errorf("secret: invalid name %q: a name is 1 to %d bytes of the form [A-Za-z_][A-Za-z0-9_.-]*", sec.Name, MaxNameLen)
	}
	if len(sec.Value) < MinLen {
		return fmt.Errorf("secret: cannot add %s: its value is %d bytes long, shorter than the minimum of %d; a value this short cannot be redacted without false positives",
			sec.Name, len(sec.Value), MinLen)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	cur := s.load()
	old, exists := cur.index[sec.Name]
	if exists && cur.secrets[old].Value == sec.Value {
		return nil
	}
	forms := encodings(sec.Value)
	ref := Reference(sec.Name)
	secrets := make([]Secret, 0, len(cur.secrets)+1)
	all := make([][]string, 0, len(cur.secrets)+1)
	for i, o := range cur.secrets {
		if exists && i == old {
			continue
		}
		if conflicts(forms, cur.refs[i]) {
			return fmt.Errorf("secret: cannot add %s: its value or an encoding of it can overlap the reference %s, so redacted text could still hold it",
				sec.Name, cur.refs[i])
		}
		if conflicts(cur.forms[i], ref) {
			return fmt.Errorf("secret: cannot add %s: its reference %s can overlap the value of secret %s or an encoding of it, so redacted text could still hold that value",
				sec.Name, ref, o.Name)
		}
		secrets = append(secrets, o)
		all = append(all, cur.forms[i])
	}
	if conflicts(forms, ref) {
		return fmt.Errorf("secret: cannot add %s: its value or an encoding of it can overlap its own reference %s, so redacted text could still hold it",
			sec.Name, ref)
	}
	s.m.Store(newMatcher(append(secrets, sec), append(all, forms)))
	return nil
}

// conflicts reports whether one of patterns overlaps r.
func conflicts(patterns []string, r string) bool {
	for _, p := range patterns {
		if overlaps(p, r) {
			return true
		}
	}
	return false
}

// overlaps reports whether pattern p can share bytes with an occurrence of
// the reference r in some text: one contains the other, or an end of one is
// the other's beginning.
func overlaps(p, r string) bool {
	if len(p) > len(r) && strings.IndexByte(p, '$') < 0 && strings.IndexByte(p, '}') < 0 {
		return false // r begins with '$' and ends with '}': p could only lie inside it
	}
	if strings.Contains(p, r) || strings.Contains(r, p) {
		return true
	}
	for k := 1; k < min(len(p), len(r)); k++ {
		if p[len(p)-k:] == r[:k] || p[:k] == r[len(r)-k:] {
			return true
		}
	}
	return false
}

// Names returns the registered names, sorted.
func (s *Set) Names() []string {
	m := s.load()
	names := make([]string, len(m.secrets))
	for i, sec := range m.secrets {
		names[i] = sec.Name
	}
	return names
}

// Len returns the number of registered secrets.
func (s *Set) Len() int { return len(s.load().secrets) }

// Redact returns b with every occurrence of each secret's plaintext and of
// its encodings (see the package documentation) replaced by its Reference,
// and whether anything was replaced. Where matches overlap, the longest one
// at the leftmost position wins. When nothing matches it returns b itself
// without allocating; otherwise it returns a new slice and leaves b as it
// is.
func (s *Set) Redact(b []byte) ([]byte, bool) { return s.load().redact(b) }

// RedactString is Redact for strings. It does not allocate when nothing
// matches.
func (s *Set) RedactString(v string) string {
	out, ok := s.load().redact(bytesOf(v))
	if !ok {
		return v
	}
	return unsafe.String(unsafe.SliceData(out), len(out)) // out is new and never written again
}

// Contains reports whether b holds a registered secret's plaintext or one of
// its encodings, that is whether Redact would change it.
func (s *Set) Contains(b []byte) bool { return s.load().contains(b) }

// Restore replaces each reference ${secret:NAME} in v to a registered
// secret whose name allow accepts with the secret's plaintext; a nil allow
// accepts none, AllowAll every one. References to unknown or unauthorized
// names stay as they are. Restore returns the result and the names it
// restored, sorted and without duplicates, so that the caller can record
// which secrets an effect received.
func (s *Set) Restore(v string, allow func(name string) bool) (string, []string) {
	m := s.load()
	if allow == nil || len(m.secrets) == 0 {
		return v, nil
	}
	var b strings.Builder
	var names []string
	last := 0
	for i := 0; ; {
		x := strings.Index(v[i:], refPrefix)
		if x < 0 {
			break
		}
		start := i + x
		i = start + len(refPrefix)
		end := i
		for end < len(v) && nameRest(v[end]) {
			end++
		}
		if end == len(v) || v[end] != '}' {
			continue
		}
		name := v[i:end]
		idx, ok := m.index[name]
		if !ok || !allow(name) {
			continue
		}
		if names == nil {
			b.Grow(len(v))
		}
		b.WriteString(v[last:start])
		b.WriteString(m.secrets[idx].Value)
		names = append(names, name)
		last, i = end+1, end+1
	}
	if names == nil {
		return v, nil
	}
	b.WriteString(v[last:])
	slices.Sort(names)
	return b.String(), slices.Compact(names)
}

// EnvFilter returns a copy of env, a process environment of "KEY=VALUE"
// entries, without every entry that holds a registered secret's plaintext
// or one of its encodings, so that a child process does not inherit
// credentials Smith knows of. Secrets an effect is authorized to receive
// belong in its environment after filtering, by Restore.
func (s *Set) EnvFilter(env []string) []string {
	m := s.load()
	out := make([]string, 0, len(env))
	for _, e := range env {
		if !m.contains(bytesOf(e)) {
			out = append(out, e)
		}
	}
	return out
}

// bytesOf returns the bytes of v without copying them; they must not be
// written.
func bytesOf(v string) []byte { return unsafe.Slice(unsafe.StringData(v), len(v)) }
