// Package testdns keeps tests' name lookups on loopback: Install points
// net.DefaultResolver at a UDP server on 127.0.0.1 that answers every query
// with NXDOMAIN, so a lookup of a name under .invalid fails as it would on
// any real resolver, without traffic leaving the machine.
package testdns

import (
	"context"
	"net"
	"sync/atomic"
)

var queries atomic.Int64

// Queries counts the queries the loopback server has answered (the error
// text of a failed lookup names the system's configured server whatever
// resolver answered, so tests check this instead).
func Queries() int64 { return queries.Load() }

// Install starts the server and replaces net.DefaultResolver for the rest of
// the process. Call it once from TestMain.
func Install() error {
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	go serve(pc)
	addr := pc.LocalAddr().String()
	net.DefaultResolver = &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "udp", addr)
	}}
	return nil
}

func serve(pc net.PacketConn) {
	buf := make([]byte, 1500)
	for {
		n, from, err := pc.ReadFrom(buf)
		if err != nil {
			return
		}
		if resp := nxdomain(buf[:n]); resp != nil {
			queries.Add(1)
			pc.WriteTo(resp, from)
		}
	}
}

// nxdomain answers a query with its question and RCODE 3 (name error).
func nxdomain(q []byte) []byte {
	if len(q) < 12 {
		return nil
	}
	end := 12
	for end < len(q) && q[end] != 0 {
		end += int(q[end]) + 1
	}
	end += 5 // the root label, QTYPE, QCLASS
	if end > len(q) {
		return nil
	}
	r := append([]byte(nil), q[:end]...)
	r[2] = 0x80 | q[2]&0x79 // QR, the query's opcode and RD
	r[3] = 0x80 | 3         // RA, NXDOMAIN
	r[4], r[5] = 0, 1       // one question
	for i := 6; i < 12; i++ {
		r[i] = 0 // no answer, authority or additional records
	}
	return r
}
