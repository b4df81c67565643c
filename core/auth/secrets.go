package auth

import "fmt"

// Secrets returns the secrets the user registered in the file, by name
// (an empty map when there are none).
func (f *File) Secrets() (map[string]Secret, error) {
	d, err := f.read()
	if err != nil {
		return nil, err
	}
	out := make(map[string]Secret, len(d.Secrets))
	for name, v := range d.Secrets {
		out[name] = NewSecret(v)
	}
	return out, nil
}

// SetSecret stores the user's secret name (`smith secret add`), replacing
// one of that name.
func (f *File) SetSecret(name string, v Secret) error {
	if name == "" || v.Empty() {
		return fmt.Errorf("auth: a secret needs a name and a value; got name %q and %d bytes", name, len(v.Reveal()))
	}
	return f.locked(func(d *diskFile) (bool, error) {
		if d.Secrets == nil {
			d.Secrets = map[string]string{}
		}
		d.Secrets[name] = v.Reveal()
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
		return found, nil
	})
	return found, err
}
