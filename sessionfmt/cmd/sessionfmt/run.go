package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/smith-agent/smith/sessionfmt"
)

const usage = `sessionfmt inspects, checks, repairs and builds Smith session files.

Usage:
  sessionfmt dump FILE              write every frame as one JSON line to stdout
  sessionfmt verify FILE            check every frame and entry; report every recovered or skipped region
  sessionfmt repair FILE -o OUT     write the recoverable frames of FILE to OUT (atomically)
  sessionfmt stat FILE              entries, branches, bytes and compression ratio
  sessionfmt import JSONL -o FILE   build a session file from JSONL ('-' reads stdin)
  sessionfmt help                   this text

Exit status: 0 success (verify: intact); 1 damaged but recovered (the report
on stderr lists every region); 2 unreadable input or usage error.

JSONL lines (dump writes them, import reads them), one frame each:
  {"frame":"header","format":"smith.session","version":1}
  {"frame":"entry","id":ULID,"parent":ULID,"time_ms":N,"kind":"message",
   "pair":ULID,"cause":ULID,"key":"...","cbor":BASE64,"content":JSON}
  {"frame":"select","leaf":ULID}
  {"frame":"unknown","type":N,"flags":N,"payload":BASE64}
"cbor" is the content itself; "content" is a JSON view of it and is used by
import only when "cbor" is absent. "raw" (BASE64 of the frame) appears when
the fields would not reproduce the stored bytes, and import then writes it
as is. import(dump(FILE)) reproduces an intact FILE byte for byte.
`

const (
	exitOK      = 0
	exitDamaged = 1
	exitFailed  = 2
)

// run executes one command line and returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, "sessionfmt: no command given\n\n"+usage)
		return exitFailed
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	case "dump", "verify", "stat":
		return single(cmd, rest, stdout, stderr)
	case "repair", "import":
		return withOut(cmd, rest, stdin, stdout, stderr)
	}
	fmt.Fprintf(stderr, "sessionfmt: unknown command %q; run 'sessionfmt help' for the commands (dump, verify, repair, stat, import)\n", cmd)
	return exitFailed
}

// parse parses flags that may come before or after the positional
// arguments and returns the positional ones.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

func newFlags(cmd string, stderr io.Writer, synopsis string) *flag.FlagSet {
	fs := flag.NewFlagSet("sessionfmt "+cmd, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: sessionfmt %s\n", synopsis)
		fs.PrintDefaults()
	}
	return fs
}

func single(cmd string, args []string, stdout, stderr io.Writer) int {
	fs := newFlags(cmd, stderr, cmd+" FILE")
	pos, err := parse(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil {
		return exitFailed
	}
	if len(pos) != 1 {
		fmt.Fprintf(stderr, "sessionfmt %s: want exactly one FILE, got %d arguments (%s); example: sessionfmt %s ~/.smith/sessions/x.session\n", cmd, len(pos), strings.Join(pos, " "), cmd)
		return exitFailed
	}
	path := pos[0]
	switch cmd {
	case "dump":
		rep, err := sessionfmt.Dump(stdout, path, nil)
		return finish(rep, err, false, stderr)
	case "verify":
		_, rep, err := sessionfmt.Verify(path, nil)
		if err == nil {
			rep.WriteText(stdout)
		}
		return finish(rep, err, true, stderr)
	default: // stat
		s, rep, err := sessionfmt.Load(path, nil)
		if err == nil {
			leaves := s.Leaves(nil)
			fmt.Fprintf(stdout, "file\t%s\nbytes\t%d\nformat_version\t%d\nframes\t%d\nentries\t%d\nbranches\t%d\nselected_depth\t%d\nunknown_frames\t%d\ncompressed_entries\t%d\npayload_stored_bytes\t%d\npayload_raw_bytes\t%d\ncompression_ratio\t%.3f\n",
				path, rep.Size, rep.Version, rep.Frames, rep.Entries, len(leaves), depth(s), rep.Unknown, rep.Compressed, rep.StoredBytes, rep.RawBytes, rep.Ratio())
		}
		return finish(rep, err, false, stderr)
	}
}

func depth(s *sessionfmt.Session) int {
	if s.Selected() < 0 {
		return 0
	}
	return s.Depth(s.Selected())
}

// finish prints an error or a damage report and picks the exit status.
func finish(rep *sessionfmt.Report, err error, reported bool, stderr io.Writer) int {
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitFailed
	}
	if rep != nil && rep.Damaged() {
		if !reported {
			rep.WriteText(stderr)
		}
		return exitDamaged
	}
	return exitOK
}

func withOut(cmd string, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	synopsis := "repair FILE -o OUT"
	if cmd == "import" {
		synopsis = "import JSONL -o FILE"
	}
	fs := newFlags(cmd, stderr, synopsis)
	out := fs.String("o", "", "output session file (must not exist, or equal FILE for repair in place)")
	pos, err := parse(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil {
		return exitFailed
	}
	if len(pos) != 1 || *out == "" {
		fmt.Fprintf(stderr, "sessionfmt %s: want one input and -o OUTPUT; example: sessionfmt %s\n", cmd, synopsis)
		return exitFailed
	}
	if cmd == "repair" {
		rep, err := sessionfmt.Repair(pos[0], *out, nil)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return exitFailed
		}
		rep.WriteText(stdout)
		fmt.Fprintf(stdout, "%s: wrote %d entries to %s\n", pos[0], rep.Entries, *out)
		if rep.Damaged() {
			return exitDamaged
		}
		return exitOK
	}
	in := stdin
	if pos[0] != "-" {
		f, err := os.Open(pos[0])
		if err != nil {
			fmt.Fprintf(stderr, "sessionfmt import: %v; check the path, or pass '-' to read stdin\n", err)
			return exitFailed
		}
		defer f.Close()
		in = f
	}
	if err := sessionfmt.ImportFile(*out, in, nil); err != nil {
		fmt.Fprintf(stderr, "%v (input %s)\n", err, pos[0])
		return exitFailed
	}
	return exitOK
}
