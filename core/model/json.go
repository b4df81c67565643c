package model

import (
	"encoding/json"
	"fmt"
)

// discriminator returns the string value of field key in the JSON object b.
func discriminator(b []byte, key string) (string, error) {
	var head map[string]json.RawMessage
	if err := json.Unmarshal(b, &head); err != nil {
		return "", fmt.Errorf("not a JSON object: %w", err)
	}
	raw, ok := head[key]
	if !ok {
		return "", fmt.Errorf("missing %q field", key)
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("field %q is not a string", key)
	}
	return s, nil
}

// decodeAs decodes b into a T, ignoring the discriminator field.
func decodeAs[T any](b []byte, typ string) (T, error) {
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		return v, fmt.Errorf("model: decode %s: %w", typ, err)
	}
	return v, nil
}
