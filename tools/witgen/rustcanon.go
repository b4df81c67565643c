package main

import (
	"fmt"
	"strings"

	"go.bytecodealliance.org/wit"
)

// discType is the Rust integer type of a discriminant for n cases.
func discType(n int) string {
	switch discSize(n) {
	case 1:
		return "u8"
	case 2:
		return "u16"
	}
	return "u32"
}

// plus renders "p + off", or "p" for a zero offset.
func plus(p string, off uintptr) string {
	if off == 0 {
		return p
	}
	return fmt.Sprintf("%s + %d", p, off)
}

// canonImpl writes the rt::Canon implementation of a named type: its
// layout and the four conversions, with the offsets witgen computes.
func (g *rustGen) canonImpl(td *wit.TypeDef) {
	name := rustTypeName(*td.Name)
	wname := g.in.name + "." + *td.Name
	g.p("impl rt::Canon for %s {\nconst SIZE: usize = %d;\nconst ALIGN: usize = %d;\n", name, td.Size(), td.Align())
	switch k := td.Kind.(type) {
	case *wit.Record:
		types := make([]wit.Type, len(k.Fields))
		for i, f := range k.Fields {
			types[i] = f.Type
		}
		offs := fieldOffsets(types)
		p, f, keep := "p", "f", "keep"
		if len(k.Fields) == 0 {
			p, f, keep = "_p", "_f", "_keep"
		}
		var load, store, lift, lower strings.Builder
		idx := 0
		for i, fd := range k.Fields {
			fn := rustSnake(fd.Name)
			fmt.Fprintf(&load, "%s: rt::Canon::load(%s),\n", fn, plus("p", offs[i]))
			fmt.Fprintf(&store, "rt::Canon::store(&self.%s, %s, keep);\n", fn, plus("p", offs[i]))
			fmt.Fprintf(&lift, "%s: rt::Canon::lift(&f[%d..]),\n", fn, idx)
			fmt.Fprintf(&lower, "rt::Canon::lower(&self.%s, &mut f[%d..], keep);\n", fn, idx)
			idx += len(fd.Type.Flat())
		}
		g.p("unsafe fn load(%s: usize) -> Self {\n%s {\n%s}\n}\n", p, name, load.String())
		g.p("unsafe fn store(&self, %s: usize, %s: &mut rt::Keep) {\n%s}\n", p, keep, store.String())
		g.p("unsafe fn lift(%s: &[u64]) -> Self {\n%s {\n%s}\n}\n", f, name, lift.String())
		g.p("unsafe fn lower(&self, %s: &mut [u64], %s: &mut rt::Keep) {\n%s}\n", f, keep, lower.String())
	case *wit.Variant:
		n := len(k.Cases)
		dt := discType(n)
		poff := payloadOffset(caseTypes(k))
		keep := "_keep"
		for _, cs := range k.Cases {
			if cs.Type != nil {
				keep = "keep"
			}
		}
		var load, store, lift, lower strings.Builder
		for i, cs := range k.Cases {
			cn := name + "::" + rustTypeName(cs.Name)
			if cs.Type == nil {
				fmt.Fprintf(&load, "%d => %s,\n", i, cn)
				fmt.Fprintf(&lift, "%d => %s,\n", i, cn)
				fmt.Fprintf(&store, "%s => rt::st::<%s>(p, %d),\n", cn, dt, i)
				if i == 0 {
					fmt.Fprintf(&lower, "%s => {}\n", cn)
				} else {
					fmt.Fprintf(&lower, "%s => f[0] = %d,\n", cn, i)
				}
				continue
			}
			fmt.Fprintf(&load, "%d => %s(rt::Canon::load(%s)),\n", i, cn, plus("p", poff))
			fmt.Fprintf(&lift, "%d => %s(rt::Canon::lift(&f[1..])),\n", i, cn)
			fmt.Fprintf(&store, "%s(v) => {\nrt::st::<%s>(p, %d);\nrt::Canon::store(v, %s, keep);\n}\n", cn, dt, i, plus("p", poff))
			if i == 0 {
				fmt.Fprintf(&lower, "%s(v) => rt::Canon::lower(v, &mut f[1..], keep),\n", cn)
			} else {
				fmt.Fprintf(&lower, "%s(v) => {\nf[0] = %d;\nrt::Canon::lower(v, &mut f[1..], keep);\n}\n", cn, i)
			}
		}
		bad := fmt.Sprintf("d => rt::bad(%q, d as u32, %d),\n", wname, n)
		g.p("unsafe fn load(p: usize) -> Self {\nmatch rt::ld::<%s>(p) {\n%s%s}\n}\n", dt, load.String(), bad)
		g.p("unsafe fn store(&self, p: usize, %s: &mut rt::Keep) {\nmatch self {\n%s}\n}\n", keep, store.String())
		g.p("unsafe fn lift(f: &[u64]) -> Self {\nmatch f[0] as u32 {\n%s%s}\n}\n", lift.String(), bad)
		g.p("unsafe fn lower(&self, f: &mut [u64], %s: &mut rt::Keep) {\nmatch self {\n%s}\n}\n", keep, lower.String())
	case *wit.Enum:
		n := len(k.Cases)
		dt := discType(n)
		var cases strings.Builder
		for i, cs := range k.Cases {
			fmt.Fprintf(&cases, "%d => %s::%s,\n", i, name, rustTypeName(cs.Name))
		}
		bad := fmt.Sprintf("d => rt::bad(%q, d as u32, %d),\n", wname, n)
		g.p("unsafe fn load(p: usize) -> Self {\nmatch rt::ld::<%s>(p) {\n%s%s}\n}\n", dt, cases.String(), bad)
		g.p("unsafe fn store(&self, p: usize, _keep: &mut rt::Keep) {\nrt::st::<%s>(p, *self as %s)\n}\n", dt, dt)
		g.p("unsafe fn lift(f: &[u64]) -> Self {\nmatch f[0] as u32 {\n%s%s}\n}\n", cases.String(), bad)
		g.p("unsafe fn lower(&self, f: &mut [u64], _keep: &mut rt::Keep) {\nf[0] = *self as u64;\n}\n")
	}
	g.p("}\n\n")
}
