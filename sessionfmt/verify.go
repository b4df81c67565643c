package sessionfmt

import (
	"fmt"

	"github.com/smith-agent/smith/sessionfmt/internal/detcbor"
)

// Verify loads the session file at path like [Load] and also checks that
// every entry's content is one well-formed CBOR item, which loading itself
// never looks at. Entries that fail are listed in Report.BadContent.
func Verify(path string, opts *Options) (*Session, *Report, error) {
	s, rep, err := Load(path, opts)
	if err != nil {
		return nil, nil, err
	}
	for i := range s.Len() {
		e := s.Entry(i)
		if err := detcbor.Dec().Wellformed(e.Content); err != nil {
			rep.BadContent = append(rep.BadContent, fmt.Sprintf("entry %s (%s, index %d): %v", e.ID, e.Kind, i, err))
		}
	}
	return s, rep, nil
}
