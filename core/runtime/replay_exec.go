package runtime

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/smith-agent/smith/core/agent"
	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/plugin"
)

// ReplayCallBound bounds one tool call run again by a replay: 5 minutes,
// past the bash tool's own default timeout; a call still running then is
// cancelled and observed as failed.
const ReplayCallBound = 5 * time.Minute

// replayExec runs recorded tool calls again in a scratch copy of a tree:
// the tools are confined to the copy and journal into memory, so neither
// the tree nor the session is touched.
type replayExec struct {
	scratch  string // the copy (symbolic links resolved)
	recorded string // the working directory the session recorded
	binding  *plugin.Binding
	tools    map[string]agent.Tool
}

// replayScratch copies tree ("" means recorded, the session's working
// directory) into a new temporary directory and binds the generation's
// tools to it.
func (rt *Runtime) replayScratch(ctx context.Context, tree, recorded string) (*replayExec, error) {
	src := tree
	if src == "" {
		if recorded == "" {
			return nil, usagef("runtime: the session recorded no working directory (an older Smith wrote it); pass the tree to run its tools in with --cwd DIR")
		}
		src = recorded
	}
	if st, err := os.Stat(src); err != nil || !st.IsDir() {
		return nil, usagef("runtime: the tree %s to run the recorded tools in is not a directory; pass an existing one with --cwd DIR", src)
	}
	tmp, err := os.MkdirTemp("", "smith-replay-")
	if err != nil {
		return nil, fmt.Errorf("runtime: create the scratch directory for --re-execute: %w; check TMPDIR", err)
	}
	if r, err := filepath.EvalSymlinks(tmp); err == nil {
		tmp = r
	}
	x := &replayExec{scratch: tmp, recorded: recorded, tools: map[string]agent.Tool{}}
	if x.recorded == "" {
		x.recorded = src
	}
	if err := replayCopy(src, tmp); err != nil {
		x.close()
		return nil, fmt.Errorf("runtime: copy %s into the scratch directory: %w", src, err)
	}
	gen, err := rt.Generation(ctx)
	if err != nil {
		x.close()
		return nil, err
	}
	j, _, err := effect.Open(ctx, &effect.MemStore{}, effect.Options{})
	if err != nil {
		x.close()
		return nil, err
	}
	b, err := gen.Bind(plugin.Effects{Journal: j, Roots: []string{tmp}, Cwd: tmp, Ignore: rt.conf.IgnorePatterns(),
		Sandbox: rt.sandboxPolicy([]string{tmp}), Secrets: &rt.secrets.set})
	if err != nil {
		x.close()
		return nil, err
	}
	x.binding = b
	for _, t := range b.Tools() {
		x.tools[t.Definition().Name] = t
	}
	return x, nil
}

// run runs call again and returns its result as the agent would record
// it, with the scratch directory's path written as the recorded one.
func (x *replayExec) run(ctx context.Context, call model.ToolCall) model.ToolResultMessage {
	res := model.ToolResultMessage{CallID: call.ID, Name: call.Name}
	t, ok := x.tools[call.Name]
	if !ok {
		res.IsError, res.Mutation = true, model.MutationNotApplied
		res.Content = []model.Content{model.Text{Text: fmt.Sprintf("replay: this Smith has no tool %q to run the call again", call.Name)}}
		return res
	}
	args := call.Arguments
	if len(x.recorded) > 1 {
		// A path under the recorded tree names the same file in the copy.
		args = []byte(strings.ReplaceAll(string(args), x.recorded, x.scratch))
	}
	ctx, cancel := context.WithTimeout(ctx, ReplayCallBound)
	defer cancel()
	res = agent.Invoke(ctx, t, model.ToolCall{ID: call.ID, Name: call.Name, Arguments: args, ArgumentsError: call.ArgumentsError}, x.scratch, ToolAbortGrace, nil)
	for i, c := range res.Content {
		if t, ok := c.(model.Text); ok && len(x.recorded) > 1 {
			t.Text = strings.ReplaceAll(t.Text, x.scratch, x.recorded)
			res.Content[i] = t
		}
	}
	return res
}

// close releases the tools and removes the scratch directory.
func (x *replayExec) close() {
	if x.binding != nil {
		_ = x.binding.Close()
	}
	_ = os.RemoveAll(x.scratch)
}

// replayCopy copies the tree src into the existing directory dst: its
// directories, regular files (with their permission bits) and symbolic
// links (as links); other files are left out.
func replayCopy(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil || rel == "." {
			return err
		}
		to := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			return os.Mkdir(to, info.Mode().Perm()|0o700)
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(target, to)
		case d.Type().IsRegular():
			return replayCopyFile(p, to, info.Mode().Perm())
		}
		return nil
	})
}

func replayCopyFile(from, to string, perm fs.FileMode) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm|0o600)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	return errors.Join(err, out.Close())
}
