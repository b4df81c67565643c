package cabi

import "testing"

func TestTable(t *testing.T) {
	var tab Table[string]
	a, b := tab.Add("a"), tab.Add("b")
	if a != 1 || b != 2 {
		t.Fatalf("reps = %d, %d; want 1, 2", a, b)
	}
	tab.Remove(a)
	if c := tab.Add("c"); c != a {
		t.Errorf("rep after remove = %d; want reused %d", c, a)
	}
	if got := tab.Get(b); got != "b" {
		t.Errorf("Get(%d) = %q; want b", b, got)
	}
	if tab.Len() != 2 {
		t.Errorf("Len = %d; want 2", tab.Len())
	}
	tests := []struct {
		name string
		rep  uint32
	}{
		{name: "zero", rep: 0},
		{name: "beyond", rep: 9},
		{name: "removed", rep: func() uint32 { r := tab.Add("x"); tab.Remove(r); return r }()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("Get(%d) did not panic", tt.rep)
				}
			}()
			tab.Get(tt.rep)
		})
	}
}

func TestItoa(t *testing.T) {
	for _, v := range []uint32{0, 7, 10, 4294967295} {
		want := map[uint32]string{0: "0", 7: "7", 10: "10", 4294967295: "4294967295"}[v]
		if got := itoa(v); got != want {
			t.Errorf("itoa(%d) = %q; want %q", v, got, want)
		}
	}
}
