package runcatalog

import (
	"reflect"
	"time"

	"github.com/smith-agent/smith/core/catalog"
)

// Report is what a foreground refresh changed.
type Report struct {
	// URL is where the document came from (user information redacted).
	URL string `json:"url"`
	// Fetched is when the refresh was cached.
	Fetched time.Time `json:"fetched"`
	// Generated is the document's date; Models the number it describes.
	Generated string `json:"generated"`
	Models    int    `json:"models"`
	// Added, Updated and Removed list the "provider/id" of the models the
	// refresh added to the catalog, changed, or dropped (models only an
	// earlier refresh had described).
	Added   []string `json:"added"`
	Updated []string `json:"updated"`
	Removed []string `json:"removed"`
	// Kept lists the refreshed figures that stronger evidence (the user's
	// configuration or the reviewed bundle) overrode and kept.
	Kept []catalog.Conflict `json:"kept"`
	// Snapshot is the catalog as refreshed.
	Snapshot *catalog.Snapshot `json:"-"`
}

func report(url string, fetched time.Time, res catalog.RefreshResult) *Report {
	r := &Report{URL: url, Fetched: fetched.UTC(), Generated: res.Generated, Models: res.Models, Added: []string{}, Updated: []string{},
		Removed: []string{}, Kept: res.Conflicts, Snapshot: res.Published}
	if r.Kept == nil {
		r.Kept = []catalog.Conflict{}
	}
	before := map[string]catalog.Model{}
	for _, m := range res.Previous.Models() {
		before[m.Ref()] = m
	}
	after := map[string]bool{}
	for _, m := range res.Published.Models() {
		after[m.Ref()] = true
		old, ok := before[m.Ref()]
		switch {
		case !ok:
			r.Added = append(r.Added, m.Ref())
		case !reflect.DeepEqual(old, m):
			r.Updated = append(r.Updated, m.Ref())
		}
	}
	for _, m := range res.Previous.Models() {
		if !after[m.Ref()] {
			r.Removed = append(r.Removed, m.Ref())
		}
	}
	return r
}
