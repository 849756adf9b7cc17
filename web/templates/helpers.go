package templates

import (
	"encoding/json"
	"strconv"
)

// csrfHeaders is the hx-headers value that makes htmx send the CSRF token
// with every request it issues.
func csrfHeaders(token string) string {
	b, _ := json.Marshal(map[string]string{"X-CSRF-Token": token})
	return string(b)
}

func itoa(n int) string { return strconv.Itoa(n) }
