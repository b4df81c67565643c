package catalog

import (
	_ "embed"
	"sync"
)

//go:embed data/catalog.json
var bundledJSON []byte

// bundled parses the embedded catalog once, on first use, so commands that
// never look at models (such as `smith --help`) do not pay for it.
var bundled = sync.OnceValues(func() (*Document, error) {
	return Parse("bundled catalog.json", bundledJSON, true, EvidenceBundled)
})

// Bundled returns the reviewed catalog shipped in the binary as a Snapshot.
// It is parsed on the first call; later calls return the same document.
func Bundled() (*Snapshot, error) {
	d, err := bundled()
	if err != nil {
		return nil, err
	}
	return Build(d.Generated, LayerOf(d, EvidenceBundled)), nil
}

// BundledWith returns the reviewed catalog merged with more layers, such
// as the user's configured models ([EvidenceConfig], which beat the
// bundle; every field they change is kept as a [Conflict]).
func BundledWith(layers ...Layer) (*Snapshot, error) {
	d, err := bundled()
	if err != nil {
		return nil, err
	}
	return Build(d.Generated, append([]Layer{LayerOf(d, EvidenceBundled)}, layers...)...), nil
}

// BundledDocument returns the reviewed catalog shipped in the binary, for
// [NewStore]. It is parsed on the first call; later calls return the same
// document, which must not be modified.
func BundledDocument() (*Document, error) { return bundled() }
