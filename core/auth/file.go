package auth

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/gofrs/flock"

	"github.com/smith-agent/smith/core/internal/atomicfile"
)

// Entry is one provider's stored credential.
type Entry struct {
	// Key is the credential (an API key or an access token).
	Key Secret
	// Refresh is a renewal token for credentials that expire; empty when
	// the credential cannot be renewed.
	Refresh Secret
	// Expires is when Key stops working; zero means never.
	Expires time.Time
}

// diskEntry is Entry as stored in the file.
type diskEntry struct {
	Key     string `json:"key"`
	Refresh string `json:"refresh,omitempty"`
	// Expires is in milliseconds since the Unix epoch; 0 means never.
	Expires int64 `json:"expires,omitempty"`
}

type diskFile struct {
	Version   int                        `json:"version"`
	Providers map[string]json.RawMessage `json:"providers"`
	// Secrets are the secrets the user registered (`smith secret add`),
	// by name.
	Secrets map[string]string `json:"secrets,omitempty"`
	// Expires holds, for the secrets that expire (stored by a plugin
	// with an expiry), when, in milliseconds since the Unix epoch.
	Expires map[string]int64 `json:"secret_expires,omitempty"`
}

// File is Smith's auth file: a JSON document readable and writable only by
// its owner (mode 0600) mapping provider names to credentials. Every update
// takes an exclusive lock on a sibling ".lock" file, rereads the file,
// changes one provider's entry, and replaces the file atomically (temporary
// file, fsync, rename, fsync of the directory), so concurrent updates by
// other goroutines or processes to other providers are never lost and a
// crash leaves either the old or the new file. Entries of other providers
// are kept byte for byte. A File is safe for concurrent use.
type File struct {
	path string
}

// OpenFile returns the auth file at path; the file need not exist yet.
func OpenFile(path string) *File { return &File{path: path} }

// Path returns the file's path.
func (f *File) Path() string { return f.path }

// maxFile bounds the size of the auth file.
const maxFile = 1 << 20

// read loads the file; a missing file is empty.
func (f *File) read() (diskFile, error) {
	d := diskFile{Version: 1, Providers: map[string]json.RawMessage{}}
	info, err := os.Stat(f.path)
	if errors.Is(err, fs.ErrNotExist) {
		return d, nil
	}
	if err != nil {
		return d, fmt.Errorf("auth: cannot read the auth file %s: %w", f.path, err)
	}
	if runtime.GOOS != "windows" && info.Mode().Perm()&0o077 != 0 {
		return d, fmt.Errorf("auth: the auth file %s has mode %04o, readable by others; run `chmod 600 %s` and rotate the keys it holds", f.path, info.Mode().Perm(), f.path)
	}
	if info.Size() > maxFile {
		return d, fmt.Errorf("auth: the auth file %s is %d bytes, above the %d-byte bound; remove unused entries", f.path, info.Size(), maxFile)
	}
	b, err := os.ReadFile(f.path)
	if err != nil {
		return d, fmt.Errorf("auth: cannot read the auth file %s: %w", f.path, err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&d); err != nil {
		// The decoder's message can quote file content; report the offset only.
		return d, fmt.Errorf("auth: the auth file %s is not valid JSON (near byte %d); fix or remove it and store the keys again with `smith auth set`", f.path, dec.InputOffset())
	}
	if d.Version != 1 {
		return d, fmt.Errorf("auth: the auth file %s has version %d; this Smith reads version 1", f.path, d.Version)
	}
	if d.Providers == nil {
		d.Providers = map[string]json.RawMessage{}
	}
	return d, nil
}

func decodeEntry(path, provider string, raw json.RawMessage) (Entry, error) {
	var e diskEntry
	if err := json.Unmarshal(raw, &e); err != nil {
		return Entry{}, fmt.Errorf("auth: the entry for provider %q in %s is malformed; store it again with `smith auth set %s`", provider, path, provider)
	}
	out := Entry{Key: NewSecret(e.Key), Refresh: NewSecret(e.Refresh)}
	if e.Expires != 0 {
		out.Expires = time.UnixMilli(e.Expires)
	}
	return out, nil
}

// Get returns the entry of provider and whether there is one.
func (f *File) Get(provider string) (Entry, bool, error) {
	d, err := f.read()
	if err != nil {
		return Entry{}, false, err
	}
	raw, ok := d.Providers[provider]
	if !ok {
		return Entry{}, false, nil
	}
	e, err := decodeEntry(f.path, provider, raw)
	return e, err == nil, err
}

// Providers returns the providers with an entry, sorted.
func (f *File) Providers() ([]string, error) {
	d, err := f.read()
	if err != nil {
		return nil, err
	}
	var out []string
	for p := range d.Providers {
		out = append(out, p)
	}
	slices.Sort(out)
	return out, nil
}

// Set stores e as provider's entry.
func (f *File) Set(provider string, e Entry) error {
	return f.Update(provider, func(Entry, bool) (Entry, bool, error) { return e, true, nil })
}

// Delete removes provider's entry; deleting a missing entry is not an error.
func (f *File) Delete(provider string) error {
	return f.Update(provider, func(Entry, bool) (Entry, bool, error) { return Entry{}, false, nil })
}

// Update changes provider's entry under the file lock: fn receives the
// current entry (and whether it exists) and returns the new one and whether
// to keep it (false deletes it). An error from fn leaves the file unchanged.
func (f *File) Update(provider string, fn func(cur Entry, exists bool) (Entry, bool, error)) error {
	if provider == "" {
		return errors.New("auth: provider name is empty; name the provider whose credential to change")
	}
	return f.locked(func(d *diskFile) (bool, error) {
		var cur Entry
		raw, exists := d.Providers[provider]
		if exists {
			var err error
			if cur, err = decodeEntry(f.path, provider, raw); err != nil {
				return false, err
			}
		}
		next, keep, err := fn(cur, exists)
		if err != nil {
			return false, err
		}
		if !keep {
			delete(d.Providers, provider)
			return exists, nil
		}
		de := diskEntry{Key: next.Key.Reveal(), Refresh: next.Refresh.Reveal()}
		if !next.Expires.IsZero() {
			de.Expires = next.Expires.UnixMilli()
		}
		b, err := json.Marshal(de)
		if err != nil {
			return false, fmt.Errorf("auth: cannot encode the entry for provider %q", provider)
		}
		d.Providers[provider] = b
		return true, nil
	})
}

// locked runs fn on the file's content under the file lock and, when fn
// reports a change, replaces the file with the result. An error from fn
// leaves the file unchanged.
func (f *File) locked(fn func(d *diskFile) (changed bool, err error)) error {
	if err := os.MkdirAll(filepath.Dir(f.path), 0o700); err != nil {
		return fmt.Errorf("auth: cannot create the directory of %s: %w", f.path, err)
	}
	lock := flock.New(f.path + ".lock")
	if err := lock.Lock(); err != nil {
		return fmt.Errorf("auth: cannot lock %s.lock: %w", f.path, err)
	}
	defer func() { _ = lock.Unlock() }()
	d, err := f.read()
	if err != nil {
		return err
	}
	changed, err := fn(&d)
	if err != nil || !changed {
		return err
	}
	b, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return fmt.Errorf("auth: cannot encode %s", f.path)
	}
	return replace(f.path, append(b, '\n'))
}

// replace writes b to path atomically with mode 0600.
func replace(path string, b []byte) error {
	if err := atomicfile.Replace(path, b, 0o600); err != nil {
		return fmt.Errorf("auth: %w", err)
	}
	return nil
}
