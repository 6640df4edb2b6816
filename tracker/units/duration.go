package units

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ParseTimeout reads a timeout as a person types it: a Go duration ("90s",
// "5m") or whole seconds ("90"), greater than zero.
func ParseTimeout(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	d, err := time.ParseDuration(s)
	if n, nerr := strconv.Atoi(s); nerr == nil {
		d, err = time.Duration(n)*time.Second, nil
	}
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%q is not a positive duration (e.g. 30s, 5m)", s)
	}
	return d, nil
}
