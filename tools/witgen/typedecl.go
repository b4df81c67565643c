package main

import (
	"fmt"
	"strings"

	"go.bytecodealliance.org/wit"
)

// comment renders WIT documentation as a Go comment whose first sentence
// starts with name, as Go doc comments do.
func comment(name, lead, docs string) string {
	var b strings.Builder
	b.WriteString("// " + name + " " + lead)
	docs = strings.TrimSpace(docs)
	if docs != "" {
		b.WriteString("\n//\n")
		for _, line := range strings.Split(docs, "\n") {
			b.WriteString(strings.TrimRight("// "+line, " ") + "\n")
		}
	} else {
		b.WriteString("\n")
	}
	return b.String()
}

// fieldComment renders a field's or case's documentation on one or more lines.
func fieldComment(docs string) string {
	docs = strings.TrimSpace(docs)
	if docs == "" {
		return ""
	}
	var b strings.Builder
	for _, line := range strings.Split(docs, "\n") {
		b.WriteString(strings.TrimRight("// "+line, " ") + "\n")
	}
	return b.String()
}

// declareType writes the Go declaration of a named record, variant or enum.
// errorTypes are the variants used as a result's error; they get an Error
// method so Go code can return them as error values.
func declareType(b *strings.Builder, c *codec, in *iface, td *wit.TypeDef, isError bool) {
	name := goName(*td.Name)
	where := fmt.Sprintf("(%s)", in.qualified)
	switch k := td.Kind.(type) {
	case *wit.Record:
		b.WriteString(comment(name, "is the WIT record \""+*td.Name+"\" "+where+".", td.Docs.Contents))
		b.WriteString("type " + name + " struct {\n")
		for _, f := range k.Fields {
			b.WriteString(fieldComment(f.Docs.Contents))
			b.WriteString(goName(f.Name) + " " + c.goType(f.Type) + "\n")
		}
		b.WriteString("}\n\n")
	case *wit.Enum:
		b.WriteString(comment(name, "is the WIT enum \""+*td.Name+"\" "+where+".", td.Docs.Contents))
		b.WriteString("type " + name + " " + discGoType(len(k.Cases)) + "\n\n")
		b.WriteString("// The cases of " + name + ".\nconst (\n")
		for i, cs := range k.Cases {
			b.WriteString(fieldComment(cs.Docs.Contents))
			if i == 0 {
				b.WriteString(name + goName(cs.Name) + " " + name + " = iota\n")
			} else {
				b.WriteString(name + goName(cs.Name) + "\n")
			}
		}
		b.WriteString(")\n\n")
		b.WriteString("// String returns the WIT name of the case.\nfunc (v " + name + ") String() string {\nswitch v {\n")
		for _, cs := range k.Cases {
			fmt.Fprintf(b, "case %s:\nreturn %q\n", name+goName(cs.Name), cs.Name)
		}
		fmt.Fprintf(b, "}\nreturn %q + strconv.Itoa(int(v))\n}\n\n", *td.Name+"#")
	case *wit.Variant:
		cname := name + "Case"
		b.WriteString(comment(name, "is the WIT variant \""+*td.Name+"\" "+where+". Case says which case it holds; the field named after that case holds its payload.", td.Docs.Contents))
		b.WriteString("type " + name + " struct {\n// Case is the case the value holds.\nCase " + cname + "\n")
		for _, cs := range k.Cases {
			if cs.Type == nil {
				continue
			}
			b.WriteString(fieldComment(cs.Docs.Contents + "\nValid when Case is " + name + goName(cs.Name) + "."))
			b.WriteString(goName(cs.Name) + " " + c.goType(cs.Type) + "\n")
		}
		b.WriteString("}\n\n")
		b.WriteString("// " + cname + " names the cases of " + name + ".\n")
		b.WriteString("type " + cname + " " + discGoType(len(k.Cases)) + "\n\n")
		b.WriteString("// The cases of " + name + ".\nconst (\n")
		for i, cs := range k.Cases {
			b.WriteString(fieldComment(cs.Docs.Contents))
			if i == 0 {
				b.WriteString(name + goName(cs.Name) + " " + cname + " = iota\n")
			} else {
				b.WriteString(name + goName(cs.Name) + "\n")
			}
		}
		b.WriteString(")\n\n")
		b.WriteString("// String returns the WIT name of the case.\nfunc (v " + cname + ") String() string {\nswitch v {\n")
		for _, cs := range k.Cases {
			fmt.Fprintf(b, "case %s:\nreturn %q\n", name+goName(cs.Name), cs.Name)
		}
		fmt.Fprintf(b, "}\nreturn %q + strconv.Itoa(int(v))\n}\n\n", *td.Name+"#")
		if isError {
			b.WriteString("// Error describes the fault as \"" + *td.Name + " <case>: <payload>\".\n")
			b.WriteString("func (v " + name + ") Error() string {\ns := " + quote(*td.Name+" ") + " + v.Case.String()\nswitch v.Case {\n")
			for _, cs := range k.Cases {
				if cs.Type == nil {
					continue
				}
				field := "v." + goName(cs.Name)
				var expr string
				switch root(cs.Type).(type) {
				case wit.String:
					expr = field
				case wit.U8, wit.U16, wit.U32, wit.U64:
					expr = "strconv.FormatUint(uint64(" + field + "), 10)"
				case wit.S8, wit.S16, wit.S32, wit.S64:
					expr = "strconv.FormatInt(int64(" + field + "), 10)"
				case wit.Bool:
					expr = "strconv.FormatBool(" + field + ")"
				default:
					continue
				}
				fmt.Fprintf(b, "case %s:\ns += \": \" + %s\n", name+goName(cs.Name), expr)
			}
			b.WriteString("}\nreturn s\n}\n\n")
		}
	}
}

func discGoType(n int) string {
	switch discSize(n) {
	case 1:
		return "uint8"
	case 2:
		return "uint16"
	}
	return "uint32"
}

// errorTypes returns the named types used as a result's error anywhere in
// the world, checking the world's error law: each is a variant with an
// `unknown(string)` catch-all case.
func errorTypes(m *model) (map[*wit.TypeDef]bool, error) {
	out := map[*wit.TypeDef]bool{}
	for _, in := range m.ifaces {
		for _, f := range in.funcs {
			r := resultType(f)
			if r == nil {
				continue
			}
			res, ok := kindOf(r).(*wit.Result)
			if !ok {
				continue
			}
			td, ok := root(res.Err).(*wit.TypeDef)
			if !ok || td.Name == nil {
				return nil, errorf("%s.%s: a result's error must be a named variant (a fault), not %v", in.name, f.Name, res.Err)
			}
			v, ok := td.Kind.(*wit.Variant)
			if !ok {
				return nil, errorf("%s.%s: error type %s must be a variant", in.name, f.Name, *td.Name)
			}
			found := false
			for _, cs := range v.Cases {
				if cs.Name == "unknown" && cs.Type != nil {
					if _, isString := root(cs.Type).(wit.String); isString {
						found = true
					}
				}
			}
			if !found {
				return nil, errorf("%s.%s: fault %s needs an `unknown(string)` catch-all case", in.name, f.Name, *td.Name)
			}
			out[td] = true
		}
	}
	return out, nil
}

// funcDoc renders a function's WIT documentation as a Go doc comment that
// starts with the Go name: "Returns x." on ReadFile becomes
// "ReadFile returns x.".
func funcDoc(name, docs string) string {
	docs = strings.TrimSpace(docs)
	if docs == "" {
		return "// " + name + " calls the WIT function of the same name.\n"
	}
	if len(docs) > 1 && docs[0] >= 'A' && docs[0] <= 'Z' && docs[1] >= 'a' && docs[1] <= 'z' {
		docs = strings.ToLower(docs[:1]) + docs[1:]
	}
	return fieldComment(name + " " + docs)
}
