package main

import (
	"fmt"
	"strings"

	"go.bytecodealliance.org/wit"
)

// dialect selects the side generated code runs on. Host code reads a
// hostile guest's memory through a bounds-checked *wasmhost.Call and
// returns errors; guest code reads its own memory and trusts the host.
type dialect int

const (
	guestSide dialect = iota
	hostSide
)

// codec emits the canonical-ABI load/store (linear memory) and lift/lower
// (flat core values) code for one output package. Helpers for named types
// are generated on demand, once each.
type codec struct {
	d        dialect
	rt       string                          // runtime package name: "cabi" or "canon"
	typeName func(td *wit.TypeDef) string    // Go name of a named type, qualified
	handle   func(r *wit.TypeDef) handleCode // resource handle conversions
	done     map[string]bool
	queue    []func()
	helpers  strings.Builder
	tmp      int
	err      error
}

// handleCode is how a package converts a resource handle to and from the
// uint32 on the wire.
type handleCode struct {
	goType string
	// lift returns statements setting dst from the uint32 expression h.
	lift func(h, dst string, own bool) string
	// lower returns an expression of the uint32 to send for value v.
	lower func(v string, own bool) string
}

func newCodec(d dialect, typeName func(*wit.TypeDef) string) *codec {
	c := &codec{d: d, rt: "cabi", typeName: typeName, done: map[string]bool{}}
	if d == hostSide {
		c.rt = "canon"
	}
	return c
}

func (c *codec) fail(format string, args ...any) {
	if c.err == nil {
		c.err = errorf(format, args...)
	}
}

func (c *codec) v() string {
	c.tmp++
	return fmt.Sprintf("t%d", c.tmp)
}

// call wraps a runtime call that returns an error on the host.
func (c *codec) call(expr string) string {
	if c.d == hostSide {
		return "if err := " + expr + "; err != nil {\nreturn err\n}\n"
	}
	return expr + "\n"
}

// wrapped is call with a path prefix added to the error.
func (c *codec) wrapped(expr, path string) string {
	if c.d == hostSide {
		return "if err := " + expr + "; err != nil {\nreturn " + c.rt + ".Wrap(" + quote(path) + ", err)\n}\n"
	}
	return expr + "\n"
}

// la/sa are the leading arguments of load/lift and store/lower helpers.
func (c *codec) la() string {
	if c.d == hostSide {
		return "c, "
	}
	return ""
}

func (c *codec) sa() string {
	if c.d == hostSide {
		return "c, "
	}
	return ""
}

// badCase returns the statement for an out-of-range discriminant.
func (c *codec) badCase(what, disc string, n int) string {
	if c.d == hostSide {
		return fmt.Sprintf("return %s.BadCase(%q, uint32(%s), %d)\n", c.rt, what, disc, n)
	}
	return fmt.Sprintf("%s.BadCase(%q, uint32(%s), %d)\n", c.rt, what, disc, n)
}

// goType returns the Go type of a WIT type.
func (c *codec) goType(t wit.Type) string {
	t = root(t)
	switch t.(type) {
	case wit.Bool:
		return "bool"
	case wit.S8:
		return "int8"
	case wit.U8:
		return "uint8"
	case wit.S16:
		return "int16"
	case wit.U16:
		return "uint16"
	case wit.S32:
		return "int32"
	case wit.U32:
		return "uint32"
	case wit.S64:
		return "int64"
	case wit.U64:
		return "uint64"
	case wit.F32:
		return "float32"
	case wit.F64:
		return "float64"
	case wit.Char:
		return "rune"
	case wit.String:
		return "string"
	}
	td, ok := t.(*wit.TypeDef)
	if !ok {
		c.fail("unsupported type %T", t)
		return "any"
	}
	switch k := td.Kind.(type) {
	case *wit.List:
		if _, ok := root(k.Type).(wit.U8); ok {
			return "[]byte"
		}
		return "[]" + c.goType(k.Type)
	case *wit.Option:
		return "*" + c.goType(k.Type)
	case *wit.Record, *wit.Variant, *wit.Enum:
		if td.Name == nil {
			c.fail("anonymous %T", k)
		}
		return c.typeName(td)
	case *wit.Own, *wit.Borrow:
		return c.handle(resourceOf(td)).goType
	case *wit.Resource:
		return c.handle(td).goType
	case *wit.Result:
		c.fail("result is supported only as a function's result")
	case *wit.Tuple:
		c.fail("tuple is not supported; use a record")
	case *wit.Flags:
		c.fail("flags are not supported; use a record of bools")
	default:
		c.fail("unsupported type kind %T", k)
	}
	return "any"
}

// helperName returns the name of helper kind ("load", "store", "lift",
// "lower") for td, scheduling its generation.
func (c *codec) helperName(kind string, td *wit.TypeDef) string {
	name := kind
	for _, part := range strings.Split(c.typeName(td), ".") {
		name += strings.ToUpper(part[:1]) + part[1:]
	}
	if !c.done[name] {
		c.done[name] = true
		c.queue = append(c.queue, func() { c.genHelper(kind, name, td) })
	}
	return name
}

// drain generates every scheduled helper and returns their source.
func (c *codec) drain() (string, error) {
	for len(c.queue) > 0 {
		f := c.queue[0]
		c.queue = c.queue[1:]
		f()
	}
	return c.helpers.String(), c.err
}

// genHelper writes one helper function for a named record, variant or enum.
func (c *codec) genHelper(kind, name string, td *wit.TypeDef) {
	gt := c.typeName(td)
	var sig string
	ret := ""
	if c.d == hostSide {
		ret = " error"
	}
	switch kind {
	case "load":
		sig = fmt.Sprintf("func %s(%sb []byte, v *%s)%s", name, map[dialect]string{hostSide: "c *wasmhost.Call, "}[c.d], gt, ret)
	case "store":
		sig = fmt.Sprintf("func %s(%sb []byte, v *%s)%s", name, map[dialect]string{hostSide: "c *wasmhost.Call, "}[c.d], gt, ret)
	case "lift":
		sig = fmt.Sprintf("func %s(%sf []uint64, v *%s)%s", name, map[dialect]string{hostSide: "c *wasmhost.Call, "}[c.d], gt, ret)
	case "lower":
		sig = fmt.Sprintf("func %s(%sf []uint64, v *%s)%s", name, map[dialect]string{hostSide: "c *wasmhost.Call, "}[c.d], gt, ret)
	}
	var body strings.Builder
	wname := *td.Name
	switch k := td.Kind.(type) {
	case *wit.Record:
		types := make([]wit.Type, len(k.Fields))
		for i, f := range k.Fields {
			types[i] = f.Type
		}
		offs := fieldOffsets(types)
		idx := 0
		for i, f := range k.Fields {
			dst := "v." + goName(f.Name)
			path := wname + "." + f.Name
			switch kind {
			case "load":
				body.WriteString(c.load(f.Type, fmt.Sprintf("b[%d:]", offs[i]), dst, path))
			case "store":
				body.WriteString(c.store(f.Type, fmt.Sprintf("b[%d:]", offs[i]), dst, path))
			case "lift":
				body.WriteString(c.lift(f.Type, "f", idx, dst, path))
			case "lower":
				body.WriteString(c.lower(f.Type, "f", idx, dst, path))
			}
			idx += len(f.Type.Flat())
		}
	case *wit.Enum:
		n := len(k.Cases)
		switch kind {
		case "load":
			body.WriteString(fmt.Sprintf("d := %s\nif d >= %d {\n%s}\n*v = %s(d)\n", c.readDisc("b", n), n, c.badCase(wname, "d", n), gt))
		case "store":
			body.WriteString(fmt.Sprintf("if *v >= %d {\n%s}\n%s\n", n, c.badCase(wname, "*v", n), c.writeDisc("b", n, "*v")))
		case "lift":
			body.WriteString(fmt.Sprintf("d := uint32(f[0])\nif d >= %d {\n%s}\n*v = %s(d)\n", n, c.badCase(wname, "d", n), gt))
		case "lower":
			body.WriteString(fmt.Sprintf("if *v >= %d {\n%s}\nf[0] = uint64(*v)\n", n, c.badCase(wname, "*v", n)))
		}
	case *wit.Variant:
		n := len(k.Cases)
		poff := payloadOffset(caseTypes(k))
		switch kind {
		case "load", "lift":
			if kind == "load" {
				body.WriteString("switch d := " + c.readDisc("b", n) + "; d {\n")
			} else {
				body.WriteString("switch d := uint32(f[0]); d {\n")
			}
			for i, cs := range k.Cases {
				cn := gt + goName(cs.Name)
				body.WriteString(fmt.Sprintf("case %d:\nv.Case = %s\n", i, cn))
				if cs.Type != nil {
					dst := "v." + goName(cs.Name)
					if kind == "load" {
						body.WriteString(c.load(cs.Type, fmt.Sprintf("b[%d:]", poff), dst, wname+"."+cs.Name))
					} else {
						body.WriteString(c.lift(cs.Type, "f", 1, dst, wname+"."+cs.Name))
					}
				}
			}
			body.WriteString("default:\n" + c.badCase(wname, "d", n) + "}\n")
		case "store", "lower":
			body.WriteString("switch v.Case {\n")
			for i, cs := range k.Cases {
				cn := gt + goName(cs.Name)
				body.WriteString("case " + cn + ":\n")
				if kind == "store" {
					body.WriteString(c.writeDisc("b", n, fmt.Sprint(i)) + "\n")
				} else {
					body.WriteString(fmt.Sprintf("f[0] = %d\n", i))
				}
				if cs.Type != nil {
					src := "v." + goName(cs.Name)
					if kind == "store" {
						body.WriteString(c.store(cs.Type, fmt.Sprintf("b[%d:]", poff), src, wname+"."+cs.Name))
					} else {
						body.WriteString(c.lower(cs.Type, "f", 1, src, wname+"."+cs.Name))
					}
				}
			}
			body.WriteString("default:\n" + c.badCase(wname, "v.Case", n) + "}\n")
		}
	default:
		c.fail("no %s helper for %T", kind, k)
	}
	c.helpers.WriteString(sig + " {\n" + body.String())
	if c.d == hostSide {
		c.helpers.WriteString("return nil\n")
	}
	c.helpers.WriteString("}\n\n")
}

func (c *codec) readDisc(b string, n int) string {
	switch discSize(n) {
	case 1:
		return "uint32(" + b + "[0])"
	case 2:
		return "uint32(binary.LittleEndian.Uint16(" + b + "))"
	}
	return "binary.LittleEndian.Uint32(" + b + ")"
}

func (c *codec) writeDisc(b string, n int, v string) string {
	switch discSize(n) {
	case 1:
		return b + "[0] = byte(" + v + ")"
	case 2:
		return "binary.LittleEndian.PutUint16(" + b + ", uint16(" + v + "))"
	}
	return "binary.LittleEndian.PutUint32(" + b + ", uint32(" + v + "))"
}

// load returns statements that set dst from the value at the start of b.
func (c *codec) load(t wit.Type, b, dst, path string) string {
	le := "binary.LittleEndian."
	switch root(t).(type) {
	case wit.Bool:
		return dst + " = " + b + "[0] != 0\n"
	case wit.S8:
		return dst + " = int8(" + b + "[0])\n"
	case wit.U8:
		return dst + " = " + b + "[0]\n"
	case wit.S16:
		return dst + " = int16(" + le + "Uint16(" + b + "))\n"
	case wit.U16:
		return dst + " = " + le + "Uint16(" + b + ")\n"
	case wit.S32:
		return dst + " = int32(" + le + "Uint32(" + b + "))\n"
	case wit.U32:
		return dst + " = " + le + "Uint32(" + b + ")\n"
	case wit.S64:
		return dst + " = int64(" + le + "Uint64(" + b + "))\n"
	case wit.U64:
		return dst + " = " + le + "Uint64(" + b + ")\n"
	case wit.F32:
		return dst + " = math.Float32frombits(" + le + "Uint32(" + b + "))\n"
	case wit.F64:
		return dst + " = math.Float64frombits(" + le + "Uint64(" + b + "))\n"
	case wit.Char:
		return c.wrapped(c.rt+".Char("+le+"Uint32("+b+"), &"+dst+")", path)
	case wit.String:
		return c.wrapped(c.rt+".LoadString("+c.la()+b+", "+addr(dst)+")", path)
	}
	td := root(t).(*wit.TypeDef)
	switch k := td.Kind.(type) {
	case *wit.List:
		if _, ok := root(k.Type).(wit.U8); ok {
			return c.wrapped(c.rt+".LoadBytes("+c.la()+b+", "+addr(dst)+")", path)
		}
		raw, i, e := c.v(), c.v(), c.v()
		size := k.Type.Size()
		var s strings.Builder
		if c.d == hostSide {
			fmt.Fprintf(&s, "%s, err := canon.LoadList(c, %s, %d, %d)\nif err != nil {\nreturn canon.Wrap(%q, err)\n}\n", raw, b, size, k.Type.Align(), path)
		} else {
			fmt.Fprintf(&s, "%s := cabi.LoadList(%s, %d)\n", raw, b, size)
		}
		fmt.Fprintf(&s, "%s = make(%s, len(%s)/%d)\nfor %s := range %s {\n%s := %s[%s*%d:]\n", dst, c.goType(t), raw, size, i, dst, e, raw, i, size)
		s.WriteString(c.load(k.Type, e, dst+"["+i+"]", path+"[]"))
		s.WriteString("}\n")
		return s.String()
	case *wit.Option:
		x := c.v()
		off := payloadOffset([]wit.Type{nil, k.Type})
		return fmt.Sprintf("switch %s[0] {\ncase 0:\n%s = nil\ncase 1:\n%s := new(%s)\n%s%s = %s\ndefault:\n%s}\n",
			b, dst, x, c.goType(k.Type), c.load(k.Type, fmt.Sprintf("%s[%d:]", b, off), "(*"+x+")", path), dst, x, c.badCase(path, b+"[0]", 2))
	case *wit.Record, *wit.Variant, *wit.Enum:
		return c.call(c.helperName("load", td) + "(" + c.la() + b + ", " + addr(dst) + ")")
	}
	c.fail("%s: type %s cannot be stored in memory here", path, c.goType(t))
	return ""
}

// store returns statements that write src into the start of b.
func (c *codec) store(t wit.Type, b, src, path string) string {
	le := "binary.LittleEndian."
	switch root(t).(type) {
	case wit.Bool:
		return "if " + src + " {\n" + b + "[0] = 1\n}\n"
	case wit.S8:
		return b + "[0] = byte(" + src + ")\n"
	case wit.U8:
		return b + "[0] = " + src + "\n"
	case wit.S16, wit.U16:
		return le + "PutUint16(" + b + ", uint16(" + src + "))\n"
	case wit.S32, wit.U32, wit.Char:
		return le + "PutUint32(" + b + ", uint32(" + src + "))\n"
	case wit.S64, wit.U64:
		return le + "PutUint64(" + b + ", uint64(" + src + "))\n"
	case wit.F32:
		return le + "PutUint32(" + b + ", math.Float32bits(" + src + "))\n"
	case wit.F64:
		return le + "PutUint64(" + b + ", math.Float64bits(" + src + "))\n"
	case wit.String:
		return c.wrapped(c.rt+".StoreString("+c.sa()+b+", "+src+")", path)
	}
	td := root(t).(*wit.TypeDef)
	switch k := td.Kind.(type) {
	case *wit.List:
		if _, ok := root(k.Type).(wit.U8); ok {
			return c.wrapped(c.rt+".StoreBytes("+c.sa()+b+", "+src+")", path)
		}
		raw, i, e, ptr := c.v(), c.v(), c.v(), c.v()
		size := k.Type.Size()
		var s strings.Builder
		if c.d == hostSide {
			fmt.Fprintf(&s, "%s, %s, err := canon.AllocList(c, %s, len(%s), %d, %d)\nif err != nil {\nreturn canon.Wrap(%q, err)\n}\n", ptr, raw, b, src, size, k.Type.Align(), path)
		} else {
			fmt.Fprintf(&s, "%s := cabi.AllocList(%s, len(%s), %d, %d)\n", raw, b, src, size, k.Type.Align())
		}
		fmt.Fprintf(&s, "for %s := range %s {\n%s := %s[%s*%d:]\n", i, src, e, raw, i, size)
		s.WriteString(c.store(k.Type, e, src+"["+i+"]", path+"[]"))
		s.WriteString("}\n")
		if c.d == hostSide {
			fmt.Fprintf(&s, "if err := c.WriteBytes(%s, %s); err != nil {\nreturn canon.Wrap(%q, err)\n}\n", ptr, raw, path)
		}
		return s.String()
	case *wit.Option:
		off := payloadOffset([]wit.Type{nil, k.Type})
		return fmt.Sprintf("if %s != nil {\n%s[0] = 1\n%s}\n", src, b, c.store(k.Type, fmt.Sprintf("%s[%d:]", b, off), "(*"+src+")", path))
	case *wit.Record, *wit.Variant, *wit.Enum:
		return c.call(c.helperName("store", td) + "(" + c.sa() + b + ", " + addr(src) + ")")
	}
	c.fail("%s: type %s cannot be stored in memory here", path, c.goType(t))
	return ""
}

// lift returns statements that set dst from the flat values f[i:].
func (c *codec) lift(t wit.Type, f string, i int, dst, path string) string {
	at := fmt.Sprintf("%s[%d]", f, i)
	switch root(t).(type) {
	case wit.Bool:
		return dst + " = uint32(" + at + ") != 0\n"
	case wit.S8:
		return dst + " = int8(uint8(" + at + "))\n"
	case wit.U8:
		return dst + " = uint8(" + at + ")\n"
	case wit.S16:
		return dst + " = int16(uint16(" + at + "))\n"
	case wit.U16:
		return dst + " = uint16(" + at + ")\n"
	case wit.S32:
		return dst + " = int32(uint32(" + at + "))\n"
	case wit.U32:
		return dst + " = uint32(" + at + ")\n"
	case wit.S64:
		return dst + " = int64(" + at + ")\n"
	case wit.U64:
		return dst + " = " + at + "\n"
	case wit.F32:
		return dst + " = math.Float32frombits(uint32(" + at + "))\n"
	case wit.F64:
		return dst + " = math.Float64frombits(" + at + ")\n"
	case wit.Char:
		return c.wrapped(c.rt+".Char(uint32("+at+"), &"+dst+")", path)
	case wit.String:
		return c.wrapped(fmt.Sprintf("%s.LiftString(%s%s, %s[%d], %s)", c.rt, c.la(), at, f, i+1, addr(dst)), path)
	}
	td := root(t).(*wit.TypeDef)
	switch k := td.Kind.(type) {
	case *wit.List:
		if _, ok := root(k.Type).(wit.U8); ok {
			return c.wrapped(fmt.Sprintf("%s.LiftBytes(%s%s, %s[%d], %s)", c.rt, c.la(), at, f, i+1, addr(dst)), path)
		}
		raw, j, e := c.v(), c.v(), c.v()
		size := k.Type.Size()
		var s strings.Builder
		if c.d == hostSide {
			fmt.Fprintf(&s, "%s, err := canon.LiftList(c, %s, %s[%d], %d, %d)\nif err != nil {\nreturn canon.Wrap(%q, err)\n}\n", raw, at, f, i+1, size, k.Type.Align(), path)
		} else {
			fmt.Fprintf(&s, "%s := cabi.LiftList(%s, %s[%d], %d)\n", raw, at, f, i+1, size)
		}
		fmt.Fprintf(&s, "%s = make(%s, len(%s)/%d)\nfor %s := range %s {\n%s := %s[%s*%d:]\n", dst, c.goType(t), raw, size, j, dst, e, raw, j, size)
		s.WriteString(c.load(k.Type, e, dst+"["+j+"]", path+"[]"))
		s.WriteString("}\n")
		return s.String()
	case *wit.Option:
		x := c.v()
		return fmt.Sprintf("switch uint32(%s) {\ncase 0:\n%s = nil\ncase 1:\n%s := new(%s)\n%s%s = %s\ndefault:\n%s}\n",
			at, dst, x, c.goType(k.Type), c.lift(k.Type, f, i+1, "(*"+x+")", path), dst, x, c.badCase(path, at, 2))
	case *wit.Record, *wit.Variant, *wit.Enum:
		return c.call(fmt.Sprintf("%s(%s%s[%d:], %s)", c.helperName("lift", td), c.la(), f, i, addr(dst)))
	case *wit.Own, *wit.Borrow:
		_, own := k.(*wit.Own)
		return c.handle(resourceOf(td)).lift("uint32("+at+")", dst, own)
	}
	c.fail("%s: type %s cannot be lifted", path, c.goType(t))
	return ""
}

// lower returns statements that write src as flat values into f[i:].
// f must be zeroed beforehand.
func (c *codec) lower(t wit.Type, f string, i int, src, path string) string {
	at := fmt.Sprintf("%s[%d]", f, i)
	switch root(t).(type) {
	case wit.Bool:
		return "if " + src + " {\n" + at + " = 1\n}\n"
	case wit.S8, wit.S16, wit.S32:
		return at + " = uint64(uint32(int32(" + src + ")))\n"
	case wit.U8, wit.U16, wit.U32, wit.U64:
		return at + " = uint64(" + src + ")\n"
	case wit.S64:
		return at + " = uint64(" + src + ")\n"
	case wit.Char:
		return at + " = uint64(uint32(" + src + "))\n"
	case wit.F32:
		return at + " = uint64(math.Float32bits(" + src + "))\n"
	case wit.F64:
		return at + " = math.Float64bits(" + src + ")\n"
	case wit.String:
		return c.wrapped(fmt.Sprintf("%s.LowerString(%s%s, %s[%d:])", c.rt, c.sa(), src, f, i), path)
	}
	td := root(t).(*wit.TypeDef)
	switch k := td.Kind.(type) {
	case *wit.List:
		if _, ok := root(k.Type).(wit.U8); ok {
			return c.wrapped(fmt.Sprintf("%s.LowerBytes(%s%s, %s[%d:])", c.rt, c.sa(), src, f, i), path)
		}
		// A list lowers like a list field stored into an 8-byte pointer/length slot.
		slot, ptr, raw, j, e := c.v(), c.v(), c.v(), c.v(), c.v()
		size := k.Type.Size()
		var s strings.Builder
		fmt.Fprintf(&s, "var %s [8]byte\n", slot)
		if c.d == hostSide {
			fmt.Fprintf(&s, "%s, %s, err := canon.AllocList(c, %s[:], len(%s), %d, %d)\nif err != nil {\nreturn canon.Wrap(%q, err)\n}\n", ptr, raw, slot, src, size, k.Type.Align(), path)
		} else {
			fmt.Fprintf(&s, "%s := cabi.AllocList(%s[:], len(%s), %d, %d)\n", raw, slot, src, size, k.Type.Align())
		}
		fmt.Fprintf(&s, "for %s := range %s {\n%s := %s[%s*%d:]\n", j, src, e, raw, j, size)
		s.WriteString(c.store(k.Type, e, src+"["+j+"]", path+"[]"))
		s.WriteString("}\n")
		if c.d == hostSide {
			fmt.Fprintf(&s, "if err := c.WriteBytes(%s, %s); err != nil {\nreturn canon.Wrap(%q, err)\n}\n", ptr, raw, path)
		}
		fmt.Fprintf(&s, "%s[%d] = uint64(binary.LittleEndian.Uint32(%s[0:]))\n%s[%d] = uint64(binary.LittleEndian.Uint32(%s[4:]))\n", f, i, slot, f, i+1, slot)
		return s.String()
	case *wit.Option:
		return fmt.Sprintf("if %s != nil {\n%s = 1\n%s}\n", src, at, c.lower(k.Type, f, i+1, "(*"+src+")", path))
	case *wit.Record, *wit.Variant, *wit.Enum:
		return c.call(fmt.Sprintf("%s(%s%s[%d:], %s)", c.helperName("lower", td), c.sa(), f, i, addr(src)))
	case *wit.Own, *wit.Borrow:
		_, own := k.(*wit.Own)
		return at + " = uint64(" + c.handle(resourceOf(td)).lower(src, own) + ")\n"
	}
	c.fail("%s: type %s cannot be lowered", path, c.goType(t))
	return ""
}

func quote(s string) string { return fmt.Sprintf("%q", s) }

// addr returns the address of the addressable expression e, without the
// redundant &(*p) form.
func addr(e string) string {
	if strings.HasPrefix(e, "(*") && strings.HasSuffix(e, ")") && !strings.ContainsAny(e[2:len(e)-1], "()[] ") {
		return e[2 : len(e)-1]
	}
	return "&" + e
}
