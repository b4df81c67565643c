package runtime

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/smith-agent/smith/core/catalog"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/core/session"
	"github.com/smith-agent/smith/sessionfmt"
)

// Sessions lists the stored sessions, most recently active first, each
// with what people look for: its working directory, model, first prompt,
// size and last activity. A session whose file cannot be read completely
// is listed with Damaged saying what is wrong and how to repair it.
// Sessions read files only; they may be open for writing elsewhere.
func (rt *Runtime) Sessions(ctx context.Context) ([]protocol.SessionInfo, error) {
	d, err := rt.sessionDir()
	if err != nil {
		return nil, err
	}
	all, err := d.List()
	if err != nil {
		return nil, err
	}
	out := make([]protocol.SessionInfo, 0, len(all))
	for _, in := range all {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		sess, rep, err := sessionfmt.Load(in.Path, nil)
		if err != nil {
			si := rt.describe(in, sessionfmt.New(), in.Path)
			si.Damaged = fmt.Sprintf("%v; 'smith session repair %s' keeps every entry it can", err, ref(in))
			out = append(out, si)
			continue
		}
		si := rt.describe(in, sess, in.Path)
		if rep != nil && rep.Damaged() {
			si.Damaged = fmt.Sprintf("parts of the file are damaged (%d corrupt frame(s) skipped, %d byte(s) of truncated tail); its intact entries are listed; 'smith session repair %s' rewrites it with them", len(rep.Skipped), rep.Truncated.Len, ref(in))
		}
		out = append(out, si)
	}
	slices.SortStableFunc(out, func(a, b protocol.SessionInfo) int { return b.LastActivity.Compare(a.LastActivity) })
	return out, nil
}

// describe builds the SessionInfo of a session from its entries.
func (rt *Runtime) describe(in session.Info, sess *sessionfmt.Session, path string) protocol.SessionInfo {
	si := protocol.SessionInfo{ID: in.ID, Name: in.Name, Path: path, Entries: sess.Len(), LastActivity: in.ModTime}
	if id, err := sessionfmt.ParseID(in.ID); err == nil {
		si.Created = id.Time()
	}
	if fi, err := os.Stat(path); err == nil {
		si.Size, si.LastActivity = fi.Size(), fi.ModTime()
	}
	if m, ok := session.SessionMetadata(sess); ok {
		si.Cwd = m.Cwd
	}
	if mc, ok := session.LastModelChange(sess); ok {
		si.Model = mc.Model
	}
	for i := range sess.Len() {
		if sess.Kind(i) != sessionfmt.KindMessage {
			continue
		}
		m, err := session.EntryMessage(sess.Entry(i).Content)
		if err != nil {
			continue
		}
		if u, ok := m.(model.UserMessage); ok {
			si.FirstPrompt = excerpt(u.Content, 120)
			break
		}
	}
	return si
}

// excerpt is the text of cs on one line, cut to max runes with "…".
func excerpt(cs []model.Content, max int) string {
	var b strings.Builder
	for _, c := range cs {
		if t, ok := c.(model.Text); ok {
			b.WriteString(t.Text)
			b.WriteByte(' ')
		}
	}
	s := strings.Join(strings.Fields(b.String()), " ")
	if r := []rune(s); len(r) > max {
		s = string(r[:max-1]) + "…"
	}
	return s
}

// autoName derives a session name from the hint's first words ("fix the
// bug" → "fix-the-bug"), numbered when taken ("fix-the-bug-2"); "session"
// when the hint has no usable word.
func autoName(d *session.Dir, hint string) (string, error) {
	var b strings.Builder
	for _, w := range strings.Fields(strings.ToLower(hint)) {
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
		base = "session"
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

// removeEmpty removes the file of a session that recorded nothing.
func removeEmpty(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("runtime: remove the empty session %s: %w", path, err)
	}
	return nil
}

// Tree returns every entry of the session, every branch, in file order;
// each names its parent, leaves are marked, and so is the selected entry
// the session continues from.
func (s *Session) Tree() []protocol.TreeNode {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []protocol.TreeNode
	s.store.View(func(sess *sessionfmt.Session) { out = tree(sess) })
	return out
}

// tree lists the entries of sess (see [Session.Tree]).
func tree(sess *sessionfmt.Session) []protocol.TreeNode {
	labels := map[sessionfmt.ID]string{}
	hasChild := make([]bool, sess.Len())
	for i := range sess.Len() {
		if p := sess.Parent(i); p >= 0 {
			hasChild[p] = true
		}
		if sess.Kind(i) == sessionfmt.KindLabel {
			e := sess.Entry(i)
			labels[e.Pair] = string(e.Key)
		}
	}
	out := make([]protocol.TreeNode, 0, sess.Len())
	for i := range sess.Len() {
		e := sess.Entry(i)
		n := protocol.TreeNode{ID: e.ID.String(), Kind: sess.Kind(i).String(), Time: e.Time, Label: labels[e.ID],
			Leaf: !hasChild[i], Selected: i == sess.Selected()}
		if p := sess.Parent(i); p >= 0 {
			n.Parent = sess.ID(p).String()
		}
		switch sess.Kind(i) {
		case sessionfmt.KindMessage:
			if m, err := session.EntryMessage(e.Content); err == nil {
				n.Role = string(m.Role())
				n.Summary = summary(m)
			}
		case sessionfmt.KindModelChange:
			var mc session.ModelChange
			if sessionfmt.DecodeContent(e.Content, &mc) == nil {
				n.Summary = mc.Model
			}
		case sessionfmt.KindBranchSummary:
			if b, err := session.BranchSummaryEntry(sess, i); err == nil {
				n.Summary = excerpt([]model.Content{model.Text{Text: b.Summary}}, 80)
			}
		}
		out = append(out, n)
	}
	return out
}

// summary is a one-line excerpt of a message.
func summary(m model.Message) string {
	switch m := m.(type) {
	case model.UserMessage:
		return excerpt(m.Content, 80)
	case model.AssistantMessage:
		if s := excerpt(m.Content, 80); s != "" {
			return s
		}
		var names []string
		for _, c := range m.ToolCalls() {
			names = append(names, c.Name)
		}
		return strings.Join(names, ", ")
	case model.ToolResultMessage:
		return m.Name + ": " + excerpt(m.Content, 70)
	}
	return ""
}

// entry resolves ref, an entry id or an unambiguous id prefix of at least
// 4 characters, to its index. Called with s.mu held.
func (s *Session) entry(ref string) (int, error) {
	var hits []int
	exact := -1
	up := strings.ToUpper(ref)
	s.store.View(func(sess *sessionfmt.Session) {
		for i := range sess.Len() {
			id := sess.ID(i).String()
			if id == up {
				exact = i
				return
			}
			if len(up) >= 4 && strings.HasPrefix(id, up) {
				hits = append(hits, i)
			}
		}
	})
	if exact >= 0 {
		return exact, nil
	}
	return s.pick(ref, hits)
}

// pick reports the one entry of hits, or why there is not one.
func (s *Session) pick(ref string, hits []int) (int, error) {
	switch len(hits) {
	case 1:
		return hits[0], nil
	case 0:
		return -1, usagef("runtime: session %s has no entry %q; list its entries with 'smith session tree %s'", display(s.info), ref, s.info.ID)
	}
	return -1, usagef("runtime: %q matches %d entries of session %s; give more of the id", ref, len(hits), display(s.info))
}

// Select makes the entry p.Ref (an id or a unique prefix) the one the
// session continues from: the next input starts a branch there, and every
// entry stays in the file. The agent's history becomes that branch's.
// With p.Summarize, the branch the move leaves behind is first summarised
// by the model into a branch summary at the new position (see
// [Session.summarizeBranch]). Refused with [ErrBusy] while a run is
// active.
func (s *Session) Select(ctx context.Context, p protocol.SelectParams) (protocol.SelectResult, error) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return protocol.SelectResult{}, errClosed
	}
	if s.running() {
		s.mu.Unlock()
		return protocol.SelectResult{}, ErrBusy
	}
	i, err := s.entry(p.Ref)
	if err != nil {
		s.mu.Unlock()
		return protocol.SelectResult{}, err
	}
	if p.Summarize {
		// It unlocks s.mu.
		return s.selectSummarized(ctx, i, p)
	}
	defer s.mu.Unlock()
	if err := s.moveTo(i); err != nil {
		return protocol.SelectResult{}, fmt.Errorf("runtime: select entry %s of session %s: %w", p.Ref, display(s.info), err)
	}
	return protocol.SelectResult{Entry: s.file.Session().ID(i).String()}, nil
}

// moveTo selects entry i: the agent is made again from its branch, with
// the branch's model. Called with s.mu held.
func (s *Session) moveTo(i int) error {
	err := s.store.Do(func(f *sessionfmt.File) error { return f.Select(f.Session().ID(i), sessionfmt.Durable) })
	if err != nil {
		return err
	}
	s.moved()
	return nil
}

// moved makes the agent again from the selected branch, with the
// branch's model, after the selection changed. Called with s.mu held.
func (s *Session) moved() {
	s.resetAgent()
	if mc, ok := session.LastModelChange(s.file.Session()); ok {
		s.modelName, s.thinking, s.recorded = mc.Model, catalog.Level(mc.Thinking), true
	}
}

// resetAgent drops the agent so the next run is made from the session's
// selected history; queued input carries over to the next agent. Called
// with s.mu held.
func (s *Session) resetAgent() {
	if s.agent == nil {
		return
	}
	steer, follow := s.agent.Queued()
	s.carrySteer, s.carryFollow = append(s.carrySteer, steer...), append(s.carryFollow, follow...)
	s.agent, s.bound, s.prompted = nil, nil, false
}

// Fork publishes a new session holding this one's history up to the entry
// at (an id or unique prefix; "" is the selected entry) and opens it; this
// session stays open and unchanged.
func (s *Session) Fork(ctx context.Context, p protocol.ForkParams) (*Session, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errClosed
	}
	at := -1
	s.store.View(func(sess *sessionfmt.Session) { at = sess.Selected() })
	if p.At != "" {
		i, err := s.entry(p.At)
		if err != nil {
			return nil, err
		}
		at = i
	}
	if at < 0 {
		return nil, usagef("runtime: session %s has no entry to fork at yet; submit input first", display(s.info))
	}
	d, err := s.rt.sessionDir()
	if err != nil {
		return nil, err
	}
	name := p.Name
	if name == "" && s.info.Name != "" {
		if name, err = autoName(d, s.info.Name+" fork"); err != nil {
			return nil, err
		}
	}
	var f *sessionfmt.File
	var info session.Info
	err = s.store.Do(func(src *sessionfmt.File) error {
		var err error
		f, info, err = d.ForkOpen(src, src.Session().ID(at), name)
		return err
	})
	if err != nil {
		return nil, usagef("%w", err)
	}
	return s.rt.attach(ctx, f, info, false)
}

// FreeName returns the name a new session would get from hint (as
// [NewSessionOptions] NameHint): its first words, numbered when taken.
func (rt *Runtime) FreeName(hint string) (string, error) {
	d, err := rt.sessionDir()
	if err != nil {
		return "", err
	}
	return autoName(d, hint)
}

// Label names the entry ref (an id or a unique prefix) label in the
// session's tree; "" clears its label. The label is an entry of its own,
// so it is part of the recorded history. Refused with [ErrBusy] while a
// run is active.
func (s *Session) Label(ctx context.Context, ref, label string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errClosed
	}
	if s.running() {
		return ErrBusy
	}
	if len(label) > 64 || strings.ContainsAny(label, "\n\r") {
		return usagef("runtime: the label %q is not one line of at most 64 bytes; shorten it", label)
	}
	i, err := s.entry(ref)
	if err != nil {
		return err
	}
	var id sessionfmt.ID
	s.store.View(func(sess *sessionfmt.Session) { id = sess.ID(i) })
	if err := s.store.RecordLabel(id, label); err != nil {
		return fmt.Errorf("runtime: label entry %s of session %s: %w", ref, display(s.info), err)
	}
	return nil
}

// ref is how a user names the session in a command: its name, else its id.
func ref(in session.Info) string {
	if in.Name != "" {
		return in.Name
	}
	return in.ID
}

// History returns the messages of the selected branch, oldest first: what
// the model is shown at the next input, and what a frontend draws when it
// opens a session. Safe to call during a run (it reads what is recorded).
func (s *Session) History() ([]model.Message, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []model.Message
	var err error
	s.store.View(func(sess *sessionfmt.Session) { out, err = session.Messages(sess) })
	if err != nil {
		return nil, fmt.Errorf("runtime: read session %s: %w", display(s.info), err)
	}
	return out, nil
}
