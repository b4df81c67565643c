package bytesize

import (
	"errors"
	"math"
	"strconv"
	"strings"
)

// units are the suffixes Parse takes, with their sizes.
var units = []struct {
	suffix string
	n      int64
}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}}

// Parse reads s, a positive whole number followed by KiB, MiB or GiB
// (spaces allowed between them), as a number of bytes. It is safe for
// concurrent use.
func Parse(s string) (int64, error) {
	s = strings.TrimSpace(s)
	for _, u := range units {
		rest, ok := strings.CutSuffix(s, u.suffix)
		if !ok {
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSpace(rest), 10, 64)
		if err != nil || n <= 0 || n > math.MaxInt64/u.n {
			return 0, errors.New("is not a positive whole number of KiB, MiB or GiB")
		}
		return n * u.n, nil
	}
	return 0, errors.New("has no unit: write it as 512KiB, 64MiB or 1GiB")
}

// Format writes b in the largest unit that divides it, as Parse reads it;
// a size below 1 KiB or not a whole number of KiB is written in KiB,
// rounded down.
func Format(b int64) string {
	for i := len(units) - 1; i > 0; i-- {
		if b%units[i].n == 0 && b >= units[i].n {
			return strconv.FormatInt(b/units[i].n, 10) + units[i].suffix
		}
	}
	return strconv.FormatInt(b>>10, 10) + "KiB"
}
