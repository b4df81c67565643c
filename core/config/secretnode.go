package config

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/smith-agent/smith/core/internal/secret"

	"github.com/calico32/kdl-go"
)

// KeySecret is the node registering a secret Smith keeps out of what it
// sends and writes: secret "NAME" env="VAR" or secret "NAME" file="PATH".
const KeySecret = "secret"

// SecretRef is a secret the user's smith.kdl registers: its value is read
// from the environment variable Env or the file File (absolute), when a
// session starts.
type SecretRef struct {
	Name   string
	Env    string
	File   string
	Source Source
}

// secretNode reads secret "NAME" env="VAR" | file="PATH", from the user's
// own file only: a project registering a variable as a secret would have
// it handed, by reference, to the commands it runs.
func (r *reader) secretNode(n *kdl.Node) {
	const ex = `secret "GITHUB_TOKEN" env="GITHUB_TOKEN"`
	if !r.shape(n, KeySecret, 1, 1, []string{"env", "file"}, false, ex) {
		return
	}
	if !r.userOnly(n, KeySecret, "commands may receive a registered secret by reference", ex) {
		return
	}
	name, ok := r.str(n.Arg(0), KeySecret, ex)
	if !ok {
		return
	}
	if !ValidSecretName(name) {
		r.fail(n.Arg(0).Location(), KeySecret, strconv.Quote(name), "is not a secret name: a letter or '_', then letters, digits, '_', '.' or '-'", ex)
		return
	}
	path := KeySecret + "." + name
	if !r.once(path, n, path) {
		return
	}
	props := n.Properties()
	env, hasEnv := props["env"]
	file, hasFile := props["file"]
	ref := SecretRef{Name: name, Source: r.at(n.Location())}
	switch {
	case hasEnv == hasFile:
		r.fail(n.Location(), path, "", "needs exactly one of env= (a variable to read) and file= (a file holding the value)", ex)
		return
	case hasEnv:
		s, ok := r.str(env, path+".env", ex)
		if !ok {
			return
		}
		if !envName(s) {
			r.fail(env.Location(), path+".env", strconv.Quote(s), "is not an environment variable name (letters, digits and '_')", ex)
			return
		}
		ref.Env = s
	default:
		s, ok := r.str(file, path+".file", ex)
		if !ok {
			return
		}
		if strings.HasPrefix(s, "~/") {
			if home, err := os.UserHomeDir(); err == nil {
				s = filepath.Join(home, s[2:])
			}
		}
		if !filepath.IsAbs(s) && r.file != "" {
			s = filepath.Join(filepath.Dir(r.file), s)
		}
		ref.File = filepath.Clean(s)
	}
	r.out.cfg.Secrets = append(r.out.cfg.Secrets, ref)
}

// ValidSecretName reports whether s can name a secret (a secret node of
// smith.kdl, `smith secret add`): 1 to 128 bytes of the form
// [A-Za-z_][A-Za-z0-9_.-]*.
func ValidSecretName(s string) bool { return secret.ValidName(s) }
