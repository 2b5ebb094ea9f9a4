package tool

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// SchemaFor is the input schema of a tool whose input decodes into T: every
// tool's schema, the agent's and the MCP server's, is made here from its Go
// type. A field's json name is the property, its jsonschema tag the
// description, and a field without omitempty is required; tweak adds what
// tags cannot say (bounds, enums). A pointer field (present or absent, not
// null) is described as its element type.
func SchemaFor[T any](tweak func(props map[string]*jsonschema.Schema)) *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(fmt.Sprintf("tool: schema of %T: %v", *new(T), err)) // a build defect, caught by every test
	}
	for _, p := range s.Properties {
		if len(p.Types) == 2 && p.Types[0] == "null" {
			p.Type, p.Types = p.Types[1], nil
		}
	}
	if tweak != nil {
		tweak(s.Properties)
	}
	return s
}

// Bounds sets a numeric property's minimum and maximum.
func Bounds(lo, hi float64) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) { s.Minimum, s.Maximum = &lo, &hi }
}

// Min sets a numeric property's minimum.
func Min(lo float64) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) { s.Minimum = &lo }
}

// Max sets a numeric property's maximum.
func Max(hi float64) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) { s.Maximum = &hi }
}

// Enum limits a string property to values.
func Enum(values ...string) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) {
		s.Enum = nil
		for _, v := range values {
			s.Enum = append(s.Enum, v)
		}
	}
}

// rawSchema is SchemaFor as the JSON a provider sends, written in a fixed
// key order (type, enum, bounds, description; properties in field order)
// so that the prompt prefix, and with it the provider's cache, is stable.
func rawSchema[T any](tweak func(props map[string]*jsonschema.Schema)) json.RawMessage {
	s := SchemaFor[T](tweak)
	var b bytes.Buffer
	b.WriteString(`{"type":"object","properties":{`)
	for i, name := range fieldNames(reflect.TypeFor[T]()) {
		p := s.Properties[name]
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%s:{%s:%s", schemaJSON(name), `"type"`, schemaJSON(p.Type))
		if len(p.Enum) > 0 {
			fmt.Fprintf(&b, `,"enum":%s`, schemaJSON(p.Enum))
		}
		if p.Minimum != nil {
			fmt.Fprintf(&b, `,"minimum":%s`, schemaJSON(*p.Minimum))
		}
		if p.Maximum != nil {
			fmt.Fprintf(&b, `,"maximum":%s`, schemaJSON(*p.Maximum))
		}
		if p.Description != "" {
			fmt.Fprintf(&b, `,"description":%s`, schemaJSON(p.Description))
		}
		b.WriteByte('}')
	}
	fmt.Fprintf(&b, `},"required":%s}`, schemaJSON(s.Required))
	return b.Bytes()
}

// fieldNames are the JSON names of t's fields, in order.
func fieldNames(t reflect.Type) []string {
	var out []string
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name != "" && name != "-" {
			out = append(out, name)
		}
	}
	return out
}

func schemaJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("tool: schema value %v: %v", v, err))
	}
	return string(b)
}
