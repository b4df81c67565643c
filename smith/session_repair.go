package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/smith-agent/smith/sessionfmt"
	"github.com/urfave/cli/v3"
)

// damageReport writes what a read of a session file found damaged, one
// finding per line, each prefixed "damaged: ", then how to repair it.
func damageReport(w io.Writer, report *sessionfmt.Report, ref string) {
	var b strings.Builder
	_ = report.WriteText(&b)
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	for _, l := range lines[1:] { // the first line is the file summary
		if strings.Contains(l, "run 'sessionfmt repair") {
			continue // the library's own advice names its tool
		}
		fmt.Fprintf(w, "damaged: %s\n", strings.TrimPrefix(l, report.Path+": "))
	}
	fmt.Fprintf(w, "damaged: the intact entries are shown; 'smith session repair %s' rewrites the file with them (the damaged file is kept beside it)\n", ref)
}

// damagedError is the exit-1 error of a command that read a damaged
// session and showed what it could.
func damagedError(cmd *cli.Command, path string) error {
	return fmt.Errorf("%s: %s is damaged (see the 'damaged:' lines); the rest of it was read", cmdName(cmd), path)
}

// unreadable adds the repair command to the error of a session file that
// cannot be read without guessing (a length field that cannot be
// trusted).
func unreadable(cmd *cli.Command, ref string, err error) error {
	var fe *sessionfmt.Error
	if errors.As(err, &fe) {
		return fmt.Errorf("%s: %w\n'smith session repair %s' keeps every entry before and after the damage", cmdName(cmd), err, ref)
	}
	return fmt.Errorf("%s: %w", cmdName(cmd), err)
}

// sessionRepair rewrites a damaged session file in place with every
// recoverable frame (sessionfmt.Repair), after copying the damaged file to
// PATH.damaged, and prints what was recovered and what was lost.
func sessionRepair(ctx context.Context, cmd *cli.Command) error {
	info, err := sessionRef(ctx, cmd)
	if err != nil {
		return err
	}
	ref, _ := sessionArg(cmd)
	_, before, lerr := sessionfmt.Verify(info.Path, nil)
	if lerr == nil && !before.Damaged() {
		fmt.Fprintf(cmd.Root().Writer, "session %s is intact; nothing to repair\n", ref)
		return nil
	}
	backup := info.Path + ".damaged"
	if err := copyFile(info.Path, backup); err != nil {
		return fmt.Errorf("%s: keep a copy of the damaged file at %s: %w; free space or fix permissions, then run it again", cmdName(cmd), backup, err)
	}
	report, err := sessionfmt.Repair(info.Path, info.Path, nil)
	if err != nil {
		return fmt.Errorf("%s: %w (the file is unchanged; a copy is at %s)", cmdName(cmd), err, backup)
	}
	w := cmd.Root().Writer
	var b strings.Builder
	_ = report.WriteText(&b)
	for _, l := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n")[1:] {
		if !strings.Contains(l, "run 'sessionfmt repair") {
			fmt.Fprintf(w, "%s\n", strings.TrimPrefix(l, report.Path+": "))
		}
	}
	fmt.Fprintf(w, "repaired session %s: %d entries kept; the damaged file is at %s\n", ref, report.Entries, backup)
	return nil
}

// copyFile copies src to dst, which must not exist.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Sync(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
