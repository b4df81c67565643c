// Package jsonschema compiles and checks the subset of JSON Schema that tool
// parameter schemas use: type, properties, required, additionalProperties,
// enum, const, items, minItems, maxItems, minimum, maximum,
// exclusiveMinimum, exclusiveMaximum, minLength, maxLength, pattern and
// anyOf; title, description, default, examples, format, $schema and $id are
// accepted as annotations. Any other keyword is a compile error, so a schema
// never silently promises a check that is not made.
//
// Validation errors name the JSON Pointer of every offending value and say
// exactly what was expected, so a model can correct its arguments.
package jsonschema
