package main

import (
	"strings"
	"testing"
)

// TestDeprecations: deprecations.kdl entries are checked against the
// world and the compatibility policy — a pre-1.0 item leaves exactly the
// next minor world, a stable one names its emergency, a deprecated item
// is in the world with its removal ahead, a removed one is gone, the
// replacement exists, the migration has steps and an example — and each
// problem names its file:line:col; a valid entry renders into the
// reference and the host's table.
func TestDeprecations(t *testing.T) {
	at := func(v string) *model {
		m := *plugin(t)
		m.version = v
		return &m
	}
	const body = `{
    replacement "vcs.list-turns"
    steps "Call list-turns."
    before "old()"
    after "new()"
}`
	tests := []struct {
		name    string
		version string
		src     string
		want    string // "" for valid
	}{
		{name: "deprecated", version: "0.2.1", src: `deprecated "vcs.take-snapshot" since="0.2.0" removal="0.3.0" ` + body},
		{name: "deprecated-interface", version: "0.2.1", src: `deprecated "ui" since="0.2.0" removal="0.3.0" ` + body},
		{name: "removed", version: "0.3.0", src: `removed "fs.read-text" since="0.2.0" removal="0.3.0" ` + body},
		{name: "stable-emergency", version: "1.4.0", src: `deprecated "vcs.take-snapshot" since="1.3.0" {
    reason "It let a plugin restore files outside the worktree."
    replacement "vcs.list-turns"
    steps "s"
    before "b"
    after "a"
}`},
		{name: "removal-not-next-minor", version: "0.2.1", src: `deprecated "vcs.take-snapshot" since="0.2.0" removal="0.2.5" ` + body,
			want: "deprecations.kdl:1:1: vcs.take-snapshot: removal must be 0.3.0"},
		{name: "removal-has-come", version: "0.3.0", src: `deprecated "vcs.take-snapshot" since="0.2.0" removal="0.3.0" ` + body,
			want: "its removal 0.3.0 has come"},
		{name: "deprecated-but-gone", version: "0.2.1", src: `deprecated "fs.read-text" since="0.2.0" removal="0.3.0" ` + body,
			want: "is not in world smith:plugin@0.2.1; an item already gone is a removed entry"},
		{name: "removed-but-present", version: "0.3.0", src: `removed "vcs.take-snapshot" since="0.2.0" removal="0.3.0" ` + body,
			want: "is still in world smith:plugin@0.3.0"},
		{name: "removed-too-early", version: "0.2.4", src: `removed "fs.read-text" since="0.2.0" removal="0.3.0" ` + body,
			want: "a removed entry's removal must have come"},
		{name: "stable-without-reason", version: "1.4.0", src: `deprecated "vcs.take-snapshot" since="1.3.0" ` + body,
			want: "name it in reason"},
		{name: "future-since", version: "0.2.1", src: `deprecated "vcs.take-snapshot" since="0.4.0" removal="0.5.0" ` + body,
			want: "since 0.4.0 is after the world's version 0.2.1"},
		{name: "unknown-replacement", version: "0.2.1", src: `deprecated "vcs.take-snapshot" since="0.2.0" removal="0.3.0" {
    replacement "vcs.take-checkpoint"
    steps "s"
    before "b"
    after "a"
}`, want: `replacement "vcs.take-checkpoint" is not in world`},
		{name: "no-example", version: "0.2.1", src: `deprecated "vcs.take-snapshot" since="0.2.0" removal="0.3.0" {
    replacement "vcs.list-turns"
    steps "s"
}`, want: "before is missing"},
		{name: "bad-version", version: "0.2.1", src: `deprecated "vcs.take-snapshot" since="two" removal="0.3.0" ` + body,
			want: `since: "two" is not a world version X.Y.Z`},
		{name: "unknown-field", version: "0.2.1", src: `deprecated "vcs.take-snapshot" since="0.2.0" removal="0.3.0" {
    replacment "vcs.list-turns"
}`, want: `deprecations.kdl:2:5: vcs.take-snapshot: "replacment" is not a field`},
		{name: "unknown-entry", version: "0.2.1", src: `obsolete "vcs.take-snapshot"`, want: `"obsolete" is not an entry`},
		{name: "twice", version: "0.2.1", src: `deprecated "vcs.take-snapshot" since="0.2.0" removal="0.3.0" ` + body + "\n" +
			`deprecated "vcs.take-snapshot" since="0.2.0" removal="0.3.0" ` + body, want: "deprecations.kdl:7:1: vcs.take-snapshot has a second entry"},
		{name: "not-kdl", version: "0.2.1", src: `deprecated "vcs.take-snapshot {`, want: "is not valid KDL 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := at(tt.version)
			ds, err := parseDeprecations("deprecations.kdl", []byte(tt.src), m)
			if tt.want != "" {
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("error = %v\nwant one containing %q", err, tt.want)
				}
				return
			}
			if err != nil || len(ds) != 1 {
				t.Fatalf("parse = %v, %v", ds, err)
			}
			docs := genDocs(m, ds, true)
			if !strings.Contains(docs, "### "+ds[0].status+" `"+ds[0].item+"`") || !strings.Contains(docs, "Use `vcs.list-turns` instead.") {
				t.Errorf("the reference lacks the entry:\n%s", docs[strings.Index(docs, "## Deprecations"):])
			}
			if ds[0].status == "deprecated" && !strings.Contains(docs, "**Deprecated** in "+ds[0].since) {
				t.Error("the reference does not mark the deprecated item where it is documented")
			}
			src, err := genDeprecationTable(m, ds, "p").render("wit")
			if err != nil || !strings.Contains(string(src), `Item: "`+ds[0].item+`"`) {
				t.Fatalf("table: %v\n%s", err, src)
			}
		})
	}
}
