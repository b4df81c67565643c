package sandbox

import (
	"strings"
	"sync"
	"testing"
)

func TestParseMode(t *testing.T) {
	tests := []struct {
		name, in string
		want     Mode
		err      string
	}{
		{"workspace-write", "workspace-write", WorkspaceWrite, ""},
		{"read-only", "read-only", ReadOnly, ""},
		{"off", "off", Off, ""},
		{"case and space ignored", " Read-Only\n", ReadOnly, ""},
		{"empty", "", "", `sandbox: unknown mode ""; use "workspace-write", "read-only" or "off"`},
		{"unknown", "strict", "", `sandbox: unknown mode "strict"; use "workspace-write", "read-only" or "off"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseMode(tt.in)
			if got != tt.want || (err == nil) != (tt.err == "") || (err != nil && err.Error() != tt.err) {
				t.Fatalf("ParseMode(%q) = %q, %v; want %q, %s", tt.in, got, err, tt.want, tt.err)
			}
		})
	}
}

func TestDescribe(t *testing.T) {
	landlock := Info{Available: true, Mechanism: "landlock", ABI: 7, Network: true}
	oldKernel := Info{Available: true, Mechanism: "landlock", ABI: 3}
	macOS := Info{Available: true, Mechanism: "sandbox-exec", Network: true}
	none := Info{Reason: "no sandbox on plan9"}
	ww := Policy{Mode: WorkspaceWrite, Network: true, Roots: []string{"/a", "/b/"}, Writable: []string{"/a", "/c"}}
	tests := []struct {
		name string
		p    Policy
		info Info
		want string
	}{
		{"zero policy", Policy{}, landlock, "off"},
		{"off", Policy{Mode: Off, Roots: []string{"/a"}}, none, "off"},
		{"workspace-write", ww, landlock, "workspace-write (writes: /a, /b, /c, temp dir), network allowed; Landlock ABI 7"},
		{"network denied", Policy{Mode: WorkspaceWrite, Roots: []string{"/a"}}, landlock, "workspace-write (writes: /a, temp dir), network denied; Landlock ABI 7"},
		{"network not enforceable", Policy{Mode: ReadOnly}, oldKernel, "read-only (no writes), network not restricted (needs Landlock ABI 4, found 3); Landlock ABI 3"},
		{"read-only on macOS", Policy{Mode: ReadOnly}, macOS, "read-only (no writes), network denied; sandbox-exec"},
		{"mode name read as ParseMode does", Policy{Mode: "Read-Only"}, landlock, "read-only (no writes), network denied; Landlock ABI 7"},
		{"unavailable", ww, none, "workspace-write requested but unavailable: no sandbox on plan9; commands run unsandboxed"},
		{"unknown mode", Policy{Mode: "strict"}, landlock, `invalid: sandbox: unknown mode "strict"; use "workspace-write", "read-only" or "off"`},
		{"relative root", Policy{Mode: WorkspaceWrite, Roots: []string{"src"}}, landlock, `invalid: sandbox: writable path "src" is not absolute; give it as an absolute path`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.p.describe(tt.info); got != tt.want {
				t.Fatalf("describe = %q\nwant       %q", got, tt.want)
			}
		})
	}
}

const wantProfile = `(version 1)
(allow default)
(deny file-write*)
(allow file-write*
  (subpath "/real/work")
  (subpath "/real/odd \"dir\" \\ x")
  (subpath "/real/cache")
  (subpath "/real/tmp")
  (literal "/dev/null")
  (literal "/dev/zero")
  (literal "/dev/tty")
  (literal "/dev/ptmx")
  (literal "/dev/dtracehelper")
  (literal "/dev/stdout")
  (literal "/dev/stderr")
  (subpath "/dev/fd")
  (regex #"^/dev/ttys[0-9]+$"))
(deny network*)
`

const wantReadOnlyProfile = `(version 1)
(allow default)
(deny file-write*)
(allow file-write*
` + profileDevices + `)
`

func TestProfile(t *testing.T) {
	real := func(p string) string { return "/real" + p }
	tests := []struct {
		name string
		p    Policy
		want string
	}{
		{"workspace-write without network", Policy{Mode: WorkspaceWrite, Roots: []string{"/work", `/odd "dir" \ x`}, Writable: []string{"/cache/", "/work"}}, wantProfile},
		{"read-only with network", Policy{Mode: ReadOnly, Network: true, Roots: []string{"/work"}}, wantReadOnlyProfile},
		{"off", Policy{Mode: Off}, "(version 1)\n(allow default)\n"},
		{"zero", Policy{}, "(version 1)\n(allow default)\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.p.profile("/tmp", real); got != tt.want {
				t.Fatalf("profile =\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
	if got := (Policy{Mode: ReadOnly}).Profile(); !strings.Contains(got, "(deny network*)") {
		t.Fatalf("Profile() = %s; want the network denied", got)
	}
}

// TestProbeOnce: concurrent callers all see the one cached Info, and an
// unavailable sandbox says why.
func TestProbeOnce(t *testing.T) {
	var wg sync.WaitGroup
	infos := make([]Info, 8)
	for i := range infos {
		wg.Go(func() { infos[i] = Probe() })
	}
	wg.Wait()
	for _, info := range infos[1:] {
		if info != infos[0] {
			t.Fatalf("Probe() = %+v, then %+v", infos[0], info)
		}
	}
	if info := infos[0]; info.Available == (info.Reason != "") || info.Available == (info.Mechanism == "") {
		t.Fatalf("Probe() = %+v; want a mechanism when available, a reason when not", info)
	}
}
