//go:build unix

package hostproc

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/smith-agent/smith/core/internal/sandbox"
	"github.com/smith-agent/smith/core/model"
)

// sandboxExec is the macOS wrapper that enforces a sandbox profile.
const sandboxExec = "/usr/bin/sandbox-exec"

// Run runs command with bash (sh when bash is missing). The error is
// non-nil only when the command could not be started (then nothing ran);
// a failing command is a Result with its exit status.
func Run(ctx context.Context, command string, o Options) (Result, error) {
	if o.Dir == "" || !filepath.IsAbs(o.Dir) {
		return Result{Mutation: model.MutationNotApplied}, fmt.Errorf("hostproc: working directory %q is not absolute; pass the invocation's directory", o.Dir)
	}
	if info, err := os.Stat(o.Dir); err != nil || !info.IsDir() {
		return Result{Mutation: model.MutationNotApplied}, fmt.Errorf("hostproc: working directory %q is not a directory", o.Dir)
	}
	if o.Timeout <= 0 {
		o.Timeout = 2 * time.Minute
	}
	if o.MaxOutput <= 0 {
		o.MaxOutput = 64 << 10
	}
	if o.KillGrace <= 0 {
		o.KillGrace = 2 * time.Second
	}
	if o.DrainDelay <= 0 {
		o.DrainDelay = 500 * time.Millisecond
	}
	enforce, err := sandboxed(&o.Sandbox)
	if err != nil {
		return Result{Mutation: model.MutationNotApplied}, err
	}
	if err := ctx.Err(); err != nil {
		return Result{Mutation: model.MutationNotApplied}, fmt.Errorf("hostproc: not started: %w", err)
	}
	shell := Shell()
	argv := []string{shell, "-c", command}
	if enforce && sandbox.Probe().Mechanism == "sandbox-exec" {
		argv = append([]string{sandboxExec, "-p", o.Sandbox.Profile()}, argv...)
	}
	tctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()

	out := &tail{max: o.MaxOutput}
	id := runPrefix() + runID()
	env := o.Env
	if env == nil {
		env = os.Environ()
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = o.Dir
	cmd.Env = append(slices.Clip(env), markerVar+"="+id)
	cmd.Stdin = nil
	cmd.Stdout, cmd.Stderr = out, out
	if o.Output != nil {
		w := &relay{tail: out, fn: o.Output}
		cmd.Stdout, cmd.Stderr = w, w
	}
	cmd.SysProcAttr = shellAttr()
	cmd.WaitDelay = o.DrainDelay
	becomeSubreaper()

	// The shell is started and waited for on one locked thread, which ends
	// with the wait: its parent-death signal then fires only when this
	// process dies, never because the Go runtime retired the thread. The
	// sandbox (Landlock) restricts that thread before the start, and so
	// the shell and all it starts; no other thread.
	started, waited := make(chan error, 1), make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread exits with the goroutine
		if enforce {
			if err := o.Sandbox.RestrictThread(); err != nil {
				started <- fmt.Errorf("hostproc: sandbox %s could not be applied, so the command was not started: %w; "+
					"to run commands unsandboxed, start smith with --sandbox off or set sandbox \"off\" in smith.kdl", o.Sandbox.Mode, err)
				return
			}
		}
		if err := cmd.Start(); err != nil {
			started <- fmt.Errorf("hostproc: start %s: %w", shell, err)
			return
		}
		started <- nil
		waited <- cmd.Wait()
	}()
	if err := <-started; err != nil {
		return Result{Mutation: model.MutationNotApplied}, err
	}
	pgid := cmd.Process.Pid

	var werr error
	stopped := false
	select {
	case werr = <-waited:
	case <-tctx.Done():
		stopped = true
		_ = syscall.Kill(-pgid, syscall.SIGTERM)
		grace := time.NewTimer(o.KillGrace)
		select {
		case werr = <-waited:
		case <-grace.C:
			_ = syscall.Kill(-pgid, syscall.SIGKILL)
			werr = <-waited
		}
		grace.Stop()
	}
	// Whatever the group left behind dies with the invocation, and so does
	// whatever left the group (sweep).
	leftovers := syscall.Kill(-pgid, syscall.SIGKILL) == nil
	sweep(id, pgid, leftovers || stopped)

	res := Result{ExitCode: -1, Mutation: model.MutationApplied}
	if o.Sandbox.Mode != "" {
		res.Sandbox = o.Sandbox.Describe()
	}
	if enforce {
		res.sandboxHint = sandboxHint(o.Sandbox, !o.Sandbox.Network && sandbox.Probe().Network)
	}
	res.Output, res.TotalBytes = out.bytes()
	res.Truncated = res.TotalBytes > int64(len(res.Output))
	if cmd.ProcessState == nil {
		return res, fmt.Errorf("hostproc: wait for %s: %w", shell, werr)
	}
	if st, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok {
		switch {
		case st.Exited():
			res.ExitCode = st.ExitStatus()
		case st.Signaled():
			res.Signal = st.Signal().String()
		}
	}
	if stopped {
		res.Mutation = model.MutationUnknown
		res.TimedOut = errors.Is(tctx.Err(), context.DeadlineExceeded) && ctx.Err() == nil
		res.Cancelled = !res.TimedOut
	}
	res.Lingering = errors.Is(werr, exec.ErrWaitDelay)
	return res, nil
}

// sandboxed reports whether the sandbox p asks for is enforced here (a
// mode other than Off, on a platform that offers one), with p.Mode set to
// its canonical name. An unknown mode is an error: nothing runs.
func sandboxed(p *sandbox.Policy) (bool, error) {
	if p.Mode == "" {
		return false, nil
	}
	m, err := sandbox.ParseMode(string(p.Mode))
	if err != nil {
		return false, fmt.Errorf("hostproc: %w", err)
	}
	p.Mode = m
	return m != sandbox.Off && sandbox.Probe().Available, nil
}

// sandboxHint is the note for a command that failed under p: what p
// denies (the network too when noNetwork) and how to allow it.
func sandboxHint(p sandbox.Policy, noNetwork bool) string {
	network := ""
	if noNetwork {
		network = ", and so are network connections"
	}
	if p.Mode == sandbox.ReadOnly {
		return "[sandbox read-only: writes are denied everywhere" + network +
			"; to allow writes in the working roots run smith with --sandbox workspace-write, or use --sandbox off]"
	}
	var dirs []string
	for _, d := range append(append([]string(nil), p.Roots...), p.Writable...) {
		if d = filepath.Clean(d); !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	where := "the temp dir"
	if len(dirs) > 0 {
		where = strings.Join(dirs, ", ") + " and the temp dir"
	}
	return "[sandbox workspace-write: writes outside " + where + " are denied" + network +
		"; to allow a directory run smith with --add-dir DIR or add it to roots in smith.kdl, or use --sandbox off]"
}
