package plugin

import (
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/model"
)

// TestOutputTextSplitsRunes: an output chunk ending inside a UTF-8
// sequence is sent whole with the next one.
func TestOutputTextSplitsRunes(t *testing.T) {
	var got []string
	fn := outputText(func(p []model.Content) { got = append(got, p[0].(model.Text).Text) })
	b := []byte("añb€")
	fn(b[:2]) // "a" and the first byte of ñ
	fn(b[2:6])
	fn(b[6:])
	if strings.Join(got, "|") != "a|ñb|€" {
		t.Errorf("updates %q", got)
	}
}
