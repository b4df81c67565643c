package protocol

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
)

// eventsDoc is the documentation of the event stream, at the repository
// root.
const eventsDoc = "../../docs/events.md"

// TestEventsDocumented: docs/events.md has a section for every event type,
// in order and no other, and each section's table lists exactly the JSON
// fields of that event.
func TestEventsDocumented(t *testing.T) {
	b, err := os.ReadFile(eventsDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	heading := regexp.MustCompile("(?m)^### `([a-z_]+)`$")
	var documented []string
	for _, m := range heading.FindAllStringSubmatch(doc, -1) {
		documented = append(documented, m[1])
	}
	if strings.Join(documented, " ") != strings.Join(EventTypes, " ") {
		t.Fatalf("docs/events.md documents\n%v\nthe protocol has\n%v", documented, EventTypes)
	}
	sections := heading.Split(doc, -1)[1:]
	row := regexp.MustCompile("(?m)^\\| `([a-z_]+)` \\|")
	for i, ev := range samples() {
		typ := EventTypes[i]
		var fields []string
		for _, m := range row.FindAllStringSubmatch(sections[i], -1) {
			fields = append(fields, m[1])
		}
		want := jsonFields(t, ev)
		if strings.Join(fields, " ") != strings.Join(want, " ") {
			t.Errorf("%s: docs/events.md lists the fields %v; the event has %v", typ, fields, want)
		}
	}
	// The example stream is made of valid events.
	for _, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(line, `{"type":`) {
			if _, err := UnmarshalEvent([]byte(line)); err != nil {
				t.Errorf("example line %s: %v", line, err)
			}
		}
	}
}

// jsonFields returns the top-level JSON field names of ev, in order, type
// excluded.
func jsonFields(t *testing.T, ev Event) []string {
	t.Helper()
	b, err := MarshalEvent(ev)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	var out []string
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
		if k != "type" {
			out = append(out, k.(string))
		}
	}
	return out
}
