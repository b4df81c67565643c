package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/smith-agent/smith/core/session"
	"github.com/smith-agent/smith/sessionfmt"
	"github.com/smith-agent/smith/smith/internal/home"
)

// sessionChoice is how eval picks its session: exactly one of these is set,
// or none (auto-create a named session).
type sessionChoice struct {
	name      string // --session
	resume    string // --resume
	cont      bool   // --continue
	noSession bool   // --no-session
}

func (c sessionChoice) validate() error {
	var set []string
	if c.name != "" {
		set = append(set, "--session")
	}
	if c.resume != "" {
		set = append(set, "--resume")
	}
	if c.cont {
		set = append(set, "--continue")
	}
	if c.noSession {
		set = append(set, "--no-session")
	}
	if len(set) > 1 {
		return usageErrorf("eval: %s cannot be combined; pick one way to choose the session", strings.Join(set, " and "))
	}
	return nil
}

// evalSession is the open session of an eval run.
type evalSession struct {
	file    *sessionfmt.File
	info    session.Info
	created bool
	tempDir string // the --no-session store, removed after a clean run
}

// openEvalSession opens or creates the session chosen by c. homeDir is
// Smith's data directory (unused with --no-session).
func openEvalSession(c sessionChoice, homeDir, prompt string) (*evalSession, error) {
	if c.noSession {
		tmp, err := os.MkdirTemp("", "smith-eval-")
		if err != nil {
			return nil, fmt.Errorf("eval: create the temporary session store for --no-session: %w; check TMPDIR", err)
		}
		d, err := session.OpenDir(tmp)
		if err != nil {
			return nil, err
		}
		f, info, err := d.Create("")
		if err != nil {
			_ = os.RemoveAll(tmp)
			return nil, err
		}
		return &evalSession{file: f, info: info, created: true, tempDir: tmp}, nil
	}
	d, err := session.OpenDir(home.Sessions(homeDir))
	if err != nil {
		return nil, err
	}
	var info session.Info
	switch {
	case c.resume != "":
		if info, err = d.Find(c.resume); err != nil {
			return nil, usageErrorf("eval: --resume %q: %w", c.resume, err)
		}
	case c.cont:
		if info, err = d.Latest(); err != nil {
			return nil, usageErrorf("eval: --continue: no session to continue in %s (%w); drop --continue to start a new one", home.Sessions(homeDir), err)
		}
	case c.name != "":
		found, err := byName(d, c.name)
		if err != nil {
			return nil, err
		}
		if found == nil {
			return create(d, c.name)
		}
		info = *found
	default:
		name, err := autoName(d, prompt)
		if err != nil {
			return nil, err
		}
		return create(d, name)
	}
	f, err := sessionfmt.Open(info.Path, nil)
	if err != nil {
		return nil, fmt.Errorf("eval: open session %s: %w (when another smith is running in this session, wait for it to finish or choose another session)", displayName(info), err)
	}
	return &evalSession{file: f, info: info}, nil
}

func create(d *session.Dir, name string) (*evalSession, error) {
	f, info, err := d.Create(name)
	if err != nil {
		return nil, usageErrorf("eval: --session: %w", err)
	}
	return &evalSession{file: f, info: info, created: true}, nil
}

func byName(d *session.Dir, name string) (*session.Info, error) {
	all, err := d.List()
	if err != nil {
		return nil, err
	}
	for i := range all {
		if all[i].Name == name {
			return &all[i], nil
		}
	}
	return nil, nil
}

// autoName derives a session name from the prompt's first words ("fix the
// bug" → "fix-the-bug"), numbered when taken ("fix-the-bug-2").
func autoName(d *session.Dir, prompt string) (string, error) {
	var b strings.Builder
	for _, w := range strings.Fields(strings.ToLower(prompt)) {
		var word strings.Builder
		for _, r := range w {
			if r < 128 && (r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
				word.WriteRune(r)
			}
		}
		if word.Len() == 0 {
			continue
		}
		if b.Len()+word.Len()+1 > 40 {
			break
		}
		if b.Len() > 0 {
			b.WriteByte('-')
		}
		b.WriteString(word.String())
	}
	base := b.String()
	if base == "" || len(base) == 26 {
		base = "eval"
	}
	all, err := d.List()
	if err != nil {
		return "", err
	}
	taken := make(map[string]bool, len(all))
	for _, s := range all {
		taken[s.Name] = true
	}
	name := base
	for n := 2; taken[name]; n++ {
		name = fmt.Sprintf("%s-%d", base, n)
	}
	return name, nil
}

// sessionPath reports a session for messages: its name and id.
func (s *evalSession) String() string {
	if s.info.Name == "" {
		return s.info.ID
	}
	return s.info.Name + " (" + s.info.ID + ")"
}
