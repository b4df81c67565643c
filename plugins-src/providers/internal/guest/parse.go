package guest

import (
	"encoding/json"
	"fmt"

	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
)

// ParseDocument reads a request document as BuildRequest does before the
// hand-off and returns its request for model. A document that is not
// valid JSON fails with "guest: request document is not valid JSON: …"
// (BuildRequest names the provider there too); an invalid message fails
// as BuildRequest fails. Tests use it as the oracle of the Rust port
// (providers/src/document.rs).
func ParseDocument(doc []byte, model string) (*norm.Request, error) {
	var d Document
	if err := json.Unmarshal(doc, &d); err != nil {
		return nil, fmt.Errorf("guest: request document is not valid JSON: %w", err)
	}
	return d.request(model)
}
