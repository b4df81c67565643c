package auth

import (
	"fmt"
	"time"
)

// Secrets returns the secrets the user registered in the file, by name
// (an empty map when there are none), leaving out those that expired.
func (f *File) Secrets() (map[string]Secret, error) {
	d, err := f.read()
	if err != nil {
		return nil, err
	}
	out := make(map[string]Secret, len(d.Secrets))
	now := time.Now().UnixMilli()
	for name, v := range d.Secrets {
		if exp, ok := d.Expires[name]; ok && exp <= now {
			continue
		}
		out[name] = NewSecret(v)
	}
	return out, nil
}

// SetSecret stores the user's secret name (`smith secret add`), replacing
// one of that name.
func (f *File) SetSecret(name string, v Secret) error {
	return f.SetSecretUntil(name, v, time.Time{})
}

// SetSecretUntil stores secret name, replacing one of that name, until
// expires (zero: no expiry; a plugin's token may expire).
func (f *File) SetSecretUntil(name string, v Secret, expires time.Time) error {
	if name == "" || v.Empty() {
		return fmt.Errorf("auth: a secret needs a name and a value; got name %q and %d bytes", name, len(v.Reveal()))
	}
	return f.locked(func(d *diskFile) (bool, error) {
		if d.Secrets == nil {
			d.Secrets = map[string]string{}
		}
		d.Secrets[name] = v.Reveal()
		delete(d.Expires, name)
		if !expires.IsZero() {
			if d.Expires == nil {
				d.Expires = map[string]int64{}
			}
			d.Expires[name] = expires.UnixMilli()
		}
		return true, nil
	})
}

// DeleteSecret removes the user's secret name and reports whether there
// was one.
func (f *File) DeleteSecret(name string) (bool, error) {
	var found bool
	err := f.locked(func(d *diskFile) (bool, error) {
		_, found = d.Secrets[name]
		delete(d.Secrets, name)
		delete(d.Expires, name)
		return found, nil
	})
	return found, err
}
