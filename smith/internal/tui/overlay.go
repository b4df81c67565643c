package tui

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/smith/internal/textout"
	"github.com/smith-agent/smith/termkit/input"
	"github.com/smith-agent/smith/termkit/screen"
	"github.com/smith-agent/smith/termkit/widget"
)

// overlay is a picker over the transcript; it owns the keys while open.
type overlay struct {
	sel    *widget.Selector
	hint   string
	choose func(a *App, it widget.Item)
	// extra handles keys beyond the picker's own (the tree's fork and
	// label); it returns true when it used k.
	extra func(a *App, k input.Key, cur *widget.Item) bool
}

func (a *App) openOverlay(o *overlay) {
	s := o.sel
	s.Style, s.SelectedStyle, s.DetailStyle, s.MatchStyle, s.BorderStyle = screen.Style{}, a.th.Selection, a.th.Dim, a.th.Accent, a.th.Border
	a.over = o
}

func (o *overlay) key(a *App, k input.Key) {
	if o.extra != nil && o.extra(a, k, o.sel.Selected()) {
		return
	}
	done, chosen := o.sel.HandleKey(k)
	if !done {
		return
	}
	a.over = nil
	if chosen != nil {
		o.choose(a, *chosen)
	}
}

func (o *overlay) paste(a *App, text string) {
	for _, r := range strings.ReplaceAll(text, "\n", " ") {
		o.sel.HandleKey(input.Key{Code: r, Text: string(r)})
	}
}

// draw centres the picker over the transcript, with its key hint below.
func (o *overlay) draw(a *App, l layout) {
	w, h := a.buf.Width(), a.buf.Height()
	bw := min(w, max(min(w-4, 110), 20))
	bh := min(h-1, max(min(h-4, 24), 5))
	r := screen.Rect{X: (w - bw) / 2, Y: max((h-bh)/2-1, 0), W: bw, H: bh}
	a.buf.Fill(r, screen.Style{})
	o.sel.Draw(a.buf, r)
	if o.hint != "" && r.Y+r.H < h {
		a.buf.Fill(screen.Rect{X: r.X, Y: r.Y + r.H, W: r.W, H: 1}, screen.Style{})
		a.buf.SetStringMax(r.X+1, r.Y+r.H, r.X+r.W, screen.Truncate(o.hint, r.W-1, "…"), a.th.Dim)
	}
}

// openResume lists the sessions, this directory's first, newest first.
func (a *App) openResume() {
	cwd := a.rt.Cwd()
	a.do(func() func() {
		list, err := a.rt.Sessions(a.ctx)
		return func() {
			if err != nil {
				a.tr.add(&item{kind: kindError, text: "/resume: " + trimRuntime(err.Error())})
				return
			}
			slices.SortStableFunc(list, func(x, y protocol.SessionInfo) int {
				if (x.Cwd == cwd) != (y.Cwd == cwd) {
					if x.Cwd == cwd {
						return -1
					}
					return 1
				}
				return y.LastActivity.Compare(x.LastActivity)
			})
			var items []widget.Item
			for _, s := range list {
				if a.sess != nil && s.ID == a.sess.Info().ID {
					continue
				}
				detail := strings.Join(nonEmpty(ago(a.now(), s.LastActivity), s.Model, shortCwd(s.Cwd, cwd), s.FirstPrompt), " · ")
				if s.Damaged != "" {
					detail = "damaged: " + s.Damaged
				}
				items = append(items, widget.Item{Label: sessionLabel(s), Detail: detail, Value: s.ID})
			}
			if len(items) == 0 {
				a.setFlash("no other session to resume yet")
				return
			}
			a.openOverlay(&overlay{sel: widget.NewSelector("Resume a session", items),
				hint:   "type to filter · enter: open · esc: close",
				choose: func(a *App, it widget.Item) { a.openSession(it.Value.(string)) }})
		}
	})
}

// openModels lists what the model can be set to.
func (a *App) openModels() {
	a.do(func() func() {
		ml, err := a.rt.Models(a.ctx)
		return func() {
			if err != nil {
				a.tr.add(&item{kind: kindError, text: "/model: " + trimRuntime(err.Error())})
				return
			}
			items := modelItems(ml, a.model)
			a.openOverlay(&overlay{sel: widget.NewSelector("Model", items),
				hint:   "type to filter · enter: use it · esc: keep " + a.model,
				choose: func(a *App, it widget.Item) { a.setModel(protocol.SetModelParams{Model: it.Value.(string)}) }})
		}
	})
}

// openTree lists the session's entries as a tree.
func (a *App) openTree() {
	nodes := a.sess.Tree()
	items := treeItems(nodes)
	if len(items) == 0 {
		a.setFlash("the session is empty")
		return
	}
	sel := widget.NewSelector("Session tree", items)
	for i, it := range items {
		if strings.HasPrefix(it.Label, "▶") {
			sel.Select(i) // start at the entry the session continues from
		}
	}
	a.openOverlay(&overlay{sel: sel,
		hint:   "enter: continue from the entry (a new branch) · ctrl+b: continue there with a summary of the branch left · ctrl+f: fork it into a new session · ctrl+l: label it · esc: close",
		choose: func(a *App, it widget.Item) { a.selectEntry(it.Value.(string), false) },
		extra: func(a *App, k input.Key, cur *widget.Item) bool {
			if cur == nil {
				return false
			}
			id := cur.Value.(string)
			switch {
			case k.Matches("ctrl+b"):
				a.over = nil
				a.selectEntry(id, true)
			case k.Matches("ctrl+f"):
				a.over = nil
				a.fork(id, "")
			case k.Matches("ctrl+l"):
				a.over = nil
				a.editor.SetValue("/label " + id + " ")
			default:
				return false
			}
			return true
		}})
}

// selectEntry continues the session from entry id; with summarize, the
// model first summarises the branch left behind into the new position
// (esc aborts it, and the session then stays where it was).
func (a *App) selectEntry(id string, summarize bool) {
	s := a.sess
	if summarize {
		a.busy, a.summarizing, a.started = true, true, a.now()
	}
	a.do(func() func() {
		res, err := s.Select(a.ctx, protocol.SelectParams{Ref: id, Summarize: summarize})
		return func() {
			a.summarizing = false
			if err != nil {
				a.busy = false
				a.tr.add(&item{kind: kindError, text: "/tree: " + trimRuntime(err.Error())})
				a.view.Follow()
				return
			}
			a.attach(s)
			msg := "continuing from entry " + shortID(id) + ": the next prompt starts a branch there"
			switch {
			case res.Summary != nil:
				msg += ", with a summary of the branch left (" + textout.BranchSummary(*res.Summary) + ")"
			case summarize:
				msg += "; nothing was left behind to summarize"
			}
			a.info(msg)
		}
	})
}

// treeItems lays the nodes out depth-first from their roots, indented by
// branch depth, newest branch last; the selected entry is marked.
func treeItems(nodes []protocol.TreeNode) []widget.Item {
	children := map[string][]int{}
	var roots []int
	for i, n := range nodes {
		if n.Kind == "label" || n.Kind == "metadata" {
			continue
		}
		if n.Parent == "" {
			roots = append(roots, i)
		} else {
			children[n.Parent] = append(children[n.Parent], i)
		}
	}
	var items []widget.Item
	var walk func(i, depth int)
	walk = func(i, depth int) {
		n := nodes[i]
		if n.Kind == "message" || n.Kind == "model_change" || n.Kind == "compaction" || n.Kind == "branch_summary" {
			mark := "  "
			if n.Selected {
				mark = "▶ "
			}
			label := mark + strings.Repeat("  ", depth) + describeNode(n)
			detail := shortID(n.ID)
			if n.Label != "" {
				detail = "[" + n.Label + "] " + detail
			}
			items = append(items, widget.Item{Label: label, Detail: detail, Value: n.ID})
		}
		kids := children[n.ID]
		for j, c := range kids {
			d := depth
			if len(kids) > 1 && j > 0 {
				d++ // a second branch is indented under its fork point
			}
			walk(c, d)
		}
	}
	for _, r := range roots {
		walk(r, 0)
	}
	return items
}

func describeNode(n protocol.TreeNode) string {
	switch n.Kind {
	case "message":
		role := n.Role
		switch role {
		case "user":
			role = "you"
		case "assistant":
			role = "smith"
		case "tool_result":
			role = "tool"
		}
		return role + ": " + n.Summary
	case "model_change":
		return "model → " + n.Summary
	case "branch_summary":
		return "summary of a branch left: " + n.Summary
	}
	return n.Kind
}

// modelItems lists the model choices, the current one first.
func modelItems(ml protocol.ModelList, current string) []widget.Item {
	var items []widget.Item
	add := func(name, detail string) {
		if name == current {
			items = slices.Insert(items, 0, widget.Item{Label: name + " (current)", Detail: detail, Value: name})
			return
		}
		items = append(items, widget.Item{Label: name, Detail: detail, Value: name})
	}
	for _, r := range ml.Routes {
		d := r.Kind + " of " + strings.Join(r.Targets, ", ")
		if r.Error != "" {
			d = r.Kind + ": " + r.Error
		}
		add(r.Name, d)
	}
	for _, m := range ml.Models {
		var d []string
		if m.Name != "" && m.Name != m.Ref {
			d = append(d, m.Name)
		}
		if m.Context > 0 {
			d = append(d, tokens(int64(m.Context))+" context")
		}
		if len(m.Thinking) > 0 {
			d = append(d, "thinking "+strings.Join(m.Thinking, "/"))
		}
		if !m.Priced {
			d = append(d, "no price")
		}
		add(m.Ref, strings.Join(d, " · "))
	}
	if current != "" && !slices.ContainsFunc(items, func(it widget.Item) bool { return it.Value == current }) {
		items = slices.Insert(items, 0, widget.Item{Label: current + " (current)", Detail: "not in the catalog", Value: current})
	}
	return items
}

func shortID(id string) string {
	if len(id) > 10 {
		return id[len(id)-10:]
	}
	return id
}

func nonEmpty(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// shortCwd is a session's directory, "" when it is the current one.
func shortCwd(dir, cwd string) string {
	if dir == cwd {
		return ""
	}
	return dir
}

// ago is a time relative to now: "just now", "5m ago", "3h ago", "2d ago".
func ago(now, t time.Time) string {
	if t.IsZero() {
		return ""
	}
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh ago", int(d.Hours()))
	}
	return fmt.Sprintf("%dd ago", int(d.Hours()/24))
}
