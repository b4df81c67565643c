package hostproc

import (
	"crypto/rand"
	"encoding/hex"
)

// markerVar is the environment variable that marks every process a
// command starts with the command's run id, so that its descendants can be
// found after they left its process group.
const markerVar = "SMITH_TOOL_RUN"

// runID returns a new random run id.
func runID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
