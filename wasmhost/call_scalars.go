package wasmhost

import "math"

// ReadU8 reads a byte at ptr.
func (c *Call) ReadU8(ptr uint32) (uint8, error) {
	v, ok := c.mem.ReadByte(ptr)
	if !ok {
		return 0, c.oob("u8", ptr, 1)
	}
	return v, c.charge(1)
}

// ReadU16 reads a little-endian uint16 at ptr.
func (c *Call) ReadU16(ptr uint32) (uint16, error) {
	v, ok := c.mem.ReadUint16Le(ptr)
	if !ok {
		return 0, c.oob("u16", ptr, 2)
	}
	return v, c.charge(2)
}

// ReadU32 reads a little-endian uint32 at ptr.
func (c *Call) ReadU32(ptr uint32) (uint32, error) {
	v, ok := c.mem.ReadUint32Le(ptr)
	if !ok {
		return 0, c.oob("u32", ptr, 4)
	}
	return v, c.charge(4)
}

// ReadU64 reads a little-endian uint64 at ptr.
func (c *Call) ReadU64(ptr uint32) (uint64, error) {
	v, ok := c.mem.ReadUint64Le(ptr)
	if !ok {
		return 0, c.oob("u64", ptr, 8)
	}
	return v, c.charge(8)
}

// ReadF32 reads a little-endian float32 at ptr.
func (c *Call) ReadF32(ptr uint32) (float32, error) {
	v, err := c.ReadU32(ptr)
	return math.Float32frombits(v), err
}

// ReadF64 reads a little-endian float64 at ptr.
func (c *Call) ReadF64(ptr uint32) (float64, error) {
	v, err := c.ReadU64(ptr)
	return math.Float64frombits(v), err
}

// WriteU8 writes a byte at ptr.
func (c *Call) WriteU8(ptr uint32, v uint8) error {
	if !c.mem.WriteByte(ptr, v) {
		return c.oob("write", ptr, 1)
	}
	return nil
}

// WriteU16 writes a little-endian uint16 at ptr.
func (c *Call) WriteU16(ptr uint32, v uint16) error {
	if !c.mem.WriteUint16Le(ptr, v) {
		return c.oob("write", ptr, 2)
	}
	return nil
}

// WriteU32 writes a little-endian uint32 at ptr.
func (c *Call) WriteU32(ptr uint32, v uint32) error {
	if !c.mem.WriteUint32Le(ptr, v) {
		return c.oob("write", ptr, 4)
	}
	return nil
}

// WriteU64 writes a little-endian uint64 at ptr.
func (c *Call) WriteU64(ptr uint32, v uint64) error {
	if !c.mem.WriteUint64Le(ptr, v) {
		return c.oob("write", ptr, 8)
	}
	return nil
}

// WriteF32 writes a little-endian float32 at ptr.
func (c *Call) WriteF32(ptr uint32, v float32) error {
	return c.WriteU32(ptr, math.Float32bits(v))
}

// WriteF64 writes a little-endian float64 at ptr.
func (c *Call) WriteF64(ptr uint32, v float64) error {
	return c.WriteU64(ptr, math.Float64bits(v))
}

// charge counts n bytes read against Budgets.OutputBytes.
func (c *Call) charge(n int64) error {
	inv := &c.in.inv
	inv.outBytes += n
	if limit := c.in.plugin.budgets.OutputBytes; inv.outBytes > limit {
		inv.fail(BudgetOutput, errOutput(inv.outBytes, limit))
		return inv.abort
	}
	return nil
}
