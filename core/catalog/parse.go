package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"
)

// Document is a catalog data file: the bundled catalog, or one published by
// a refresh source, in Smith's own format.
type Document struct {
	// Format is the data format version; only 1 exists.
	Format int `json:"format"`
	// Generated is the date the document was produced (YYYY-MM-DD); a
	// refresh never publishes a document older than the one it replaces.
	Generated  string     `json:"generated"`
	Provenance FileOrigin `json:"provenance"`
	Families   []Family   `json:"families"`
	Models     []Model    `json:"models"`
}

// FileOrigin is the provenance of a whole data file.
type FileOrigin struct {
	Source string `json:"source"`
	Date   string `json:"date"`
	// Review states the file's scope and known gaps.
	Review string `json:"review,omitempty"`
}

// Family is a capability template for models of one provider whose id starts
// with Prefix. It is used only for models no explicit evidence describes.
type Family struct {
	Provider    string     `json:"provider"`
	Prefix      string     `json:"prefix"`
	Input       []Modality `json:"input"`
	Tools       bool       `json:"tools"`
	StrictTools bool       `json:"strict_tools"`
	Thinking    []Level    `json:"thinking"`
	Cache       CacheMode  `json:"cache"`
	Provenance  Provenance `json:"provenance"`
}

// maxDocument bounds the size of a catalog document.
const maxDocument = 8 << 20

// Parse decodes and validates a catalog document. name says where the bytes
// came from and prefixes every error. When priced is true every model must
// carry a price (the bundled catalog); otherwise a missing price means
// unknown. Evidence is set to ev on every model.
func Parse(name string, b []byte, priced bool, ev Evidence) (*Document, error) {
	if len(b) > maxDocument {
		return nil, fmt.Errorf("catalog: %s is %d bytes, above the %d-byte bound; split it or remove models", name, len(b), maxDocument)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var d Document
	if err := dec.Decode(&d); err != nil {
		return nil, fmt.Errorf("catalog: %s is not a valid catalog document: %s; compare it with the bundled catalog.json", name, describeJSON(err, dec))
	}
	if dec.More() {
		return nil, fmt.Errorf("catalog: %s has data after the document at byte %d; remove it", name, dec.InputOffset())
	}
	if err := d.validate(name, priced); err != nil {
		return nil, err
	}
	for i := range d.Models {
		d.Models[i].Evidence = ev
	}
	return &d, nil
}

// describeJSON explains a decoding error without echoing document content.
func describeJSON(err error, dec *json.Decoder) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Sprintf("syntax error at byte %d", syn.Offset)
	case errors.As(err, &typ):
		return fmt.Sprintf("field %q holds a JSON %s where %s is expected (byte %d)", typ.Field, typ.Value, typ.Type, typ.Offset)
	}
	return fmt.Sprintf("%v (near byte %d)", err, dec.InputOffset())
}

func (d *Document) validate(name string, priced bool) error {
	if d.Format != 1 {
		return fmt.Errorf("catalog: %s: format %d is not supported; this Smith reads format 1", name, d.Format)
	}
	if err := checkDate(d.Generated); err != nil {
		return fmt.Errorf("catalog: %s: generated: %w", name, err)
	}
	if d.Provenance.Source == "" {
		return fmt.Errorf("catalog: %s: provenance.source is empty; say where the figures came from", name)
	}
	if err := checkDate(d.Provenance.Date); err != nil {
		return fmt.Errorf("catalog: %s: provenance.date: %w", name, err)
	}
	for i, f := range d.Families {
		at := fmt.Sprintf("%s: families[%d] (%s/%s*)", name, i, f.Provider, f.Prefix)
		if f.Provider == "" || f.Prefix == "" {
			return fmt.Errorf("catalog: %s: provider and prefix are required", at)
		}
		if err := checkCaps(f.Input, f.Thinking, f.Cache); err != nil {
			return fmt.Errorf("catalog: %s: %w", at, err)
		}
		if err := checkProvenance(f.Provenance); err != nil {
			return fmt.Errorf("catalog: %s: %w", at, err)
		}
	}
	names := map[string]string{}
	for i := range d.Models {
		m := &d.Models[i]
		at := fmt.Sprintf("%s: models[%d] (%s)", name, i, m.Ref())
		if err := m.validate(priced); err != nil {
			return fmt.Errorf("catalog: %s: %w", at, err)
		}
		for _, n := range append([]string{m.ID}, m.Aliases...) {
			key := m.Provider + "/" + n
			if prev, dup := names[key]; dup {
				return fmt.Errorf("catalog: %s: name %q is already used by %s; each id and alias must be unique per provider", at, key, prev)
			}
			names[key] = m.Ref()
		}
	}
	return nil
}

// Bounds of a sane model description.
const (
	minContext = 1024
	maxContext = 100_000_000
	maxPrice   = 10_000 // dollars per million tokens
)

func (m *Model) validate(priced bool) error {
	switch {
	case m.Provider == "" || m.ID == "":
		return errors.New("provider and id are required")
	case m.Name == "":
		return errors.New("name is empty; give the name shown to users")
	case m.Context < minContext || m.Context > maxContext:
		return fmt.Errorf("context %d is outside [%d, %d] tokens", m.Context, minContext, maxContext)
	case m.MaxOutput < 1 || m.MaxOutput > m.Context:
		return fmt.Errorf("max_output %d is outside [1, context %d]", m.MaxOutput, m.Context)
	}
	if err := checkCaps(m.Input, m.Thinking, m.Cache); err != nil {
		return err
	}
	if m.Price == nil {
		if priced {
			return errors.New("price is missing; every bundled model needs input, output, cache_read and cache_write prices")
		}
	} else if err := m.Price.validate(); err != nil {
		return err
	}
	return checkProvenance(m.Provenance)
}

func (p *Price) validate() error {
	fields := []struct {
		name string
		v    float64
	}{{"input", p.Input}, {"output", p.Output}, {"cache_read", p.CacheRead}, {"cache_write", p.CacheWrite}, {"cache_write_1h", p.CacheWrite1h}}
	for _, f := range fields {
		if math.IsNaN(f.v) || f.v < 0 || f.v > maxPrice {
			return fmt.Errorf("price.%s %v is outside [0, %d] dollars per million tokens", f.name, f.v, maxPrice)
		}
	}
	if p.CacheRead > p.Input {
		return fmt.Errorf("price.cache_read %v exceeds price.input %v; a cache hit never costs more than a miss (swapped fields?)", p.CacheRead, p.Input)
	}
	return nil
}

func checkCaps(input []Modality, thinking []Level, cache CacheMode) error {
	seen := map[Modality]bool{}
	for _, k := range input {
		if k != Text && k != Image {
			return fmt.Errorf("input modality %q is not text or image", k)
		}
		if seen[k] {
			return fmt.Errorf("input modality %q is listed twice", k)
		}
		seen[k] = true
	}
	if !seen[Text] {
		return errors.New(`input must include "text"`)
	}
	if len(thinking) == 0 {
		return errors.New(`thinking is empty; a model without reasoning lists ["off"]`)
	}
	last := -1
	for _, l := range thinking {
		r := l.rank()
		if r < 0 {
			return fmt.Errorf("thinking level %q is not one of off, minimal, low, medium, high, xhigh", l)
		}
		if r <= last {
			return fmt.Errorf("thinking levels must be listed once each in increasing order; %q is out of place", l)
		}
		last = r
	}
	switch cache {
	case CacheNone, CacheAutomatic, CacheImplicit, CacheExplicit:
	default:
		return fmt.Errorf("cache %q is not one of none, automatic, implicit, explicit", cache)
	}
	return nil
}

func checkProvenance(p Provenance) error {
	if p.Source == "" {
		return errors.New("provenance.source is empty; say where the figures came from")
	}
	if err := checkDate(p.Date); err != nil {
		return fmt.Errorf("provenance.date: %w", err)
	}
	return nil
}

func checkDate(s string) error {
	if _, err := time.Parse(time.DateOnly, s); err != nil {
		return fmt.Errorf("%q is not a date in YYYY-MM-DD form, such as 2026-11-30", s)
	}
	return nil
}

// Check validates a model described outside a catalog file (such as in
// the user's configuration): provider, id, name, limits, capabilities,
// price when given, and provenance.
func (m Model) Check() error { return m.validate(false) }
